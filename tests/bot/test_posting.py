"""Where a channel's news goes: the live message edited, a new one for a hand-off, a battle's
thread opened at its first news and archived at its end, the channel when a thread is
refused (bot/outbox/posting.py, against a transport that records its calls)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.outbox.codec import Stored
from bot.outbox.posting import BATTLE, GAME, MAX_LIVE, Posted, post
from bot.outbox.transport import Refused
from bot.replies import Battle, BattleStage, Message
from bot.storage.outbox import Place

CHANNEL = 500
ANN = 7


@dataclass
class Calls:
    """A transport recording what it is asked; new messages get ids from 1000 up."""

    made: list[tuple[str, int, object]] = field(default_factory=list)
    refuse_threads: bool = False
    next_id: int = 1000

    async def post(
        self, channel: int, message: Message, nonce: str, reply_to: str | None
    ) -> tuple[str, int | None]:
        self.next_id += 1
        self.made.append(("post", channel, message.text))
        return "sent", self.next_id

    async def edit(self, channel: int, message_id: int, message: Message, added: str) -> str:
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
