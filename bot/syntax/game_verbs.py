"""The game verbs: command words → engine actions, and engine actions → command words.

Parse and format come in pairs: for every legal action ``a``, reading
``format_action(a)`` gives an action with the same effect.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from bot.syntax import words as w
from bot.syntax.verbs import ActionReader, Verb, VerbKind, register
from engine.battle.position import Side
from engine.errors import InvalidNotation, WrongPhase
from engine.game import actions as a
from engine.game.battle_actions import AcceptConcession
from engine.game.battle_flow import battle_of
from engine.game.state import GameState, Phase, Proposal
from engine.game.waiting import waiting_words
from engine.movement import MoveKind

A = TypeVar("A", bound=a.Action)
FORMATTERS: dict[type[a.Action], Callable[[Any], str]] = {}
DoneResolver = Callable[[w.Args, GameState, int], a.Action | None]
DONE_RESOLVERS: list[DoneResolver] = []
"""Readers of ``done`` for other decisions (the battle's phases), tried in order."""

_TELEPORTS = {"tower": MoveKind.TOWER_TELEPORT, "titan": MoveKind.TITAN_TELEPORT}
_ROLES = {"attacker": Side.ATTACKER, "defender": Side.DEFENDER, "both": None}


def formatter(action_type: type[A]) -> Callable[[Callable[[A], str]], Callable[[A], str]]:
    """Register the function writing ``action_type`` as a command."""

    def wrap(function: Callable[[A], str]) -> Callable[[A], str]:
        FORMATTERS[action_type] = function
        return function

    return wrap


def format_action(action: a.Action) -> str:
    """The command that asks for ``action``."""
    function = FORMATTERS.get(type(action))
    if function is None:
        raise InvalidNotation(f"no command writes {type(action).__name__}")
    return function(action)


def game_verb(
    name: str, usage: str, summary: str, *aliases: str
) -> Callable[[ActionReader], ActionReader]:
    """Register a game verb whose reader is the decorated function."""

    def wrap(read: ActionReader) -> ActionReader:
        register(Verb(name, VerbKind.GAME, usage, summary, read, aliases))
        return read

    return wrap


def _simple(name: str, cls: type[a.Action], summary: str, *aliases: str) -> None:
    """A verb without words for an action without fields."""

    def read(args: w.Args, state: GameState, seat: int) -> a.Action:
        args.finish()
        return cls()

    register(Verb(name, VerbKind.GAME, name, summary, read, aliases))
    FORMATTERS[cls] = lambda action: name


def _names(words: list[str]) -> tuple[str, ...]:
    return tuple(w.character(word) for word in words)


@game_verb("colour", "colour COLOUR [MARKER]", "take a colour (and starting marker)", "color")
def _colour(args: w.Args, state: GameState, seat: int) -> a.Action:
    name = w.colour(args.take("a colour"))
    first = args.peek()
    chosen = w.marker(args.take("marker")) if first is not None else None
    args.finish()
    return a.ChooseColour(name, chosen)


@formatter(a.ChooseColour)
def _format_colour(action: a.ChooseColour) -> str:
    return f"colour {action.colour}" + (f" {action.marker}" if action.marker else "")


@game_verb("split", "split LEGION [NEW_MARKER] CHARACTER…", "split characters off a legion")
def _split(args: w.Args, state: GameState, seat: int) -> a.Action:
    legion = w.marker(args.take("the legion to split"))
    word = args.peek()
    if word is not None and w.is_marker(word):
        new = w.marker(args.take("marker"))
    else:
        free = state.free_markers(seat)
        if state.phase is not Phase.SPLIT:
            waiting = waiting_words(state, seat)
            raise WrongPhase(f"you can split only in the split phase; {waiting}")
        if not free:
            raise InvalidNotation(
                "you have no free legion marker, so no legion can split (RULES §3.1): `roll` "
                "for movement instead"
            )
        new = free[0]
    characters = _names(args.until(()))
    if not characters:
        raise InvalidNotation(f"split: name the characters that leave {legion}")
    return a.Split(legion, new, characters)


@formatter(a.Split)
def _format_split(action: a.Split) -> str:
    return " ".join(("split", action.legion, action.new_marker, *action.characters))


@game_verb("unsplit", "unsplit LEGION", "put a legion split off this turn back")
def _unsplit(args: w.Args, state: GameState, seat: int) -> a.Action:
    marker = w.marker(args.take("the legion split off"))
    args.finish()
    return a.UndoSplit(marker)


FORMATTERS[a.UndoSplit] = lambda action: f"unsplit {action.marker}"


@game_verb(
    "move",
    "move LEGION LAND [side 1|3|5] [teleport tower|titan] [lord LORD]",
    "move a legion",
)
def _move(args: w.Args, state: GameState, seat: int) -> a.Action:
    legion = w.marker(args.take("the legion to move"))
    land = w.land(args.take("the land to move to"))
    opts = args.options(("side", "teleport", "lord"))
    side = w.number(_one(opts, "side"), "side", least=1, most=5) if "side" in opts else None
    kind = None
    if "teleport" in opts:
        word = _one(opts, "teleport").lower()
        if word not in _TELEPORTS:
            raise InvalidNotation(f"move: teleport tower or teleport titan, not {word!r}")
        kind = _TELEPORTS[word]
    lord = w.character(_one(opts, "lord")) if "lord" in opts else None
    return a.Move(legion, land, kind, side, lord)


def _one(opts: dict[str, list[str]], name: str) -> str:
    values = opts[name]
    if len(values) != 1:
        raise InvalidNotation(f"{name}: give exactly one value")
    return values[0]


@formatter(a.Move)
def _format_move(action: a.Move) -> str:
    text = f"move {action.legion} {action.land}"
    if action.entry_side is not None:
        text += f" side {action.entry_side}"
    if action.kind is MoveKind.TOWER_TELEPORT:
        text += " teleport tower"
    elif action.kind is MoveKind.TITAN_TELEPORT:
        text += " teleport titan"
    if action.lord is not None:
        text += f" lord {action.lord}"
    return text


@game_verb("takeback", "takeback LEGION", "take back a move (and every later one)")
def _takeback(args: w.Args, state: GameState, seat: int) -> a.Action:
    marker = w.marker(args.take("the legion whose move to take back"))
    args.finish()
    return a.TakeBack(marker)


FORMATTERS[a.TakeBack] = lambda action: f"takeback {action.legion}"


@game_verb(
    "done",
    "done [keep MARKER…]",
    "end this phase or step (split, movement, maneuver, strikes, muster) or pass a chance",
    "end",
)
def _done(args: w.Args, state: GameState, seat: int) -> a.Action:
    for resolve in DONE_RESOLVERS:
        found = resolve(args, state, seat)
        if found is not None:
            return found
    if state.phase is Phase.MOVE:
        opts = args.options(("keep",))
        return a.EndMovement(tuple(w.marker(m) for m in opts.get("keep", [])))
    args.finish()
    if state.phase is Phase.SPLIT:
        return a.Roll()
    if state.phase is Phase.MUSTER:
        return a.EndTurn()
    if state.phase is Phase.COLOURS:
        raise WrongPhase("choose a colour first (`colour COLOUR`)")
    if state.phase is Phase.ENGAGE:
        raise WrongPhase(
            f"the engagements must be resolved first (see `legal`); {waiting_words(state, seat)}"
        )
    raise WrongPhase("the game is over")


@formatter(a.EndMovement)
def _format_end_movement(action: a.EndMovement) -> str:
    return " ".join(("done", *(("keep", *action.keep) if action.keep else ())))


FORMATTERS[a.EndTurn] = lambda action: "done"


@game_verb("engage", "engage LAND", "resolve the engagement in a land next")
def _engage(args: w.Args, state: GameState, seat: int) -> a.Action:
    land = w.land(args.take("the land of the engagement"))
    args.finish()
    return a.Engage(land)


FORMATTERS[a.Engage] = lambda action: f"engage {action.land}"


@game_verb(
    "propose",
    "propose attacker|defender|both [lose CHARACTER…] [or …]",
    "propose who is eliminated (and what the survivor loses)",
)
def _propose(args: w.Args, state: GameState, seat: int) -> a.Action:
    proposals: list[Proposal] = []
    while True:
        word = args.take("attacker, defender or both").lower()
        if word not in _ROLES:
            raise InvalidNotation(f"propose: attacker, defender or both, not {word!r}")
        losses: tuple[str, ...] = ()
        if args.keyword("lose", "loses"):
            losses = _names(args.until(("or",)))
        proposals.append(Proposal(_ROLES[word], losses))
        if args.keyword("or") is None:
            break
    args.finish()
    return a.Propose(tuple(proposals))


def format_proposal(proposal: Proposal) -> str:
    """``attacker lose Ogre``: the words of one proposal."""
    role = proposal.eliminate.value if proposal.eliminate is not None else "both"
    losses = " ".join(proposal.survivor_losses)
    return f"{role} lose {losses}" if losses else role


@formatter(a.Propose)
def _format_propose(action: a.Propose) -> str:
    return "propose " + " or ".join(format_proposal(p) for p in action.proposals)


@game_verb("accept", "accept [NUMBER]", "accept a proposal (by number), or in battle a concession")
def _accept(args: w.Args, state: GameState, seat: int) -> a.Action:
    if args.peek() is None and battle_of(state) is not None:
        return AcceptConcession()
    number = w.number(args.take("the proposal's number").lstrip("#"), "proposal number", least=1)
    args.finish()
    return a.Accept(number)


FORMATTERS[a.Accept] = lambda action: f"accept {action.number}"


@game_verb("summon", "summon DONOR LORD", "summon an Angel or Archangel from a legion")
def _summon(args: w.Args, state: GameState, seat: int) -> a.Action:
    donor = w.marker(args.take("the donor legion"))
    lord = w.character(args.take("the lord to summon"))
    args.finish()
    return a.Summon(donor, lord)


FORMATTERS[a.Summon] = lambda action: f"summon {action.donor} {action.lord}"


@game_verb("reinforce", "reinforce CHARACTER [reveal CHARACTER…]", "muster into the defender")
def _reinforce(args: w.Args, state: GameState, seat: int) -> a.Action:
    recruit = w.character(args.take("the recruit"))
    opts = args.options(("reveal",))
    return a.Reinforce(recruit, _names(opts.get("reveal", [])))


@formatter(a.Reinforce)
def _format_reinforce(action: a.Reinforce) -> str:
    return " ".join(("reinforce", action.recruit, *_reveal(action.revealed)))


def _reveal(revealed: tuple[str, ...] | None) -> tuple[str, ...]:
    return ("reveal", *revealed) if revealed else ()


@game_verb("acquire", "acquire LORD", "take the Angel or Archangel you earned")
def _acquire(args: w.Args, state: GameState, seat: int) -> a.Action:
    lord = w.character(args.take("Angel or Archangel"))
    args.finish()
    return a.Acquire(lord)


FORMATTERS[a.Acquire] = lambda action: f"acquire {action.lord}"


@game_verb("muster", "muster LEGION CHARACTER [reveal CHARACTER…]", "muster a character")
def _muster(args: w.Args, state: GameState, seat: int) -> a.Action:
    legion = w.marker(args.take("the legion"))
    recruit = w.character(args.take("the recruit"))
    opts = args.options(("reveal",))
    revealed = _names(opts["reveal"]) if "reveal" in opts else None
    return a.Muster(legion, recruit, revealed)


@formatter(a.Muster)
def _format_muster(action: a.Muster) -> str:
    return " ".join(("muster", action.legion, action.recruit, *_reveal(action.revealed)))


@game_verb(
    "reveal",
    "reveal LEGION [CHARACTER…]",
    "show one of your legions (or the characters named) to everyone, at any time",
    "show",
)
def _show(args: w.Args, state: GameState, seat: int) -> a.Action:
    marker = w.marker(args.take("the legion to show"))
    return a.Reveal(marker, _names(args.until(())) or None)


@formatter(a.Reveal)
def _format_show(action: a.Reveal) -> str:
    return " ".join(("reveal", action.marker, *(action.characters or ())))


_simple("roll", a.Roll, "end the split phase and roll for movement")
_simple("mulligan", a.Mulligan, "reroll the movement die (first turn only)")
_simple("flee", a.Flee, "flee with the defending legion")
_simple("concede", a.Concede, "concede the engagement (in a battle: at your own decisions)")
_simple("nomore", a.NoMoreProposals, "declare that you make no more proposals")
_simple("fight", a.Fight, "fight the battle out")
_simple("decline", a.Decline, "pass on a summon, reinforcement, acquisition or chance to concede")
_simple("withdraw", a.Withdraw, "concede the whole game")
_simple("expire", a.ExpireTimeLimit, "declare the agreed time limit expired")
