"""Benchmark of the game service: command latency with many stored games, and throughput,
on SQLite or PostgreSQL, in one process or several.

    .venv/bin/python bench/service.py [--games 1000] [--samples 500] [--concurrent 50]
        [--seconds 10] [--render stub|real|none] [--db PATH|postgresql|postgresql://…]
        [--processes 1] [--shared 0] [--compare] [--stored] [--profile PATH]

Stores ``--games`` started games (each 0–120 agent actions in, with snapshots) straight
through the storage functions (bench/service_games.py: played out in a pool of processes,
written in a few batched transactions; the times are reported). Then ``--processes``
workers (bench/service_worker.py, each its own process with its own GameService on the
same database, each playing its own share of the channels) measure, in step:

- p50/p99 latency of single commands on random games, cold (loaded from the database)
  and warm (cached), ``--samples`` each per worker;
- sustained actions per second with ``--concurrent`` games (shared out among the
  workers) played as fast as they answer, for ``--seconds``.

The parent pools every worker's samples (p50/p99 over all of them) and adds their
actions per second. ``--shared K`` has every worker also play the last K channels during
the load (the cross-process path; what fails there is counted apart, labelled "shared").

The database: ``--db`` a SQLite file (default: a temporary one; SQLite allows one process
per file), a ``postgresql://`` URL (an empty database), or ``postgresql`` alone for a
throwaway server (tests/pg.py; it runs with fsync off). ``--stored`` skips the
populating: the database holds an earlier run's ``--games`` (to measure again, or to
measure a change). ``--compare`` runs the same workload on SQLite with one process and on
PostgreSQL with ``--processes`` and prints both in one table; the acceptance run is

    .venv/bin/python bench/service.py --compare --games 10000 --processes 2

Targets: p99 ≤ 250 ms (cold and warm), ≥ 100 actions/s across the processes.
``--profile PATH`` writes each worker's cProfile stats to ``PATH.K``.
"""

from __future__ import annotations

import sys
from pathlib import Path

# This folder holds other benchmarks (bench/render.py) that would shadow packages.
HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent))

import argparse  # noqa: E402
import asyncio  # noqa: E402
import contextlib  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from typing import Any  # noqa: E402

from bench.service_games import NotEmpty, Populated, backend_name, populate  # noqa: E402
from bench.service_worker import PHASES, WARM_GAMES, run_worker  # noqa: E402
from bot.storage import games as rows  # noqa: E402
from bot.storage.backends import Target, as_target, is_postgres, open_database, shown  # noqa: E402

P99_TARGET_MS = 250.0
RATE_TARGET = 100.0
WORKERS_DB = "TITANBOT_BENCH_DB"
"""The variable that tells the workers their database."""
THROWAWAY = "postgresql"
"""``--db`` for a throwaway PostgreSQL server of the benchmark's own."""


@dataclass(frozen=True)
class Plan:
    """One run: a database and the workers on it."""

    target: Target
    processes: int

    @property
    def backend(self) -> str:
        return backend_name(self.target)


@dataclass
class Run:
    """What a run's workers measured, pooled."""

    plan: Plan
    phases: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    busy: str = ""
    """The machine's load average as the run began (other work skews the figures)."""

    def took(self, phase: str, key: str = "took") -> list[float]:
        return [t * 1000 for worker in self.phases[phase] for t in worker[key]]

    def trips(self, phase: str) -> str:
        """Round trips to the server per command of ``phase`` (PostgreSQL only)."""
        if self.plan.backend != "postgresql":
            return "-"
        workers = self.phases[phase]
        samples = sum(len(w["took"]) + len(w.get("common", ())) for w in workers)
        return f"{sum(int(w['trips']) for w in workers) / max(samples, 1):.1f}"

    def total(self, key: str) -> int:
        return sum(int(worker[key]) for worker in self.phases["load"])

    @property
    def rate(self) -> float:
        """Actions per second across the workers (their load phases run together)."""
        load = self.phases["load"]
        actions = sum(len(w["took"]) + len(w["common"]) for w in load)
        return actions / max(float(w["seconds"]) for w in load)

    def rates(self) -> list[float]:
        """Each worker's actions per second (its shared games' included)."""
        load = self.phases["load"]
        return [(len(w["took"]) + len(w["common"])) / float(w["seconds"]) for w in load]


def busy() -> str:
    """The machine's load average over the last minute."""
    return f"load average {os.getloadavg()[0]:.1f}"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def report(label: str, ms: list[float]) -> None:
    if not ms:
        print(f"{label:<34} (no samples)")
        return
    print(
        f"{label:<34} p50 {percentile(ms, 50):7.1f} ms   p99 {percentile(ms, 99):7.1f} ms   "
        f"mean {statistics.mean(ms):6.1f} ms   (n={len(ms)})"
    )


def worker_command(args: argparse.Namespace, plan: Plan, index: int) -> list[str]:
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", str(index)]
    command += ["--processes", str(plan.processes)]
    command += ["--games", str(args.games), "--samples", str(args.samples)]
    command += ["--concurrent", str(args.concurrent), "--seconds", str(args.seconds)]
    command += ["--render", args.render, "--shared", str(args.shared)]
    if args.profile is not None:
        command += ["--profile", f"{args.profile}.{plan.backend}"]
    return command


async def heard(worker: asyncio.subprocess.Process) -> dict[str, Any]:
    assert worker.stdout is not None
    line = await worker.stdout.readline()
    if not line:
        await worker.wait()
        raise RuntimeError(f"a worker stopped (exit code {worker.returncode}): see above")
    message: dict[str, Any] = json.loads(line)
    return message


async def run_workers(args: argparse.Namespace, plan: Plan) -> Run:
    """Start the plan's workers, move them through the phases together, pool what they
    measured."""
    # The target in the environment: a URL's password stays out of the process list.
    env = {**os.environ, "PYTHONPATH": str(HERE.parent), WORKERS_DB: str(plan.target)}
    workers = [
        await asyncio.create_subprocess_exec(
            *worker_command(args, plan, index),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=env,
            limit=1 << 26,
        )
        for index in range(plan.processes)
    ]
    run = Run(plan, busy=busy())
    try:
        for phase in PHASES:
            for worker in workers:
                said = await heard(worker)
                if said != {"ready": phase}:
                    raise RuntimeError(f"a worker said {said}, not ready for {phase}")
            for worker in workers:
                assert worker.stdin is not None
                worker.stdin.write(b"go\n")
                await worker.stdin.drain()
            run.phases[phase] = [await heard(worker) for worker in workers]
        for worker in workers:
            if await worker.wait() != 0:
                raise RuntimeError(f"a worker ended with exit code {worker.returncode}")
    finally:
        for worker in workers:
            if worker.returncode is None:
                worker.kill()
                await worker.wait()
    return run


def describe(run: Run, games: int) -> None:
    """The run's figures, line by line."""
    plan = run.plan
    where = shown(plan.target)
    print(f"\n== {plan.backend}, {plan.processes} process(es), {games} games ({where})")
    print(f"machine: {run.busy} as the run began")
    report("cold (loaded from the database)", run.took("cold"))
    report(f"warm (cached, {WARM_GAMES} games a process)", run.took("warm"))
    report("under load", run.took("load"))
    if plan.backend == "postgresql":
        trips = ", ".join(f"{run.trips(phase)} {phase}" for phase in PHASES)
        print(f"round trips to the server a command: {trips}")
    rates = ", ".join(f"{r:.0f}" for r in run.rates())
    print(f"sustained: {run.rate:.0f} actions/s in all (per process: {rates})")
    if run.total("faults") + run.total("refused") or any(w["common"] for w in run.phases["load"]):
        report("shared games (every process)", run.took("load", "common"))
        failures = [f for w in run.phases["load"] for f in w["failures"]]
        print(
            f"shared games: {run.total('faults')} failed (fault), "
            f"{run.total('refused')} refused" + (f"; e.g. {failures[0]}" if failures else "")
        )
    drawn = run.total("drawn")
    if drawn:
        painting = sum(float(w["painting"]) for w in run.phases["load"])
        print(f"pictures drawn in the load: {drawn} (mean {painting / drawn * 1000:.1f} ms)")


def mark(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def table(runs: list[Run], games: int) -> None:
    """Every run in one table, with the targets met or not."""
    header = (
        f"{'backend':<11} {'procs':>5} {'games':>6}  {'cold p50':>8} {'cold p99':>8}       "
        f"{'warm p50':>8} {'warm p99':>8}       {'load p99':>8}  {'actions/s':>9}       "
        f"{'trips':>5}"
    )
    print("\n" + header)
    print("-" * len(header))
    for run in runs:
        cold, warm = run.took("cold"), run.took("warm")
        cold99, warm99 = percentile(cold, 99), percentile(warm, 99)
        print(
            f"{run.plan.backend:<11} {run.plan.processes:>5} {games:>6}  "
            f"{percentile(cold, 50):8.1f} {cold99:8.1f} {mark(cold99 <= P99_TARGET_MS)}  "
            f"{percentile(warm, 50):8.1f} {warm99:8.1f} {mark(warm99 <= P99_TARGET_MS)}  "
            f"{percentile(run.took('load'), 99):8.1f}  "
            f"{run.rate:9.0f} {mark(run.rate >= RATE_TARGET)}  {run.trips('warm'):>5}"
        )
    print(
        f"targets: p99 ≤ {P99_TARGET_MS:.0f} ms (cold and warm), ≥ {RATE_TARGET:.0f} actions/s"
        " across a run's processes; times in ms; trips: round trips to the server a warm"
        " command"
    )


def told_populated(populated: Populated, plans: list[Plan]) -> None:
    print(
        f"played out {populated.games} games ({populated.actions} actions) in "
        f"{populated.playing:.1f} s ({os.cpu_count()} processes)"
    )
    for plan in plans:
        took = populated.storing[str(plan.target)]
        print(f"stored them in {plan.backend} in {took:.1f} s")


async def check_stored(target: Target, games: int) -> None:
    """Refuse ``--stored`` unless ``target`` holds ``games`` games (an earlier run's)."""
    db = await open_database(target)
    try:
        async with db.reading() as conn:
            found = await rows.count_games(conn)
    finally:
        await db.close()
    if found != games:
        raise SystemExit(f"--stored: {shown(target)} holds {found} games, not {games}")


async def durability(target: Target) -> str:
    """How durable a commit is on ``target``'s database (the figures depend on it)."""
    if not is_postgres(target):
        return "WAL, synchronous FULL (the service's own setting)"
    import asyncpg

    connection = await asyncpg.connect(str(target))
    try:
        fsync = await connection.fetchval("SHOW fsync")
        commit = await connection.fetchval("SHOW synchronous_commit")
    finally:
        await connection.close()
    return f"fsync {fsync}, synchronous_commit {commit} (the server's settings)"


async def bench(args: argparse.Namespace, plans: list[Plan]) -> None:
    print(f"machine: {os.cpu_count()} cores (nproc), {busy()}; renderer: {args.render}")
    for plan in plans:
        print(f"{plan.backend}: {shown(plan.target)}; {await durability(plan.target)}")
    if args.stored:
        for plan in plans:
            await check_stored(plan.target, args.games)
        print(f"using the {args.games} games stored by an earlier run")
    else:
        populated = await populate([(str(p.target), p.target) for p in plans], args.games)
        told_populated(populated, plans)
    runs = []
    for plan in plans:
        run = await run_workers(args, plan)
        describe(run, args.games)
        runs.append(run)
    table(runs, args.games)


def plans_of(args: argparse.Namespace, folder: Path, stack: contextlib.ExitStack) -> list[Plan]:
    """The runs asked for; a throwaway server started on ``stack`` when one is needed."""
    chosen: str | None = args.db
    sqlite: Target = Path(folder) / "bench.sqlite3"
    postgres: Target | None = None
    if chosen == THROWAWAY or (args.compare and (chosen is None or not is_postgres(chosen))):
        from tests.pg import throwaway_server

        postgres = stack.enter_context(throwaway_server()).dsn()
    elif chosen is not None and is_postgres(chosen):
        postgres = chosen
    if chosen is not None and not is_postgres(chosen) and chosen != THROWAWAY:
        sqlite = as_target(chosen)
    if args.compare:
        assert postgres is not None
        return [Plan(sqlite, 1), Plan(postgres, args.processes)]
    if postgres is not None:
        return [Plan(postgres, args.processes)]
    return [Plan(sqlite, args.processes)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=500, help="per worker and phase")
    parser.add_argument("--concurrent", type=int, default=50, help="in all, shared out")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--render", choices=("stub", "real", "none"), default="stub")
    parser.add_argument("--db", default=None, help="a SQLite file, postgresql, or a URL")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--shared", type=int, default=0, help="channels every process plays")
    parser.add_argument("--compare", action="store_true", help="SQLite and PostgreSQL")
    parser.add_argument(
        "--stored", action="store_true", help="the --db already holds an earlier run's games"
    )
    parser.add_argument("--profile", default=None, help="cProfile each worker to PATH.K")
    parser.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        args.db = os.environ[WORKERS_DB]
        run_worker(args)
        return
    postgres = args.db is not None and (args.db == THROWAWAY or is_postgres(args.db))
    sqlite_only = not args.compare and not postgres
    if sqlite_only and args.processes > 1:
        parser.error("SQLite allows one process per file: --processes 1, or PostgreSQL")
    if args.shared and args.shared >= args.games:
        parser.error("--shared must leave each process games of its own")
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        try:
            asyncio.run(bench(args, plans_of(args, folder, stack)))
        except NotEmpty as refused:
            raise SystemExit(str(refused)) from None


if __name__ == "__main__":
    main()
