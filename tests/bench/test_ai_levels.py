"""The level benchmark sorts its battle starts by who won them in each seat, and fights
them under further dice."""

from __future__ import annotations

from types import ModuleType

from tests.bench.scripts import load_script


def load() -> ModuleType:
    """The script as a module, without running it."""
    return load_script("ai_levels.py")


def test_starts_are_sorted_by_who_won_each_seat():
    kinds = load().kinds
    # the first level's results: attacking, and defending (1 a win, 0 a loss, ½ a draw)
    attacking = [1.0, 1.0, 0.0, 1.0, 0.0, 0.5, 1.0, 0.0]
    defending = [0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.5, 0.0]
    counted = kinds(attacking, defending, "hard", "normal")
    assert counted == {
        "the attacker's": 2,
        "hard's": 1,
        "the defender's": 1,
        "normal's": 2,
        "drawn": 2,
    }
    assert sum(counted.values()) == len(attacking)


def test_a_level_against_itself_names_the_seats():
    counted = load().kinds([1.0, 0.0, 1.0], [1.0, 0.0, 0.0], "normal", "normal")
    assert counted == {"the first's": 1, "the second's": 1, "the attacker's": 1}


def test_further_dice_shift_the_seed_and_keep_the_rest():
    from engine.game.setup import new_game

    bench = load()
    start, _ = new_game(["Ann", "Bob"], 11)
    assert bench.with_dice(start, 0) is start
    other = bench.with_dice(start, 2)
    assert other.dice.seed == start.dice.seed + 2 * bench.DICE_SHIFT
    assert other.dice.rolled == start.dice.rolled
    assert other.dice.roll(20)[0] != start.dice.roll(20)[0]
    assert other.legions == start.legions and other.turn == start.turn


def test_a_level_against_itself_fights_each_start_once():
    from tests.engine.ai.test_levels import battle_start

    bench = load()
    starts = [
        battle_start("Plains", "Ogre,Ogre,Gargoyle", "Centaur,Lion,Ogre", 3),
        battle_start("Brush", "Gargoyle,Ogre", "Ogre,Troll", 5),
    ]
    once: dict[str, list[float]] = {"easy": []}
    alone = [bench.fight(s, "easy", "easy", once) for s in starts]
    assert len(once["easy"]) > 2 * len(starts)  # whole battles, not a step or two
    times: dict[str, list[float]] = {"easy": []}
    attacking, defending = bench.results(starts, "easy", "easy", times)
    assert attacking == alone
    assert defending == [1 - x for x in alone]
    assert len(times["easy"]) == len(once["easy"])  # no battle fought twice
    both: dict[str, list[float]] = {"easy": [], "normal": []}
    attacking, defending = bench.results(starts, "easy", "normal", both)
    assert len(both["easy"]) > 0 and len(both["normal"]) > 0
    assert attacking == [
        bench.fight(s, "easy", "normal", {"easy": [], "normal": []}) for s in starts
    ]
    assert defending == [
        1 - bench.fight(s, "normal", "easy", {"easy": [], "normal": []}) for s in starts
    ]
