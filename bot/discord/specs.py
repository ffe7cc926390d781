"""Slash commands as sentences of the shared command language, and their legal choices.

A :class:`Spec` says how a command's options become the words of a command line
(``move Bk01 104 side 3``), which the service reads exactly as the console does. Its
``kinds`` and the option → field links tie the options to the engine actions the command
may produce, so autocomplete offers (and ambiguity detection weighs) only what
:func:`~engine.game.legal.legal_actions` lists now.
"""

from __future__ import annotations

import dataclasses
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from engine.game import actions as a
from engine.game import battle_actions as b
from engine.movement import MoveKind

MAX_CHOICES = 25
"""Discord shows at most 25 autocomplete choices."""
_TELEPORTS = {MoveKind.TOWER_TELEPORT: "tower", MoveKind.TITAN_TELEPORT: "titan"}


@dataclass(frozen=True)
class Word:
    """One option of a command: where it goes in the command line and what it sets.

    ``keyword`` is written before the value (``side 3``); ``flag`` options write only the
    keyword when true; ``many`` values are several words (characters); ``field`` names
    the engine action's field the option chooses (for legal choices).
    """

    option: str
    field: str | None = None
    keyword: str | None = None
    many: bool = False
    flag: bool = False

    def words(self, value: object) -> list[str]:
        """The words this option adds for ``value`` (none when it is not given)."""
        if value is None or value is False or value == "":
            return []
        head = [self.keyword] if self.keyword else []
        if self.flag:
            return head
        values = str(value).split() if self.many else [str(value)]
        return head + [shlex.quote(v) for v in values]


@dataclass(frozen=True)
class Spec:
    """A slash command: the verb it writes, its options, the engine actions it may mean."""

    verb: str
    words: tuple[Word, ...] = ()
    kinds: tuple[type[a.Action], ...] = ()

    def text(self, values: Mapping[str, object]) -> str:
        """The command line for the given option values."""
        parts = [self.verb]
        for word in self.words:
            parts += word.words(values.get(word.option))
        return " ".join(parts)

    def word(self, option: str) -> Word:
        return next(w for w in self.words if w.option == option)


def show(value: object) -> str:
    """An action field's value as a player types it (``""`` for "not given")."""
    if value is None:
        return ""
    if isinstance(value, MoveKind):
        return _TELEPORTS.get(value, "")
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, tuple | list):
        return " ".join(show(v) for v in value)
    return str(value)


def _same(field_value: str, typed: str) -> bool:
    return sorted(field_value.casefold().split()) == sorted(typed.casefold().split())


def _given(spec: Spec, values: Mapping[str, object], skip: str | None = None) -> dict[str, str]:
    """The options given a value (as text) that choose an action's field."""
    return {
        w.field: str(values[w.option])
        for w in spec.words
        if w.field and w.option != skip and values.get(w.option) not in (None, "")
    }


def candidates(
    spec: Spec, legal: Sequence[a.Action], values: Mapping[str, object], skip: str | None = None
) -> list[a.Action]:
    """The legal actions of the command's kinds agreeing with every given option."""
    given = _given(spec, values, skip)
    return [
        action
        for action in legal
        if isinstance(action, spec.kinds)
        and all(
            hasattr(action, field) and _same(show(getattr(action, field)), typed)
            for field, typed in given.items()
        )
    ]


def suggestions(
    spec: Spec, option: str, legal: Sequence[a.Action], values: Mapping[str, object], current: str
) -> list[str]:
    """Legal values for ``option`` given the other options, those starting with the typed
    text first, then those containing it; at most 25."""
    field = spec.word(option).field
    if field is None:
        return []
    found = dict.fromkeys(
        show(getattr(action, field))
        for action in candidates(spec, legal, values, skip=option)
        if hasattr(action, field)
    )
    found.pop("", None)
    typed = current.strip().casefold()
    starting = [v for v in found if v.casefold().startswith(typed)]
    containing = [v for v in found if typed in v.casefold() and v not in starting]
    return (starting + containing)[:MAX_CHOICES]


def ambiguity(
    spec: Spec, legal: Sequence[a.Action], values: Mapping[str, object]
) -> list[a.Action]:
    """The legal actions the command could mean when it does not say which (else ``[]``).

    A command is clear when one candidate leaves every field it was not told at its
    default (a normal move, a strike with the natural dice): the engine's own default.
    It is clear too when the candidates differ only in what they reveal (a teleport's
    lord, a muster's recruiters: :data:`~engine.game.actions.REVEAL_FIELDS`): the engine's
    default is then the first, least revealing one (RULES §1.7).
    """
    found = candidates(spec, legal, values)
    if len({a.apart_from_reveal(action) for action in found}) < 2:
        return []
    told = set(_given(spec, values))
    for action in found:
        untold = [f.name for f in dataclasses.fields(action) if f.name not in told]
        if all(getattr(action, name) in (None, ()) for name in untold):
            return []
    return found


def _simple(verb: str) -> Spec:
    return Spec(verb)


CONFIRM = Word("confirm", keyword="confirm", flag=True)
"""``confirm``: the command was thought over (no second look is asked for)."""


def _confirmed(verb: str, *words: Word, kinds: tuple[type[a.Action], ...] = ()) -> Spec:
    """A command that may throw something away (:mod:`bot.second_look`), with ``confirm``."""
    return Spec(verb, (*words, CONFIRM), kinds)


# --- lobby -----------------------------------------------------------------------------------
NEW = Spec(
    "new",
    (
        Word("players", keyword="players"),
        Word("record_keeping", keyword="record_keeping", flag=True),
        Word("time_limit", keyword="time_limit"),
        Word("deadline", keyword="deadline"),
        Word("timeout", keyword="timeout"),
        Word("standin", keyword="standin"),
        Word("inactivity", keyword="inactivity", flag=True),
        Word("unrated", keyword="unrated", flag=True),
    ),
)
FORCE = _simple("force")
SETTINGS = Spec(
    "settings",
    (
        Word("deadline", keyword="deadline"),
        Word("timeout", keyword="timeout"),
        Word("standin", keyword="standin"),
        Word("remind", keyword="remind"),
        Word("before", keyword="before"),
    ),
)
JOIN = Spec("join", (Word("name", many=True),))
ADD = Spec("add", (Word("user"), Word("name", many=True)))
LEAVE, START, CANCEL = _simple("leave"), _simple("start"), _simple("cancel")

# --- the turn --------------------------------------------------------------------------------
COLOUR = Spec("colour", (Word("colour", "colour"),), (a.ChooseColour,))
SPLIT = Spec(
    "split",
    (
        Word("legion", "legion"),
        Word("marker", "new_marker"),
        Word("characters", "characters", many=True),
    ),
    (a.Split,),
)
UNSPLIT = Spec("unsplit", (Word("legion", "marker"),), (a.UndoSplit,))
ROLL, MULLIGAN = _confirmed("roll"), _simple("mulligan")
MOVE = Spec(
    "move",
    (
        Word("legion", "legion"),
        Word("land", "land"),
        Word("side", "entry_side", "side"),
        Word("teleport", "kind", "teleport"),
        Word("lord", "lord", "lord"),
    ),
    (a.Move,),
)
TAKEBACK = Spec("takeback", (Word("legion", "legion"),), (a.TakeBack,))
DONE = _confirmed("done", Word("keep", keyword="keep", many=True))
MUSTER = Spec("muster", (Word("legion", "legion"), Word("recruit", "recruit")), (a.Muster,))

# --- engagements -----------------------------------------------------------------------------
ENGAGE = Spec("engage", (Word("land", "land"),), (a.Engage,))
FLEE, FIGHT, CONCEDE = _simple("flee"), _simple("fight"), _confirmed("concede")
NOMORE, DECLINE = _simple("nomore"), _simple("decline")
PROPOSE = _confirmed("propose", Word("eliminate"), Word("lose", keyword="lose", many=True))
ACCEPT = _confirmed("accept", Word("number", "number"), kinds=(a.Accept,))
ACQUIRE = Spec("acquire", (Word("lord", "lord"),), (a.Acquire,))

# --- battles ---------------------------------------------------------------------------------
MANEUVER = Spec("maneuver", (Word("character", "character"), Word("to", "to")), (b.Maneuver,))
UNDO = Spec("undo", (Word("hex", "hex"),), (b.TakeBackManeuver,))
STRIKE = Spec(
    "strike",
    (
        Word("striker", "striker"),
        Word("target", "target"),
        Word("dice", "dice", "dice"),
        Word("strike_number", "strike_number", "sn"),
    ),
    (b.Strike,),
)
CARRY = Spec("carry", (Word("target", "target"),), (b.CarryOver,))
RANGESTRIKE = Spec(
    "rangestrike",
    (
        Word("striker", "striker"),
        Word("target", "target"),
        Word("strike_number", "strike_number", "sn"),
    ),
    (b.Rangestrike,),
)
SUMMON = Spec("summon", (Word("donor", "donor"), Word("lord", "lord")), (a.Summon,))
REINFORCE = Spec("reinforce", (Word("recruit", "recruit"),), (a.Reinforce,))
INSIST = _confirmed("insist")
ACCEPT_CONCESSION = _simple("accept")

# --- the whole game and information ----------------------------------------------------------
WITHDRAW, EXPIRE = _confirmed("withdraw"), _simple("expire")
REVEAL = Spec(
    "reveal", (Word("legion", "marker"), Word("characters", "characters", many=True)), (a.Reveal,)
)
LEGIONS, BOARD, STATUS = _simple("legions"), _simple("board"), _simple("status")
MYGAMES = _simple("mygames")
GAMES = _simple("games")
DMS = Spec("dms", (Word("choice"),))
REMINDERS = Spec("reminders", (Word("choice"),))
AUTOSTRIKE = Spec("autostrike", (Word("choice"),))
FIGHTON = Spec("fighton", (Word("choice"),))
QUIET = Spec("quiet", (Word("hours"), Word("tz")))
AWAY = Spec("away", (Word("until", keyword="until"), Word("standin", keyword="standin")))
BACK = Spec("away", (Word("off", keyword="off", flag=True),))
BATTLE = _simple("battle")
LEGAL, HELP = _simple("legal"), _simple("help")
HISTORY = Spec("history", (Word("count"),))
RECORD = Spec("record", (Word("game"),))
REPLAY = Spec("replay", (Word("game"),))
CREATURE = Spec("creature", (Word("name"),))
LAND = Spec("land", (Word("number"),))


# --- tournaments -----------------------------------------------------------------------------
def _tournament(sub: str, *words: Word) -> Spec:
    """``tournament SUB NAME …``: the verb and its subcommand, then the tournament's name."""
    return Spec(f"tournament {sub}", (Word("name"), *words))


T_JOIN, T_LEAVE, T_STANDINGS = (_tournament(w) for w in ("join", "leave", "standings"))
RATINGS = _simple("ratings")
RATING = Spec("rating", (Word("user"),))
T_CREATE = _tournament(
    "create",
    Word("format", keyword="format"),
    Word("players", keyword="players"),
    Word("heats", keyword="heats"),
    Word("scheme", keyword="scheme"),
    Word("advance", keyword="advance"),
    Word("count", keyword="count"),
    Word("mutual", keyword="mutual"),
    Word("deadline", keyword="deadline"),
    Word("timeout", keyword="timeout"),
    Word("standin", keyword="standin"),
    Word("time_limit", keyword="time_limit"),
    Word("agreed", keyword="time_limit", flag=True),
    Word("record_keeping", keyword="record_keeping", flag=True),
    Word("threads", keyword="threads", flag=True),
    Word("unrated", keyword="unrated", flag=True),
    Word("autostrike", keyword="autostrike"),
    Word("away", keyword="away"),
)
T_ADD = _tournament("add", Word("players", many=True))
T_ADD_AI = _tournament("add", Word("ai", keyword="ai"))
T_CLOSE, T_HEAT, T_STATUS = (_tournament(w) for w in ("close", "heat", "status"))
T_REMIND, T_ADVANCE = _tournament("remind"), _tournament("advance")
T_ARCHIVE = _tournament("archive")
T_EXTEND = _tournament("extend", Word("table"), Word("by"))
T_FORCE = _tournament("force", Word("table"))
T_PAUSE = _tournament("pause", Word("table"))
T_RESUME = _tournament("resume", Word("table"))
T_ADJUDICATE = _tournament(
    "adjudicate", Word("table"), Word("how"), Word("places", many=True), Word("reason", many=True)
)
"""``… 2.3 score REASON…`` (the score as it stands) or ``… 2.3 ruling @a=1 @b=2 REASON…``."""
T_REPLACE = _tournament("replace", Word("old"), Word("new"))
T_ELIMINATOR = _tournament("eliminator", Word("entrant"))
