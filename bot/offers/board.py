"""The choices a public message carries: the board of the decision the game waits for.

A public message (the channel's news) carries :func:`public_offers`: the decisions of the
player the game waits for whose existence and wording follow from what everyone may know
(RULES §1.7) — colours, the roll, ``done``, engagements to choose, every battle decision
(a battle is public, §5.7: its characters and strikes are menus on the board) — plus an
*ask* (``Split…``, ``Move…``, ``Muster…``, ``Negotiate…``, ``Summon…``) for decisions
whose options depend on a hidden legion: which characters split off, which legion may
teleport (a lord, the Titan), which recruit and which recruiters to reveal, which donor,
whether a lordless defender may flee. An ask is offered by public criteria only (the
phase, the step the game waits on, the heights), never because a hidden legion makes an
option legal, so even its presence tells nothing. Clicking it runs ``choices KIND``, whose
answer (:mod:`bot.offers.steps`) reaches the clicker alone.
"""

from __future__ import annotations

from bot.legality import legal
from bot.offers import battle_steps, deal_steps, turn_steps  # noqa: F401  (register the kinds)
from bot.offers.battle_steps import maneuver_menus, strike_menus
from bot.offers.labels import offer
from bot.offers.model import Choices, Menu, Offer, Style, laid_out, rows
from bot.offers.steps import KINDS, next_step
from engine.battle.state import BattleStep
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.battle_flow import battle_of
from engine.game.legal import to_act
from engine.game.state import Engagement, GameState, Phase, Stage
from engine.muster import FULL_HEIGHT
from engine.split import split_sizes

#: Decisions whose legality and words follow from public facts alone (RULES §1.7, §5.7).
PUBLIC: tuple[type[a.Action], ...] = (
    a.ChooseColour,
    a.Roll,
    a.Mulligan,
    a.EndMovement,
    a.Engage,
    a.EndTurn,
    a.Decline,
    a.Concede,
    b.Strike,
    b.Rangestrike,
    b.CarryOver,
    b.Maneuver,
    b.TakeBackManeuver,
    b.EndManeuver,
    b.EndStrikes,
    b.ConcedeInstead,
    b.AcceptConcession,
)
#: Choices given only as commands: leaving the game, the time limit, showing a legion.
NOT_OFFERED: tuple[type[a.Action], ...] = (a.Withdraw, a.ExpireTimeLimit, a.Reveal)


def ask(kind: str) -> Offer:
    """The button opening the private steps of ``kind``."""
    return Offer(KINDS[kind].label, next_step(kind))


def public_offers(state: GameState) -> Choices:
    """The choices a public message may carry for the decision the game waits for."""
    seat = to_act(state)
    if seat is None:
        return Choices()
    actions = [x for x in legal(state, seat) if isinstance(x, PUBLIC)]
    if state.phase is Phase.ENGAGE and state.engagement is not None:
        return _engagement(state, actions)
    asks = [ask(k) for k in _asks(state, seat)]
    direct = [offer(x, state) for x in actions if not (isinstance(x, a.EndMovement) and x.keep)]
    return laid_out([*asks, *direct], "Choose…")


def _asks(state: GameState, seat: int) -> list[str]:
    """The private steps of the masterboard due now, from public facts only (the phase,
    the heights, the markers in use)."""
    if seat != state.active:
        return []
    if state.phase is Phase.SPLIT and _may_split(state, seat):
        return ["split"]
    if state.phase is Phase.MOVE:
        return ["move"]
    if state.phase is Phase.MUSTER:
        turn = state.turn
        if any(
            leg.marker in turn.moved and leg.marker not in turn.mustered
            and leg.height < FULL_HEIGHT
            for leg in state.legions_of(seat)
        ):  # fmt: skip
            return ["muster"]
    return []


def _may_split(state: GameState, seat: int) -> bool:
    """Whether a split (or putting one back) may be open: a legion tall enough and a free
    marker, or a split made this turn (RULES §3; heights and markers are public)."""
    if state.turn.split_parents:
        return True
    if not state.free_markers(seat):
        return False
    first = state.turn.first_turn
    return any(split_sizes(leg.height, first) for leg in state.legions_of(seat))


def _engagement(state: GameState, actions: list[a.Action]) -> Choices:
    engagement = state.engagement
    assert engagement is not None
    if engagement.stage is Stage.NEGOTIATE:
        return Choices((ask("negotiate"),))
    if engagement.stage is Stage.AFTERMATH:
        return Choices((Offer(_aftermath_label(engagement), next_step("aftermath")),))
    return _battle(state, actions)


#: The button of the winner's one step after an engagement, known from public facts (who
#: won, and how): a summon (RULES §7.2), a reinforcement (§6.6) or an acquisition (§7.1).
_AFTERMATH = {
    "summon": "Summon a lord…",
    "reinforce": "Take a reinforcement…",
    "acquire": "Take a lord…",
}


def _aftermath_label(engagement: Engagement) -> str:
    step = engagement.aftermath.step if engagement.aftermath is not None else "acquire"
    return _AFTERMATH[step]


def _battle(state: GameState, actions: list[a.Action]) -> Choices:
    """A battle's board: its characters and strikes as menus, the rest as buttons; a
    summon or a reinforcement asked in private (the donors' and the defender's contents)."""
    battle = battle_of(state)
    if battle is None:
        return Choices()
    menus: tuple[Menu, ...] = ()
    buttons: list[Offer] = []
    if battle.concession is None and battle.carry is None:
        if battle.step is BattleStep.SUMMON:
            buttons.append(ask("summon"))
        elif battle.step is BattleStep.REINFORCE:
            buttons.append(ask("reinforce"))
        elif battle.step is BattleStep.MANEUVER:
            menus = maneuver_menus(state, actions)
        elif battle.step in (BattleStep.STRIKE, BattleStep.COUNTERSTRIKE):
            menus = strike_menus(state, actions)
    in_menus = (b.Maneuver, b.TakeBackManeuver, b.Strike, b.Rangestrike)
    buttons += [offer(x, state) for x in actions if not isinstance(x, in_menus)]
    spare = 5 - len(menus)
    placed = laid_out(buttons, "Choose…", spare_rows=spare)
    choices = Choices(placed.buttons, (*menus, *placed.menus))
    assert rows(choices) <= 5, choices
    return choices


def lobby_offers(seated: int, most: int) -> Choices:
    """A lobby's board: a seat to take while there is one, the start once two are taken
    (only the host's click starts it; anyone's takes a seat)."""
    found = [Offer("Take a seat", "join", Style.GOOD)] if seated < most else []
    if seated >= 2:
        found.append(Offer("Start the game (host)", "start"))
    return Choices(tuple(found))


def current_kind(state: GameState, seat: int) -> str | None:
    """The kind of private steps of the decision ``seat`` is asked for now (``choices``
    without a kind), if it has one."""
    if to_act(state) != seat:
        return None
    engagement = state.engagement if state.phase is Phase.ENGAGE else None
    if engagement is None:
        asks = _asks(state, seat)
        return asks[0] if asks else None
    if engagement.stage is Stage.NEGOTIATE:
        return "negotiate"
    if engagement.stage is Stage.AFTERMATH:
        return "aftermath"
    battle = battle_of(state)
    if battle is None or battle.concession is not None or battle.carry is not None:
        return None
    return _BATTLE_KINDS.get(battle.step)


_BATTLE_KINDS = {
    BattleStep.SUMMON: "summon",
    BattleStep.REINFORCE: "reinforce",
    BattleStep.MANEUVER: "maneuver",
    BattleStep.STRIKE: "strike",
    BattleStep.COUNTERSTRIKE: "strike",
}
