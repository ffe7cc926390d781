"""The steps of a battle: a character, then its hex; a striker, then its target; a summon
or a reinforcement (RULES §6.6, §7.2a, §8.5, §9, §10).

A battle is public (RULES §5.7): the menus of characters and of strikes go on the
battle's board itself (:func:`maneuver_menus`, :func:`strike_menus`), and only the hexes of
the character picked, or the ways to strike a target, come as a private step. Summons and
reinforcements depend on the donor's and the defender's contents, so they are asked in
private from the start.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.legality import legal
from bot.narration.ground import hex_words
from bot.narration.table import listing
from bot.offers.labels import describe, fighter_words, offer
from bot.offers.model import MAX_OPTIONS, Choices, Menu, Offer, grouped, laid_out
from bot.offers.steps import Step, back, branch, kind, of_types
from bot.replies import BattleMarks, Picture, PictureKind
from bot.syntax import words as w
from engine.battle.position import Side
from engine.errors import IllegalAction
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.battle_flow import battle_of
from engine.game.state import GameState

Strikes = b.Strike | b.Rangestrike
_KINDS: dict[str, type[b.Strike] | type[b.Rangestrike]] = {
    "strike": b.Strike,
    "rangestrike": b.Rangestrike,
}


# --- maneuvers (RULES §8.5) -------------------------------------------------------------------
def maneuver_menus(state: GameState, actions: Sequence[a.Action]) -> tuple[Menu, ...]:
    """The menu of characters that may still move (each opens its hexes), and of the moves
    that may be taken back (errata 7.0)."""
    moves = [x for x in actions if isinstance(x, b.Maneuver)]
    movers = list(dict.fromkeys(x.character for x in moves))
    options = [
        branch(_who(state, m), "maneuver", m, detail=f"{_count(moves, m)} hexes in reach")
        for m in movers
    ]
    undos = [offer(x, state) for x in actions if isinstance(x, b.TakeBackManeuver)]
    menus = []
    if options:
        menus.append(Menu("Move a character…", tuple(options[:MAX_OPTIONS])))
    if undos:
        menus.append(Menu("Take back a move…", tuple(undos[-MAX_OPTIONS:])))
    return tuple(menus)


def _who(state: GameState, mover: str) -> str:
    battle = battle_of(state)
    if battle is not None and battle.position.at(mover) is None:
        return f"{mover} (off the board)"
    return fighter_words(state, mover)


def _count(moves: Sequence[b.Maneuver], mover: str) -> int:
    return sum(1 for x in moves if x.character == mover)


@kind("maneuver", "Maneuver…", b.Maneuver, b.TakeBackManeuver, b.EndManeuver)
def maneuver_step(state: GameState, seat: int, words: Sequence[str]) -> Step:
    """The characters that may move; the hexes one of them may reach."""
    actions = legal(state, seat)
    if not words:
        text = "Choose a character to move (each moves once; take-backs undo the last moves)."
        done = [offer(x, state) for x in of_types(actions, b.EndManeuver)]
        return Step(text, Choices(tuple(done), maneuver_menus(state, actions)))
    mover = _mover(words[0])
    ends = [x for x in actions if isinstance(x, b.Maneuver) and x.character == mover]
    if not ends:
        raise IllegalAction(f"{mover} cannot move now (RULES §8.5)")
    battle = battle_of(state)
    land = battle.land if battle is not None else None
    leaves = [offer(x, state, hex_words(land, x.to)) for x in sorted(ends, key=lambda x: x.to)]
    text = f"Move {_who(state, mover)} to:"
    return Step(text, laid_out(leaves, "To the hex…"), _reach(state, mover, ends))


def _reach(state: GameState, mover: str, ends: Sequence[b.Maneuver]) -> Picture | None:
    """The battleland with ``mover`` ringed (on the board) and the hexes it may reach."""
    battle = battle_of(state)
    if battle is None or state.engagement is None:
        return None
    on_board = battle.position.at(mover) is not None
    marks = BattleMarks(
        selected=mover if on_board else None,
        destinations=tuple(sorted({x.to for x in ends})),
    )
    return Picture(PictureKind.BATTLELAND, state, land=state.engagement.land, marks=marks)


def _mover(word: str) -> str:
    """A character in battle: its hex (``D4``) or, off the board, its name."""
    return w.hex_label(word) if w.is_hex(word) else w.character(word)


# --- strikes and rangestrikes (RULES §9, §10) -------------------------------------------------
def strike_menus(state: GameState, actions: Sequence[a.Action]) -> tuple[Menu, ...]:
    """The strikes a side may make, one option a striker and target (the ways to strike,
    when there are several, in a step of their own); by striker when they are too many."""
    strikes = [x for x in actions if isinstance(x, Strikes)]
    pairs = _pairs(state, strikes)
    if len(pairs) <= MAX_OPTIONS:
        options = [o for _, o in pairs]
    else:
        strikers = dict.fromkeys(striker for striker, _ in pairs)
        options = [branch(f"{fighter_words(state, s)} strikes", "strike", s) for s in strikers]
    return (Menu("Strike…", tuple(options)),) if options else ()


def _pairs(state: GameState, strikes: Sequence[Strikes]) -> list[tuple[str, Offer]]:
    """One choice per striker and target (with its striker): the natural strike itself,
    or a step to the ways of striking that target (reduced dice to carry over, another
    strike number)."""
    found: list[tuple[str, Offer]] = []
    pairs = list(dict.fromkeys((type(x), x.striker, x.target) for x in strikes))
    for kind_, striker, target in pairs:
        ways = [x for x in strikes if (type(x), x.striker, x.target) == (kind_, striker, target)]
        natural = [x for x in ways if _natural(x)]
        if len(ways) == 1 and natural:
            found.append((striker, offer(ways[0], state)))
        else:
            verb = "rangestrike" if kind_ is b.Rangestrike else "strike"
            label = describe(natural[0] if natural else ways[0], state)
            found.append((striker, branch(label, "strike", verb, striker, target)))
    return found


def _natural(action: Strikes) -> bool:
    if isinstance(action, b.Rangestrike):
        return action.strike_number is None
    return action.dice is None and action.strike_number is None


@kind("strike", "Strike…", b.Strike, b.Rangestrike, b.EndStrikes)
def strike_step(state: GameState, seat: int, words: Sequence[str]) -> Step:
    """The strikes; a striker's targets; the ways to strike one target."""
    actions = legal(state, seat)
    strikes = [x for x in actions if isinstance(x, Strikes)]
    if not words:
        done = [offer(x, state) for x in of_types(actions, b.EndStrikes)]
        return Step("Choose a strike:", Choices(tuple(done), strike_menus(state, strikes)))
    verb = words[0].lower()
    wanted = _KINDS.get(verb)
    rest = [w.hex_label(x) for x in (words[1:] if wanted else words)]
    if not rest:
        raise IllegalAction("choices strike: name the striker's hex")
    mine = [x for x in strikes if isinstance(x, wanted or Strikes) and x.striker == rest[0]]
    if len(rest) > 1:
        mine = [x for x in mine if x.target == rest[1]]
    if not mine:
        raise IllegalAction(f"{' '.join(rest)}: no such strike now (RULES §9)")
    if len(rest) == 1:
        text = f"{fighter_words(state, rest[0])} strikes:"
        return Step(text, laid_out([o for _, o in _pairs(state, mine)], "Strike…"))
    text = (
        f"{fighter_words(state, rest[0])} against {fighter_words(state, rest[1])}: strike "
        "with every die, or with fewer dice or a higher strike number, so that hits left "
        "over may carry over to another target (RULES §9.5)."
    )
    leaves = [offer(x, state, _way(x)) for x in mine]
    return Step(text, laid_out([*leaves, back("strike")], "How…"))


def _way(action: Strikes) -> str:
    if isinstance(action, b.Rangestrike):
        return f"At {action.strike_number}" if action.strike_number else "Rangestrike"
    if _natural(action):
        return "Every die, natural strike number"
    dice = f"{action.dice} dice" if action.dice is not None else "every die"
    at = f" at {action.strike_number}" if action.strike_number is not None else ""
    return f"{dice}{at}, to carry over"


# --- summons and reinforcements in a battle (RULES §6.6, §7.2a) -------------------------------
def _by_first_word(
    state: GameState, seat: int, words: Sequence[str], name: str, chosen: type[a.Action],
    group: str,
) -> list[Offer]:  # fmt: skip
    """The choices of type ``chosen`` and then the decline, grouped by their command's first
    word (a donor, a recruit: ``group`` labels a group) when a menu would not hold them;
    with ``words``, those of the group named."""
    actions = legal(state, seat)
    found = [offer(x, state) for x in of_types(actions, chosen)]
    shown = grouped(
        found,
        key=lambda o: o.command.split()[1],
        step=lambda first: branch(group.format(first), name, first),
    )
    if words:
        shown = [o for o in found if o.command.split()[1].casefold() == words[0].casefold()]
    return [*shown, *(offer(x, state) for x in of_types(actions, a.Decline))]


@kind("summon", "Summon…", a.Summon, a.Decline)
def summon_step(state: GameState, seat: int, words: Sequence[str]) -> Step:
    """The Angels and Archangels that may be summoned, and from where (by donor when there
    are many)."""
    choices = _by_first_word(state, seat, words, "summon", a.Summon, "From {}")
    some = any(o.command.startswith("summon") for o in choices)
    text = "Summon an Angel or Archangel into the battle (RULES §7.2):" if some else NO_DONOR
    return Step(text, laid_out(choices, "Summon…"))


@kind("reinforce", "Reinforce…", a.Reinforce, a.Decline)
def reinforce_step(state: GameState, seat: int, words: Sequence[str]) -> Step:
    """The reinforcements the defender may muster, with the recruiters each shows."""
    choices = _by_first_word(state, seat, words, "reinforce", a.Reinforce, "Reinforce with {}")
    battle = battle_of(state)
    legion = battle.legion(Side.DEFENDER) if battle is not None else ()
    some = any(o.command.startswith("reinforce") for o in choices)
    text = (
        f"Reinforce the defender ({listing(legion)}), least revealing first (RULES §6.6):"
        if some
        else no_recruit(f"the defender ({listing(legion)})")
    )
    return Step(text, laid_out(choices, "Reinforce…"))


NO_DONOR = (
    "No legion of yours can send an Angel or Archangel now (the donor must hold one and "
    "stand away from any enemy, RULES §7.2): pass the summon."
)
"""A summon offered that none of one's legions can answer (offered all the same: passing
it at once would tell the others where one's lords are not, RULES §1.7)."""


def no_recruit(legion: str) -> str:
    """A reinforcement offered that nothing in ``legion`` qualifies for (RULES §6.6)."""
    return f"Nothing can reinforce {legion} in this land now (RULES §6.6): pass it."
