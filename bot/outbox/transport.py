"""What a deliverer needs from a transport (Discord, the terminal, a test's recorder).

A transport sends one message and says how it went: it returns a short outcome ("sent",
"sent as text" when the picture could not go: an outcome ending "as text" says the
message's files did not go), or raises :class:`Retry` for a failure that
may pass (a 5xx, a rate limit, a timeout) or :class:`Refused` for one that will not; a DM
refused because the user accepts none raises :class:`DmsClosed`, an answer whose
interaction expired :class:`Expired`.
"""

from __future__ import annotations

from typing import Protocol

from bot.replies import Message


class DeliveryError(Exception):
    """A message could not be sent."""


class Retry(DeliveryError):
    """Try again later (``after`` seconds, when the other side said)."""

    def __init__(self, reason: str, after: float | None = None) -> None:
        super().__init__(reason)
        self.after = after


class Refused(DeliveryError):
    """It will not go: trying again changes nothing."""


class DmsClosed(Refused):
    """The user accepts no direct messages (Discord's 50007)."""


class Expired(Refused):
    """The command to answer can no longer be answered (an interaction older than 15 min)."""


class Transport(Protocol):
    """Sends messages; ``nonce`` lets a resent message be recognised and not shown twice."""

    async def post(
        self, channel: int, message: Message, nonce: str, reply_to: str | None
    ) -> tuple[str, int | None]:
        """News in a channel or a thread (``reply_to``: the command it follows, for a
        fallback); how it went, and the message's id (None where messages are not kept)."""
        ...

    async def edit(
        self, channel: int, message_id: int, message: Message, added: str, *, kept: bool = False
    ) -> str:
        """``message`` in place of the message ``message_id`` says (``added``: the part that
        is new, for a transport that cannot edit; ``kept``: the message already carries the
        very files ``message`` has, which stay as they are instead of being uploaded again)."""
        ...

    async def unbutton(self, channel: int, message_id: int) -> None:
        """The message's choices leave it (its decision was made)."""
        ...

    def measure(self, message: Message) -> int:
        """How long ``message``'s text is as this transport writes it (its commands in its
        own words, its pings included)."""
        ...

    async def open_thread(self, channel: int, message_id: int, name: str) -> int:
        """A thread opened from the message ``message_id``; its id."""
        ...

    async def close_thread(self, thread: int) -> None:
        """The thread archived (its battle is over)."""
        ...

    async def open_table(
        self,
        guild: int,
        category: str,
        name: str,
        players: tuple[int, ...],
        private_thread: bool,
        parent: int | None,
    ) -> int:
        """A tournament table's own place, and its id: in server ``guild``, a text channel
        ``name`` under the category ``category`` (made if missing) that everyone may read
        and only ``players`` write in; or, with ``private_thread``, a private thread
        ``name`` of the channel ``parent`` whose members are ``players``. Idempotent: the
        channel (thread) of that name already there is returned, its permissions (members)
        set right, so a caller that stopped before keeping the id asks again safely."""
        ...

    async def dm(self, user: int, channel: int, message: Message, nonce: str) -> str:
        """A direct message to ``user`` about the game in ``channel``."""
        ...

    async def answer(self, reply_to: str | None, message: Message | None, user: int | None) -> str:
        """The answer to the command ``reply_to`` given by ``user`` (``message`` None:
        nothing to say, the channel's news shows what was done; a message saying
        :data:`~bot.outbox.writer.RECEIPT`: only that it was done; ``reply_to`` None: the
        command came from where the transport itself speaks, such as the terminal)."""
        ...

    async def tell(self, reply_to: str, message: Message) -> str:
        """A further message only the command's caller sees."""
        ...
