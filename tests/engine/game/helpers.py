"""Helpers for the game-flow tests: positions in the one-line notation, acting, checks.

:class:`Knowledge` is an independent model of what each seat may know, built from the
rules (RULES §1.7, §5.2, §5.7, §12.5; errata 20.0) rather than from the view code: it
follows the events of every action and fails when an event or a view gives a seat
characters of another player's legion it may not know.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import fields, is_dataclass, replace
from typing import Any

from engine.battle.state import BattleStep
from engine.characters import CHARACTERS
from engine.game import actions as a
from engine.game import events as ev
from engine.game.apply import apply, new_game
from engine.game.events import Event
from engine.game.legal import legal_actions
from engine.game.notation import parse_position
from engine.game.outcome import aftermath_seat
from engine.game.state import GameState, Legion, Options, Phase, Stage
from engine.game.view import View

#: The starting legion (RULES §1.6) in the notation.
START = "Angel,Centaur*2,Gargoyle*2,Ogre*2,Titan"
#: Its two first-turn halves (RULES §3.3).
TITAN_HALF = ("Centaur", "Gargoyle", "Ogre", "Titan")
ANGEL_HALF = ("Angel", "Centaur", "Gargoyle", "Ogre")


def pos(text: str, **changes: Any) -> GameState:
    """The position ``text``, with GameState fields replaced by ``changes``."""
    state = parse_position(text)
    return replace(state, **changes) if changes else state


def act(state: GameState, seat: int, *actions: a.Action) -> tuple[GameState, list[Event]]:
    """Apply ``actions`` in order for ``seat``; all the events."""
    events: list[Event] = []
    for action in actions:
        state, more = apply(state, seat, action)
        events += more
    return state, events


def reveals(state: GameState, seat: int) -> list[a.Action]:
    """The whole-legion reveals open to ``seat`` (errata 4.5): one per legion of it, by
    marker, with a character not yet shown to everyone, unless it fights the battle in
    progress (everything is public there, RULES §5.7)."""
    engagement = state.engagement
    fighting = (
        {engagement.attacker, engagement.defender}
        if engagement is not None and engagement.stage is Stage.BATTLE
        else set()
    )
    return [
        a.Reveal(marker)
        for marker, legion in sorted(state.legions.items())
        if legion.owner == seat
        and marker not in fighting
        and Counter(legion.characters) - Counter(legion.revealed)
    ]


def colours_chosen(players: int, seed: int = 1, options: Options | None = None) -> GameState:
    """A new game after every player took the first free colour (RULES §1.6)."""
    state, _ = new_game([f"P{i}" for i in range(players)], seed, options)
    while state.phase is Phase.COLOURS:
        choice = legal_actions(state, state.active)[0]
        state, _ = apply(state, state.active, choice)
    return state


def of_type(events: Iterable[Event], kind: type[Event]) -> list[Any]:
    """The events of one type."""
    return [e for e in events if isinstance(e, kind)]


def in_limbo(state: GameState) -> Counter[str]:
    """Characters slain in the engagement under way, not yet returned (RULES §11.3): a
    battle's casualties, then the whole engagement's slain in its aftermath."""
    engagement = state.engagement
    if engagement is None:
        return Counter()
    if engagement.aftermath is not None:
        return Counter(engagement.aftermath.slain)
    if engagement.battle is not None:
        return Counter(c.name for c in engagement.battle.casualties)
    return Counter()


def counter_totals(state: GameState) -> Counter[str]:
    """Caretaker + legions + dead pile (+ slain in limbo), per character."""
    total = Counter(state.caretaker) + Counter(state.dead) + in_limbo(state)
    for legion in state.legions.values():
        total.update(legion.characters)
    return total


def assert_conserved(state: GameState) -> None:
    """Every counter of the game is somewhere (RULES §1.1, §1.5)."""
    totals = counter_totals(state)
    wrong = {n: (totals[n], c.count) for n, c in CHARACTERS.items() if totals[n] != c.count}
    assert not wrong, f"counters not conserved (found, expected): {wrong}"
    assert all(n >= 0 for n in state.caretaker.values()), state.caretaker


# --- hidden information -------------------------------------------------------------
#: Events that name characters only as the rules make public (RULES §1.7, §1.5).
PUBLIC_REVEALS = (ev.Mustered, ev.LordSummoned, ev.LordAcquired, ev.LegionMoved)
#: Events that carry no characters (checked: they must not mention any).
SILENT = (
    ev.TowersAssigned, ev.ColourChosen, ev.TurnStarted, ev.LegionSplit, ev.SplitUndone,
    ev.MovementRolled, ev.MoveTakenBack, ev.Recombined, ev.MovementEnded, ev.EngagementBegun,
    ev.Fled, ev.NoMoreProposalsDeclared, ev.EngagementConceded, ev.BattleBegun,
    ev.LegionEliminated, ev.EngagementResolved, ev.PointsScored, ev.Declined,
    ev.PlayerEliminated, ev.MarkersInherited, ev.WithdrawalQueued, ev.TimeLimitExpired,
    ev.TurnEnded, ev.GameOver,
)  # fmt: skip


def names_in(value: Any) -> list[str]:
    """Every character name found anywhere inside an event's fields."""
    if isinstance(value, str):
        return [value] if value in CHARACTERS else []
    if is_dataclass(value) and not isinstance(value, type):
        return [n for f in fields(value) for n in names_in(getattr(value, f.name))]
    if isinstance(value, tuple | list | frozenset):
        return [n for item in value for n in names_in(item)]
    return []


class Knowledge:
    """What the rules let each seat know, updated action by action."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.public: dict[str, Counter[str]] = {}
        """Per marker, characters revealed to everyone (what record keeping may show)."""
        self.engaged: dict[str, int] = {}
        """Markers of the engagement in progress → owner (both see both, RULES §5.2)."""
        self.battle = False
        self.running: dict[str, Counter[str]] = {}
        """Each legion's contents while the events of one action are checked."""

    def copy(self) -> Knowledge:
        """An independent copy (each counter copied: what ``copy.deepcopy`` makes, faster)."""
        twin = Knowledge(self.seats)
        twin.public = {marker: Counter(known) for marker, known in self.public.items()}
        twin.engaged = dict(self.engaged)
        twin.battle = self.battle
        twin.running = {marker: Counter(known) for marker, known in self.running.items()}
        return twin

    # --- entitlement -------------------------------------------------------------------
    def may_see(self, state: GameState, marker: str, seat: int | None) -> bool:
        legion = state.legions[marker]
        if seat == legion.owner:
            return True
        if state.result is not None and legion.owner in state.result.winners:
            return True
        if marker not in self.engaged:
            return False
        return self.battle or seat in self.engaged.values()

    # --- following the game ------------------------------------------------------------
    def follow(self, before: GameState, after: GameState, events: list[ev.Event]) -> None:
        """Update after one action (call after the checks of that action)."""
        for event in events:
            if isinstance(event, ev.EngagementBegun):
                self.engaged = {
                    m: before.legions[m].owner if m in before.legions else after.legions[m].owner
                    for m in (event.attacker, event.defender)
                }
                self.battle = False
            elif isinstance(event, ev.BattleBegun):
                self.battle = True
            self._public(event)
        if after.engagement is None:
            self.engaged, self.battle = {}, False

    def _public(self, event: ev.Event) -> None:
        if event.audience is not None:
            return
        if isinstance(event, ev.Mustered):
            self._add(event.marker, [*event.revealed, event.recruit])
        elif isinstance(event, ev.LordSummoned | ev.LordAcquired | ev.LegionMoved):
            self._add(event.marker, [event.lord] if event.lord else [])
        elif isinstance(event, ev.Revealed):
            self._add(event.marker, event.characters)
        elif isinstance(event, ev.LegionSplit | ev.SplitUndone):
            self.public.pop(event.child, None)
        elif isinstance(event, ev.LegionEliminated):
            self.public.pop(event.marker, None)
        elif isinstance(event, ev.Recombined):
            for marker in event.merged:
                self.public.pop(marker, None)

    def _add(self, marker: str, names: Any) -> None:
        known = self.public.setdefault(marker, Counter())
        for name, n in Counter(names).items():
            known[name] = max(known[name], n)

    # --- checks ------------------------------------------------------------------------
    def check_events(self, before: GameState, after: GameState, events: list[ev.Event]) -> None:
        """No event tells a seat what it may not know (call before :meth:`follow`)."""
        battle = self.battle or any(isinstance(e, ev.BattleBegun) for e in events)
        engaged = dict(self.engaged)
        self.running = {m: Counter(leg.characters) for m, leg in before.legions.items()}
        for event in events:
            if isinstance(event, ev.EngagementBegun):
                engaged = {m: before.legions[m].owner for m in (event.attacker, event.defender)}
            audience = event.audience
            assert audience is None or (audience and max(audience) < self.seats), event
            self._check_event(before, after, event, engaged, battle)
            self._run(event)

    def _run(self, event: ev.Event) -> None:
        """Follow each legion's contents through the events of one action."""
        running = self.running
        if isinstance(event, ev.LegionContents):
            running[event.marker] = Counter(event.characters)
        elif isinstance(event, ev.LordSummoned):
            running[event.donor][event.lord] -= 1
            running[event.marker][event.lord] += 1
        elif isinstance(event, ev.Mustered):
            running[event.marker][event.recruit] += 1
        elif isinstance(event, ev.LordAcquired):
            running[event.marker][event.lord] += 1
        elif isinstance(event, ev.CharactersSlain):
            running[event.marker] -= Counter(event.characters)

    def _check_event(
        self,
        before: GameState,
        after: GameState,
        event: ev.Event,
        engaged: dict[str, int],
        battle: bool,
    ) -> None:
        audience = event.audience
        if isinstance(event, ev.LegionContents):
            owner = (after.legions.get(event.marker) or before.legions[event.marker]).owner
            assert audience == frozenset({owner}), f"contents of {event.marker} to {audience}"
        elif isinstance(event, ev.Revealed):
            if event.reason == "engagement":
                assert audience is not None and audience <= set(engaged.values()), event
                assert event.marker in engaged, event
            elif event.reason == "battle":
                assert battle and event.marker in engaged, event
            elif event.reason == "shown by its owner":  # errata 4.5: his choice, to all
                assert audience is None, event
                extra = Counter(event.characters) - self.running.get(event.marker, Counter())
                assert not extra, f"{event} shows characters the legion does not hold"
            else:
                assert after.result is not None, event
                assert after.legions[event.marker].owner in after.result.winners, event
        elif isinstance(event, ev.ProposalsMade | ev.ProposalAccepted):
            assert audience is not None and audience <= set(engaged.values()), event
        elif isinstance(event, ev.CharactersSlain):
            extra = Counter(event.characters) - self.running.get(event.marker, Counter())
            assert not extra, f"{event} names characters the legion did not hold"
        elif isinstance(event, ev.CharactersReturned):
            pass  # to the stacks and the dead pile, both public (RULES §1.5)
        elif isinstance(event, SILENT):
            assert not names_in(event), f"{type(event).__name__} names characters: {event}"
        elif not isinstance(event, PUBLIC_REVEALS):
            # Battle events (or new kinds): public ones may name characters only in battle.
            assert audience is not None or battle or not names_in(event), event

    def check_view(self, state: GameState, seen: View) -> None:
        """The view shows no hidden contents and only public reveals as known."""
        for lv in seen.legions:
            legion = state.legions[lv.marker]
            assert (lv.land, lv.height, lv.owner) == (legion.land, legion.height, legion.owner)
            if lv.characters is not None:
                assert lv.characters == legion.characters
                assert self.may_see(state, lv.marker, seen.seat), (seen.seat, lv)
            if lv.known:
                assert state.options.record_keeping, lv
                extra = Counter(lv.known) - self.public.get(lv.marker, Counter())
                assert not extra, f"{lv.marker} shows {dict(extra)} never revealed"
        engagement = seen.engagement
        if engagement is not None and engagement.proposals:
            assert seen.seat in self.engaged.values(), "proposals shown outside the engagement"
        if engagement is not None and engagement.aftermath is not None:
            rights = (engagement.aftermath.may_summon, engagement.aftermath.may_reinforce)
            assert rights == (None, None) or seen.seat == aftermath_seat(state), rights


def wiped_out(state: GameState, legion: Legion) -> bool:
    """A battling legion with nobody left, while the end check's window is open (§5.8)."""
    engagement = state.engagement
    battle = engagement.battle if engagement is not None else None
    return (
        legion.height == 0
        and battle is not None
        and battle.step is BattleStep.END_CHECK
        and legion.marker in (battle.attacker, battle.defender)
    )
