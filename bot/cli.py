"""The ``titanbot`` command: run the Discord bot, or play a local game in the terminal.

``titanbot`` alone runs the bot when a token is configured and the local game otherwise;
``titanbot run`` and ``titanbot local [--players Ann,Bob] [--ai Hal|N] [--db PATH]
[--seed N] [--out DIR]`` choose explicitly; ``titanbot demo [--players N] [--seed S]
[--out DIR] [--max-turns T]`` plays a game between AI players; ``titanbot render-demo
OUTDIR`` draws sample pictures; ``titanbot check-db [--db PATH|URL]`` checks every stored row
(exit status 1 when something is wrong, 2 when the database cannot be checked); ``titanbot
migrate --to postgresql://… [--db FILE]`` copies a SQLite database into an empty
PostgreSQL one and checks the copy (exit status 1 when it differs, and nothing is kept; 2
when it cannot be made); ``titanbot verify RECORD.json [--commitment HEX] [--record-digest
HEX]`` checks a finished game's public record (``.json`` or ``.json.gz``) against the
values announced at its start and end, its commitment and a replay (exit status 1 when it
is refused, 2 when the file cannot be read: absent, too large or nested too deep).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.config import Config, ConfigError, load_config
from bot.storage.backends import Target, as_target

MAX_SEED = (1 << 128) - 1
"""The largest seed given by hand: 128 bits, like the seeds the bot draws."""
MAX_AI_SEATS = 5
"""The most AI seats of a local game: six seats, one of them a player at the terminal."""


DB_HELP = "a SQLite file or a postgresql:// URL (default: the config's)"


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="titanbot", description="Host games of TITAN.")
    top.add_argument("--config", type=Path, default=None, help="config file (config.toml)")
    commands = top.add_subparsers(dest="command")
    commands.add_parser("run", help="run the Discord bot (needs a token)")
    local = commands.add_parser("local", help="play a game in this terminal")
    local.add_argument("--players", default="", help="comma-separated names, e.g. Ann,Bob")
    local.add_argument(
        "--db",
        type=as_target,
        default=None,
        help="SQLite file or postgresql:// URL (default: config)",
    )
    local.add_argument("--seed", type=seed, default=None, help="the game's seed")
    local.add_argument("--out", type=Path, default=None, help="folder for pictures")
    local.add_argument(
        "--ai",
        type=ai_names,
        default="",
        help="AI seats: comma-separated names (Hal,Deep) or a count (2)",
    )
    demo = commands.add_parser("demo", help="watch AI players play a whole game")
    demo.add_argument("--players", type=int, default=3, choices=range(2, 7), metavar="2-6")
    demo.add_argument("--seed", type=seed, default=1, help="the game's seed (default 1)")
    demo.add_argument("--out", type=Path, default=Path("titan-demo"), help="log and pictures")
    demo.add_argument(
        "--max-turns",
        type=int,
        default=None,
        help="game turns before the time limit is declared (default 40)",
    )
    tournament = commands.add_parser(
        "tournament", help="run a tournament command as the organiser, or `play NAME`"
    )
    tournament.add_argument("--db", type=as_target, help=DB_HELP)
    tournament.add_argument("words", nargs="+", help="e.g. create Winter players 3-4 heats 3")
    ratings = commands.add_parser("ratings", help="the rating leaderboards of the database")
    ratings.add_argument("--db", type=as_target, help=DB_HELP)
    ratings.add_argument(
        "--rebuild", action="store_true", help="rebuild every rating from the stored results"
    )
    check = commands.add_parser("check-db", help="check the database (changes nothing)")
    check.add_argument(
        "--db",
        type=as_target,
        default=None,
        help="SQLite file or postgresql:// URL (default: config)",
    )
    move = commands.add_parser(
        "migrate", help="copy the SQLite database into an empty PostgreSQL one, checked"
    )
    move.add_argument(
        "--to", required=True, type=as_target, help="the PostgreSQL database: postgresql://…"
    )
    move.add_argument(
        "--db", type=as_target, default=None, help="the SQLite file (default: the config's)"
    )
    verify = commands.add_parser("verify", help="check a finished game's public record")
    verify.add_argument("record", type=Path, help="the record: RECORD.json or RECORD.json.gz")
    verify.add_argument(
        "--commitment", type=hex_digest, default=None, help="the commitment the start announced"
    )
    verify.add_argument(
        "--record-digest", type=hex_digest, default=None, help="the digest the end announced"
    )
    pictures = commands.add_parser("render-demo", help="draw one picture of every kind")
    pictures.add_argument("outdir", type=Path, help="folder to write the PNG files to")
    return top


def names(text: str) -> list[str]:
    """Comma-separated names, blanks dropped."""
    return [name.strip() for name in text.split(",") if name.strip()]


def ai_names(text: str) -> list[str]:
    """``--ai``: names, or a count of AI seats (digits 0-9) named Bot 1, Bot 2, …

    Raises :class:`argparse.ArgumentTypeError` for more AI seats than a game leaves
    beside one player.
    """
    count = text.strip()
    if not (count.isascii() and count.isdigit()):
        return names(text)
    return [f"Bot {k}" for k in range(1, _number(count, "number of AI seats", MAX_AI_SEATS) + 1)]


def hex_digest(text: str) -> str:
    """``--commitment``, ``--record-digest``: a SHA-256 digest, 64 hexadecimal digits
    (backquotes copied with it from the announcement are dropped).

    Raises :class:`argparse.ArgumentTypeError` otherwise.
    """
    digits = text.strip().strip("`").lower()
    if len(digits) != 64 or any(c not in "0123456789abcdef" for c in digits):
        raise argparse.ArgumentTypeError(
            f"{text[:80]!r} is not a SHA-256 digest (64 hexadecimal digits, as announced)"
        )
    return digits


def seed(text: str) -> int:
    """``--seed``: a whole number of at most 128 bits (0 to 2**128 - 1).

    Raises :class:`argparse.ArgumentTypeError` otherwise.
    """
    return _number(text.strip(), "seed", MAX_SEED)


def _number(text: str, what: str, most: int) -> int:
    from bot.syntax.words import number  # the command language, loaded only when needed
    from engine.errors import InvalidNotation

    try:
        return number(text, what, most=most)
    except InvalidNotation as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def tolerant_terminal() -> None:
    """Let the terminal survive any bytes: input that is not valid in its encoding is read
    with replacement characters, output it cannot show is written as escapes."""
    for stream, errors in (
        (sys.stdin, "replace"),
        (sys.stdout, "backslashreplace"),
        (sys.stderr, "backslashreplace"),
    ):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors=errors)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; the process exit status."""
    tolerant_terminal()
    args = parser().parse_args(argv)
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"titanbot: {exc}", file=sys.stderr)
        return 2
    command = args.command or ("run" if config.has_token else "local")
    if command == "run":
        return run_discord(config)  # logs through discord.utils.setup_logging()
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    if command == "tournament":
        return run_tournament(args.db or config.database, args.words)
    if command == "ratings":
        return run_ratings(args.db or config.database, args.rebuild)
    if command == "check-db":
        return check_db(args.db or config.database)
    if command == "migrate":
        return run_migrate(args.db or config.database, args.to)
    if command == "verify":
        return verify_record(args.record, args.commitment, args.record_digest)
    if command == "render-demo":
        return render_demo(args.outdir)
    if command == "demo":
        return run_demo(args.players, args.seed, args.out, args.max_turns)
    return run_local(
        config,
        names(getattr(args, "players", "")),
        ai=getattr(args, "ai", []),
        db=getattr(args, "db", None),
        seed=getattr(args, "seed", None),
        out=getattr(args, "out", None),
    )


def run_discord(config: Config) -> int:
    """Host games on Discord with the configured token until stopped."""
    if not config.has_token:
        print("titanbot: no token: set TITANBOT_TOKEN or discord.token", file=sys.stderr)
        return 2
    from bot.discord import run_bot
    from bot.storage import DatabaseInUse

    try:
        return run_bot(config)
    except DatabaseInUse as exc:
        print(f"titanbot: {exc}", file=sys.stderr)
        return 2


def run_local(
    config: Config,
    players: list[str],
    *,
    ai: Sequence[str] = (),
    db: Target | None = None,
    seed: int | None = None,
    out: Path | None = None,
) -> int:
    """Play in the terminal until the end of input."""
    from bot.console import play_locally
    from bot.heap import settle
    from bot.storage import DatabaseInUse

    settle()
    try:
        asyncio.run(play_locally(db or config.database, players, ai=ai, seed=seed, out=out))
    except DatabaseInUse as exc:
        print(f"titanbot: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print()
    return 0


def run_tournament(path: Target, words: Sequence[str]) -> int:
    """One tournament command over the database at ``path`` (0 done, 1 refused)."""
    from bot.competition.terminal import tournament_command
    from bot.storage import DatabaseInUse

    try:
        return asyncio.run(tournament_command(path, words))
    except DatabaseInUse as exc:
        print(f"titanbot tournament: {exc}", file=sys.stderr)
        return 2


def run_ratings(path: Target, rebuild: bool) -> int:
    from bot.competition.terminal import ratings_command
    from bot.storage import DatabaseInUse

    try:
        return asyncio.run(ratings_command(path, rebuild))
    except DatabaseInUse as exc:
        print(f"titanbot ratings: {exc}", file=sys.stderr)
        return 2


def check_db(path: Target) -> int:
    """Print what is wrong with the database at ``path``, one line per problem (or a
    short summary when all is well); 0 all well, 1 problems found, 2 not checkable."""
    import sqlite3

    import asyncpg

    from bot.records.check import check_database
    from bot.storage import DatabaseInUse
    from bot.storage.pg_catalog import Unreachable

    try:
        report = asyncio.run(check_database(path))
    except (FileNotFoundError, DatabaseInUse, Unreachable) as exc:
        print(f"titanbot check-db: {exc}", file=sys.stderr)
        return 2
    except (sqlite3.DatabaseError, asyncpg.PostgresError) as exc:
        print(f"titanbot check-db: the database cannot be read ({exc})", file=sys.stderr)
        return 2
    for line in report.problems:
        print(line)
    for line in report.known:
        print(f"known: {line}")
    for note in report.notes:
        print(f"({note})")
    print(report.summary())
    return 0 if report.ok else 1


def run_migrate(source: Target, target: Target) -> int:
    """Copy the SQLite database ``source`` into the PostgreSQL one ``target`` and print
    what was copied; 0 copied and checked, 1 the copy differed (rolled back), 2 not made."""
    from bot.storage import DatabaseInUse
    from bot.storage.backends import is_postgres, shown
    from bot.storage.transfer import CopyDiffers, Refused, transfer

    if is_postgres(source):
        print(f"titanbot migrate: {shown(source)} is not a SQLite file (--db)", file=sys.stderr)
        return 2
    if not is_postgres(target):
        print(f"titanbot migrate: {target} is not a postgresql:// URL (--to)", file=sys.stderr)
        return 2
    try:
        copied = asyncio.run(transfer(Path(source), str(target)))
    except (FileNotFoundError, DatabaseInUse, Refused) as exc:
        print(f"titanbot migrate: {exc}", file=sys.stderr)
        return 2
    except CopyDiffers as exc:
        print(f"titanbot migrate: {exc}; nothing was kept", file=sys.stderr)
        return 1
    for line in copied.lines():
        print(line)
    return 0


def verify_record(path: Path, commitment: str | None, record_digest: str | None) -> int:
    """Check the public record at ``path`` against the announced values given; print
    ``verified: …`` and the full digests (0), or what is wrong (1: the record is refused);
    2 when the file cannot be read (absent, too large, nested too deep)."""
    from bot.records.check_record import Announced, check_record
    from bot.records.public import MAX_RECORD_BYTES, NotARecord, read_record
    from bot.untrusted import UnsafeInput, read_bounded

    try:
        document = read_record(read_bounded(path, MAX_RECORD_BYTES))
    except OSError as exc:
        print(f"titanbot verify: {exc}", file=sys.stderr)
        return 2
    except UnsafeInput as exc:
        print(f"titanbot verify: {path}: it cannot be checked: {exc}", file=sys.stderr)
        return 2
    except NotARecord as exc:
        print(f"{path}: {exc}")
        return 1
    verdict = check_record(document, Announced(commitment, record_digest))
    print(verdict.text if verdict.ok else f"{path}: {verdict.text}")
    return 0 if verdict.ok else 1


def run_demo(players: int, seed: int, out: Path, max_turns: int | None) -> int:
    """Play an AI game through a temporary database; print the winner and the files."""
    from bot import demo

    turns = demo.MAX_TURNS if max_turns is None else max_turns
    print(f"TITAN demo: {players} AI players, seed {seed}.")
    try:
        result = asyncio.run(demo.run_demo(players, seed, out, max_turns=turns))
    except KeyboardInterrupt:
        print()
        return 130
    print(result.summary(turns))
    return 0


def render_demo(outdir: Path) -> int:
    """Write :func:`render.demo_set`'s pictures to ``outdir`` and print their paths."""
    from render import demo_set

    outdir.mkdir(parents=True, exist_ok=True)
    for name, image in sorted(demo_set().items()):
        path = outdir / name
        path.write_bytes(image)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
