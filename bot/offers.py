"""The choices offered with a message: what may go on a public board, what only its owner sees.

A public message (the channel's news) carries :func:`public_offers`: the decisions of the
player the game waits for whose existence and wording follow from what everyone may know
(RULES §1.7) — colours, the roll, `done`, engagements to choose, every battle decision (a
battle is public, §5.7) — plus an *ask* (``Muster…``, ``Summon…``, ``Negotiate…``) for
decisions whose options depend on a hidden legion: which recruit and which recruiters to
reveal, which donor, whether a lordless defender may flee. An ask is offered by public
criteria only (the phase, the step the game waits on), never because a hidden legion makes
an option legal, so even its presence tells nothing. Clicking it runs ``choices KIND``,
whose answer (:func:`private_offers`) reaches the clicker alone, least revealing first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from bot.legality import legal
from bot.narration.table import listing, proposal_text
from bot.syntax import FORMATTERS, format_action
from engine.battle.state import BattleStep
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.battle_flow import battle_of
from engine.game.legal import to_act
from engine.game.state import GameState, Phase, Stage
from engine.muster import FULL_HEIGHT

MAX_OFFERS = 25
"""Discord shows at most 25 options in one menu."""


class Style(Enum):
    """How prominent a choice is: the usual next step, a quiet one, or one to think twice about."""

    PRIMARY = "primary"
    QUIET = "quiet"
    DANGER = "danger"


@dataclass(frozen=True)
class Offer:
    """One choice: its label and the command line it runs."""

    label: str
    command: str
    style: Style = Style.PRIMARY


@dataclass(frozen=True)
class Offers:
    """Choices made for one game at one version (its action count when offered)."""

    game: int
    version: int
    items: tuple[Offer, ...]


@dataclass(frozen=True)
class Ask:
    """A kind of decision chosen in a private step: its button and the actions it covers."""

    kind: str
    label: str
    actions: tuple[type[a.Action], ...]


ASKS: dict[str, Ask] = {
    ask.kind: ask
    for ask in (
        Ask("muster", "Muster…", (a.Muster,)),
        Ask(
            "negotiate",
            "Negotiate…",
            (a.Flee, a.Accept, a.Propose, a.NoMoreProposals, a.Fight, a.Concede),
        ),
        Ask("aftermath", "Summon, reinforce or acquire…", (a.Summon, a.Reinforce, a.Acquire)),
        Ask("summon", "Summon…", (a.Summon,)),
        Ask("reinforce", "Reinforce…", (a.Reinforce,)),
        Ask("all", "Choose…", ()),
    )
}
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
    b.EndManeuver,
    b.EndStrikes,
    b.ConcedeInstead,
    b.AcceptConcession,
)
#: Decisions too numerous or too detailed for buttons: slash commands with autocomplete.
NOT_OFFERED: tuple[type[a.Action], ...] = (
    a.Withdraw,
    a.ExpireTimeLimit,
    a.Reveal,
    a.Split,
    a.UndoSplit,
    a.Move,
    a.TakeBack,
    b.Maneuver,
    b.TakeBackManeuver,
)
_DANGER = (a.Concede, b.ConcedeInstead, a.Withdraw)
_QUIET = (
    a.EndMovement, a.EndTurn, a.Decline, a.NoMoreProposals, a.Roll, a.Mulligan,
    b.EndManeuver, b.EndStrikes,
)  # fmt: skip


def public_offers(state: GameState) -> list[Offer]:
    """The choices a public message may carry for the decision the game waits for."""
    seat = to_act(state)
    if seat is None:
        return []
    asks = [ASKS[kind] for kind in _asks(state, seat)]
    direct = [
        offer(action)
        for action in legal(state, seat)
        if isinstance(action, PUBLIC)
        and not any(isinstance(action, ask.actions) for ask in asks)
        and not (isinstance(action, a.EndMovement) and action.keep)
    ]
    if len(direct) + len(asks) > MAX_OFFERS:
        return [_ask_offer(ASKS["all"])]
    return [*(_ask_offer(ask) for ask in asks), *direct]


def _asks(state: GameState, seat: int) -> list[str]:
    """The private steps due now, decided from public facts only (never from contents)."""
    if state.phase is Phase.MUSTER and seat == state.active:
        turn = state.turn
        if any(
            leg.marker in turn.moved and leg.marker not in turn.mustered
            and leg.height < FULL_HEIGHT
            for leg in state.legions_of(seat)
        ):  # fmt: skip
            return ["muster"]
        return []
    engagement = state.engagement
    if state.phase is not Phase.ENGAGE or engagement is None:
        return []
    if engagement.stage is Stage.NEGOTIATE:
        return ["negotiate"]
    if engagement.stage is Stage.AFTERMATH:
        return ["aftermath"]
    battle = battle_of(state)
    if battle is not None and battle.carry is None and battle.concession is None:
        if battle.step is BattleStep.SUMMON:
            return ["summon"]
        if battle.step is BattleStep.REINFORCE:
            return ["reinforce"]
    return []


def _ask_offer(ask: Ask) -> Offer:
    return Offer(ask.label, f"choices {ask.kind}")


def private_offers(state: GameState, seat: int, kind: str) -> list[Offer]:
    """``seat``'s legal choices of one kind (``all``: every one a button can give), in the
    engine's order (least revealing first)."""
    ask = ASKS[kind]
    return [
        offer(action)
        for action in legal(state, seat)
        if type(action) in FORMATTERS
        and not isinstance(action, NOT_OFFERED)
        and (not ask.actions or isinstance(action, (*ask.actions, a.Decline)))
    ]


def offer(action: a.Action) -> Offer:
    """The choice that asks for ``action``: its words and its command."""
    command = format_action(action)
    describe = _LABELS.get(type(action))
    label = describe(action) if describe is not None else _capital(command)
    return Offer(label[:80], command, _style(action))


def _style(action: a.Action) -> Style:
    if isinstance(action, _DANGER):
        return Style.DANGER
    if isinstance(action, _QUIET):
        return Style.QUIET
    return Style.PRIMARY


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _shown(revealed: Sequence[str] | None) -> str:
    return f", showing {listing(revealed)}" if revealed else ""


def _muster(action: a.Muster) -> str:
    return f"{action.legion}: {action.recruit}{_shown(action.revealed)}"


def _reinforce(action: a.Reinforce) -> str:
    return f"Reinforce with {action.recruit}{_shown(action.revealed)}"


def _propose(action: a.Propose) -> str:
    return "Propose: " + " or ".join(proposal_text(p) for p in action.proposals)


_LABELS: dict[type[a.Action], Callable[[Any], str]] = {
    a.Muster: _muster,
    a.Reinforce: _reinforce,
    a.Summon: lambda x: f"Summon the {x.lord} of {x.donor}",
    a.Acquire: lambda x: f"Acquire an {x.lord}" if x.lord[0] in "AEIOU" else f"Acquire a {x.lord}",
    a.Accept: lambda x: f"Accept proposal #{x.number}",
    a.Propose: _propose,
    a.NoMoreProposals: lambda x: "No more proposals",
    a.EndMovement: lambda x: "Done moving",
    a.EndTurn: lambda x: "End the turn",
    b.EndManeuver: lambda x: "Done maneuvering",
    b.EndStrikes: lambda x: "Done striking",
    b.ConcedeInstead: lambda x: "Concede instead",
    b.AcceptConcession: lambda x: "Accept the concession",
}
