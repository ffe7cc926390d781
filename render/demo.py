"""A demonstration set of pictures (for ``titanbot render-demo OUTDIR``).

:func:`demo_set` returns name → PNG bytes: a mid-game masterboard (and after the roll,
where the mover's legions may go: a chosen legion's, all of them, as the channel sees it),
every battleland with some fighters, legion cards.
"""

from __future__ import annotations

from dataclasses import replace

from engine.battle.maneuver import reachable as battle_reachable
from engine.battle.position import Position, Side, fighter, in_contact
from engine.battleland import BATTLELANDS
from engine.game.actions import ChooseColour
from engine.game.apply import apply
from engine.game.moving import move_options
from engine.game.reach import reach
from engine.game.setup import new_game
from engine.game.state import GameState, Legion, MoveRecord, Phase, Turn
from engine.movement import MoveKind
from render.battleland import battleland_png
from render.legions import legion_card_png, legions_sheet_png, public_legion_png
from render.masterboard import masterboard_png
from render.seeded import battles, midgame

PLAYERS = ("Ann", "Bob", "Cyd", "Dee")
COLOURS = ("Red", "Blue", "Gold", "Black")

# marker: (land, characters, revealed)
_LEGIONS: dict[str, tuple[int, tuple[str, ...], tuple[str, ...]]] = {
    "Rd01": (23, ("Titan", "Angel", "Ogre", "Troll", "Troll", "Ranger", "Ranger"), ("Titan",)),
    "Rd02": (41, ("Centaur", "Lion", "Lion", "Lion"), ("Lion", "Lion", "Lion")),
    "Rd05": (128, ("Gargoyle", "Gargoyle", "Cyclops"), ()),
    "Bu01": (11, ("Titan", "Minotaur", "Minotaur", "Griffon", "Gargoyle"), ()),
    "Bu03": (23, ("Ogre", "Ogre", "Troll"), ("Ogre", "Ogre", "Troll")),
    "Bu04": (300, ("Centaur", "Centaur", "Warlock"), ("Warlock",)),
    "Gd01": (5000, ("Titan", "Angel", "Dragon", "Dragon", "Colossus", "Giant"), ("Dragon",)),
    "Gd02": (133, ("Wyvern", "Hydra", "Behemoth", "Serpent"), ()),
    "Gd07": (600, ("Centaur", "Centaur"), ()),
    "Gd08": (600, ("Unicorn", "Unicorn", "Lion"), ()),
    "Bk01": (108, ("Titan", "Archangel", "Serpent", "Guardian"), ("Guardian",)),
    "Bk02": (36, ("Troll", "Troll", "Wyvern", "Ranger", "Ranger", "Gorgon"), ()),
}


def demo_state() -> GameState:
    """A made-up four-player game in its third round, during the red player's movement."""
    state, _ = new_game(PLAYERS, seed=11)
    for _turn in PLAYERS:
        seat = state.active
        state, _ = apply(state, seat, ChooseColour(COLOURS[seat]))
    legions = {}
    for marker, (land, names, revealed) in _LEGIONS.items():
        owner = COLOURS.index(_colour_name(marker))
        legions[marker] = Legion(marker, owner, land, tuple(sorted(names)), revealed)
    order = [p.seat for p in sorted(state.players, key=lambda p: -p.tower)]
    before = set(order[: order.index(0)])  # who has played game turn 3 already
    players = tuple(
        replace(p, score=score, turns_taken=3 if p.seat in before else 2)
        for p, score in zip(state.players, (412, 236, 655, 180), strict=True)
    )
    moves = (
        MoveRecord("Rd01", 21, 23, MoveKind.NORMAL, 3),
        MoveRecord("Rd05", 500, 128, MoveKind.TOWER_TELEPORT, None),
    )
    turn = Turn(number=9 + len(before), first_turn=False, roll=2, moves=moves)
    return replace(state, players=players, legions=legions, phase=Phase.MOVE, active=0, turn=turn)


def _colour_name(marker: str) -> str:
    return {"Rd": "Red", "Bu": "Blue", "Gd": "Gold", "Bk": "Black"}[marker[:2]]


def demo_set(seed: int = 1) -> dict[str, bytes]:
    """Name (``masterboard.png`` …) → PNG bytes for every kind of picture, drawn from
    seeded games: the middle of one game, and a battle in progress on every battleland."""
    state = midgame(seed)
    pictures = {"masterboard.png": masterboard_png(state)}
    mover = next(
        (leg for leg in sorted(state.legions_of(state.active), key=lambda leg: leg.marker)
         if move_options(state, leg)),
        None,
    )  # fmt: skip
    if mover is not None:  # the mover's own boards, then the channel's
        mine = reach(state, state.active)
        pictures["masterboard-reachable.png"] = masterboard_png(
            state, reach=mine, selected=mover.marker
        )
        pictures["masterboard-moves.png"] = masterboard_png(state, reach=mine)
        pictures["masterboard-moves-public.png"] = masterboard_png(state, reach=reach(state, None))
    for terrain, shot in sorted(battles(seed).items()):
        pictures[f"battleland-{terrain.lower()}.png"] = battleland_png(
            shot.position,
            attacker_colour=shot.attacker_colour,
            defender_colour=shot.defender_colour,
            entry_side=shot.entry_side,
            turn=shot.turn,
            heading=shot.heading,
        )
    owner = state.player(state.active)
    legion = max(state.legions_of(owner.seat), key=lambda leg: (leg.height, leg.marker))
    colour, score = owner.colour or "Red", owner.score
    pictures["legion-card.png"] = legion_card_png(
        legion.marker, legion.characters, colour=colour, score=score, land=legion.land
    )
    pictures["legion-public.png"] = public_legion_png(
        legion.marker, legion.height, legion.revealed, colour=colour, score=score, land=legion.land
    )
    pictures["my-legions.png"] = legions_sheet_png(state, owner.seat)
    return pictures


_OPEN = frozenset({"Plain", "Sand", "Tower", "Bramble", "Drift"})
_ATTACKERS = ("Titan", "Gorgon", "Ranger", "Troll")
_DEFENDERS = ("Griffon", "Lion", "Warlock", "Ogre")


def _open_hexes(terrain: str, labels: str) -> list[str]:
    land = BATTLELANDS[terrain]
    return [label for label in labels.split() if land.hexes[label].hazard in _OPEN]


def demo_position(terrain: str) -> tuple[Position, str, str]:
    """Attackers at the lower left, defenders at the upper right, one pair in contact."""
    land = BATTLELANDS[terrain]
    near = _open_hexes(terrain, "C2 B2 C1 A2 B1 D2 A1 B3")
    striker, target = next(
        (h, n)
        for h in near
        for n in land.hexes[h].neighbours
        if n is not None
        and n not in near
        and land.hexes[n].hazard in _OPEN
        and in_contact(land, h, n)
    )
    near = [striker, *(h for h in near if h != striker)]
    far = [h for h in _open_hexes(terrain, "D5 E4 F3 E5 D6 F4 C5 E3") if h != target]
    fighters = [fighter(_ATTACKERS[0], Side.ATTACKER, striker, score=412)]
    fighters += [
        fighter(n, Side.ATTACKER, h, hits=i % 2)
        for i, (n, h) in enumerate(zip(_ATTACKERS[1:], near[2:], strict=False))
    ]
    fighters.append(fighter(_DEFENDERS[0], Side.DEFENDER, target, hits=2))
    fighters += [fighter(n, Side.DEFENDER, h) for n, h in zip(_DEFENDERS[1:], far, strict=False)]
    fighters[-1] = replace(fighters[-1], hits=fighters[-1].power, slain=True)
    return Position(terrain, tuple(fighters)), striker, target


def _demo_battle(terrain: str) -> bytes:
    """A small fight on ``terrain`` in its third turn, with every kind of highlight."""
    position, striker, target = demo_position(terrain)
    chosen = next(
        f for f in position.fighters if f.side is Side.ATTACKER and not position.is_engaged(f)
    )
    taken = position.occupied()
    came_from = next(h for h in _open_hexes(terrain, "A1 B1 A2 C1 B2 A3 B3") if h not in taken)
    return battleland_png(
        position,
        entry_side=3,
        turn=3,
        last_move=(came_from, striker),
        last_strike=(striker, target),
        strike_result="2 hits",
        selected=chosen.hex,
        destinations=battle_reachable(position, chosen),
    )
