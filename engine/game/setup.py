"""Creating a game: towers by rolls, colours in ascending tower order (RULES §1.6), and
withdrawing while the colours are chosen (SoP)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.characters import CHARACTERS, STARTING_LEGION
from engine.dice import Dice
from engine.errors import IllegalAction, InvalidNotation
from engine.game.actions import ChooseColour
from engine.game.common import (
    Step,
    contents,
    require_active,
    require_phase,
    return_to_caretaker,
    sort_names,
    take_from_caretaker,
)
from engine.game.elimination import check_game_over
from engine.game.events import (
    WITHDREW,
    ColourChosen,
    Event,
    LegionEliminated,
    PlayerEliminated,
    TowersAssigned,
)
from engine.game.state import GameState, Legion, Options, Phase, Player, Turn
from engine.game.turns import begin_turn
from engine.markers import colour
from engine.masterboard import TOWERS

MIN_PLAYERS = 2
MAX_PLAYERS = 6


def new_game(names: Sequence[str], seed: int, options: Options | None = None) -> Step:
    """A game for the named players (seat order = ``names``), towers assigned by rolls."""
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise IllegalAction(f"TITAN is for 2 to 6 players, not {len(names)} (RULES §1.6)")
    if any(not n.strip() for n in names) or len(set(names)) != len(names):
        raise InvalidNotation("players need distinct, non-empty names")
    dice = Dice(seed)
    towers, rolls, dice = _assign_towers(len(names), dice)
    players = tuple(Player(seat, name, towers[seat]) for seat, name in enumerate(names))
    state = GameState(
        options=options or Options(),
        dice=dice,
        players=players,
        legions={},
        caretaker={name: c.count for name, c in CHARACTERS.items()},
        dead={},
        phase=Phase.COLOURS,
        active=min(players, key=lambda p: p.tower).seat,
        turn=Turn(number=0, first_turn=True),
    )
    return state, [TowersAssigned(tuple(towers), tuple(rolls))]


def _assign_towers(count: int, dice: Dice) -> tuple[list[int], list[tuple[int, ...]], Dice]:
    """Sets of d6 tower rolls until every player has a tower; clashes reroll (RULES §1.6)."""
    towers: list[int | None] = [None] * count
    rolls: list[tuple[int, ...]] = []
    while None in towers:
        waiting = [seat for seat, t in enumerate(towers) if t is None]
        values, dice = dice.roll(len(waiting))
        rolls.append(values)
        taken = set(towers)
        for seat, value in zip(waiting, values, strict=True):
            tower = TOWERS[value - 1]
            if values.count(value) == 1 and tower not in taken:
                towers[seat] = tower
    return [t for t in towers if t is not None], rolls, dice


def choose_colour(state: GameState, seat: int, action: ChooseColour) -> Step:
    """Take a colour and the starting legion (RULES §1.6 step 3; errata 5.0)."""
    require_phase(state, Phase.COLOURS, doing="choose a colour")
    require_active(state, seat)
    chosen = colour(action.colour)
    if any(p.colour == chosen.name for p in state.players):
        raise IllegalAction(f"{chosen.name} has been taken (RULES §1.6)")
    marker = action.marker or chosen.markers[0]
    if marker not in chosen.markers:
        raise InvalidNotation(f"{marker} is not one of the {chosen.name} markers")
    player = state.player(seat)
    legion = Legion(marker, seat, player.tower, sort_names(STARTING_LEGION))
    state = state.with_player(replace(player, colour=chosen.name, markers=chosen.markers))
    state = take_from_caretaker(state.with_legion(legion), STARTING_LEGION)
    events: list[Event] = [ColourChosen(seat, chosen.name, marker, player.tower), contents(legion)]
    state, more = _next_chooser(state)
    return state, events + more


def _next_chooser(state: GameState) -> Step:
    """The lowest tower still without a colour chooses next; once every player still in
    the game has one, the highest tower's first turn begins (RULES §1.6)."""
    living = [p for p in state.players if not p.eliminated]
    waiting = [p for p in living if p.colour is None]
    if waiting:
        return replace(state, active=min(waiting, key=lambda p: p.tower).seat), []
    return begin_turn(state, max(living, key=lambda p: p.tower).seat)


def withdraw_at_setup(state: GameState, seat: int) -> Step:
    """``seat`` withdraws while the colours are chosen (SoP: "each player chooses the color
    they want or withdraws from the game in ascending order"). He leaves with no colour, no
    legion and no markers; a starting legion he took goes back to the caretaker and its
    colour is free again. If fewer than two players remain, the survivor wins (RULES
    §12.5); otherwise the choosing goes on, and turn order skips him later.

    Any seat may withdraw in this phase, not only the one choosing: the SoP names the
    withdrawal as the alternative to a choice, but nothing is staked yet (no legion is
    engaged, nobody scores), so there is nothing to wait for, and it takes effect at once.
    """
    player = state.player(seat)
    events: list[Event] = []
    for legion in [leg for leg in state.legions.values() if leg.owner == seat]:
        state = return_to_caretaker(state.without_legion(legion.marker), legion.characters)
        events.append(LegionEliminated(legion.marker, seat))
    retired = replace(player, colour=None, markers=(), eliminated=True, withdrawing=False)
    state = state.with_player(retired)
    events.append(PlayerEliminated(seat, None, WITHDREW))
    state, more = check_game_over(state, [seat])
    if state.result is not None:
        return replace(state, active=state.result.winners[0]), events + more
    state, more = _next_chooser(state)
    return state, events + more
