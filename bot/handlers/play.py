"""Playing a game command: check, apply, store in one transaction, and tell everyone.

The public message says what happened (public events only), carries the board, and pings
whoever must act next when that is someone else; private messages tell each player what
only they may see, with their legions after a change.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import replace

from bot.context import Context
from bot.legality import legal
from bot.narration.battle_text import battle_picture
from bot.narration.describe import contents_by_seat, own_legions_text, waiting_for
from bot.narration.heading import WAITING, heading
from bot.narration.narrate import Names, narrate, private_events
from bot.offers import FOLLOWS, Offer, Offers, Style, step
from bot.offers.board import current_kind
from bot.offers.model import BACK
from bot.records.proof import reveal_line, scheme_of
from bot.replies import Battle, BattleStage, Message, Picture, PictureKind, Replies
from bot.second_look import cost
from bot.storage import games as rows
from bot.storage.connection import Connection, Store
from bot.storage.record import Game, store_action
from bot.storage.units import UNITS
from bot.syntax import Command, format_action, to_action
from engine.errors import IllegalAction, NotYourTurn, TitanError, WrongPhase
from engine.game import actions as a
from engine.game.apply import apply
from engine.game.events import BattleBegun, Event, GameOver, LegionContents
from engine.game.legal import to_act
from engine.game.state import GameState, Phase, Stage

#: Actions any seated player may send at any time (the engine says when they take effect).
ANYTIME: tuple[type[a.Action], ...] = (a.Withdraw, a.ExpireTimeLimit, a.Reveal)
ANYTIME_VERBS = frozenset({"withdraw", "expire", "reveal"})


def check_turn(game: Game, state: GameState, seat: int, anytime: bool = False) -> None:
    """Raise :class:`NotYourTurn` naming who the game waits for when ``seat`` has no say."""
    if state.result is not None:
        raise WrongPhase("the game is over")
    if anytime:
        return
    waiting, task = waiting_for(state)
    if waiting == seat or waiting is None:
        return
    if any(not isinstance(x, ANYTIME) for x in legal(state, seat)):
        return
    raise NotYourTurn(f"it is not your turn: waiting for {game.name_of(waiting)} to {task}")


def _cause(ctx: Context, game: Game) -> str | None:
    """Why the action was given by someone else than its seat's player, for the log."""
    if ctx.caller.standing_in(game):
        return f"stand-in: {ctx.caller.name}"
    return ctx.caller.cause


class Unconfirmed(IllegalAction):
    """An action that would throw something away, not yet confirmed: nothing is done, and
    the player is asked (:mod:`bot.second_look`)."""

    def __init__(self, text: str, command: str, game: int, version: int, back: str | None):
        super().__init__(text)
        self.command, self.game, self.version, self.back = command, game, version, back

    def replies(self) -> Replies:
        """The question: what would be lost, with *Confirm* and *Go back*."""
        yes = Offer("Confirm", f"{self.command} {CONFIRM}", Style.DANGER)
        no = Offer("Go back", self.back or BACK, Style.QUIET)
        text = f"{self}\nReally? Nothing is done until you confirm."
        return Replies(ephemeral=Message(text, offers=Offers(self.game, self.version, (yes, no))))


ROLLS = (a.Roll, a.Mulligan)
"""The movement roll: the roller is answered with the first step of moving (his legions and,
on his own board, where each may go; RULES §4.1)."""

CONFIRM = "confirm"
"""The last word of a command given after its second look (``done confirm``)."""


def confirmed(request: Command | a.Action) -> tuple[Command | a.Action, bool]:
    """The request without its ``confirm`` word, and whether it is confirmed: a command
    ending with ``confirm``, or an engine action given as such (a program's exact intent,
    such as a test's or a benchmark's; players give commands)."""
    if not isinstance(request, Command):
        return request, True
    if request.words[-1:] and request.words[-1].lower() == CONFIRM:
        return replace(request, words=request.words[:-1]), True
    return request, False


async def play(ctx: Context, game: Game, request: Command | a.Action) -> tuple[Replies, Game]:
    """Apply a command (or an engine action) for the caller and store it.

    Returns the replies and the updated game; raises a :class:`TitanError` (nothing
    stored) when the command is malformed, out of turn or illegal, and
    :class:`Unconfirmed` when it would throw something away and was not confirmed. A
    command chosen in a private step is answered with that decision's next step.
    """
    state = game.playing()
    seat = ctx.caller.seat_in(game)
    if seat is None:
        raise IllegalAction("you are not playing in this game (you may watch: `status`)")
    request, sure = confirmed(request)
    if isinstance(request, Command):
        check_turn(game, state, seat, request.verb in ANYTIME_VERBS)
        action = to_action(request, state, seat)
    else:
        check_turn(game, state, seat, isinstance(request, ANYTIME))
        action = request
    after, events = apply(state, seat, action)  # the rules first: a refusal says why
    lost = None if sure or not _asked(ctx, game, seat) else cost(state, seat, action)
    if lost is not None:
        kind = FOLLOWS.get(type(action)) if ctx.caller.step else None
        back = f"choices {kind}" if kind is not None else None
        raise Unconfirmed(lost, format_action(action), game.id, game.n, back)
    async with _writing(ctx.db) as db:
        try:
            updated = await store_action(
                db, game, seat, action, events, after, ctx.snapshot_every,
                cause=_cause(ctx, game), at=ctx.now(),
            )  # fmt: skip
            updated, host = await hand_over_host(db, updated)
        except TitanError as exc:  # not a refusal: a refusal comes before anything is written
            raise RuntimeError(f"storing the action of game {game.id} failed: {exc}") from exc
    replies = replies_after(updated, state, seat, action, events)
    if ctx.caller.step or (isinstance(action, ROLLS) and _asked(ctx, game, seat)):
        replies = replace(replies, ephemeral=next_step(updated, seat, action))
    if host is not None and replies.public is not None:
        line = f"The host's powers pass to **{updated.name_of(updated.seat_of(host) or 0)}**."
        replies = replace(replies, public=with_news(replies.public, line))
    return replies, updated


def _writing(store: Store) -> AbstractAsyncContextManager[Connection]:
    """Where an action is stored: in a command's unit, on the unit's own connection (no
    savepoint: a failure fails the whole unit, as nothing in it catches one but a refusal,
    :func:`play` raises every refusal before it writes); else in a transaction."""
    if isinstance(store, UNITS):
        return contextlib.nullcontext(store.connection)
    return store.transaction()


def with_news(message: Message, line: str) -> Message:
    """``message`` with one more line of news, before the prompt that ends it."""
    lines = message.text.split("\n")
    at = len(lines) - 1 if lines[-1].startswith(WAITING) else len(lines)
    return replace(message, text="\n".join([*lines[:at], line, *lines[at:]]))


def _asked(ctx: Context, game: Game, seat: int) -> bool:
    """Whether the player gives this action themselves, and so is asked to confirm what
    it throws away (not a computer player, a deadline's answer or an organiser's tool)."""
    caller = ctx.caller
    return caller.cause is None and not caller.on_behalf and not game.is_ai(seat)


def next_step(game: Game, seat: int, action: a.Action) -> Message | None:
    """After an action chosen in a private step, the first step of the same kind again
    while the decision goes on (the next legion to move, split or muster); after the
    movement roll, the first step of moving."""
    kind = "move" if isinstance(action, ROLLS) else FOLLOWS.get(type(action))
    state = game.playing()
    if kind is None or to_act(state) != seat or current_kind(state, seat) != kind:
        return None
    found = step(state, seat, kind)
    if not found.choices:
        return None
    return Message(found.text, found.picture, offers=Offers.of(game.id, game.n, found.choices))


async def hand_over_host(db: Connection, game: Game) -> tuple[Game, int | None]:
    """Pass the host's powers on when their holder left the game (withdrew, was eliminated
    or removed): to the first human still in it. Returns the game and the new host, if any
    (inside the caller's transaction)."""
    successor = game.next_host()
    if successor is None or successor == game.settings.host:
        return game, None
    settings = replace(game.settings, host=successor).to_json()
    await rows.update_game(db, game.id, game.row.status, settings=settings)
    return replace(game, row=replace(game.row, settings=settings)), successor


def replies_after(
    game: Game, before: GameState | None, seat: int | None, action: a.Action | None,
    events: Sequence[Event],
) -> Replies:  # fmt: skip
    """The public announcement and the private messages after an action (or the start)."""
    after = game.playing()
    names = Names(before, after)  # who held a marker when it happened
    public = announce(game, names, seat, events, action, before)
    private: dict[int, Message] = {}
    old, new = contents_by_seat(before), contents_by_seat(after)
    for player in after.players:
        if game.is_ai(player.seat):
            continue  # a computer is sent no private news
        changed = old.get(player.seat) != new.get(player.seat)
        mine = private_events(events, player.seat)
        if changed:
            mine = [e for e in mine if not isinstance(e, LegionContents)]
        lines = narrate(mine, names, player.seat)
        if changed:
            lines.append(own_legions_text(after, player.seat))
        if lines:
            private[game.user_of(player.seat)] = Message("\n".join(lines))
    return Replies(public=public, private=private)


def announce(
    game: Game, names: Names, seat: int | None, events: Sequence[Event], action: a.Action | None,
    before: GameState | None = None,
) -> Message:  # fmt: skip
    """Where the game stands (:func:`~bot.narration.heading.heading`), what happened in
    words (the end reveals the dice's seed and salt, see
    :mod:`bot.records.proof`), the board as it is now, and a ping for the next decision
    when it passed to someone else (the game's start pings every player, and the end of
    the colours says who plays which): an action that leaves the game waiting on the same
    player (a queued withdrawal, anything given out of turn) pings nobody — that player
    was pinged when it became his. AI seats are never pinged (nor sent private news).

    Every action's news carries the picture of the state it leaves (the battleland while
    a battle is fought) and says where a battle's news goes (:class:`Battle`).
    """
    state = game.playing()
    battle = battle_stage(before, state, events)
    head = heading(state, in_battle=battle is not None and battle.stage is BattleStage.DURING)
    lines = told(game, names, events) or [f"{names.seat(seat)} made a private decision."]
    if before is not None and before.phase is Phase.COLOURS and state.phase is not Phase.COLOURS:
        lines.append(colours_line(state))
    waiting, task = waiting_for(state)
    mention: tuple[int, ...] = ()
    if waiting is not None:
        lines.append(f"{WAITING}{game.name_of(waiting)}** to {task}.")
        handed_over = before is None or to_act(before) != waiting
        if waiting != seat and handed_over and not game.is_ai(waiting):
            mention = (game.user_of(waiting),)
    if before is None:  # the game begins: every player is told, in this one message
        others = (s.user for s in game.seats if not game.is_ai(s.seat))
        mention = tuple(dict.fromkeys([*mention, *others]))  # whoever chooses first, first
    picture = board_picture(state, action, events, before)
    text = "\n".join([*([head] if head else []), *lines])
    return Message(text, picture, mention=mention, battle=battle)


def colours_line(state: GameState) -> str:
    """Who plays which colour, once the colours are chosen (in turn order)."""
    playing = sorted((p for p in state.players if p.colour), key=lambda p: -p.tower)
    return "Colours: " + ", ".join(f"{p.name} {p.colour}" for p in playing) + "."


def told(game: Game, names: Names, events: Sequence[Event]) -> list[str]:
    """The public lines of ``events``; the game's end is followed at once by the dice's
    seed and salt (before what the end shows, so that a long message cut short keeps it)."""
    end = next((i for i, e in enumerate(events) if isinstance(e, GameOver)), None)
    row = game.row
    revealed = (
        reveal_line(row.seed, row.salt, scheme_of(row.pledge, row.salt))
        if end is not None
        else None
    )
    if end is None or revealed is None:
        return narrate(events, names)
    return [*narrate(events[: end + 1], names), revealed, *narrate(events[end + 1 :], names)]


def battle_stage(
    before: GameState | None, after: GameState, events: Sequence[Event]
) -> Battle | None:
    """Whether an action begins a battle (the thread's name: its land and legions, public
    from then on, RULES §5.7), is part of one, or ends it."""
    begun = next((e for e in events if isinstance(e, BattleBegun)), None)
    if begun is not None:
        name = f"Battle in {begun.land} ({begun.terrain}): {begun.attacker} v {begun.defender}"
        return Battle(BattleStage.BEGINS, name)
    was = before is not None and _fighting(before)
    if was and _fighting(after):
        return Battle(BattleStage.DURING)
    return Battle(BattleStage.ENDS) if was else None


def _fighting(state: GameState) -> bool:
    engagement = state.engagement
    return engagement is not None and engagement.stage is Stage.BATTLE


def board_picture(
    state: GameState, action: a.Action | None, events: Sequence[Event] = (),
    before: GameState | None = None,
) -> Picture:  # fmt: skip
    """The battleland during a battle (its last maneuver and strike highlighted), else the
    masterboard showing the land acted on; once the game is over, its final card (drawn
    from the whole log when the news is sent: :mod:`bot.records.course`)."""
    if state.result is not None:
        return Picture(PictureKind.FINAL, state)
    battle = battle_picture(state, events, before)
    if battle is not None:
        return battle
    land = getattr(action, "land", None)
    return Picture(PictureKind.MASTERBOARD, state, land=land if isinstance(land, int) else None)
