"""The bot: everything with asyncio, SQLite, configuration and Discord.

A command flows down this list and its replies flow back up:

* :mod:`bot.discord`, :mod:`bot.console` — the transports (slash commands and buttons, or
  lines typed in a terminal); :mod:`bot.cli` is the ``titanbot`` command;
* :mod:`bot.syntax` — the command language both transports speak;
* :mod:`bot.service` — the game service: one lock per channel, one transaction per command,
  :class:`~bot.replies.Replies` back;
* :mod:`bot.handlers` — what the service runs: the lobby, game actions, information, AI seats;
* :mod:`bot.narration` — events and situations in words, each reader told only what the
  rules show them;
* :mod:`bot.storage` — SQLite: migrations, the append-only action log, snapshots, loading
  and storing a game.

What a stored change must tell leaves by one path, after the commit:

* :mod:`bot.outbox` — written in the change's transaction, delivered in order per channel
  by a transport (:mod:`bot.discord.transport`, or the terminal's), retried, never doubled;
  a live message edited within a player's run, a new one at a hand-off, battles in threads;
* :mod:`bot.dialect` — how a text names a command: the terminal's words, or the clickable
  slash command on Discord;
* :mod:`bot.offers`, :mod:`bot.pictures`, :mod:`bot.painting` — the choices a message
  offers (public ones only in public) and the pictures, drawn in worker processes.

May import: the engine and the renderer; its layers point one way (tests/test_layers.py):
transports (discord, console, cli) → the service (service, telling, damaged_games, routing)
→ features (handlers, competition, schedule, ai_runner, records) → the interface features
know the service by (ports, open_games) → building blocks (storage, replies, context,
syntax, narration, offers, outbox, tournament …).
"""
