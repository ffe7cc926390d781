"""The battle's verbs (RULES §5.8, §8–§11): command words ↔ battle actions.

Characters on the battleland are named by hex (``D4``), characters still off the board
by name (``maneuver Ogre D4``). ``done`` ends the maneuver or strike phase or passes a
chance to concede, summon or reinforce, as the battle's step implies; ``summon``,
``reinforce``, ``concede`` and ``decline`` are the engagement's verbs, which work in battle
too.
"""

from __future__ import annotations

from bot.syntax import words as w
from bot.syntax.game_verbs import DONE_RESOLVERS, FORMATTERS, formatter, game_verb
from engine.battle.state import BattleStep
from engine.battle.strike import MAX_STRIKE_NUMBER
from engine.errors import IllegalManeuver, InvalidNotation, WrongPhase
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.battle_flow import battle_of
from engine.game.state import GameState, Phase
from engine.game.waiting import waiting_words

MAX_DICE = 99
"""The most dice a strike command reads: above any Titan's Power and its modifiers
(RULES §1.3, §9.3); the engine then allows only the dice of §9.5."""
#: Steps where ``done`` passes a chance (to concede, summon or reinforce): ``Decline``.
_CHANCES = frozenset(
    {
        BattleStep.OPEN_ATTACKER,
        BattleStep.OPEN_DEFENDER,
        BattleStep.SUMMON,
        BattleStep.REINFORCE,
        BattleStep.DRIFT,
        BattleStep.SLEW_ALL,
        BattleStep.END_CHECK,
    }
)


def _who(word: str) -> str:
    """A character on the board (its hex) or off it (its name)."""
    return w.hex_label(word) if w.is_hex(word) else w.character(word)


def _number(opts: dict[str, list[str]], name: str, what: str, most: int) -> int | None:
    if name not in opts:
        return None
    values = opts[name]
    if len(values) != 1:
        raise InvalidNotation(f"{name}: give exactly one {what}")
    return w.number(values[0], what, least=1, most=most)


@game_verb(
    "maneuver",
    "maneuver HEX|CHARACTER HEX",
    "move a character on the battleland (name it to bring it on from off the board)",
    "manoeuvre",
)
def _maneuver(args: w.Args, state: GameState, seat: int) -> a.Action:
    who = _who(args.take("the hex (or name) of the character to move"))
    to = w.hex_label(args.take("the hex to move to"))
    args.finish()
    return b.Maneuver(who, to)


FORMATTERS[b.Maneuver] = lambda action: f"maneuver {action.character} {action.to}"


@game_verb(
    "undo",
    "undo [HEX]",
    "take back the last maneuver (or the one that ended in HEX, and every later one)",
)
def _undo(args: w.Args, state: GameState, seat: int) -> a.Action:
    word = args.peek()
    if word is not None and w.is_marker(word):  # on the masterboard: a legion's move
        marker = w.marker(args.take("the legion"))
        args.finish()
        return a.TakeBack(marker)
    if word is not None:
        end = w.hex_label(args.take("the hex"))
        args.finish()
        return b.TakeBackManeuver(end)
    return _undo_last(state, seat)


def _undo_last(state: GameState, seat: int) -> a.Action:
    """The last maneuver (in a battle) or the last move (in the movement phase)."""
    battle = battle_of(state)
    if battle is not None:
        if not battle.moves:
            raise IllegalManeuver("undo: no maneuver to take back in this phase (errata 7.0)")
        return b.TakeBackManeuver(battle.moves[-1].end)
    if state.phase is Phase.MOVE and state.turn.moves:
        return a.TakeBack(state.turn.moves[-1].marker)
    waiting = waiting_words(state, seat)
    raise WrongPhase(f"undo: there is no move or maneuver to take back now; {waiting}")


FORMATTERS[b.TakeBackManeuver] = lambda action: f"undo {action.hex}"


@game_verb(
    "strike",
    "strike HEX HEX [dice N] [sn N]",
    "strike (or strike back at) an enemy in contact; dice/sn announce fewer dice or a "
    "higher strike number (for carry-over)",
)
def _strike(args: w.Args, state: GameState, seat: int) -> a.Action:
    striker = w.hex_label(args.take("the striker's hex"))
    target = w.hex_label(args.take("the target's hex"))
    opts = args.options(("dice", "sn"))
    dice = _number(opts, "dice", "number of dice", MAX_DICE)
    strike_number = _number(opts, "sn", "strike number", MAX_STRIKE_NUMBER)
    return b.Strike(striker, target, dice, strike_number)


@formatter(b.Strike)
def _format_strike(action: b.Strike) -> str:
    text = f"strike {action.striker} {action.target}"
    if action.dice is not None:
        text += f" dice {action.dice}"
    if action.strike_number is not None:
        text += f" sn {action.strike_number}"
    return text


@game_verb("carry", "carry HEX", "put carried-over hits on the character in HEX")
def _carry(args: w.Args, state: GameState, seat: int) -> a.Action:
    target = w.hex_label(args.take("the hex to carry the hits to"))
    args.finish()
    return b.CarryOver(target)


FORMATTERS[b.CarryOver] = lambda action: f"carry {action.target}"


@game_verb(
    "rangestrike",
    "rangestrike HEX HEX [sn N]",
    "rangestrike an enemy in range and line of sight (sn: a higher strike number)",
    "range",
)
def _rangestrike(args: w.Args, state: GameState, seat: int) -> a.Action:
    striker = w.hex_label(args.take("the rangestriker's hex"))
    target = w.hex_label(args.take("the target's hex"))
    opts = args.options(("sn",))
    return b.Rangestrike(striker, target, _number(opts, "sn", "strike number", MAX_STRIKE_NUMBER))


@formatter(b.Rangestrike)
def _format_rangestrike(action: b.Rangestrike) -> str:
    text = f"rangestrike {action.striker} {action.target}"
    return text if action.strike_number is None else f"{text} sn {action.strike_number}"


@game_verb(
    "insist",
    "insist",
    "concede the battle instead of your opponent (or insist on it: a roll-off decides)",
    "instead",
)
def _insist(args: w.Args, state: GameState, seat: int) -> a.Action:
    args.finish()
    return b.ConcedeInstead()


FORMATTERS[b.ConcedeInstead] = lambda action: "insist"
FORMATTERS[b.AcceptConcession] = lambda action: "accept"
FORMATTERS[b.EndManeuver] = lambda action: "done"
FORMATTERS[b.EndStrikes] = lambda action: "done"


def _done_in_battle(args: w.Args, state: GameState, seat: int) -> a.Action | None:
    """``done`` in a battle: end the maneuver or strike phase, or pass a chance."""
    battle = battle_of(state)
    if battle is None:
        return None
    args.finish()
    if battle.concession is not None:
        raise WrongPhase("a concession waits for an answer: `accept` it or `insist`")
    if battle.carry is not None:
        where = " or ".join(f"`carry {h}`" for h in battle.carry.targets)
        raise WrongPhase(f"place the carried-over hits first: {where} (RULES §9.4)")
    if battle.step is BattleStep.MANEUVER:
        return b.EndManeuver()
    if battle.step is BattleStep.STRIKE:
        return b.EndStrikes()
    if battle.step in _CHANCES:
        return a.Decline()
    if battle.step is BattleStep.COUNTERSTRIKE:
        raise WrongPhase("every engaged character must strike back first (RULES §9.1)")
    raise WrongPhase("the battle is over")


DONE_RESOLVERS.append(_done_in_battle)
