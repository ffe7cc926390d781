"""Helpers for the battle tests: battles in the one-line notation, inside a game or alone.

:func:`battle_game` puts a battle written in :mod:`engine.battle.notation` into a game in
the engagement phase (the attacker's player is seat 0 and moving, the defender's seat 1),
with optional other legions; :class:`LoadedDice` makes the game's dice roll given values.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from engine.battle.notation import parse_battle
from engine.battle.position import Side
from engine.battle.state import Battle, Supplies
from engine.battle.turn import advance
from engine.characters import CHARACTERS, TITAN_POWER_PER_POINTS, character
from engine.dice import Dice
from engine.events import Event
from engine.game import actions as a
from engine.game.apply import apply
from engine.game.battle_flow import settle
from engine.game.legal import legal_actions, to_act
from engine.game.state import (
    Engagement,
    GameState,
    Legion,
    MoveRecord,
    Options,
    Phase,
    Player,
    Stage,
    Turn,
)
from engine.markers import COLOURS, marker_colour
from engine.masterboard import LANDS, TOWERS
from engine.movement import MoveKind


@dataclass(frozen=True)
class LoadedDice(Dice):
    """Dice that roll the given values in order (and fail when they run out)."""

    script: tuple[int, ...] = ()

    def roll(self, count: int = 1, sides: int = 6) -> tuple[tuple[int, ...], Dice]:
        if len(self.script) < count:
            raise AssertionError(f"the loaded dice ran out ({count} wanted)")
        after = LoadedDice(self.seed, self.rolled + count, self.script[count:])
        return self.script[:count], after


def loaded(*values: int) -> LoadedDice:
    return LoadedDice(0, 0, tuple(values))


def land_of(terrain: str) -> int:
    """The lowest land of ``terrain``."""
    return min(n for n, land in LANDS.items() if land.terrain == terrain)


def battle(text: str, supplies: Supplies | None = None) -> Battle:
    """The battle ``text``, advanced to its next decision."""
    found, _ = advance(parse_battle(text), supplies or Supplies())
    return found


def _legions(text: str) -> list[tuple[str, int, tuple[str, ...]]]:
    """``"Rd03@41:Angel,Ogre*2 Bk02@6:Troll"`` → (marker, land, characters)."""
    found = []
    for word in text.split():
        marker, rest = word.split("@")
        land, names = rest.split(":")
        chars: list[str] = []
        for item in names.split(","):
            name, _, count = item.partition("*")
            chars += [character(name).name] * int(count or 1)
        found.append((marker, int(land), tuple(sorted(chars))))
    return found


def _players(fought: Battle, markers: list[str]) -> tuple[Player, ...]:
    """A player per colour of ``markers`` in order; scores give the Titans' Power."""
    colours = list(dict.fromkeys(marker_colour(m).name for m in markers))
    power = {marker_colour(fought.marker(side)).name: fought.titan_power[side] for side in Side}
    return tuple(
        Player(
            i,
            f"P{i}",
            TOWERS[i],
            name,
            score=(power.get(name, 6) - 6) * TITAN_POWER_PER_POINTS,
            markers=next(c for c in COLOURS if c.name == name).markers,
            turns_taken=3,
        )
        for i, name in enumerate(colours)
    )


def battle_game(
    text: str,
    *,
    land: int | None = None,
    others: str = "",
    dice: Dice | None = None,
    dead: dict[str, int] | None = None,
    tweak: Callable[[Battle], Battle] | None = None,
) -> GameState:
    """A game whose engagement phase has the battle ``text`` in progress (advanced to its
    next decision). Scores follow the Titans' Power. ``others``: more legions; ``tweak``
    changes the parsed battle (for what the notation does not write)."""
    fought = parse_battle(text)
    if tweak is not None:
        fought = tweak(fought)
    where = land if land is not None else land_of(fought.terrain)
    legions = [
        (fought.attacker, where, fought.legion(Side.ATTACKER)),
        (fought.defender, where, fought.legion(Side.DEFENDER)),
        *_legions(others),
    ]
    players = _players(fought, [m for m, _, _ in legions])
    seat = {p.colour: p.seat for p in players}
    fallen = {
        fought.marker(side): Counter(c.name for c in fought.casualties if c.side is side)
        for side in Side
    }  # the slain have left their legion already (step 6)
    state_legions = {
        m: Legion(
            m,
            seat[marker_colour(m).name],
            at,
            tuple(sorted((Counter(chars) - fallen.get(m, Counter())).elements())),
        )
        for m, at, chars in legions
    }
    used = Counter(n for _, _, chars in legions for n in chars) + Counter(dead or {})
    caretaker = {n: c.count - used[n] for n, c in CHARACTERS.items()}
    move = MoveRecord(fought.attacker, where, where, MoveKind.NORMAL, fought.entry_side)
    engagement = Engagement(
        where, fought.attacker, fought.defender, fought.entry_side, stage=Stage.BATTLE,
        may_flee=False, battle=fought,
    )  # fmt: skip
    state = GameState(
        options=Options(),
        dice=dice or Dice(1),
        players=players,
        legions=state_legions,
        caretaker=caretaker,
        dead=dict(dead or {}),
        phase=Phase.ENGAGE,
        active=0,
        turn=Turn(5, False, roll=1, moves=(move,), moved=frozenset({fought.attacker})),
        engagement=engagement,
    )
    state, _ = settle(state, fought, [])
    return state


def fight(state: GameState, *actions: a.Action) -> tuple[GameState, list[Event]]:
    """Apply ``actions`` in order, each by the seat the game waits for."""
    events: list[Event] = []
    for action in actions:
        seat = to_act(state)
        assert seat is not None, "nobody to act"
        state, more = apply(state, seat, action)
        events += more
    return state, events


def by_type(events: Iterable[Event], kind: type[Event]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def current(state: GameState) -> Battle:
    assert state.engagement is not None and state.engagement.battle is not None
    return state.engagement.battle


def seat_of(state: GameState, role: Side) -> int:
    engagement = state.engagement
    assert engagement is not None
    marker = engagement.attacker if role is Side.ATTACKER else engagement.defender
    return state.legion(marker).owner


def legal(state: GameState) -> list[a.Action]:
    """The legal actions of the seat the game waits for (without Withdraw)."""
    seat = to_act(state)
    assert seat is not None
    return [x for x in legal_actions(state, seat) if not isinstance(x, a.Withdraw)]
