"""A forecast of the coming strike phases (RULES §8.4, §8.7, §9, §10, §11.1).

An :class:`Outlook` follows a battle half by half in expectation: each character carries
the chance of every count of hits it may have taken (:mod:`~engine.ai.tactics.damage`), a
strike spreads its target's chances by the exact distribution of its dice (§9.2), weighted
by the chance that its striker lived when the half began (the slain still strike that
half, §9.1). In a half the phasing side's characters in contact strike, the others may
rangestrike (§10), then the other side strikes back; each striker takes the target where
its blow adds the most expected loss, those with a single target first. A character more
likely slain than not is then taken off the board (§8.4 step 6), and the end check looks
for a slain Titan, a legion wiped out and the time loss after the attacker's seventh half
(§11.1).

Between halves the moving side's characters are placed by a caller (the planner's fast
policy); :meth:`Outlook.battle` gives the engine's view of the board for that.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.ai.battlefield import blow_values
from engine.ai.tactics.damage import Dist, alive, loss, spread, worth
from engine.battle.position import Fighter, Position, Side
from engine.battle.rangestrike import rangestrike_targets, rangestrike_values
from engine.battle.state import LAST_TURN, Battle, BattleStep
from engine.characters import TITAN, character
from engine.frozen import evolve

#: A character less likely alive than this leaves the board.
REMOVE = 0.5
#: Share of a slain Titan's survivors counted as lost with it (they are removed with
#: their player, RULES §11.2, §12.2).
TITAN_SPILL = 1.0
#: Share of the attacker's survivors a time loss is worth to the defender (he wins, but
#: scores nothing for them, RULES §11.1).
TIME_LOSS_CREDIT = 0.7


@dataclass(eq=False)
class Body:
    """One character of the battle in the forecast."""

    name: str
    side: Side
    hex: str | None
    """Where it stands; None off the board (waiting to enter, or taken off)."""
    power: int
    dist: Dist
    waiting: bool = False

    @property
    def skill(self) -> int:
        return character(self.name).skill

    def fighter(self) -> Fighter:
        """The engine's view of it: its most likely damage while alive."""
        assert self.hex is not None
        living = self.dist[:-1]
        total = sum(living)
        taken = round(sum(k * p for k, p in enumerate(living)) / total) if total else 0
        return Fighter(self.name, self.side, self.hex, self.power, min(taken, self.power - 1))


@dataclass(eq=False)
class Outlook:
    """A battle followed in expectation from the start of a strike half."""

    battle: Battle
    """The battle the forecast started from (its terrain, edges and bookkeeping)."""
    bodies: list[Body]
    turn: int
    phasing: Side
    over: bool = False
    time_lost: bool = False
    halves: int = 0
    entered: set[Side] = field(default_factory=set)
    """Sides whose first maneuver phase is over."""

    @classmethod
    def start(cls, battle: Battle) -> Outlook:
        """The forecast of ``battle`` at the end of its phasing side's maneuver."""
        bodies = []
        for f in battle.position.fighters:
            if f.alive:
                dist = [0.0] * (f.power + 1)
                dist[f.hits] = 1.0
                bodies.append(Body(f.name, f.side, f.hex, f.power, dist))
        for side in Side:
            for name in battle.waiting(side):
                power = battle.power_of(side, name)
                dist = [0.0] * (power + 1)
                dist[0] = 1.0
                if side is battle.phasing:  # left off the board: slain (RULES §8.4)
                    dist[0], dist[-1] = 0.0, 1.0
                bodies.append(
                    Body(name, side, None, power, dist, waiting=side is not battle.phasing)
                )
        entered = set(battle.entered) | {battle.phasing}
        return cls(battle, bodies, battle.turn, battle.phasing, entered=entered)

    def copy(self) -> Outlook:
        """An independent copy, to follow another course from here."""
        bodies = [
            Body(b.name, b.side, b.hex, b.power, list(b.dist), b.waiting) for b in self.bodies
        ]
        return Outlook(
            self.battle, bodies, self.turn, self.phasing, self.over, self.time_lost,
            self.halves, set(self.entered),
        )  # fmt: skip

    # --- the board ----------------------------------------------------------------------
    def on_board(self, side: Side | None = None) -> list[Body]:
        return [b for b in self.bodies if b.hex is not None and (side is None or b.side is side)]

    def position(self) -> Position:
        fighters = tuple(b.fighter() for b in self.bodies if b.hex is not None)
        return Position(self.battle.terrain, fighters)

    def maneuvering(self) -> Battle:
        """The engine's battle at the start of the phasing side's maneuver: the board as
        forecast, the characters still to enter waiting."""
        side = self.phasing
        waiting = tuple(sorted(b.name for b in self.bodies if b.waiting and b.side is side))
        return evolve(
            self.battle,
            position=self.position(),
            off_board={side: waiting} if waiting else {},
            turn=self.turn,
            phasing=side,
            step=BattleStep.MANEUVER,
            moves=(),
            take_backs=0,
            struck=frozenset(),
            carry=None,
            entrant=None,
            entered=frozenset(self.entered),
        )

    def place(self, moves: Iterable[tuple[str, str]]) -> None:
        """Make the phasing side's moves: (hex or waiting name, destination)."""
        side = self.phasing
        for who, to in moves:
            for b in self.bodies:
                if b.side is side and (b.hex == who or (b.waiting and b.name == who)):
                    b.hex, b.waiting = to, False
                    break
        self.entered.add(side)
        for b in self.bodies:  # left off the board: slain (RULES §8.4)
            if b.waiting and b.side is side:
                b.waiting = False
                b.dist = [0.0] * len(b.dist)
                b.dist[-1] = 1.0

    # --- a strike half --------------------------------------------------------------------
    def half(self) -> None:
        """The phasing side's drift, strikes and rangestrikes, the other side's
        counterstrikes, the removal of the slain and the end check; then the next half."""
        if self.over:
            return
        side = self.phasing
        land = self.battle.land
        for b in self.on_board(side):  # drift (RULES §8.7)
            hazard = land.hexes[b.hex].hazard if b.hex else ""
            if hazard == "Drift" and not character(b.name).is_native_to("Drift"):
                b.dist = spread(b.dist, 1, 1, 1.0)
        board = {b.hex: b for b in self.bodies if b.hex is not None}
        living = {id(b): alive(b.dist) for b in board.values()}
        position = self.position()
        self._strikes(board, living, side, position)
        self._strikes(board, living, side.other, None)
        for b in list(board.values()):
            if alive(b.dist) < REMOVE:
                b.hex = None
        self._end_check(side)

    def _strikes(
        self, board: dict[str, Body], living: dict[int, float], side: Side, sight: Position | None
    ) -> None:
        """``side``'s strikes (and rangestrikes, given the ``sight`` position)."""
        land = self.battle.land
        terrain = self.battle.terrain
        plans: list[tuple[int, Body, list[tuple[Body, int, int]]]] = []
        foes = [t for t in board.values() if t.side is not side]
        for s in board.values():
            if s.side is not side or s.hex is None:
                continue
            near = land.contacts[s.hex]
            # the foes in their fixed order, not the set's: a tie between equal targets
            # must fall the same way in every process (replays rebuild every decision)
            options = [
                (t, *blow_values(terrain, s.name, s.power, s.hex, t.name, t.power, t.hex))
                for t in foes
                if t.hex in near
            ]
            if not options and sight is not None and character(s.name).rangestrikes:
                options = _rangestrikes(sight, s, board)
            if options:
                plans.append((len(options), s, options))
        plans.sort(key=lambda p: (p[0], -p[1].power * p[1].skill))
        for _, s, options in plans:
            weight = living[id(s)]
            if weight <= 0:
                continue
            best: tuple[float, Body, Dist] | None = None
            for t, dice, number in options:
                after = spread(t.dist, dice, number, weight)
                gain = (loss(after) - loss(t.dist)) * worth(t.name, t.power, t.skill, False)
                if best is None or gain > best[0]:
                    best = (gain, t, after)
            if best is not None:
                best[1].dist = best[2]

    def _end_check(self, side: Side) -> None:
        """The battle ends when a Titan or a whole legion is gone, or on time (§11.1)."""
        self.halves += 1
        for s in Side:
            mine = [b for b in self.bodies if b.side is s]
            if not any(b.hex is not None or b.waiting for b in mine):
                self.over = True
            if any(b.name == TITAN and b.hex is None and not b.waiting for b in mine):
                self.over = True
        if side is Side.ATTACKER:
            if self.turn >= LAST_TURN and not self.over:
                self.over = self.time_lost = True
            self.turn += 1
        self.phasing = side.other

    # --- worth ----------------------------------------------------------------------------
    def utility(self, me: Side) -> float:
        """What the forecast course is worth to ``me``: the enemy's expected losses less
        ours (a Titan's many times its value), the survivors of a slain Titan's legion
        (§11.1, §11.2) and the attacker's survivors lost to a time loss (§11.1): the whole
        legion, a wounded character no more than a sound one."""
        held = 0.0  # the chance that the defender still stands when time runs out
        if self.time_lost:
            wiped = 1.0
            for b in self.bodies:
                if b.side is Side.DEFENDER:
                    wiped *= 1.0 - alive(b.dist)
            held = 1.0 - wiped
        total = 0.0
        for side in Side:
            ours = side is me
            mine = [b for b in self.bodies if b.side is side]
            titan = next((b for b in mine if b.name == TITAN), None)
            fallen = 1.0 - alive(titan.dist) if titan is not None else 0.0
            lost = 0.0
            for b in mine:
                value = worth(b.name, b.power, b.skill, ours)
                share = loss(b.dist)
                if b is not titan:
                    share += fallen * (1.0 - share) * TITAN_SPILL
                if self.time_lost and side is Side.ATTACKER:
                    # a time loss takes the whole legion, its wounds no more than that
                    gone = (1.0 - share) * held
                    share += gone if ours else TIME_LOSS_CREDIT * gone
                lost += value * share
            total += -lost if ours else lost
        return total


def _rangestrikes(sight: Position, s: Body, board: dict[str, Body]) -> list[tuple[Body, int, int]]:
    """The rangestrikes ``s`` may make (RULES §10), as (target, dice, strike number)."""
    shooter = next((f for f in sight.fighters if f.hex == s.hex), None)
    if shooter is None:
        return []
    found = []
    for target in rangestrike_targets(sight, shooter):
        values = rangestrike_values(sight, shooter, target)
        found.append((board[target.hex], values.dice, values.strike_number))
    return found
