"""The ``titanbot`` command: run the Discord bot, or play a local game in the terminal.

``titanbot`` alone runs the bot when a token is configured and the local game otherwise;
``titanbot run`` and ``titanbot local [--players Ann,Bob] [--db PATH] [--seed N]
[--out DIR]`` choose explicitly; ``titanbot render-demo OUTDIR`` draws sample pictures.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.config import Config, ConfigError, load_config


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="titanbot", description="Host games of TITAN.")
    top.add_argument("--config", type=Path, default=None, help="config file (config.toml)")
    commands = top.add_subparsers(dest="command")
    commands.add_parser("run", help="run the Discord bot (needs a token)")
    local = commands.add_parser("local", help="play a game in this terminal")
    local.add_argument("--players", default="", help="comma-separated names, e.g. Ann,Bob")
    local.add_argument("--db", type=Path, default=None, help="SQLite file (default: config)")
    local.add_argument("--seed", type=int, default=None, help="the game's seed")
    local.add_argument("--out", type=Path, default=None, help="folder for pictures")
    demo = commands.add_parser("render-demo", help="draw one picture of every kind")
    demo.add_argument("outdir", type=Path, help="folder to write the PNG files to")
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; the process exit status."""
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
    if command == "render-demo":
        return render_demo(args.outdir)
    players = [p.strip() for p in getattr(args, "players", "").split(",") if p.strip()]
    return run_local(
        config,
        players,
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

    return run_bot(config)


def run_local(
    config: Config,
    players: list[str],
    *,
    db: Path | None = None,
    seed: int | None = None,
    out: Path | None = None,
) -> int:
    """Play in the terminal until the end of input."""
    from bot.console import play_locally

    try:
        asyncio.run(play_locally(db or config.database, players, seed=seed, out=out))
    except KeyboardInterrupt:
        print()
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
