"""The local game: several players at one terminal, through the same service and database.

Each line is a command as typed on Discord, said by a player: ``Ann: move Bk01 104``, or
after ``as Bob`` every line is Bob's. Without either, the line is said by the player the
game waits for. AI seats (``--ai``) play by themselves whenever the game waits for them.
Pictures go to files when an output folder and a renderer are available (the standings'
and the ratings' pictures when an output folder is); a file sent with a message (an
organiser's ``export``) is written into the output folder, or into the current folder
without one.
End of input (Ctrl-D, or a closed pipe) leaves cleanly; the game stays in the database.
Any bytes may come in (``titanbot`` reads undecodable ones as replacement characters);
control characters going out to the terminal are written as escapes.
"""

from __future__ import annotations

import asyncio
import re
import shlex
import sys
import unicodedata
import zlib
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from bot.context import Caller, Place
from bot.dialect import TERMINAL
from bot.narration.describe import waiting_for
from bot.narration.heading import HEAD
from bot.offers import Offers
from bot.replies import Attachment, Message, Replies
from bot.service import GameService
from bot.storage.backends import Target
from bot.syntax.words import MIN_SNOWFLAKE, tokens
from engine.errors import TitanError

LOCAL_CHANNEL = 1
"""The channel id of the local game."""
TABLES = 1000
"""The channel id of the first tournament table opened at the terminal."""
NO_PICTURES = (
    "Pictures (the board after each action, `board`) are kept with `titanbot local --out DIR`."
)
"""Said at the start when pictures are not kept (a terminal cannot show them)."""
LOCAL_USERS = MIN_SNOWFLAKE
"""The first local user id: local ids are plausible Discord ids (``add <@id>`` takes
them) from the first seconds of Discord's epoch, which no real account has."""
_SPEAKER = re.compile(r"^\s*([^:\s][^:]{0,31}):\s*(.*)$")
_AS = re.compile(r"^\s*as\s+(.+?)\s*$", re.IGNORECASE)
_MENTIONED = re.compile(r"<@!?(\d+)>")
_CHANNEL = re.compile(r"<#(\d+)>")


def local_user(name: str) -> int:
    """A stable user id for a local player name (any case, any characters)."""
    return LOCAL_USERS + zlib.crc32(name.casefold().encode("utf-8", "surrogatepass"))


def channel_name(channel: int) -> str:
    """How the terminal names a channel (a Discord channel link, ``<#ID>``, in a text)."""
    return "this terminal" if channel == LOCAL_CHANNEL else f"channel {channel}"


def visible(text: str) -> str:
    """``text`` for the terminal: control characters (but line breaks and tabs) as escapes."""
    return "".join(
        c if c in "\n\t" or unicodedata.category(c) != "Cc" else repr(c)[1:-1] for c in text
    )


_HEADING = re.compile(rf"^{re.escape(HEAD)}(.*)$", re.MULTILINE)
"""Where the game stands (a heading on Discord), as the terminal writes it."""


def choice_lines(offers: Offers) -> str:
    """A private step's choices as the commands to type, one a line."""
    lines = [f"  `{o.command}` — {o.label}" for o in offers.items]
    for menu in offers.menus:
        if menu.prefix is None:
            lines += [f"  `{o.command}` — {o.label}" for o in menu.options]
        else:
            names = ", ".join(o.label for o in menu.options)
            count = str(menu.least) if menu.least == menu.most else f"{menu.least} to {menu.most}"
            lines.append(f"  `{menu.prefix} …` — {count} of {names}")
    return TERMINAL.render("\n".join(lines))


class Console:
    """Reads lines, runs them as the right player, prints the replies."""

    def __init__(
        self,
        service: GameService,
        out: Path | None = None,
        write: Callable[[str], None] = print,
    ) -> None:
        self.service = service
        self.out = out
        self._write = write
        self.place = Place(LOCAL_CHANNEL)
        self.speaker: str | None = None
        self._names: dict[int, str] = {}
        self._pictures = 0
        self._held: list[tuple[int | None, Message]] = []
        self.channels: dict[int, str] = {}
        """How the news of a channel other than the game's is headed (by number)."""

    def write(self, text: str) -> None:
        """Print ``text`` (control characters escaped)."""
        self._write(visible(text))

    def know(self, user: int, name: str) -> None:
        """Name ``user`` by ``name`` in what is printed (a ping, a mention)."""
        self._names[user] = name

    def hold(self, user: int | None, answer: Message) -> None:
        """Keep a command's answer to ``user`` until the news of its change is printed:
        the terminal reads as the news, then the choices it leaves (on Discord the answer
        goes first, as an interaction must be answered at once)."""
        self._held.append((user, answer))

    def release(self) -> None:
        """Print the answers held (their pictures saved now, after the news's)."""
        held, self._held = self._held, []
        for user, answer in held:
            self.write(f"[to {self.name(user)}] " + self.text(answer))
            if answer.offers is not None:
                self.write(choice_lines(answer.offers))

    async def setup(self, players: Sequence[str], ai: Sequence[str] = ()) -> None:
        """Resume the open local game, or open and start one for ``players`` (typing at
        this terminal) and the AI seats ``ai``; the first player is the host."""
        game = await self.service.game_in(LOCAL_CHANNEL)
        if game is not None:
            self.write(f"Resuming game #{game.id}.")
            seated = [s.name for s in game.seats]
            wanted = [*players, *ai]
            if wanted and [p.casefold() for p in wanted] != [s.casefold() for s in seated]:
                flags = "--players and --ai" if ai else "--players"
                self.write(
                    f"({flags} ignored: this game's seats are {', '.join(seated)}; "
                    "`cancel` it to start another)"
                )
            await self._remember_names()  # before what the outbox still holds is printed
            await self.say(await self._resumer(), "status")
            await self.connect()
            await self.tell("titanbot", await self.service.advance(self.place))  # AIs left waiting
            return
        if not players:
            self.write(
                "No game yet: type `Ann: new`, then `Bob: join` (or `addai Hal` for a "
                "computer player), then `start`."
            )
            if ai:
                self.write("(--ai needs at least one of --players; `titanbot demo` plays AIs only)")
            return
        if len(players) + len(ai) < 2:
            self.write("A local game needs at least two seats: more --players, or --ai.")
            return
        await self.say(players[0], f"new players {len(players) + len(ai)}")
        for name in players[1:]:
            await self.say(name, f"join {name}")
        for name in ai:
            await self.say(players[0], f"addai {name}")
        await self.say(players[0], "start")

    async def run(self, read: Callable[[], str]) -> None:
        """Run lines from ``read`` (``""`` means end of input) until it ends."""
        self.write("Type commands (`help` lists them); `Name: command` speaks as Name.")
        if self.out is None:
            self.write(NO_PICTURES)
        while True:
            line = await asyncio.to_thread(read)
            if not line:
                return
            await self.handle(line)

    async def handle(self, line: str) -> None:
        """One input line: a speaker switch, a prefixed command, or a command."""
        text = line.strip()
        if not text or text.startswith("#"):
            return
        if (switch := _AS.match(text)) is not None:
            self.speaker = switch.group(1)
            self.write(f"(now speaking as {self.speaker})")
            return
        speaker = None
        if (prefixed := _SPEAKER.match(text)) is not None:
            speaker, text = prefixed.group(1).strip(), prefixed.group(2)
        await self.say(speaker or self.speaker or await self._waited_for(), text)

    async def say(self, name: str | None, text: str) -> None:
        if name is None:
            self.write("Who is speaking? Start the line with `Name:` (or type `as Name`).")
            return
        user = await self._user_of(name)
        self._names[user] = name
        text = self._local_add(text)
        await self.connect()
        replies = await self.service.submit(self.place, Caller(user, name, organiser=True), text)
        await self._remember_names()
        await self.tell(name, replies)

    async def connect(self) -> None:
        """Be the outbox's deliverer: what a stored change tells is printed from there."""
        if self.service.deliverer is None:
            await self.service.deliver_with(ConsoleTransport(self))
        await self.service.keep_time()  # the AI seats left waiting play, what fell due acts
        if self.service.deliverer is not None:
            await self.service.deliverer.idle()
        self.release()

    async def tell(self, speaker: str, replies: Replies) -> None:
        """Print what a command says, once the AI seats it set off are done (the game waits
        for a person or is over): a stored change through the outbox, as its deliverer
        prints it; anything else (a refusal, information) after what the outbox held."""
        deliverer = self.service.deliverer
        if deliverer is not None:  # (the AI seats may be playing since before the command)
            await self.service.ai.idle([self.place.channel])
            await deliverer.idle()
        self.release()
        if not replies.stored or deliverer is None:
            await self.show(speaker, replies)

    def _local_add(self, text: str) -> str:
        """``add NAME`` seats the local player NAME: the service is given NAME's local id."""
        try:
            words = tokens(text)
        except TitanError:
            return text  # the service says what is wrong with it
        if len(words) < 2 or words[0].lower() != "add" or words[1].startswith("<@"):
            return text
        name = " ".join(words[1:])
        user = local_user(name)
        self._names[user] = name
        return f"add <@{user}> " + " ".join(shlex.quote(word) for word in words[1:])

    async def _user_of(self, name: str) -> int:
        """The user of the human seat called ``name`` (any case), else ``name``'s local id
        (a seat taken under another name, or by an earlier version, keeps its player)."""
        game = await self.service.game_in(LOCAL_CHANNEL)
        seats = game.seats if game is not None else []
        folded = name.casefold()
        seated = (s.user for s in seats if not s.is_ai and s.name.casefold() == folded)
        return next(seated, local_user(name))

    async def _waited_for(self) -> str | None:
        """Who a line without a speaker speaks for: the player the game waits for; in a
        lobby, its host (adding computers and starting are the host's)."""
        game = await self.service.game_in(LOCAL_CHANNEL)
        if game is None:
            return None
        if game.state is None:
            host = game.seat_of(game.settings.host)
            return game.name_of(host) if host is not None else None
        seat, _ = waiting_for(game.state)
        return game.name_of(seat) if seat is not None else None

    async def _resumer(self) -> str | None:
        """Who sees the status when a game resumes: the player it waits for, else the
        first player typing at this terminal (None in a game of AIs alone)."""
        waited = await self._waited_for()
        game = await self.service.game_in(LOCAL_CHANNEL)
        people = [s.name for s in game.seats if not s.is_ai] if game is not None else []
        return waited if waited in people else next(iter(people), None)

    async def _remember_names(self) -> None:
        game = await self.service.game_in(LOCAL_CHANNEL)
        if game is not None:
            self._names |= {s.user: s.name for s in game.seats}

    def name(self, user: int | None) -> str:
        """How the terminal names a user."""
        return self._names.get(user, str(user)) if user is not None else "nobody"

    async def show(self, speaker: str, replies: Replies) -> None:
        """Print the replies: public text, each private message, the caller's answer (their
        pictures drawn first when pictures are saved)."""
        paint = self.out is not None
        public = await self.service.paint(replies.public, LOCAL_CHANNEL) if paint else None
        if replies.public is not None:
            self.write(self._text(public or replies.public))
        for user, message in replies.private.items():
            self.write(f"[to {self._names.get(user, user)}] " + self._text(message))
        if replies.ephemeral is not None:
            label = "refused" if replies.error else f"to {speaker}"
            answer = await self.service.paint(replies.ephemeral) if paint else None
            self.write(f"[{label}] " + self._text(answer or replies.ephemeral))
            if replies.ephemeral.offers is not None:
                self.write(choice_lines(replies.ephemeral.offers))

    def text(self, message: Message) -> str:
        """``message`` as the terminal shows it (pictures and files saved first)."""
        return self._text(message)

    def _text(self, message: Message) -> str:
        text = TERMINAL.render(message.text)  # command hints in the terminal's words
        text = _HEADING.sub(lambda m: f"── {m[1]} ──", text)
        text = _MENTIONED.sub(lambda m: "@" + self._names.get(int(m[1]), m[1]), text)
        text = _CHANNEL.sub(lambda m: self._channel(int(m[1])), text)
        if message.mention:
            pings = " ".join(f"@{self._names.get(u, u)}" for u in message.mention)
            text = f"{pings} {text}"
        if message.image is not None and self.out is not None:
            text += f"\n[picture: {self._save(message)}]"
        for attachment in message.attachments:
            text += "\n" + self._file_line(attachment)
        return text

    def _channel(self, channel: int) -> str:
        """A channel named in a text: ``[heat 1, table 2]`` once known, else by number."""
        named = self.channels.get(channel)
        return f"[{named}]" if named is not None else channel_name(channel)

    def _file_line(self, attachment: Attachment) -> str:
        """Where the message's file went: a picture (standings, ratings) is saved only with
        an output folder, as pictures are; any other file (an export) always."""
        if attachment.filename.endswith(".png"):
            if self.out is None:
                return f"[picture {attachment.filename}: not saved, start with --out DIR]"
            return f"[picture: {self._save_file(attachment)}]"
        return f"[file: {self._save_file(attachment)}]"

    def _save_file(self, attachment: Attachment) -> Path:
        folder = self.out if self.out is not None else Path()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / attachment.filename
        path.write_bytes(attachment.data)
        return path

    def _save(self, message: Message) -> Path:
        assert self.out is not None and message.image is not None and message.picture
        self.out.mkdir(parents=True, exist_ok=True)
        while True:
            self._pictures += 1
            path = self.out / f"{self._pictures:04d}-{message.picture.filename}"
            if not path.exists():
                break
        path.write_bytes(message.image)
        return path


class ConsoleTransport:
    """The terminal as the outbox's transport: everything is printed, in order."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self._tables: dict[tuple[int, str, str, bool, int | None], int] = {}
        self._last: int | None = None
        """The channel of the news printed last."""

    async def _from(self, channel: int) -> None:
        """Say where the news comes from when another channel spoke last: a tournament's
        desk and tables speak into one terminal (a local game has one channel)."""
        if self._last is not None and channel != self._last:
            self.console.write(f"[{await self._where(channel)}]")
        self._last = channel

    async def _where(self, channel: int) -> str:
        """A channel's name in the terminal: one named by the console, a tournament's
        table by its heat and number (kept once known: a table's game closes at its end)."""
        named = self.console.channels.get(channel)
        if named is None:
            game = await self.console.service.game_in(channel)
            table = game.settings.table if game is not None else None
            if table is None:
                return channel_name(channel)
            named = self.console.channels[channel] = f"heat {table.heat}, table {table.number}"
        return named

    async def post(
        self, channel: int, message: Message, nonce: str, reply_to: str | None
    ) -> tuple[str, int | None]:
        await self._from(channel)
        self.console.write(self.console.text(message))
        self.console.release()
        return "printed", None  # a printed line is never edited: each post is new

    async def edit(
        self, channel: int, message_id: int, message: Message, added: str, *, kept: bool = False
    ) -> str:
        shown = self.console.text(replace(message, text=added))
        if shown.strip():  # (an edit that only updates what was printed adds nothing)
            await self._from(channel)
            self.console.write(shown)
        self.console.release()
        return "printed"

    def measure(self, message: Message) -> int:
        return len(message.text)

    async def unbutton(self, channel: int, message_id: int) -> None:
        return None

    async def open_thread(self, channel: int, message_id: int, name: str) -> int:
        self.console.write(f"— {name} —")
        return channel

    async def close_thread(self, thread: int) -> None:
        return None

    async def open_table(
        self,
        guild: int,
        category: str,
        name: str,
        players: tuple[int, ...],
        private_thread: bool,
        parent: int | None,
    ) -> int:
        """A new channel number for the table (the same one when asked again), and a line
        saying who plays there."""
        key = (guild, category, name, private_thread, parent if private_thread else None)
        if key in self._tables:
            return self._tables[key]
        number = self._tables[key] = TABLES + len(self._tables)
        who = ", ".join(self.console.name(p) for p in players) or "nobody"
        self.console.channels[number] = name if private_thread else f"#{name}"
        if private_thread:
            self.console.write(
                f"— table thread {name} opened in {channel_name(parent or 0)} for {who} —"
            )
        else:
            self.console.write(f"— table channel #{name} opened in {category} for {who} —")
        return number

    async def dm(self, user: int, channel: int, message: Message, nonce: str) -> str:
        self.console.write(f"[to {self.console.name(user)}] " + self.console.text(message))
        return "printed"

    async def answer(self, reply_to: str | None, message: Message | None, user: int | None) -> str:
        if message is not None:
            self.console.hold(user, message)
        return "printed"

    async def tell(self, reply_to: str, message: Message) -> str:
        self.console.write(self.console.text(message))
        return "printed"


async def play_locally(
    db: Target,
    players: Sequence[str],
    *,
    ai: Sequence[str] = (),
    seed: int | None = None,
    out: Path | None = None,
    read: Callable[[], str] = sys.stdin.readline,
) -> None:
    """The whole local session: open the database, set up or resume, run the lines."""
    from bot.pictures import default_renderer
    from bot.records.proof import random_seed

    renderer = default_renderer() if out is not None else None
    seeds = (lambda: seed) if seed is not None else random_seed
    service = await GameService.open(db, renderer=renderer, seeds=seeds)
    try:
        console = Console(service, out)
        if out is not None and renderer is None:
            console.write("(no renderer is available yet: pictures are not drawn)")
        await console.setup(players, ai)
        await console.run(read)
    finally:
        await service.close()
