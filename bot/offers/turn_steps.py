"""The steps of a turn on the masterboard: split, move, muster (RULES §3, §4, §6).

Each is built from the owner's legal actions only. A split takes the characters that
leave from one menu (several at once) and then a free marker; a move a legion, then a
land, then how it goes there where there is a choice (entry side §4.8, teleport §4.4–4.5,
the lord shown §1.7); a muster a recruit with its recruiters (grouped by legion when
there are more than a menu holds).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bot.legality import legal
from bot.narration.describe import legion_text
from bot.narration.table import listing, plural
from bot.offers.labels import land_words, move_detail, offer
from bot.offers.model import MAX_OPTIONS, Choices, Menu, Offer, grouped, laid_out
from bot.offers.steps import Step, back, branch, kind, next_step, of_types
from bot.replies import Picture, PictureKind
from bot.syntax import words as w
from engine.errors import IllegalAction, InvalidNotation, TitanError
from engine.game import actions as a
from engine.game.apply import apply
from engine.game.state import GameState
from engine.game.view import legion_view
from engine.movement import MoveKind

OCCURRENCE = "~"
"""Marks the second and later of equal characters in a menu (``Ogre~2``): a menu's
options need distinct values."""


def _legion_line(state: GameState, seat: int, marker: str) -> str:
    return legion_text(legion_view(state, state.legion(marker), seat))


def _own(state: GameState, seat: int, marker: str) -> None:
    legion = state.legions.get(marker)
    if legion is None or legion.owner != seat:
        raise IllegalAction(f"{marker} is not one of your legions")


# --- split (RULES §3) -------------------------------------------------------------------------
@kind("split", "Split…", a.Split, a.UndoSplit, a.Roll)
def split_step(state: GameState, seat: int, words: Sequence[str]) -> Step:
    """Which legion to split; its characters that leave; the new legion's marker."""
    actions = legal(state, seat)
    splits = of_types(actions, a.Split)
    if not words:
        return _split_start(state, seat, actions)
    marker = w.marker(words[0])
    _own(state, seat, marker)
    mine = [x for x in splits if isinstance(x, a.Split) and x.legion == marker]
    if not mine:
        raise IllegalAction(f"{marker} cannot split now (RULES §3)")
    if len(words) == 1:
        return _split_pick(state, seat, marker, mine)
    return _split_marker(state, seat, marker, [_name(w) for w in words[1:]])


def _split_start(state: GameState, seat: int, actions: list[a.Action]) -> Step:
    parents = list(dict.fromkeys(x.legion for x in of_types(actions, a.Split)))  # type: ignore[attr-defined]
    buttons = [branch(f"Split {m} ({state.legions[m].height})", "split", m) for m in parents]
    undos = [offer(x, state) for x in of_types(actions, a.UndoSplit)]
    roll = [offer(x, state) for x in of_types(actions, a.Roll)]
    made = state.turn.split_parents
    if state.turn.first_turn and not made:
        text = (
            "Your first turn: split your starting legion into two of 4, each with one lord "
            "(the Titan in one, the Angel in the other) and three creatures (RULES §3.3)."
        )
    elif parents:
        text = "Split a legion (4 high or more): choose it."
    elif made:
        splits = ", ".join(f"{child} from {parent}" for child, parent in made.items())
        text = f"Split this turn: {splits}. Put a split back, or roll for movement."
    else:
        text = "No legion of yours can split now."
    lines = [text, *(_legion_line(state, seat, m) for m in parents)]
    return Step("\n".join(lines), laid_out([*buttons, *undos, *roll], "Split a legion…"))


def _split_pick(state: GameState, seat: int, marker: str, splits: list[a.Split]) -> Step:
    legion = state.legions[marker]
    sizes = {len(x.characters) for x in splits}
    seen: Counter[str] = Counter()
    options = []
    for name in sorted(legion.characters):
        seen[name] += 1
        value = name if seen[name] == 1 else f"{name}{OCCURRENCE}{seen[name]}"
        options.append(Offer(name, value))
    least, most = min(sizes), max(sizes)
    count = str(least) if least == most else f"{least} to {most}"
    text = (
        f"Split {_legion_line(state, seat, marker)}: choose the {count} characters that "
        f"leave {marker}; the others stay."
    )
    if state.turn.first_turn:
        text += " Each legion needs one lord: the Titan or the Angel."
    menu = Menu("The characters that leave…", tuple(options), next_step("split", marker),
                least, most)  # fmt: skip
    return Step(text, Choices((back("split"),), (menu,)))


def _name(word: str) -> str:
    return w.character(word.split(OCCURRENCE)[0])


def _split_marker(state: GameState, seat: int, marker: str, leaving: list[str]) -> Step:
    free = state.free_markers(seat)
    if not free:
        raise IllegalAction("you have no free legion marker (RULES §3.5)")
    action = a.Split(marker, free[0], tuple(leaving))
    try:
        apply(state, seat, action)  # a split rolls no dice: this only checks it
    except TitanError as refused:
        again = _split_pick(state, seat, marker, of_types(legal(state, seat), a.Split))  # type: ignore[arg-type]
        return Step(f"That split is not allowed: {refused}\n{again.text}", again.choices)
    staying = list((Counter(state.legions[marker].characters) - Counter(leaving)).elements())
    text = (
        f"{marker} keeps {listing(staying)}; {listing(leaving)} leave as a new legion. "
        "Choose its marker:"
    )
    first = offer(action, state, f"Split off as {free[0]}")
    others = [
        offer(a.Split(marker, m, tuple(leaving)), state, f"as {m}")
        for m in free[1 : MAX_OPTIONS + 1]
    ]
    menus = (Menu("Or another marker…", tuple(others)),) if others else ()
    return Step(text, Choices((first, back("split", marker)), menus))


# --- movement (RULES §2, §4) ------------------------------------------------------------------
@kind("move", "Move…", a.Move, a.TakeBack, a.EndMovement, a.Mulligan)
def move_step(state: GameState, seat: int, words: Sequence[str]) -> Step:
    """Which legion to move; where to; how, where there is a choice."""
    actions = legal(state, seat)
    moves = [x for x in of_types(actions, a.Move) if isinstance(x, a.Move)]
    if not words:
        return _move_start(state, seat, actions, moves)
    marker = w.marker(words[0])
    _own(state, seat, marker)
    mine = [x for x in moves if x.legion == marker]
    if not mine:
        raise IllegalAction(f"{marker} has no move now (it moved, or nothing is in reach)")
    if len(words) == 1:
        return _move_lands(state, seat, marker, mine)
    if words[1].lower() == TELEPORTS:
        only = _teleport_only(mine)
        far = [x for x in mine if x.land in only]
        if not far:
            raise IllegalAction(f"{marker} has no teleport now (RULES §4.4-4.5)")
        return _move_lands(state, seat, marker, far, teleports=True)
    try:
        land = int(words[1])
    except ValueError:
        raise InvalidNotation(f"choices move: {words[1]!r} is not a land") from None
    ways = [x for x in mine if x.land == land]
    if not ways:
        raise IllegalAction(f"{marker} cannot reach {land}")
    text = f"{_legion_line(state, seat, marker)} to {land_words(land)}: how?"
    leaves = [offer(x, state, _how(x, state)) for x in ways]
    picture = _board(state, seat, marker, land)
    return Step(text, laid_out([*leaves, back("move", marker)], "How…"), picture)


def _board(
    state: GameState, seat: int, legion: str | None = None, land: int | None = None
) -> Picture:
    """The mover's own board: where his legions may go (teleports too, RULES §4.4–4.5),
    the chosen ``legion``'s only, ``land`` highlighted (private: :func:`engine.game.reach.reach`
    for ``seat``)."""
    return Picture(PictureKind.MASTERBOARD, state, viewer=seat, land=land, legion=legion)


def _how(move: a.Move, state: GameState) -> str:
    words = move_detail(move, state).removeprefix(", ")
    return words[:1].upper() + words[1:] if words else "Plain move"


def _move_start(state: GameState, seat: int, actions: list[a.Action], moves: list[a.Move]) -> Step:
    roll = state.turn.roll
    movers = list(dict.fromkeys(x.legion for x in moves))
    lines = [f"You rolled {roll}. " + ("Choose a legion to move:" if movers else
             "No legion of yours can move any more.")]  # fmt: skip
    lines += [_legion_line(state, seat, m) for m in movers]
    legions = [branch(f"{m} ({state.legions[m].height})", "move", m) for m in movers]
    backs = [offer(x, state) for x in of_types(actions, a.TakeBack)]
    done = [offer(x, state) for x in of_types(actions, a.EndMovement) if not x.keep]  # type: ignore[attr-defined]
    again = [offer(x, state) for x in of_types(actions, a.Mulligan)]  # RULES §4.3
    choices = laid_out(legions, "Move a legion…", spare_rows=2)
    taking = laid_out(backs, "Take back a move…", spare_rows=1)
    picture = _board(state, seat) if movers else None
    last = Choices((*again, *done))
    return Step("\n".join(lines), _joined(choices, taking, last), picture)


TELEPORTS = "teleport"
"""The word of the step listing a legion's lands reached by teleport alone."""


def _teleport_only(moves: Sequence[a.Move]) -> set[int]:
    """The lands of ``moves`` that only a teleport reaches (RULES §4.4-4.5)."""
    normal = {x.land for x in moves if x.kind in (None, MoveKind.NORMAL)}
    return {x.land for x in moves} - normal


def _move_lands(
    state: GameState, seat: int, marker: str, moves: list[a.Move], *, teleports: bool = False
) -> Step:
    """Where ``marker`` may go. When the lands do not fit one menu, those only a teleport
    reaches (a 6 from a Tower reaches some 60) wait one step further, so the few a normal
    move reaches come first."""
    far = set() if teleports else _teleport_only(moves)
    lands = sorted({x.land for x in moves})
    if far and len(far) < len(lands) and len(lands) > MAX_OPTIONS:
        lands = [land for land in lands if land not in far]
    else:
        far = set()
    options = []
    for land in lands:
        ways = [x for x in moves if x.land == land]
        if len(ways) == 1:
            options.append(
                offer(ways[0], state, f"{land_words(land)}{move_detail(ways[0], state)}")
            )
        else:
            options.append(branch(land_words(land), "move", marker, str(land),
                                  detail=f"{plural(len(ways), 'way')} to go there"))  # fmt: skip
    if far:
        label = f"Teleport: {plural(len(far), 'more land')}"
        options.append(branch(label, "move", marker, TELEPORTS))
    where = "where to by teleport" if teleports else "where to"
    text = f"{_legion_line(state, seat, marker)}, rolled {state.turn.roll}: {where}?"
    lands_choices = laid_out(options, "Where to…", spare_rows=4)
    home = back("move", marker) if teleports else back("move")
    return Step(text, _joined(lands_choices, Choices((home,))), _board(state, seat, marker))


def _joined(*parts: Choices) -> Choices:
    return Choices(
        tuple(o for part in parts for o in part.buttons),
        tuple(m for part in parts for m in part.menus),
    )


# --- mustering (RULES §6) ---------------------------------------------------------------------
@kind("muster", "Muster…", a.Muster, a.EndTurn)
def muster_step(state: GameState, seat: int, words: Sequence[str]) -> Step:
    """What to muster (with which recruiters shown, least revealing first), by legion when
    the choices are more than a menu holds."""
    actions = legal(state, seat)
    musters = [x for x in of_types(actions, a.Muster) if isinstance(x, a.Muster)]
    end = [offer(x, state) for x in of_types(actions, a.EndTurn)]
    if words:
        marker = w.marker(words[0])
        _own(state, seat, marker)
        mine = [offer(x, state) for x in musters if x.legion == marker]
        if not mine:
            raise IllegalAction(f"{marker} can muster nothing now (RULES §6)")
        text = f"{_legion_line(state, seat, marker)} may muster:"
        return Step(text, _joined(laid_out(mine, "Muster…", spare_rows=4),
                                  Choices((back("muster"),))))  # fmt: skip
    leaves = [offer(x, state) for x in musters]
    legions = list(dict.fromkeys(x.legion for x in musters))
    shown = grouped(
        leaves,
        key=lambda o: o.command.split()[1],
        step=lambda m: branch(f"Muster in {m}", "muster", m),
    )
    text = "Your musters (least revealing first):" if musters else "Nothing to muster now."
    lines = [text, *(_legion_line(state, seat, m) for m in legions)]
    return Step("\n".join(lines), _joined(laid_out(shown, "Muster…", spare_rows=4),
                                          Choices(tuple(end))))  # fmt: skip
