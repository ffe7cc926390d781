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
"""
