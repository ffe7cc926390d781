"""Decisions of an engagement's winner: summon, reinforcement, acquisitions (RULES §6.6, §7)."""

from __future__ import annotations

from engine.errors import IllegalMuster, IllegalSummon, NotYourTurn, WrongPhase
from engine.frozen import evolve
from engine.game.actions import Acquire, Decline, Reinforce, Summon
from engine.game.common import (
    Step,
    add_revealed,
    contents,
    require_phase,
    sort_names,
    take_from_caretaker,
)
from engine.game.events import (
    Declined,
    Event,
    LegionEliminated,
    LordAcquired,
    LordSummoned,
    Mustered,
)
from engine.game.outcome import (
    acquisition_options,
    aftermath_seat,
    continue_aftermath,
    reinforcements,
    summon_donors,
)
from engine.game.state import Aftermath, Engagement, GameState, Phase, Stage
from engine.game.waiting import waiting_words
from engine.masterboard import land as land_of
from engine.muster import check_muster


def _aftermath(state: GameState, seat: int, doing: str) -> tuple[Engagement, Aftermath]:
    require_phase(state, Phase.ENGAGE, doing=doing, seat=seat)
    engagement = state.engagement
    if engagement is None or engagement.stage is not Stage.AFTERMATH or not engagement.aftermath:
        waiting = waiting_words(state, seat)
        raise WrongPhase(f"you can {doing} only after winning an engagement; {waiting}")
    if aftermath_seat(state) != seat:
        waiting = waiting_words(state, seat)
        raise NotYourTurn(f"only the winner of the engagement may {doing}; {waiting}")
    return engagement, engagement.aftermath


def _with(state: GameState, engagement: Engagement, aftermath: Aftermath) -> GameState:
    return evolve(state, engagement=evolve(engagement, aftermath=aftermath))


def summon(state: GameState, seat: int, action: Summon) -> Step:
    """Summon an Angel or Archangel into the winning attacker (RULES §7.2b, c)."""
    engagement, aftermath = _aftermath(state, seat, "summon")
    if not aftermath.may_summon:
        raise IllegalSummon("you have no summon to make now (RULES §7.2)")
    if (action.donor, action.lord) not in summon_donors(state):
        raise IllegalSummon(
            f"{action.donor} cannot send a {action.lord}: the donor must be another legion of "
            "yours, not with an enemy, holding that lord (RULES §7.2)"
        )
    state, events = summon_lord(state, action.donor, engagement.attacker, action.lord)
    state = evolve(state, turn=evolve(state.turn, summoned=True))
    state = _with(state, engagement, evolve(aftermath, may_summon=False))
    state, more = continue_aftermath(state)
    return state, events + more


def summon_lord(state: GameState, donor_marker: str, marker: str, lord: str) -> Step:
    """Move ``lord`` from the donor into ``marker``; an emptied donor is gone (errata 18.1)."""
    donor = state.legion(donor_marker)
    left = list(donor.characters)
    left.remove(lord)
    legion = state.legion(marker)
    legion = add_revealed(evolve(legion, characters=sort_names([*legion.characters, lord])), [lord])
    events: list[Event] = [LordSummoned(donor_marker, marker, lord), contents(legion)]
    state = state.with_legion(legion)
    if left:
        donor = evolve(donor, characters=tuple(left), revealed=())
        state = state.with_legion(donor)
        events.append(contents(donor))
    else:
        state = state.without_legion(donor_marker)
        events.append(LegionEliminated(donor_marker, donor.owner))
    return state, events


def reinforce(state: GameState, seat: int, action: Reinforce) -> Step:
    """The winning defender musters once after the battle (RULES §6.6)."""
    engagement, aftermath = _aftermath(state, seat, "reinforce")
    if not aftermath.may_reinforce:
        raise IllegalMuster("you have no reinforcement to take now (RULES §6.6)")
    legion = state.legion(engagement.defender)
    terrain = land_of(legion.land).terrain
    revealed = action.revealed or _first_way(state, action.recruit)
    check_muster(terrain, legion.characters, action.recruit, revealed, dict(state.caretaker))
    legion = evolve(legion, characters=sort_names([*legion.characters, action.recruit]))
    legion = add_revealed(legion, [*revealed, action.recruit])
    state = take_from_caretaker(state.with_legion(legion), [action.recruit])
    state = _with(state, engagement, evolve(aftermath, may_reinforce=False))
    events: list[Event] = [
        Mustered(legion.marker, action.recruit, tuple(revealed), reinforcement=True),
        contents(legion),
    ]
    state, more = continue_aftermath(state)
    return state, events + more


def _first_way(state: GameState, recruit: str) -> tuple[str, ...]:
    """The default reveal: the least revealing sufficient set of recruiters (rule 18.4,
    :mod:`engine.reveals`), the first that ``legal_actions`` lists."""
    ways = dict(reinforcements(state)).get(recruit)
    return ways[0] if ways else ()


def acquire(state: GameState, seat: int, action: Acquire) -> Step:
    """Take the Angel or Archangel of the lowest pending mark (RULES §7.1, errata 17.3)."""
    engagement, aftermath = _aftermath(state, seat, "acquire a lord")
    if aftermath.may_summon or aftermath.may_reinforce:
        raise IllegalSummon("summon or reinforce (or decline) before acquiring (SoP)")
    options = acquisition_options(state)
    if action.lord not in options:
        allowed = " or ".join(options) or "nothing"
        raise IllegalSummon(f"you may take {allowed} now, not {action.lord} (RULES §7.1)")
    assert aftermath.winner is not None
    marker = engagement.attacker if aftermath.winner.value == "attacker" else engagement.defender
    legion = state.legion(marker)
    legion = evolve(legion, characters=sort_names([*legion.characters, action.lord]))
    legion = add_revealed(legion, [action.lord])
    state = take_from_caretaker(state.with_legion(legion), [action.lord])
    state = _with(state, engagement, evolve(aftermath, acquisitions=aftermath.acquisitions[1:]))
    events: list[Event] = [LordAcquired(marker, action.lord), contents(legion)]
    state, more = continue_aftermath(state)
    return state, events + more


def decline(state: GameState, seat: int, action: Decline) -> Step:
    """Give up the pending summon, reinforcement or one acquisition."""
    engagement, aftermath = _aftermath(state, seat, "decline")
    if aftermath.may_summon:
        aftermath, what = evolve(aftermath, may_summon=False), "summon"
    elif aftermath.may_reinforce:
        aftermath, what = evolve(aftermath, may_reinforce=False), "reinforcement"
    elif aftermath.acquisitions:
        aftermath, what = evolve(aftermath, acquisitions=aftermath.acquisitions[1:]), "acquisition"
    else:
        raise WrongPhase("there is nothing to decline")
    state, events = continue_aftermath(_with(state, engagement, aftermath))
    return state, [Declined(what), *events]
