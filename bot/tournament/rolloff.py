"""The roll-off that settles a mutual for first place (the tournament's rule for a draw,
RULES §12.5: "if the last two Titans fell in the same battle, the game is a draw").

The attacker of the final engagement rolls nine dice at even odds, a hit on 4, 5 or 6,
and takes first place with five hits or more; otherwise the defender does. Nine dice
and five hits make the odds exactly even, as in a strike at strike number 4.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.tournament.errors import TournamentError
from engine.dice import Dice
from engine.game.events import BattleBegun, EngagementBegun, Event, LegionEliminated, TurnStarted

DICE = 9
HIT = 4
"""A die hits on this number or more."""
HITS_TO_WIN = 5


@dataclass(frozen=True)
class RollOff:
    """A roll-off as it was rolled: ``winner`` is ``attacker`` with at least
    :data:`HITS_TO_WIN` hits in ``rolls``, else ``defender``; ``dice`` is the generator
    after the nine dice."""

    attacker: str
    defender: str
    rolls: tuple[int, ...]
    dice: Dice

    @property
    def hits(self) -> int:
        return sum(1 for r in self.rolls if r >= HIT)

    @property
    def winner(self) -> str:
        return self.attacker if self.hits >= HITS_TO_WIN else self.defender

    @property
    def loser(self) -> str:
        return self.defender if self.winner == self.attacker else self.attacker


def roll_off(attacker: str, defender: str, dice: Dice) -> RollOff:
    """The attacker rolls nine dice against ``defender``."""
    if attacker == defender:
        raise TournamentError(f"a roll-off needs two players, not {attacker} twice")
    rolls, after = dice.roll(DICE, 6)
    return RollOff(attacker, defender, rolls, after)


def final_attacker(events_by_action: Sequence[Sequence[Event]]) -> int:
    """The seat that attacked in the game's last engagement.

    The attacking legion is named by the last :class:`EngagementBegun` (or
    :class:`BattleBegun`); its owner is the seat of its :class:`LegionEliminated` (in a
    mutual both Titans' legions are eliminated), else the mover, since only the mover
    attacks (RULES §5.1). Raises :class:`TournamentError` when the log has no engagement.
    """
    flat = [event for action in events_by_action for event in action]
    engagements = [
        (i, event)
        for i, event in enumerate(flat)
        if isinstance(event, EngagementBegun | BattleBegun)
    ]
    if not engagements:
        raise TournamentError("the game's log has no engagement, so it has no final attacker")
    start, engaged = engagements[-1]
    for event in flat[start:]:
        if isinstance(event, LegionEliminated) and event.marker == engaged.attacker:
            return event.owner
    for event in reversed(flat[:start]):
        if isinstance(event, TurnStarted):
            return event.seat
    raise TournamentError(f"the owner of the attacking legion {engaged.attacker} is not logged")
