"""Where a channel's news goes: the live message edited, a new one for a hand-off, a battle's
thread opened at its first news and archived at its end, the channel when a thread is
refused (bot/outbox/posting.py, against a transport that records its calls)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from bot.narration.heading import BATTLE_ENDS
from bot.outbox.codec import Stored
from bot.outbox.posting import BATTLE, GAME, MAX_LIVE, Posted, carried, post
from bot.outbox.transport import Refused
from bot.replies import Attachment, Battle, BattleStage, Message, Picture, PictureKind
from bot.storage.outbox import Place
from engine.game.setup import new_game

CHANNEL = 500
ANN = 7


@dataclass
class Calls:
    """A transport recording what it is asked; new messages get ids from 1000 up."""

    made: list[tuple[str, int, object]] = field(default_factory=list)
    refuse_threads: bool = False
    next_id: int = 1000
    keeps_messages: bool = True
    """False: a transport that cannot edit what it sent (the terminal prints each post)."""

    async def post(
        self, channel: int, message: Message, nonce: str, reply_to: str | None
    ) -> tuple[str, int | None]:
        self.next_id += 1
        self.made.append(("post", channel, message.text))
        return "sent", self.next_id if self.keeps_messages else None

    async def edit(
        self, channel: int, message_id: int, message: Message, added: str, *, kept: bool = False
    ) -> str:
        self.made.append(("edit", channel, (message_id, message.text)))
        return "edited"

    def measure(self, message: Message) -> int:
        return len(message.text)

    async def unbutton(self, channel: int, message_id: int) -> None:
        self.made.append(("unbutton", channel, message_id))

    async def open_thread(self, channel: int, message_id: int, name: str) -> int:
        if self.refuse_threads:
            raise Refused("the bot lacks create public threads here")
        self.made.append(("open", channel, (message_id, name)))
        return message_id

    async def close_thread(self, thread: int) -> None:
        self.made.append(("close", thread, None))

    async def open_table(
        self,
        guild: int,
        category: str,
        name: str,
        players: tuple[int, ...],
        private_thread: bool,
        parent: int | None,
    ) -> int:
        return 2000


class Channel:
    """One channel's places, kept as the deliverer stores them."""

    def __init__(self, calls: Calls) -> None:
        self.calls = calls
        self.places: dict[str, Place | None] = {}

    async def say(
        self,
        text: str,
        lane: str = GAME,
        stage: Battle | None = None,
        ping: bool = False,
        progress: str | None = None,
    ) -> Posted:
        message = Message(text, mention=(ANN,) if ping else (), battle=stage, progress=progress)
        posted = await post(
            self.calls, dict(self.places), CHANNEL, lane, [Stored(message)], message, "n", None
        )
        for lane_name, found in posted.places.items():
            if found is None:
                self.places.pop(lane_name, None)
            else:
                self.places[lane_name] = found
        return posted

    def kinds(self) -> list[str]:
        return [kind for kind, _, _ in self.calls.made]


BEGINS = Battle(BattleStage.BEGINS, "Battle in 116 (Brush): Gd03 v Gr03")
DURING = Battle(BattleStage.DURING)
ENDS = Battle(BattleStage.ENDS)


async def test_a_players_run_grows_one_message_and_a_hand_off_posts_a_new_one():
    here = Channel(Calls())
    await here.say("Ann splits", ping=True)
    await here.say("Ann rolls 4")
    await here.say("Ann moves")
    assert here.kinds() == ["post", "edit", "edit"]
    assert here.calls.made[-1][2] == (1001, "Ann splits\nAnn rolls 4\nAnn moves")
    await here.say("Bob's turn", ping=True)
    assert here.kinds()[-2:] == ["post", "unbutton"]  # the old decision loses its buttons
    assert here.calls.made[-1] == ("unbutton", CHANNEL, 1001)
    assert here.places[GAME] == Place(CHANNEL, 1002, "Bob's turn")


async def test_a_message_grown_too_long_is_followed_by_a_new_one():
    here = Channel(Calls())
    await here.say("x" * (MAX_LIVE - 10))
    await here.say("a line too many for one message")
    assert here.kinds() == ["post", "post", "unbutton"]


async def test_a_report_takes_the_place_of_its_earlier_line_and_says_nothing_twice():
    here = Channel(Calls())
    head = "Heat 1:"
    await here.say("Heat 1 of Spring: 10 tables, opening now.", ping=True)
    await here.say(f"{head} 0 of 10 tables open…", progress=head)
    await here.say(f"{head} 7 of 10 tables open…", progress=head)
    await here.say(f"{head} 7 of 10 tables open…", progress=head)  # no news: no edit
    await here.say(f"{head} all 10 tables are open: #a #b", progress=head)
    assert here.kinds() == ["post", "edit", "edit", "edit"]
    assert [text for _, _, (_, text) in here.calls.made[1:]] == [  # type: ignore[misc]
        f"Heat 1 of Spring: 10 tables, opening now.\n{head} {said}"
        for said in (
            "0 of 10 tables open…",
            "7 of 10 tables open…",
            "all 10 tables are open: #a #b",
        )
    ]


async def test_a_report_where_nothing_can_be_edited_is_posted_whole():
    here = Channel(Calls(keeps_messages=False))
    head = "Heat 1:"
    await here.say("Heat 1 of Spring: 2 tables, opening now.", ping=True)
    await here.say(f"{head} 0 of 2 tables open…", progress=head)
    await here.say(f"{head} all 2 tables are open: #a #b", progress=head)
    assert [text for _, _, text in here.calls.made] == [
        "Heat 1 of Spring: 2 tables, opening now.",
        f"{head} 0 of 2 tables open…",
        f"{head} all 2 tables are open: #a #b",
    ]  # (the last was posted empty: its line was replaced in a message never kept)


async def test_a_battle_opens_its_thread_at_its_first_news_and_archives_it_at_its_end():
    here = Channel(Calls())
    await here.say("Ann moves")
    await here.say("Battle in 116", stage=BEGINS)
    assert here.kinds() == ["post", "post", "unbutton"]  # a new message, without a thread yet
    assert here.places[BATTLE] == Place(1002, unopened=BEGINS.name)
    await here.say("Gr03 moves", BATTLE, DURING)
    assert here.kinds()[3:] == ["unbutton", "open", "post"]
    assert here.calls.made[4] == ("open", CHANNEL, (1002, BEGINS.name))
    assert here.calls.made[5][1] == 1002  # the news in the thread
    await here.say("Gr03 strikes", BATTLE, DURING)
    assert here.calls.made[-1] == ("edit", 1002, (1003, "Gr03 moves\nGr03 strikes"))
    await here.say("Gd03 wins the battle", stage=ENDS)
    assert here.kinds()[-3:] == ["edit", "unbutton", "close"]
    assert here.calls.made[-3][1] == CHANNEL  # the result: told in the channel
    assert BATTLE not in here.places


async def test_a_battle_thread_ends_with_the_last_blows_and_the_battle_s_end_not_a_prompt():
    here = Channel(Calls())
    await here.say("Battle in 116", stage=BEGINS)
    await here.say("### Battle in 116\nGr03 moves\nWaiting for **Ann** to strike", BATTLE, DURING)
    ended = (
        "### Turn 3 · Ann\nGd03's Angel strikes Gr03's Ogre: 2 hits, Ogre slain.\n"
        f"{BATTLE_ENDS}3 (legion wiped out): Gd03 (the attacker) wins.\n"
        "Ann scores 12 points.\nWaiting for **Ann** to muster"
    )
    await here.say(ended, stage=ENDS, ping=True)
    assert here.kinds()[-4:] == ["post", "unbutton", "edit", "close"]
    assert here.calls.made[-4][1] == CHANNEL  # the whole news: in the channel
    kind, thread, (message, text) = here.calls.made[-2]  # type: ignore[misc]
    assert (kind, thread, message) == ("edit", 1001, 1002)
    assert text == (
        "### Battle in 116\nGr03 moves\nGd03's Angel strikes Gr03's Ogre: 2 hits, Ogre slain.\n"
        f"{BATTLE_ENDS}3 (legion wiped out): Gd03 (the attacker) wins."
    )  # what came after the battle and the prompts stay in the channel
    assert BATTLE not in here.places


class RefusedEdits(Calls):
    """A transport that refuses edits (the thread's message was deleted)."""

    async def edit(
        self, channel: int, message_id: int, message: Message, added: str, *, kept: bool = False
    ) -> str:
        raise Refused("the message to edit is gone")


async def test_a_battle_thread_whose_last_words_cannot_be_written_is_archived_still():
    here = Channel(RefusedEdits())
    await here.say("Battle in 116", stage=BEGINS)
    await here.say("Gr03 moves", BATTLE, DURING)
    await here.say(f"{BATTLE_ENDS}3 (legion wiped out): Gd03 wins.", stage=ENDS, ping=True)
    assert here.kinds()[-4:] == ["post", "unbutton", "unbutton", "close"]
    assert here.calls.made[-1] == ("close", 1001, None)


async def test_a_battle_settled_before_anyone_enters_leaves_no_thread():
    here = Channel(Calls())
    await here.say("Battle in 116", stage=BEGINS)
    await here.say("Gr03 concedes", stage=ENDS)
    assert "open" not in here.kinds() and "close" not in here.kinds()
    assert BATTLE not in here.places


async def test_a_battle_is_told_in_the_channel_when_its_thread_is_refused():
    here = Channel(Calls(refuse_threads=True))
    await here.say("Battle in 116", stage=BEGINS)
    await here.say("Gr03 moves", BATTLE, DURING)
    await here.say("Gr03 strikes", BATTLE, DURING)
    assert here.kinds() == ["post", "unbutton", "edit", "edit"]
    assert {channel for kind, channel, _ in here.calls.made if kind == "edit"} == {CHANNEL}
    assert BATTLE not in here.places
    await here.say("Gd03 wins the battle", stage=ENDS)
    assert "close" not in here.kinds()


class Pictures(Calls):
    """A transport recording whether each edit kept the files; ``as_text`` edits and posts
    say the files did not go."""

    def __init__(self) -> None:
        super().__init__()
        self.kept: list[bool] = []
        self.as_text = False

    async def post(
        self, channel: int, message: Message, nonce: str, reply_to: str | None
    ) -> tuple[str, int | None]:
        outcome, number = await super().post(channel, message, nonce, reply_to)
        return ("sent as text" if self.as_text else outcome), number

    async def edit(
        self, channel: int, message_id: int, message: Message, added: str, *, kept: bool = False
    ) -> str:
        await super().edit(channel, message_id, message, added)
        self.kept.append(kept)
        return "edited as text" if self.as_text else "edited"


def board(image: bytes, text: str = "Ann moves", ping: bool = False) -> Message:
    state, _ = new_game(("Ann", "Bob"), seed=1)
    picture = Picture(PictureKind.MASTERBOARD, state)
    return Message(text, picture=picture, image=image, mention=(ANN,) if ping else ())


async def said(calls: Calls, places: dict[str, Place | None], message: Message) -> None:
    posted = await post(calls, dict(places), CHANNEL, GAME, [Stored(message)], message, "n", None)
    places.update(posted.places)


async def test_an_edit_saying_the_same_picture_again_keeps_it_instead_of_uploading():
    calls, places = Pictures(), dict[str, Place | None]()
    await said(calls, places, board(b"one", ping=True))
    assert places[GAME] is not None and places[GAME].files == carried(board(b"one"))
    await said(calls, places, board(b"one", "Ann recruits"))
    await said(calls, places, board(b"two", "Ann moves again"))
    await said(calls, places, board(b"two", "Ann is done"))
    assert calls.kept == [True, False, True]
    await said(calls, places, Message("Ann says nothing new"))  # no picture: none kept
    await said(calls, places, board(b"two", "Ann draws again"))
    assert calls.kept[-2:] == [False, False]


async def test_a_picture_that_did_not_go_is_uploaded_at_the_next_edit():
    calls, places = Pictures(), dict[str, Place | None]()
    calls.as_text = True  # the bot may not attach files here
    await said(calls, places, board(b"one", ping=True))
    assert places[GAME] is not None and places[GAME].files is None
    await said(calls, places, board(b"one", "Ann recruits"))
    calls.as_text = False  # allowed again
    await said(calls, places, board(b"one", "Ann moves"))
    await said(calls, places, board(b"one", "Ann is done"))
    assert calls.kept == [False, False, True]


def test_the_files_digest_tells_pictures_names_and_attachments_apart():
    one = board(b"one")
    assert carried(one) == carried(board(b"one", "other words"))
    assert carried(one) != carried(board(b"two"))
    assert carried(Message("text only")) is None
    export = replace(one, attachments=(Attachment("game.json", b"{}"),))
    assert carried(export) not in (None, carried(one))
    renamed = replace(export, attachments=(Attachment("game2.json", b"{}"),))
    assert carried(renamed) != carried(export)
