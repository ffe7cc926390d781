"""Pictures from real, seeded games (for ``titanbot render-demo``).

Seeded games are played by a seeded chooser among the engine's legal actions that prefers
to fight, so that battles come quickly; the same seed always gives the same pictures.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from engine.battle.position import Position, Side
from engine.battleland import BATTLELANDS
from engine.game import actions as a
from engine.game.apply import apply
from engine.game.legal import legal_actions, to_act
from engine.game.setup import new_game
from engine.game.state import GameState, Phase, Stage
from engine.masterboard import land as land_of
from render.battle_header import Heading, Party, heading_of

PLAYERS = ("Ann", "Bob", "Cyd", "Dee")
MAX_ACTIONS = 30_000


@dataclass(frozen=True)
class BattleShot:
    """A battle in progress, as drawn: the position and the sides' colours."""

    position: Position
    attacker_colour: str
    defender_colour: str
    entry_side: int
    turn: int
    heading: Heading | None = None
    """The header: both legions' markers, owners and colours, who acts."""


def _choose(state: GameState, seat: int, rng: random.Random) -> a.Action:
    legal = [x for x in legal_actions(state, seat) if not isinstance(x, a.Withdraw)]
    fight = [x for x in legal if isinstance(x, a.NoMoreProposals | a.Fight)]
    keep_going = [x for x in legal if not isinstance(x, a.Concede | a.Flee | a.Accept)]
    return rng.choice(fight or keep_going or legal)


def seeded_states(seed: int, players: int = 4) -> Iterator[GameState]:
    """Every state of the seeded game, from the first turn to its end."""
    rng = random.Random(seed)
    state, _ = new_game(PLAYERS[:players], seed)
    for _ in range(MAX_ACTIONS):
        seat = to_act(state)
        if seat is None:
            return
        state, _ = apply(state, seat, _choose(state, seat, rng))
        yield state


def midgame(seed: int = 1, turn: int = 14) -> GameState:
    """The seeded game during the movement phase of player turn ``turn`` (or its end)."""
    last = None
    for state in seeded_states(seed):
        last = state
        if state.turn.number >= turn and state.phase is Phase.MOVE and state.turn.moves:
            return state
    assert last is not None
    return last


def _shot(state: GameState) -> tuple[str, BattleShot] | None:
    engagement = state.engagement
    if engagement is None or engagement.stage is not Stage.BATTLE or engagement.battle is None:
        return None
    battle = engagement.battle
    if battle.turn < 2 or not battle.position.fighters:
        return None
    colours = {
        side: state.player(state.legion(battle.marker(side)).owner).colour or "Red" for side in Side
    }
    parties = []
    for side in Side:
        legion = state.legion(battle.marker(side))
        owner = state.player(legion.owner)
        parties.append(Party(legion.marker, legion.height, owner.name, owner.colour))
    shot = BattleShot(
        battle.position,
        colours[Side.ATTACKER],
        colours[Side.DEFENDER],
        battle.entry_side,
        battle.turn,
        heading_of(battle, *parties),
    )
    return land_of(engagement.land).terrain, shot


def battles(first_seed: int = 1, games: int = 40) -> dict[str, BattleShot]:
    """A battle in progress on every battleland, from seeded games (fewer if none came)."""
    found: dict[str, BattleShot] = {}
    for seed in range(first_seed, first_seed + games):
        for state in seeded_states(seed):
            shot = _shot(state)
            if shot is not None and shot[0] not in found:
                found[shot[0]] = shot[1]
        if len(found) == len(BATTLELANDS):
            break
    return found
