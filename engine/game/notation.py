"""A one-line text notation for a masterboard position, parsed and formatted in pairs.

``Bk01@100:Angel,Centaur*2,Titan Rd03/Bk@41:Troll*2[Troll] | turn=Bk phase=move roll=4``

Legions are ``marker[/owner]@land:characters[[revealed]]``: the owner is the marker's
colour unless ``/Xx`` names an heir (RULES §12.2), ``Name*n`` repeats, ``[...]`` is what
everyone has seen (record keeping). After ``|`` come ``key=value`` fields (:data:`FIELDS`
order): ``turn`` (mover's colour; default the highest tower), ``phase`` (default move with
a roll, else split), ``roll``, ``first=yes|no`` (default: yes iff the mover holds 8),
``mulligan=yes``, ``splits=Bk03<Bk01``, ``moves=Bk01:100>41/5,Bk02:100>3+tower(Angel)``
(``Bk01`` alone: a loop), ``takebacks=2`` (take-backs made this phase, a house limit),
``summoned=yes``, ``mustered=Bk01``, ``scores=Bk:120``, ``dead=Troll*2``, ``out=Gd``,
``withdrawing=Rd``, ``inherited=Rd:Gd+Bu`` (markers held), ``towers=Bk:600``,
``players=Rd,Bk`` (seat order; default the colour order; ``-300`` is a seat that withdrew
while the colours were chosen, with no colour, in tower 300), ``final=3`` (errata 21.1),
``winners=Bk``, ``options=record_keeping,time_limit`` (the options that are on or off;
the take-back limit is not written).

Towers default to the lowest Tower a player stands on, else the lowest free one; the
caretaker holds what is neither on the board nor dead; the dice are ``Dice(0)``. In the
engagement phase an engaged legion of the mover with no listed move gets a loop record.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, fields

from engine.characters import CHARACTERS, TITAN, character
from engine.dice import Dice
from engine.errors import InvalidNotation
from engine.frozen import evolve
from engine.game.state import GameState, Legion, MoveRecord, Options, Phase, Player, Result, Turn
from engine.markers import COLOURS, colour, marker_colour
from engine.masterboard import TOWERS, parse_land
from engine.movement import MoveKind
from engine.reveals import teleport_lords
from engine.split import FIRST_TURN_HEIGHT

FIELDS = (
    "turn", "phase", "roll", "first", "mulligan", "splits", "moves", "takebacks", "summoned",
    "mustered",
    "scores", "dead", "out", "withdrawing", "inherited", "towers", "players", "final",
    "winners", "options",
)  # fmt: skip
_LEGION = re.compile(
    r"^(?P<marker>\w+)(?:/(?P<owner>\w+))?@(?P<land>\d+):(?P<chars>[\w*,]+)"
    r"(?:\[(?P<revealed>[\w*,]*)\])?$"
)
_MOVE = re.compile(
    r"^(?P<marker>\w+)(?::(?P<start>\d+)>(?P<land>\d+))?(?:/(?P<side>\d))?"
    r"(?:\+(?P<kind>tower|titan)(?:\((?P<lord>\w+)\))?)?$"
)
_KINDS = {"tower": MoveKind.TOWER_TELEPORT, "titan": MoveKind.TITAN_TELEPORT}
#: A seat with no colour: it withdrew while the colours were chosen (``-300``: its tower).
_COLOURLESS = re.compile(r"^-(?P<tower>\d+)$")
#: The options written in ``options=``: those that are on or off.
_FLAGS = tuple(f.name for f in fields(Options) if f.type == "bool")
_ORDER = [c.abbrev for c in COLOURS]
_YES = {"yes": True, "no": False}


class _Header(dict[str, str]):
    """The fields after the ``|``, still as text."""

    def list(self, key: str) -> list[str]:
        return [x for x in self.get(key, "").split(",") if x]

    def pairs(self, key: str) -> dict[str, str]:
        found = {}
        for item in self.list(key):
            name, sep, value = item.partition(":")
            if not sep:
                raise InvalidNotation(f"{key}= wants Colour:value pairs, not {item!r}")
            found[_colour(name)] = value
        return found

    def number(self, key: str) -> int | None:
        text = self.get(key, "")
        if text and not text.isdigit():
            raise InvalidNotation(f"{key}={text!r} is not a number")
        return int(text) if text else None

    def flag(self, key: str) -> bool | None:
        text = self.get(key, "")
        if text and text not in _YES:
            raise InvalidNotation(f"{key}= is yes or no, not {text!r}")
        return _YES.get(text)


@dataclass(frozen=True)
class _Legion:
    marker: str
    owner: str
    land: int
    characters: tuple[str, ...]
    revealed: tuple[str, ...] = ()


def _colour(text: str) -> str:
    return colour(text).abbrev


def _seat(text: str) -> str:
    """A seat of ``players=``: a colour's abbreviation, or ``-TOWER`` for a colourless one."""
    return text if _COLOURLESS.match(text) else _colour(text)


def parse_characters(text: str) -> tuple[str, ...]:
    """``"Troll*2,Ogre"`` → ``("Ogre", "Troll", "Troll")`` (sorted, RULES §1.1 names)."""
    names: list[str] = []
    for item in filter(None, text.split(",")):
        name, _, times = item.partition("*")
        if times and not times.isdigit():
            raise InvalidNotation(f"{item!r}: write a repeat as Name*2")
        names += [character(name).name] * (int(times) if times else 1)
    return tuple(sorted(names))


def format_characters(names: Iterable[str]) -> str:
    """``("Ogre", "Troll", "Troll")`` → ``"Ogre,Troll*2"``."""
    counts = Counter(names)
    return ",".join(f"{n}*{k}" if k > 1 else n for n, k in sorted(counts.items()))


# --- parsing -----------------------------------------------------------------------------
def parse_position(text: str) -> GameState:
    """The :class:`GameState` written as ``text``; :class:`InvalidNotation` if there is none."""
    board, _, rest = text.partition("|")
    legions = [_parse_legion(item) for item in board.split()]
    markers = Counter(leg.marker for leg in legions)
    if markers and max(markers.values()) > 1:
        raise InvalidNotation(f"{markers.most_common(1)[0][0]} appears twice")
    header = _Header()
    for item in rest.split():
        key, sep, value = item.partition("=")
        if not sep or key not in FIELDS or key in header:
            raise InvalidNotation(f"{item!r} is not a header field ({', '.join(FIELDS)})")
        header[key] = value
    return _build(legions, header)


def _parse_legion(text: str) -> _Legion:
    match = _LEGION.match(text)
    if match is None:
        raise InvalidNotation(f"{text!r} is not a legion (like Bk01@100:Titan,Angel)")
    owner_colour = marker_colour(match["marker"])
    owner = _colour(match["owner"]) if match["owner"] else owner_colour.abbrev
    characters = parse_characters(match["chars"])
    if not 1 <= len(characters) <= FIRST_TURN_HEIGHT:
        raise InvalidNotation(f"{text!r}: a legion holds 1 to 8 characters")
    revealed = parse_characters(match["revealed"] or "")
    if Counter(revealed) - Counter(characters):
        raise InvalidNotation(f"{text!r}: what was revealed must be in the legion")
    return _Legion(match["marker"], owner, parse_land(match["land"]), characters, revealed)


def _seat_order(legions: list[_Legion], header: _Header) -> list[str]:
    named = {leg.owner for leg in legions} | set(header.pairs("scores"))
    named |= {_colour(c) for c in header.list("out") + header.list("turn")}
    order = [_seat(c) for c in header.list("players")] or sorted(named, key=_ORDER.index)
    if named - set(order) or len(set(order)) != len(order):
        raise InvalidNotation(f"players= must list each player once: {', '.join(sorted(named))}")
    others = header.list("withdrawing") + header.list("winners")
    others += list(header.pairs("inherited")) + list(header.pairs("towers"))
    stranger = next((c for c in others if _colour(c) not in order), None)
    if stranger:
        raise InvalidNotation(f"{stranger} is not a player of this position")
    if not 2 <= len(order) <= len(TOWERS):
        raise InvalidNotation(f"a position needs 2 to 6 players, not {len(order)} (RULES §1.6)")
    return order


def _towers(order: list[str], legions: list[_Legion], given: dict[str, str]) -> dict[str, int]:
    """Given towers (a colourless seat's in its name), then the lowest Tower a player stands
    on, then the lowest free one."""
    towers = {abbrev: parse_land(land) for abbrev, land in given.items()}
    for abbrev in order:
        colourless = _COLOURLESS.match(abbrev)
        if colourless:
            towers[abbrev] = parse_land(colourless["tower"])
    for abbrev in [a for a in order if a not in towers]:
        standing = sorted(leg.land for leg in legions if leg.owner == abbrev)
        free = [t for t in standing if t in TOWERS and t not in towers.values()]
        if free:
            towers[abbrev] = free[0]
    for abbrev in [a for a in order if a not in towers]:
        towers[abbrev] = min(t for t in TOWERS if t not in towers.values())
    if len(set(towers.values()) & set(TOWERS)) != len(towers) or set(towers) != set(order):
        raise InvalidNotation("each player needs a Tower of his own (RULES §1.6)")
    return towers


def _players(legions: list[_Legion], header: _Header) -> tuple[Player, ...]:
    order = _seat_order(legions, header)
    towers = _towers(order, legions, header.pairs("towers"))
    scores = {a: int(v) if v.isdigit() else -1 for a, v in header.pairs("scores").items()}
    if min(scores.values(), default=0) < 0:
        raise InvalidNotation("scores= wants Colour:points, e.g. Bk:120")
    out = {_colour(c) for c in header.list("out")}
    inherited = {
        a: [_colour(c) for c in v.split("+")] for a, v in header.pairs("inherited").items()
    }
    mover, first = (header.list("turn") or [""])[0], header.flag("first")
    players = []
    for seat, abbrev in enumerate(order):
        if _COLOURLESS.match(abbrev):
            players.append(Player(seat, f"Seat {seat + 1}", towers[abbrev], eliminated=True))
            continue
        held = [abbrev, *inherited.get(abbrev, [])]
        held += [marker_colour(leg.marker).abbrev for leg in legions if leg.owner == abbrev]
        held = list(dict.fromkeys(held))
        starting = any(leg.owner == abbrev and len(leg.characters) == 8 for leg in legions)
        new = first if first is not None and mover and _colour(mover) == abbrev else starting
        players.append(
            Player(
                seat=seat,
                name=colour(abbrev).name,
                tower=towers[abbrev],
                colour=colour(abbrev).name,
                score=scores.get(abbrev, 0),
                markers=() if abbrev in out else tuple(m for c in held for m in colour(c).markers),
                eliminated=abbrev in out,
                withdrawing=abbrev in {_colour(c) for c in header.list("withdrawing")},
                turns_taken=0 if new else 1,
            )
        )
    return tuple(players)


def _check(state: GameState) -> None:
    """No legions for the eliminated, one Titan a player (RULES §1.4)."""
    for player in state.players:
        owned = list(state.legions_of(player.seat))
        if player.eliminated and owned:
            raise InvalidNotation(f"{player.name} is out of the game but has legions")
        if sum(leg.characters.count(TITAN) for leg in owned) > 1:
            raise InvalidNotation(f"{player.name} has more than one Titan")


def _caretaker(legions: Iterable[Legion], dead: Counter[str]) -> dict[str, int]:
    """What is neither on the board nor dead (RULES §1.5)."""
    used = dead + Counter(c for leg in legions for c in leg.characters)
    over = next((CHARACTERS[n] for n in used if used[n] > CHARACTERS[n].count), None)
    if over:
        raise InvalidNotation(f"more than the {over.count} {over.plural} of the game")
    return {name: data.count - used[name] for name, data in CHARACTERS.items()}


def _build(parsed: list[_Legion], header: _Header) -> GameState:
    players = _players(parsed, header)
    seat = {_colour(p.colour): p.seat for p in players if p.colour}
    legions = {
        leg.marker: Legion(leg.marker, seat[leg.owner], leg.land, leg.characters, leg.revealed)
        for leg in parsed
    }
    dead = Counter(parse_characters(header.get("dead", "")))
    living = [p for p in players if not p.eliminated]
    turn = header.list("turn")
    active = seat[_colour(turn[0])] if turn else max(living or players, key=lambda p: p.tower).seat
    winners = tuple(seat[_colour(c)] for c in header.list("winners"))
    options = set(header.list("options"))
    if options - set(_FLAGS):
        raise InvalidNotation(f"options= are {', '.join(_FLAGS)}")
    state = GameState(
        options=Options(**{name: True for name in options}),
        dice=Dice(0),
        players=players,
        legions=legions,
        caretaker=_caretaker(legions.values(), dead),
        dead=dict(dead),
        phase=_phase(header),
        active=active,
        turn=Turn(number=1, first_turn=players[active].turns_taken == 0),
        final_turns=header.number("final"),
        result=Result(winners, "position") if winners else None,
    )
    _check(state)
    return evolve(state, turn=_turn(state, header))


def _phase(header: _Header) -> Phase:
    text = header.get("phase", "")
    if not text:
        return Phase.MOVE if header.get("roll") else Phase.SPLIT
    phases = {p.value: p for p in Phase if p is not Phase.COLOURS}
    if text not in phases:
        raise InvalidNotation(f"phase={text!r}: {', '.join(phases)} (every colour chosen)")
    return phases[text]


def _turn(state: GameState, header: _Header) -> Turn:
    roll = header.number("roll")
    if roll is not None and not 1 <= roll <= 6:
        raise InvalidNotation(f"roll={roll} is not a die roll")
    splits = {}
    for item in header.list("splits"):
        child, _, parent = item.partition("<")
        if child == parent or not all(map(marker_colour, (child, parent))):
            raise InvalidNotation(f"splits=: {item!r} is not child<parent")
        splits[child] = parent
    moves = [_move(state, item) for item in header.list("moves")]
    if state.phase is Phase.ENGAGE:
        moves += _engaged_loops(state, {m.marker for m in moves})
    after = state.phase in (Phase.ENGAGE, Phase.MUSTER)
    return evolve(
        state.turn,
        roll=roll,
        mulligan_used=bool(header.flag("mulligan")),
        split_parents=splits,
        moves=tuple(moves),
        take_backs=header.number("takebacks") or 0,
        moved=frozenset(m.marker for m in moves) if after else frozenset(),
        summoned=bool(header.flag("summoned")),
        mustered=frozenset(header.list("mustered")),
    )


def _move(state: GameState, text: str) -> MoveRecord:
    match = _MOVE.match(text)
    if match is None:
        raise InvalidNotation(f"moves=: {text!r} is not a move (like Bk01:100>41/5)")
    marker, legion = match["marker"], state.legions.get(match["marker"])
    marker_colour(marker)
    if match["start"] is None and legion is None:
        raise InvalidNotation(f"moves=: {marker} is not on the board; give start>land")
    start = parse_land(match["start"] or (legion.land if legion else 0))
    land = parse_land(match["land"]) if match["land"] else start
    if legion is not None and legion.land != land:
        raise InvalidNotation(f"moves=: {marker} stands on {legion.land}, not {land}")
    kind = _KINDS[match["kind"]] if match["kind"] else MoveKind.NORMAL
    lord = character(match["lord"]).name if match["lord"] else None
    lords = teleport_lords(legion.characters if legion else ())
    if kind is MoveKind.TOWER_TELEPORT and lord is None and lords:
        lord = lords[0]
    elif kind is MoveKind.TITAN_TELEPORT:
        lord = TITAN
    side = int(match["side"]) if match["side"] else None
    if side not in (None, 1, 3, 5):
        raise InvalidNotation(f"moves=: entry side {side} is not 1, 3 or 5 (RULES §2.7)")
    return MoveRecord(marker, start, land, kind, side, lord)


def _engaged_loops(state: GameState, listed: set[str]) -> list[MoveRecord]:
    """Records for the mover's engaged legions that the text gave no move."""
    return [
        MoveRecord(leg.marker, leg.land, leg.land, MoveKind.NORMAL, None)
        for leg in sorted(state.legions_of(state.active), key=lambda leg: leg.marker)
        if leg.marker not in listed
        and any(o.owner != leg.owner for o in state.legions_in(leg.land))
    ]


# --- formatting --------------------------------------------------------------------------
def format_position(state: GameState) -> str:
    """The canonical one-line notation of ``state``'s masterboard position.

    Raises :class:`InvalidNotation` while the mover or a winner has no colour: the
    notation writes positions once the colours are chosen.
    """
    abbrev = [_colour(p.colour) if p.colour else f"-{p.tower}" for p in state.players]
    named = [state.active, *(state.result.winners if state.result else ())]
    if any(state.player(s).colour is None for s in named):
        raise InvalidNotation("a position is written once its players have chosen colours")
    board = " ".join(
        _format_legion(leg, abbrev[leg.owner])
        for leg in sorted(state.legions.values(), key=lambda leg: leg.marker)
    )
    values = _header_values(state, abbrev)
    header = " ".join(f"{key}={values[key]}" for key in FIELDS if values.get(key))
    return f"{board} | {header}" if board else f"| {header}"


def _format_legion(legion: Legion, owner: str) -> str:
    text = legion.marker + ("" if owner == legion.marker[:2] else f"/{owner}")
    text += f"@{legion.land}:{format_characters(legion.characters)}"
    return text + (f"[{format_characters(legion.revealed)}]" if legion.revealed else "")


def _format_move(record: MoveRecord) -> str:
    text = f"{record.marker}:{record.start}>{record.land}"
    text += f"/{record.entry_side}" if record.entry_side is not None else ""
    if record.kind is not MoveKind.NORMAL:
        kind = next(k for k, v in _KINDS.items() if v is record.kind)
        text += f"+{kind}({record.revealed})" if record.revealed else f"+{kind}"
    return text


def _header_values(state: GameState, abbrev: list[str]) -> dict[str, str]:
    turn, players = state.turn, state.players
    starting = any(leg.height == FIRST_TURN_HEIGHT for leg in state.legions_of(state.active))
    parsed = [
        _Legion(leg.marker, abbrev[leg.owner], leg.land, ()) for leg in state.legions.values()
    ]
    default_towers = _towers(abbrev, parsed, {})
    own = [
        [m for m in p.markers if p.colour and m not in colour(p.colour).markers] for p in players
    ]
    options = [name for name in _FLAGS if getattr(state.options, name)]
    coloured = [p for p in players if p.colour]
    return {
        "turn": abbrev[state.active],
        "phase": state.phase.value,
        "roll": str(turn.roll or ""),
        "first": "" if turn.first_turn == starting else ("yes" if turn.first_turn else "no"),
        "mulligan": "yes" if turn.mulligan_used else "",
        "splits": ",".join(f"{c}<{p}" for c, p in sorted(turn.split_parents.items())),
        "moves": ",".join(_format_move(m) for m in turn.moves),
        "takebacks": str(turn.take_backs) if turn.take_backs else "",
        "summoned": "yes" if turn.summoned else "",
        "mustered": ",".join(sorted(turn.mustered)),
        "scores": ",".join(f"{abbrev[p.seat]}:{p.score}" for p in players if p.score),
        "dead": format_characters(Counter(state.dead).elements()),
        "out": ",".join(abbrev[p.seat] for p in coloured if p.eliminated),
        "withdrawing": ",".join(abbrev[p.seat] for p in players if p.withdrawing),
        "inherited": ",".join(
            f"{abbrev[p.seat]}:" + "+".join(dict.fromkeys(m[:2] for m in own[p.seat]))
            for p in players
            if own[p.seat]
        ),
        "towers": ""
        if all(default_towers[abbrev[p.seat]] == p.tower for p in players)
        else ",".join(f"{abbrev[p.seat]}:{p.tower}" for p in coloured),
        "players": ""
        if len(coloured) == len(players) and abbrev == sorted(abbrev, key=_ORDER.index)
        else ",".join(abbrev),
        "final": "" if state.final_turns is None else str(state.final_turns),
        "winners": ",".join(abbrev[s] for s in state.result.winners) if state.result else "",
        "options": ",".join(options),
    }
