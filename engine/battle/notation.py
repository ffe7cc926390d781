"""A one-line notation for a battle position (RULES §8), in parse/format pairs.

``Tower s3 t3 defender strike: Bk01 Titan(8)@D4:2 Ogre@C3* | Rd02 Troll@A1 Angel@off``

- the terrain; optional ``s1``/``s3``/``s5`` (entry side, default 3); ``t1``–``t7`` (battle
  turn, default 1); the phasing side (default defender); the step (default maneuver;
  ``end-check`` for the end check);
- after the colon the defender's legion, then ``|`` and the attacker's, each a marker and
  its characters;
- a character is ``Name[(power)]@where[:hits][!][*]``: ``where`` is a hex, ``off`` (waiting
  to enter), ``slain`` (removed earlier) or ``leftoff`` (left off the board); ``(power)``
  gives a Titan's Power (default 6); ``:hits`` its damage; ``!`` slain but not yet removed;
  ``*`` it has struck this strike phase.

The other bookkeeping (moves, carry-over, concessions, summon flags) is not written; a
parsed battle has its defaults, with the sides' first maneuvers over as the turn implies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.battle.position import Fighter, Position, Side
from engine.battle.state import Battle, BattleStep, Casualty
from engine.battleland import LABELS, battleland
from engine.characters import TITAN, character, titan_power
from engine.errors import InvalidNotation

_TOKEN = re.compile(
    r"^(?P<name>[A-Za-z]+)(?:\((?P<power>\d+)\))?@(?P<where>[A-F]\d|off|slain|leftoff)"
    r"(?::(?P<hits>\d+))?(?P<slain>!)?(?P<struck>\*)?$"
)
_ORDER = (Side.DEFENDER, Side.ATTACKER)


@dataclass
class _Legion:
    marker: str
    fighters: list[Fighter]
    waiting: list[str]
    casualties: list[Casualty]
    struck: set[str]
    titan: int


def _step_name(step: BattleStep) -> str:
    return step.value.replace(" ", "-")


def _parse_header(text: str) -> tuple[str, int, int, Side, BattleStep]:
    words = text.split()
    if not words:
        raise InvalidNotation("a battle needs a terrain")
    terrain, entry, turn, side, step = words[0], 3, 1, Side.DEFENDER, BattleStep.MANEUVER
    battleland(terrain)
    steps = {_step_name(s): s for s in BattleStep}
    for word in words[1:]:
        if re.fullmatch(r"s[135]", word):
            entry = int(word[1])
        elif re.fullmatch(r"t[1-7]", word):
            turn = int(word[1])
        elif word in {s.value for s in Side}:
            side = Side(word)
        elif word in steps:
            step = steps[word]
        else:
            raise InvalidNotation(f"{word!r} is not an entry side, turn, side or step")
    return terrain, entry, turn, side, step


def _parse_legion(side: Side, text: str) -> _Legion:
    words = text.split()
    if not words:
        raise InvalidNotation(f"the {side.value} needs a legion marker")
    legion = _Legion(words[0], [], [], [], set(), titan_power(0))
    for word in words[1:]:
        match = _TOKEN.match(word)
        if match is None:
            raise InvalidNotation(f"{word!r} is not a character like Ogre@C3:2")
        name = character(match["name"]).name
        if match["power"]:
            if name != TITAN:
                raise InvalidNotation(f"only a Titan's Power may be given, not {word!r}")
            legion.titan = int(match["power"])
        power = legion.titan if name == TITAN else character(name).power
        where, hits = match["where"], int(match["hits"] or 0)
        if where == "off":
            legion.waiting.append(name)
        elif where in ("slain", "leftoff"):
            legion.casualties.append(Casualty(name, side, power, on_board=where == "slain"))
        elif where in LABELS:
            slain = bool(match["slain"]) or hits >= power
            legion.fighters.append(Fighter(name, side, where, power, hits, slain))
            if match["struck"]:
                legion.struck.add(where)
        else:
            raise InvalidNotation(f"{where!r} is not a battleland hex")
    return legion


def _entered(turn: int, phasing: Side, step: BattleStep) -> frozenset[Side]:
    past_maneuver = step not in (
        BattleStep.OPEN_ATTACKER,
        BattleStep.OPEN_DEFENDER,
        BattleStep.REINFORCE,
        BattleStep.SUMMON,
        BattleStep.MANEUVER,
    )
    entered = set()
    if turn > 1 or phasing is Side.ATTACKER or past_maneuver:
        entered.add(Side.DEFENDER)
    if turn > 1 or (phasing is Side.ATTACKER and past_maneuver):
        entered.add(Side.ATTACKER)
    return frozenset(entered)


def parse_battle(text: str) -> Battle:
    """The battle written in :mod:`notation <engine.battle.notation>`; raises
    :class:`InvalidNotation` for unparsable text or two characters in one hex."""
    header, sep, body = text.partition(":")
    if not sep or body.count("|") != 1:
        raise InvalidNotation(f"{text!r}: write 'Terrain ...: defender | attacker'")
    terrain, entry, turn, phasing, step = _parse_header(header)
    parts = dict(zip(_ORDER, body.split("|"), strict=True))
    legions = {side: _parse_legion(side, parts[side]) for side in _ORDER}
    fighters = tuple(f for side in _ORDER for f in legions[side].fighters)
    hexes = [f.hex for f in fighters]
    if len(set(hexes)) != len(hexes):
        raise InvalidNotation(f"{text!r}: two characters in one hex")
    return Battle(
        entry_side=entry,
        attacker=legions[Side.ATTACKER].marker,
        defender=legions[Side.DEFENDER].marker,
        position=Position(terrain, fighters),
        off_board={side: tuple(sorted(legions[side].waiting)) for side in Side},
        titan_power={side: legions[side].titan for side in Side},
        turn=turn,
        phasing=phasing,
        step=step,
        struck=frozenset(h for side in _ORDER for h in legions[side].struck),
        casualties=tuple(c for side in _ORDER for c in legions[side].casualties),
        entered=_entered(turn, phasing, step),
    )


def _name(battle: Battle, side: Side, name: str) -> str:
    power = battle.titan_power.get(side, titan_power(0))
    return f"{name}({power})" if name == TITAN and power != titan_power(0) else name


def _format_fighter(battle: Battle, f: Fighter) -> str:
    text = f"{_name(battle, f.side, f.name)}@{f.hex}"
    if f.hits:
        text += f":{f.hits}"
    if f.slain and f.hits < f.power:
        text += "!"
    if f.hex in battle.struck:
        text += "*"
    return text


def _format_legion(battle: Battle, side: Side) -> str:
    words = [battle.marker(side)]
    words += [_format_fighter(battle, f) for f in battle.position.of_side(side)]
    words += [f"{_name(battle, side, n)}@off" for n in battle.waiting(side)]
    words += [
        f"{_name(battle, side, c.name)}@{'slain' if c.on_board else 'leftoff'}"
        for c in battle.casualties
        if c.side is side
    ]
    return " ".join(words)


def format_battle(battle: Battle) -> str:
    """The one-line notation of ``battle`` (see the module docstring)."""
    header = [battle.terrain]
    if battle.entry_side != 3:
        header.append(f"s{battle.entry_side}")
    header += [f"t{battle.turn}", battle.phasing.value, _step_name(battle.step)]
    legions = " | ".join(_format_legion(battle, side) for side in _ORDER)
    return f"{' '.join(header)}: {legions}"
