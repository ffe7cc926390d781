"""The level benchmark sorts its battle starts by who won them in each seat, and fights
them under further dice."""

from __future__ import annotations

import json
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


def test_scores_are_broken_down_by_the_attackers_strength():
    bench = load()
    strengths = [0.5, 0.9, 0.95, 1.0, 1.3, 2.0, 0.79]
    attacking = [1.0, 0.0, 1.0, 0.5, 1.0, 1.0, 0.0]
    defending = [1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.5]
    rows = bench.by_strength(strengths, attacking, defending)
    assert [(band, n) for band, n, _, _ in rows] == [
        ("below 0.8", 2),
        ("0.8 to 1.0", 2),
        ("1.0 to 1.25", 1),
        ("1.25 to 1.6", 1),
        ("1.6 and over", 1),
    ]
    assert rows[0][2:] == (0.5, 0.75)
    assert rows[1][2:] == (0.5, 0.5)
    assert rows[2][2:] == (0.5, 0.0)
    assert sum(n for _, n, _, _ in rows) == len(strengths)


def test_the_attackers_strength_is_the_ratio_of_the_legions_values():
    from tests.engine.ai.test_levels import battle_start

    bench = load()
    # Ogre 6×2, Gargoyle 4×3 against Centaur 3×4, Lion 5×3, Ogre 6×2 (RULES §0.2)
    start = battle_start("Plains", "Ogre,Ogre,Gargoyle", "Centaur,Lion,Ogre", 3)
    assert bench.strength(start) == (12 + 12 + 12) / (12 + 15 + 12)


def test_two_runs_are_compared_battle_by_battle():
    script = load()
    before = [1.0, 0.0, 0.5, 1.0, 0.0]
    after = [1.0, 1.0, 0.0, 1.0, 0.5]
    assert script.paired(before, after) == (2, 1)
    line = script.compared(before, after)
    assert line.startswith("50.0 → 70.0 %, better in 2, worse in 1")
    assert line.endswith("(sign test p = 1)")


def test_an_earlier_run_is_compared_only_on_the_same_starts_and_dice(tmp_path, capsys):
    script = load()
    setting = {"games": 20, "limit": 0, "shard": "0/1", "dice": 4, "positions": None}
    pairs = {"hard:normal": {"attacking": [1.0, 0.0], "defending": [0.5, 1.0]}}
    path = tmp_path / "before.json"
    path.write_text(json.dumps({"setting": setting, "pairs": pairs}))
    assert script._earlier(path, setting) == pairs
    assert script._earlier(path, {**setting, "dice": 1}) == {}
    assert "fought other starts or dice" in capsys.readouterr().out
    assert script._earlier(None, setting) == {}
