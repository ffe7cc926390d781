"""Per-call time of the battle queries a searching AI calls most (issue 24).

Run: ``.venv/bin/python bench/engine.py [--record] [--save-baseline [COMMIT]]``. The
positions are the battle states of :data:`CORPUS`, a recorded corpus: real starts
(``../shared/aibridge/positions/positions.json``, or drawn from a seed when it is absent)
on all 11 battlelands, each fought out by two computer players, kept as the starts and the
actions taken. Replaying the actions rebuilds the same states on any version of the
engine, so a baseline and today's figures time the very same cases, however the computer
players have changed since. ``--record`` fights the starts out again and rewrites the
corpus (a new baseline must then be taken). Each query is timed on every case the corpus
offers (after a warm-up; each case's best of ``--rounds``), and the median and p90 of the
CPU time per call are printed in µs beside ``bench/engine_baseline.json`` with the speed-up.
Each query's answers are hashed: a digest that differs from the baseline's means an
optimisation changed an answer.

To retake the baseline on an older engine, check its ``engine/`` out into a work tree of
today's (``git checkout COMMIT -- engine``) and run ``bench/engine.py --save-baseline
COMMIT`` there.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
BASELINE = HERE / "engine_baseline.json"
CORPUS = HERE / "engine_corpus.json"
POSITIONS = Path(os.environ.get("TITAN_SHARED", REPO.parent / "shared"))
POSITIONS = POSITIONS / "aibridge" / "positions" / "positions.json"
#: Each timed sample lasts at least this long (several calls of a fast query).
SAMPLE_NS = 40_000
#: At most this many cases per query (spread evenly over the corpus).
MAX_CASES = 1500


@dataclass
class Query:
    """A battle query and the calls it is timed on."""

    name: str
    what: str
    calls: list[Callable[[], Any]]


def _queries(battles: list[Any]) -> list[Query]:
    from engine.battle.carry import eligible_carry_targets, legal_declarations
    from engine.battle.los import line_of_sight
    from engine.battle.maneuver import entry_hexes, reachable
    from engine.battle.maneuvering import destinations, maneuver
    from engine.battle.position import in_contact
    from engine.battle.rangestrike import (
        rangestrike_range,
        rangestrike_targets,
        rangestrike_values,
        rangestriker_problem,
    )
    from engine.battle.state import BattleStep
    from engine.battle.strike import strike_targets, strike_values
    from engine.battle.striking import (
        rangestrike,
        rangestrike_options,
        strike,
        strike_options,
        strike_plan,
    )

    q = {
        name: Query(name, what, [])
        for name, what in (
            ("reachable", "maneuver.reachable: one character's destinations"),
            ("entry_hexes", "maneuver.entry_hexes: where one waiting character enters"),
            ("destinations", "maneuvering.destinations: every move of a side"),
            ("apply_maneuver", "maneuvering.maneuver: the battle after a move"),
            ("strike_targets", "strike.strike_targets: whom one character may strike"),
            ("strike_values", "strike.strike_values: dice and strike number"),
            ("declarations", "carry.legal_declarations: announcements and carry targets"),
            ("carry_targets", "carry.eligible_carry_targets: carries of a natural strike"),
            ("strike_options", "striking.strike_options: every strike of a side"),
            ("apply_strike", "striking.strike: the battle after a strike and its carry"),
            ("line_of_sight", "los.line_of_sight: rangestriker to an enemy in range"),
            ("rangestrike_targets", "rangestrike.rangestrike_targets: of one character"),
            ("rangestrike_values", "rangestrike.rangestrike_values: dice and number"),
            ("rangestrike_options", "striking.rangestrike_options: every one of a side"),
            ("apply_rangestrike", "striking.rangestrike: the battle after a rangestrike"),
        )
    }
    rng = random.Random(24)
    for battle in battles:
        position = battle.position
        land = position.land
        occupied = position.occupied()
        if battle.step is BattleStep.MANEUVER and battle.concession is None:
            for f in position.fighters:
                if f.alive:
                    q["reachable"].calls.append(lambda p=position, f=f: reachable(p, f))
            for side in battle.off_board:
                for name in sorted(set(battle.waiting(side))):
                    edge = battle.edge(side)
                    q["entry_hexes"].calls.append(
                        lambda p=position, n=name, e=edge: entry_hexes(p, n, e)
                    )
            moves = destinations(battle)
            q["destinations"].calls.append(lambda b=battle: destinations(b))
            for who, ends in sorted(moves.items()):
                to = sorted(ends)[rng.randrange(len(ends))]
                q["apply_maneuver"].calls.append(lambda b=battle, w=who, t=to: maneuver(b, w, t))
        if battle.step not in (BattleStep.STRIKE, BattleStep.COUNTERSTRIKE):
            continue
        if battle.concession is not None or battle.carry is not None:
            continue
        for f in position.fighters:
            q["strike_targets"].calls.append(lambda p=position, f=f: strike_targets(p, f))
            for t in strike_targets(position, f):
                q["strike_values"].calls.append(lambda p=position, f=f, t=t: strike_values(p, f, t))
                q["declarations"].calls.append(
                    lambda p=position, f=f, t=t: legal_declarations(p, f, t)
                )
                natural = strike_values(position, f, t)
                q["carry_targets"].calls.append(
                    lambda p=position, f=f, t=t, v=natural: eligible_carry_targets(p, f, t, v)
                )
        q["strike_options"].calls.append(lambda b=battle: strike_options(b))
        pairs = {(s.hex, t.hex): (s, t) for s, t, _ in strike_options(battle)}
        for striker, target in pairs.values():
            dice = strike_plan(battle, striker.hex, target.hex)[2].dice
            rolls = tuple(rng.randint(1, 6) for _ in range(dice))
            q["apply_strike"].calls.append(
                lambda b=battle, s=striker.hex, t=target.hex, r=rolls: strike(b, s, t, None, r)
            )
        if battle.step is not BattleStep.STRIKE:
            continue
        q["rangestrike_options"].calls.append(lambda b=battle: rangestrike_options(b))
        for f, t, values in rangestrike_options(battle):
            rolls = tuple(rng.randint(1, 6) for _ in range(values.dice))
            q["apply_rangestrike"].calls.append(
                lambda b=battle, s=f.hex, t=t.hex, r=rolls: rangestrike(b, s, t, None, r)
            )
        for f in position.of_side(battle.phasing):
            if not f.character.rangestrikes:
                continue
            q["rangestrike_targets"].calls.append(lambda p=position, f=f: rangestrike_targets(p, f))
            if rangestriker_problem(position, f) is not None:
                continue
            for e in position.of_side(f.side.other):
                near = rangestrike_range(f.hex, e.hex) <= f.skill
                if near and not in_contact(land, f.hex, e.hex):
                    q["line_of_sight"].calls.append(
                        lambda la=land, a=f.hex, b=e.hex, o=occupied: line_of_sight(la, a, b, o)
                    )
            for t in rangestrike_targets(position, f):
                q["rangestrike_values"].calls.append(
                    lambda p=position, f=f, t=t: rangestrike_values(p, f, t)
                )
    for query in q.values():
        if len(query.calls) > MAX_CASES:
            step = len(query.calls) / MAX_CASES
            query.calls = [query.calls[int(i * step)] for i in range(MAX_CASES)]
    return list(q.values())


def canonical(value: Any) -> Any:
    """A JSON-ready form of an answer, the same for equal answers (sets sorted)."""
    from dataclasses import fields, is_dataclass
    from enum import Enum

    if isinstance(value, Enum):
        return value.value
    if is_dataclass(value) and not isinstance(value, type):
        items = {f.name: canonical(getattr(value, f.name)) for f in fields(value)}
        return [type(value).__name__, items]
    if isinstance(value, dict) or hasattr(value, "items"):
        return sorted(([canonical(k), canonical(v)] for k, v in value.items()), key=repr)
    if isinstance(value, set | frozenset):
        return sorted((canonical(v) for v in value), key=repr)
    if isinstance(value, list | tuple):
        return [canonical(v) for v in value]
    return value


def digest(answers: list[Any]) -> str:
    text = json.dumps([canonical(a) for a in answers], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def per_call_us(call: Callable[[], Any]) -> float:
    """CPU time per call in µs (this process's, so that other work on a shared machine
    counts less), over enough calls in a row to last about :data:`SAMPLE_NS`."""
    clock = time.process_time_ns
    start = clock()
    call()
    once = clock() - start
    count = min(4096, max(1, SAMPLE_NS // max(once, 1)))
    start = clock()
    for _ in range(count):
        call()
    return (clock() - start) / count / 1000


def quantile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(queries: list[Query], rounds: int) -> dict[str, dict[str, Any]]:
    """Each query's median and p90 over its cases of each case's best of ``rounds``
    timings, and its answers' digest. The rounds go over every query in turn, so that a
    case's timings are spread over the whole run: its best is the least disturbed by other
    work on the machine, which on a shared machine comes and goes."""
    answers = {q.name: [call() for call in q.calls] for q in queries}  # warm-up, to hash
    best: dict[str, list[float]] = {q.name: [] for q in queries}
    for _ in range(rounds):
        for q in queries:
            times = [per_call_us(call) for call in q.calls]
            kept = best[q.name]
            best[q.name] = [min(a, b) for a, b in zip(kept, times, strict=True)] if kept else times
    return {
        q.name: {
            "cases": len(best[q.name]),
            "median_us": round(quantile(best[q.name], 0.5), 2),
            "p90_us": round(quantile(best[q.name], 0.9), 2),
            "answers": digest(answers[q.name]),
        }
        for q in queries
    }


def _commit() -> str:
    """The commit the engine was measured at (``+`` when the work tree has changes)."""
    git = ["git", "-C", str(REPO)]
    head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run([*git, "status", "--porcelain", "engine"], capture_output=True)
    return head.stdout.strip() + ("+" if dirty.stdout.strip() else "")


def record(path: Path, source: str, starts: list[Any]) -> None:
    """Fight ``starts`` out with today's computer players and keep their actions in
    ``path``, a start to a line."""
    from dataclasses import asdict

    from engine.game.actions import action_to_json
    from tests.engine.battle.corpus import fought

    lines = []
    for start in starts:
        actions = [action_to_json(action) for _, action in fought(start)]
        lines.append(json.dumps({**asdict(start), "actions": actions}, separators=(",", ":")))
    head = json.dumps({"source": source, "recorded_at": _commit()})
    path.write_text(head + "\n" + "\n".join(lines) + "\n", encoding="utf-8")


def read_corpus(path: Path) -> tuple[str, list[tuple[Any, list[Any]]]]:
    """The corpus of ``path``: its source, and each start with its actions."""
    from engine.game.actions import action_from_json
    from tests.engine.battle.corpus import Start

    head, *lines = path.read_text(encoding="utf-8").splitlines()
    fights = []
    for line in lines:
        raw = json.loads(line)
        start = Start(
            raw["terrain"],
            raw["entry_side"],
            tuple(raw["attacker"]),
            tuple(raw["defender"]),
            (raw["titan_power"][0], raw["titan_power"][1]),
            raw["dice_seed"],
        )
        fights.append((start, [action_from_json(x) for x in raw["actions"]]))
    return json.loads(head)["source"], fights


def replay(path: Path) -> tuple[str, list[Any], list[Any]]:
    """The corpus of ``path``: its source, its starts and every battle state of them."""
    from tests.engine.battle.corpus import replayed

    source, fights = read_corpus(path)
    found = [battle for start, actions in fights for battle in replayed(start, actions)]
    return source, [start for start, _ in fights], found


def main() -> None:
    # Run as a script, this folder comes first on sys.path and this file would be `engine`.
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
    sys.path.insert(0, str(REPO))
    from tests.engine.battle.corpus import per_terrain, random_starts, starts_from_file

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=Path, default=POSITIONS)
    parser.add_argument("--per-terrain", type=int, default=4, help="starts per battleland")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="the recorded corpus")
    parser.add_argument("--record", action="store_true", help="fight the starts out again")
    parser.add_argument("--rounds", type=int, default=5, help="timings per case (best kept)")
    parser.add_argument("--only", nargs="*", default=(), help="query names to time")
    parser.add_argument(
        "--save-baseline",
        nargs="?",
        const="",
        metavar="COMMIT",
        help=f"write {BASELINE.name} (COMMIT: where the engine measured was checked out from)",
    )
    args = parser.parse_args()

    started = time.perf_counter()
    if args.record or not args.corpus.exists():
        if args.positions.exists():
            source, starts = str(args.positions.name), starts_from_file(args.positions)
        else:
            source, starts = "random_starts(24)", random_starts(24, args.per_terrain)
        record(args.corpus, source, per_terrain(starts, args.per_terrain))
        print(f"corpus recorded in {args.corpus}")
    source, starts, found = replay(args.corpus)
    corpus = {
        "source": source,
        "starts": len(starts),
        "battles": len(found),
        "digest": digest([(b.position, b.step, b.phasing, b.off_board) for b in found]),
    }
    print(
        f"corpus: {len(starts)} starts from {source} on {len({s.terrain for s in starts})} "
        f"battlelands, {len(found)} battle states ({time.perf_counter() - started:.1f} s)"
    )
    base = json.loads(BASELINE.read_text()) if BASELINE.exists() else None
    if base is not None and base["corpus"]["digest"] != corpus["digest"]:
        print("note: the corpus differs from the baseline's: the times are not comparable")
    results: dict[str, Any] = {}
    header = f"{'query':<21}{'cases':>6}{'median µs':>11}{'p90 µs':>9}"
    if base is not None:
        header += f"{'base med':>10}{'base p90':>10}{'× med':>7}{'× p90':>7}  answers"
    print(header)
    queries = [q for q in _queries(found) if not args.only or q.name in args.only]
    for query in queries:
        if not query.calls:
            print(f"{query.name:<21}{0:>6}  (no case in the corpus)")
    timed = [q for q in queries if q.calls]
    for query, r in zip(timed, measure(timed, args.rounds).values(), strict=True):
        results[query.name] = {"what": query.what, **r}
        line = f"{query.name:<21}{r['cases']:>6}{r['median_us']:>11.1f}{r['p90_us']:>9.1f}"
        old = base["queries"].get(query.name) if base is not None else None
        if old is not None:
            same = old["answers"] == r["answers"] and old["cases"] == r["cases"]
            line += (
                f"{old['median_us']:>10.1f}{old['p90_us']:>10.1f}"
                f"{old['median_us'] / r['median_us']:>7.1f}{old['p90_us'] / r['p90_us']:>7.1f}"
                f"  {'same' if same else 'DIFFER'}"
            )
        print(line, flush=True)
    if args.save_baseline is not None:
        saved = {
            "engine_commit": args.save_baseline or _commit(),
            "python": platform.python_version(),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores",
            "corpus": corpus,
            "queries": results,
        }
        BASELINE.write_text(json.dumps(saved, indent=1, ensure_ascii=False) + "\n")
        print(f"baseline written to {BASELINE.relative_to(REPO)}")


if __name__ == "__main__":
    main()
