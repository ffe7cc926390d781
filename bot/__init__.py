"""The bot: everything with asyncio, SQLite, configuration and (later) Discord.

* :mod:`bot.service` — the game service (submit a command, get :class:`~bot.replies.Replies`);
* :mod:`bot.syntax` — the command language shared by the console and Discord;
* :mod:`bot.storage` — SQLite: migrations, the append-only action log, snapshots;
* :mod:`bot.lobby`, :mod:`bot.play`, :mod:`bot.info` — the service's handlers;
* :mod:`bot.console`, :mod:`bot.cli` — the ``titanbot`` command and the local game.
"""
