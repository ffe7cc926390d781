"""The leak checker shared by the service's and the Discord layer's leak tests.

:class:`Watch` follows a game action by action with a knowledge model built from the rules
(:class:`tests.engine.game.helpers.Knowledge`, not from the bot's code) and checks any text
sent to a recipient: a line naming a legion the recipient may not see in full
(``Knowledge.may_see``, before or after the action) may name only characters revealed to
everyone for the legions on that line, or the recipient's own. A masterboard picture may
draw a teleport of another's legion only when the lord it needs was revealed to everyone
(:func:`picture_leaks`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from bot.pictures import battleland_scene, masterboard_reach
from bot.replies import Message, Picture, PictureKind
from engine.battle import events as bv
from engine.battle.position import Side
from engine.characters import CHARACTERS, TITAN, character
from engine.game import events as ev
from engine.game.battle_flow import battle_of
from engine.game.state import GameState
from tests.engine.game.helpers import Knowledge

MARKER = re.compile(r"\b[A-Z][a-z]\d\d\b")
#: Every character's name and plural → the name.
WORDS = {w: name for name, c in CHARACTERS.items() for w in (name, c.plural)}
CHARACTER = re.compile(r"\b(" + "|".join(sorted(WORDS, key=len, reverse=True)) + r")\b")


def own_characters(states: Iterable[GameState], seat: int | None) -> set[str]:
    return {
        name
        for state in states
        for legion in state.legions.values()
        if legion.owner == seat
        for name in legion.characters
    }


def leaks(
    text: str,
    seat: int | None,
    states: tuple[GameState, GameState],
    knowing: tuple[Knowledge, Knowledge],
    public: Knowledge,
    shown: dict[str, set[str]] | None = None,
) -> list[str]:
    """The lines of ``text`` that show ``seat`` (None: a spectator) hidden characters.

    ``knowing`` is the knowledge before and after the action (``states`` likewise): a
    legion either entitles the recipient to see is not hidden; ``public`` holds what was
    revealed to everyone once the action is followed, ``shown`` the characters the action
    showed everyone per marker: the publicly slain (they go back to the public stacks and
    dead pile, §1.5) and a lord summoned into a battle from its donor (§1.7).
    """
    mine = own_characters(states, seat)
    found = []
    for line in text.splitlines():
        markers = {m for m in MARKER.findall(line) if any(m in s.legions for s in states)}
        hidden = [
            m
            for m in markers
            if not any(
                m in state.legions and know.may_see(state, m, seat)
                for state, know in zip(states, knowing, strict=True)
            )
        ]
        if not hidden:
            continue
        allowed = set(mine)
        for marker in markers:
            allowed |= set(public.public.get(marker, {}))
            allowed |= (shown or {}).get(marker, set())
        named = {WORDS[w] for w in CHARACTER.findall(line)}
        if named - allowed:
            found.append(f"seat {seat}: {line!r} names {sorted(named - allowed)}")
    return found


def picture_leaks(
    picture: Picture | None, seat: int | None, public: dict[str, Counter[str]]
) -> list[str]:
    """The teleports a masterboard sent to ``seat`` draws for a legion not its own whose
    lord was not revealed to everyone (``public``): a Titan teleport (onto an enemy,
    RULES §4.5) needs the Titan known, a Tower teleport (to an empty land, §4.4) a lord."""
    if picture is None or picture.kind is not PictureKind.MASTERBOARD:
        return []
    state = picture.state
    found = []
    for legion in masterboard_reach(picture):
        owner = state.legions[legion.marker].owner
        if owner == seat:
            continue
        known = public.get(legion.marker, Counter())
        lord = any(character(name).is_lord for name in known)
        for land in legion.teleports:
            enemy = any(leg.land == land and leg.owner != owner for leg in state.legions.values())
            if not (TITAN in known if enemy else lord):
                found.append(f"seat {seat}: a picture shows {legion.marker} teleporting to {land}")
    return found


def parts(message: Message) -> list[str]:
    """Every string a recipient reads in ``message``: its text, each choice's label, detail
    and the command its button or menu option carries (custom ids and values), each menu's
    placeholder and the command a menu of several picks completes, the file name."""
    found = [message.text]
    if message.offers is not None:
        for offer in message.offers.choices.offers():
            found += [offer.label, offer.command, *([offer.detail] if offer.detail else [])]
        for menu in message.offers.menus:
            found += [menu.placeholder, *([menu.prefix] if menu.prefix else [])]
    if message.picture is not None:
        found.append(message.picture.filename)
        found += picture_lines(message.picture)
    return found


def picture_lines(picture: Picture) -> list[str]:
    """What a battleland picture shows, read from its layout: its header's texts, and one
    line per side with its legion's marker and every character drawn (on the board or
    waiting by its edge)."""
    if picture.kind is not PictureKind.BATTLELAND:
        return []
    scene = battleland_scene(picture)
    battle = battle_of(picture.state)
    if scene is None or battle is None:
        return []
    lines = scene.header.texts() if scene.header is not None else []
    lines += [f"{battle.marker(side)}: {', '.join(scene.names(side))}" for side in Side]
    return lines


class Watch:
    """What everyone may know, followed along one game; checks what is sent against it."""

    def __init__(self, players: int, state: GameState) -> None:
        self.knowledge = Knowledge(players)
        self.before = self.knowledge
        self.pair = (state, state)
        self.shown: dict[str, set[str]] = {}
        self.ever: dict[str, set[str]] = {}
        """Everything ever revealed to all, per marker (what ``history`` may retell)."""
        self.battles = 0

    @property
    def state(self) -> GameState:
        return self.pair[1]

    def follow(self, after: GameState, events: list[ev.Event]) -> None:
        """Take in one action: from the state before it to ``after``."""
        state = self.state
        self.before = self.knowledge.copy()
        self.knowledge.follow(state, after, events)
        self.battles += self.before.battle is False and self.knowledge.battle
        self.pair = (state, after)
        self.shown = {}
        for event in events:
            if isinstance(event, ev.CharactersSlain) and event.audience is None:
                self.shown.setdefault(event.marker, set()).update(event.characters)
            if isinstance(event, bv.EntrantCalled) and event.donor and event.audience is None:
                self.shown.setdefault(event.donor, set()).add(event.name)  # a summoned lord
        for marker, names in self.shown.items():
            self.ever.setdefault(marker, set()).update(names)
        for marker, known in self.knowledge.public.items():
            self.ever.setdefault(marker, set()).update(known)
        for know in (self.before, self.knowledge):  # a battle shows its legions to all
            for marker in know.engaged if know.battle else ():
                for legion in (s.legions.get(marker) for s in self.pair):
                    self.ever.setdefault(marker, set()).update(legion.characters if legion else ())

    def check_picture(self, seat: int | None, picture: Picture | None) -> list[str]:
        """The teleports of hidden lords a picture sent to ``seat`` shows."""
        return picture_leaks(picture, seat, self.knowledge.public)

    def check(self, seat: int | None, text: str) -> list[str]:
        """The leaks in ``text`` sent to ``seat`` (None: a spectator) after the last action."""
        knowing = (self.before, self.knowledge)
        return leaks(text, seat, self.pair, knowing, self.knowledge, self.shown)

    def check_now(self, seat: int | None, text: str, history: bool = False) -> list[str]:
        """The leaks in an answer given between actions (``history`` may retell the past)."""
        both, know = (self.state, self.state), (self.knowledge, self.knowledge)
        return leaks(text, seat, both, know, self.knowledge, self.ever if history else None)
