"""Creating a game: towers by rolls, colours in ascending tower order (RULES §1.6), and
withdrawing while the colours are chosen (SoP)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.characters import CHARACTERS, STARTING_LEGION
from engine.dice import Dice
from engine.errors import IllegalAction, InvalidNotation
from engine.frozen import evolve
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
from engine.markers import COLOURS, colour
from engine.masterboard import TOWERS

MIN_PLAYERS = 2
MAX_PLAYERS = 6
#: The players a game with ``Options.opposite_towers`` must have.
OPPOSITE_PLAYERS = 2
#: Towers opposite each other on the masterboard, in the order a d6 picks them (1–2,
#: 3–4, 5–6) for the 2-player event (``Options.opposite_towers``).
OPPOSITE_PAIRS = ((100, 400), (200, 500), (300, 600))


def new_game(names: Sequence[str], seed: int, options: Options | None = None) -> Step:
    """A game for the named players (seat order = ``names``), towers assigned by rolls
    (opposite pairs with ``Options.opposite_towers``).

    Raises :class:`IllegalAction` for a number of players outside 2–6, or other than 2
    with opposite towers; :class:`InvalidNotation` for empty or repeated names."""
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise IllegalAction(f"TITAN is for 2 to 6 players, not {len(names)} (RULES §1.6)")
    if any(not n.strip() for n in names) or len(set(names)) != len(names):
        raise InvalidNotation("players need distinct, non-empty names")
    options = options or Options()
    if options.opposite_towers and len(names) != OPPOSITE_PLAYERS:
        raise IllegalAction(
            f"opposite towers need exactly 2 players, not {len(names)} (2-player event rules)"
        )
    dice = Dice(seed)
    if options.opposite_towers:
        towers, rolls, dice = _opposite_towers(dice)
    else:
        towers, rolls, dice = _assign_towers(len(names), dice)
    players = tuple(Player(seat, name, towers[seat]) for seat, name in enumerate(names))
    state = GameState(
        options=options,
        dice=dice,
        players=players,
        legions={},
        caretaker={name: c.count for name, c in CHARACTERS.items()},
        dead={},
        phase=Phase.COLOURS,
        active=min(players, key=lambda p: p.tower).seat,
        turn=Turn(number=0, first_turn=True),
    )
    assigned = TowersAssigned(tuple(towers), tuple(rolls), options.opposite_towers)
    return state, [assigned]


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


def _opposite_towers(dice: Dice) -> tuple[list[int], list[tuple[int, ...]], Dice]:
    """The 2-player event's towers (``Options.opposite_towers``): one d6 picks the pair of
    :data:`OPPOSITE_PAIRS` (1–2, 3–4, 5–6), a second which seat takes which: on 1–3 seat 0
    takes the pair's lower tower, on 4–6 the higher one."""
    pair_roll, dice = dice.roll_one()
    side_roll, dice = dice.roll_one()
    low, high = OPPOSITE_PAIRS[(pair_roll - 1) // 2]
    towers = [low, high] if side_roll <= 3 else [high, low]
    return towers, [(pair_roll,), (side_roll,)], dice


def choose_colour(state: GameState, seat: int, action: ChooseColour) -> Step:
    """Take a colour and the starting legion (RULES §1.6 step 3; errata 5.0)."""
    require_phase(state, Phase.COLOURS, doing="choose a colour", seat=seat)
    require_active(state, seat)
    chosen = colour(action.colour)
    if any(p.colour == chosen.name for p in state.players):
        taken = {p.colour for p in state.players}
        free = ", ".join(c.name for c in COLOURS if c.name not in taken)
        raise IllegalAction(f"{chosen.name} has been taken (RULES §1.6): choose one of {free}")
    marker = action.marker or chosen.markers[0]
    if marker not in chosen.markers:
        raise InvalidNotation(
            f"{marker} is not one of the {chosen.name} markers "
            f"({chosen.markers[0]} to {chosen.markers[-1]})"
        )
    player = state.player(seat)
    legion = Legion(marker, seat, player.tower, sort_names(STARTING_LEGION))
    state = state.with_player(evolve(player, colour=chosen.name, markers=chosen.markers))
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
        return evolve(state, active=min(waiting, key=lambda p: p.tower).seat), []
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
    retired = evolve(player, colour=None, markers=(), eliminated=True, withdrawing=False)
    state = state.with_player(retired)
    events.append(PlayerEliminated(seat, None, WITHDREW))
    state, more = check_game_over(state, [seat])
    if state.result is not None:
        return evolve(state, active=state.result.winners[0]), events + more
    state, more = _next_chooser(state)
    return state, events + more
