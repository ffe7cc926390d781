"""Numbered SQL migrations: migration ``n`` (1-based) brings ``PRAGMA user_version`` to n.

Never edit a released migration; append a new one.
"""

from __future__ import annotations

MIGRATIONS: tuple[str, ...] = (
    # 1: games, users, seats, the append-only action log and snapshots.
    """
    CREATE TABLE games (
        id         INTEGER PRIMARY KEY,
        channel    INTEGER NOT NULL,
        guild      INTEGER,
        status     TEXT    NOT NULL
                   CHECK (status IN ('lobby', 'active', 'over', 'cancelled')),
        settings   TEXT    NOT NULL,
        seed       INTEGER,
        created_at TEXT    NOT NULL,
        updated_at TEXT    NOT NULL
    );
    CREATE UNIQUE INDEX games_one_open_per_channel
        ON games (channel) WHERE status IN ('lobby', 'active');
    CREATE INDEX games_by_status ON games (status, updated_at);

    CREATE TABLE users (
        id         INTEGER PRIMARY KEY,
        dms_closed INTEGER NOT NULL DEFAULT 0 CHECK (dms_closed IN (0, 1))
    );

    CREATE TABLE seats (
        game INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL CHECK (seat >= 0),
        user INTEGER NOT NULL REFERENCES users (id),
        name TEXT    NOT NULL,
        PRIMARY KEY (game, seat),
        UNIQUE (game, user),
        UNIQUE (game, name)
    ) WITHOUT ROWID;
    CREATE INDEX seats_by_user ON seats (user);

    CREATE TABLE actions (
        game       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        n          INTEGER NOT NULL CHECK (n >= 1),
        seat       INTEGER NOT NULL,
        action     TEXT    NOT NULL,
        events     TEXT    NOT NULL,
        created_at TEXT    NOT NULL,
        PRIMARY KEY (game, n)
    ) WITHOUT ROWID;

    CREATE TABLE snapshots (
        game  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        n     INTEGER NOT NULL CHECK (n >= 0),
        state TEXT    NOT NULL,
        PRIMARY KEY (game, n)
    ) WITHOUT ROWID;
    """,
    # 2: a checksum per snapshot (those written before stay NULL: never trusted, see
    # bot/storage/checksum.py); a damaged game (its log cannot be read back) keeps its
    # status but no longer occupies its channel.
    """
    ALTER TABLE snapshots ADD COLUMN checksum TEXT;
    ALTER TABLE games ADD COLUMN damaged TEXT;
    DROP INDEX games_one_open_per_channel;
    CREATE UNIQUE INDEX games_one_open_per_channel
        ON games (channel) WHERE status IN ('lobby', 'active') AND damaged IS NULL;
    """,
    # 3: the player turn of each logged action (``state.turn.number`` before it), so that
    # ``history`` reads a window of the log instead of all of it; the open games of a
    # server, counted when a game is opened. Rows logged before are numbered from their
    # events: an action's turn is the number of the latest TurnStarted logged before it
    # (0 before the first, while colours are chosen). ``instr`` spares the JSON parse of
    # the many rows that start no turn.
    """
    ALTER TABLE actions ADD COLUMN turn INTEGER CHECK (turn >= 0);

    UPDATE actions SET turn = numbered.turn
    FROM (
        SELECT game, n, coalesce(max(started) OVER (
                   PARTITION BY game ORDER BY n ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
               ), 0) AS turn
        FROM (
            SELECT game, n, CASE WHEN instr(events, '"TurnStarted"') > 0 THEN (
                       SELECT max(json_extract(value, '$.number')) FROM json_each(events)
                       WHERE json_extract(value, '$.type') = 'TurnStarted'
                   ) END AS started
            FROM actions
        )
    ) AS numbered
    WHERE actions.game = numbered.game AND actions.n = numbered.n;

    CREATE INDEX actions_by_turn ON actions (game, turn, n);
    CREATE INDEX games_open_by_guild ON games (guild) WHERE status IN ('lobby', 'active');
    """,
    # 4: the outbox: everything a stored change must tell, written in the transaction that
    # stores it and delivered afterwards (bot/outbox/), the game's own news or a battle's;
    # where each goes (the channel, a battle's thread, opened at its first news) and the
    # message edited with it until the next hand-off; and each user's DMs: refused since
    # when (tried again after a day, or when they next give a command), and their own choice.
    """
    CREATE TABLE outbox (
        id           INTEGER PRIMARY KEY,
        game         INTEGER REFERENCES games (id) ON DELETE CASCADE,
        channel      INTEGER NOT NULL,
        kind         TEXT    NOT NULL CHECK (kind IN ('post', 'dm', 'answer')),
        lane         TEXT    NOT NULL DEFAULT 'game' CHECK (lane IN ('game', 'battle')),
        recipient    INTEGER,
        body         TEXT    NOT NULL,
        reply_to     TEXT,
        version      INTEGER,
        created_at   TEXT    NOT NULL,
        attempts     INTEGER NOT NULL DEFAULT 0,
        batch        INTEGER,
        delivered_at TEXT,
        outcome      TEXT
    );
    CREATE INDEX outbox_waiting ON outbox (channel, id) WHERE delivered_at IS NULL;

    CREATE TABLE places (
        channel  INTEGER NOT NULL,
        lane     TEXT    NOT NULL CHECK (lane IN ('game', 'battle')),
        target   INTEGER NOT NULL,
        live     INTEGER,
        text     TEXT,
        unopened TEXT,
        PRIMARY KEY (channel, lane)
    ) WITHOUT ROWID;

    ALTER TABLE users ADD COLUMN dms_closed_at TEXT;
    ALTER TABLE users ADD COLUMN dms_off INTEGER NOT NULL DEFAULT 0 CHECK (dms_off IN (0, 1));
    """,
    # 5: the scheduler (bot/schedule/): the decision each active game waits for and since
    # when (its deadline, if the game has a clock); the due items (a deadline, a reminder,
    # a time limit) in the order they fall due; each seat's timeouts in a row; each user's
    # reminder preferences (off, quiet hours in their time zone) and time away (from,
    # until, with the computer as stand-in or with their clocks stopped); and why an action
    # was given when its seat did not give it (a timeout, a stand-in).
    """
    CREATE TABLE clocks (
        game     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        seat     INTEGER NOT NULL,
        decision TEXT    NOT NULL,
        since    REAL    NOT NULL,
        deadline REAL
    );

    CREATE TABLE due (
        id       INTEGER PRIMARY KEY,
        game     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        kind     TEXT    NOT NULL CHECK (kind IN ('deadline', 'reminder', 'time_limit')),
        seat     INTEGER,
        decision TEXT,
        at       REAL    NOT NULL,
        done_at  REAL,
        outcome  TEXT
    );
    CREATE INDEX due_next ON due (at) WHERE done_at IS NULL;
    CREATE INDEX due_by_game ON due (game) WHERE done_at IS NULL;

    CREATE TABLE lapses (
        game  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat  INTEGER NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (game, seat)
    ) WITHOUT ROWID;

    ALTER TABLE users ADD COLUMN reminders_off INTEGER NOT NULL DEFAULT 0
        CHECK (reminders_off IN (0, 1));
    ALTER TABLE users ADD COLUMN quiet TEXT;
    ALTER TABLE users ADD COLUMN away_from REAL;
    ALTER TABLE users ADD COLUMN away_until REAL;
    ALTER TABLE users ADD COLUMN standin TEXT CHECK (standin IN ('ai'));
    ALTER TABLE actions ADD COLUMN cause TEXT;
    """,
    # 6: a named stand-in plays for a player who is away (the computer's is "ai").
    """
    ALTER TABLE users ADD COLUMN standin_user INTEGER;
    CREATE INDEX users_by_standin ON users (standin_user) WHERE standin_user IS NOT NULL;
    """,
    # 7: tournaments (entrants, heats' tables) and the results of finished games, rated.
    """
    CREATE TABLE tournaments (
        id         INTEGER PRIMARY KEY,
        guild      INTEGER,
        name       TEXT    NOT NULL,
        status     TEXT    NOT NULL CHECK (status IN ('signup', 'closed', 'over')),
        settings   TEXT    NOT NULL,
        seed       INTEGER NOT NULL,
        channel    INTEGER NOT NULL,
        created_at TEXT    NOT NULL
    );
    CREATE UNIQUE INDEX tournaments_by_name ON tournaments (coalesce(guild, 0), name);

    CREATE TABLE entrants (
        tournament INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        user       INTEGER NOT NULL,
        name       TEXT    NOT NULL,
        joined     INTEGER NOT NULL,
        eliminator_from INTEGER,
        PRIMARY KEY (tournament, user),
        UNIQUE (tournament, name)
    ) WITHOUT ROWID;

    CREATE TABLE tables (
        tournament INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        heat       INTEGER NOT NULL CHECK (heat >= 1),
        number     INTEGER NOT NULL CHECK (number >= 1),
        players    TEXT    NOT NULL,
        status     TEXT    NOT NULL CHECK (status IN ('opening', 'playing', 'over')),
        channel    INTEGER,
        game       INTEGER REFERENCES games (id),
        PRIMARY KEY (tournament, heat, number)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX tables_by_game ON tables (game) WHERE game IS NOT NULL;

    CREATE TABLE results (
        game        INTEGER PRIMARY KEY REFERENCES games (id),
        guild       INTEGER,
        tournament  INTEGER REFERENCES tournaments (id),
        heat        INTEGER,
        finished_at TEXT    NOT NULL,
        rated       INTEGER NOT NULL CHECK (rated IN (0, 1)),
        result      TEXT    NOT NULL
    );
    CREATE INDEX results_by_tournament ON results (tournament, finished_at)
        WHERE tournament IS NOT NULL;

    CREATE TABLE ratings (
        guild INTEGER NOT NULL,
        user  INTEGER NOT NULL,
        mu    REAL    NOT NULL,
        sigma REAL    NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (guild, user)
    ) WITHOUT ROWID;

    CREATE TABLE tournament_log (
        id         INTEGER PRIMARY KEY,
        tournament INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        at         TEXT    NOT NULL,
        text       TEXT    NOT NULL
    );
    """,
    # 8: the dice commitment (bot/records/proof.py): the secret salt drawn with the seed at
    # the start, revealed with it at the end. Games started before have none (and no
    # commitment was announced for them).
    """
    ALTER TABLE games ADD COLUMN salt TEXT;
    """,
    # 9: a tournament's table may be paused by its organiser (since when): its game's
    # clock stops (no deadline falls due, no reminder) until it is resumed.
    """
    ALTER TABLE tables ADD COLUMN paused_at REAL;
    """,
    # 10: several processes on one database (PostgreSQL). Each change to a game bumps its
    # revision, and a change made from an older revision is refused (the writer reloads
    # and tries again), so cached games are checked by it; a due item is claimed by one
    # process until ``claimed_until``; a lease (a channel's outbox, a heat's opening) is
    # held by one process until ``until`` and taken over after it, when that process died.
    """
    ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE due ADD COLUMN claimed_by TEXT;
    ALTER TABLE due ADD COLUMN claimed_until REAL;
    CREATE TABLE leases (
        name   TEXT    PRIMARY KEY,
        holder TEXT    NOT NULL,
        until  REAL    NOT NULL
    ) WITHOUT ROWID;
    """,
    # 11: an absent player. Since when a seat has missed deadlines in a row (shown in the
    # status, told to the organisers once), and the player turn whose further decisions of
    # that seat the stand-in plays at once after a deadline passed (a timeout covers the
    # rest of that turn: bot/schedule/planner.py).
    """
    ALTER TABLE lapses ADD COLUMN since REAL;
    ALTER TABLE lapses ADD COLUMN covers INTEGER;
    """,
    # 12: entrants are keyed by user alone: two users may sign up under one name (they
    # are told apart where they are shown: bot.names.told_apart). The table is rebuilt
    # without its name's uniqueness, every row kept.
    """
    CREATE TABLE entrants_by_user (
        tournament INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        user       INTEGER NOT NULL,
        name       TEXT    NOT NULL,
        joined     INTEGER NOT NULL,
        eliminator_from INTEGER,
        PRIMARY KEY (tournament, user)
    ) WITHOUT ROWID;
    INSERT INTO entrants_by_user (tournament, user, name, joined, eliminator_from)
        SELECT tournament, user, name, joined, eliminator_from FROM entrants;
    DROP TABLE entrants;
    ALTER TABLE entrants_by_user RENAME TO entrants;
    """,
    # 13: who has read a game's secrets while it was played (an organiser's export holds
    # its seed and salt, every legion): they may not take or be given a seat in it.
    """
    CREATE TABLE secret_readers (
        game INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user INTEGER NOT NULL,
        at   TEXT    NOT NULL,
        PRIMARY KEY (game, user)
    ) WITHOUT ROWID;
    """,
    # 14: the game's commitment (bot/records/proof.py, titanbot-game/2). Seeds have 128
    # bits, more than an INTEGER holds: every seed is kept in decimal in ``seed_text``
    # (the older ``seed`` column is no longer written). ``pledge`` is the canonical JSON
    # that the start's commitment is the SHA-256 of: the game's identity, seats,
    # settings, engine, seed and salt (None for games started before it).
    """
    ALTER TABLE games ADD COLUMN seed_text TEXT;
    ALTER TABLE games ADD COLUMN pledge TEXT;
    UPDATE games SET seed_text = CAST(seed AS TEXT) WHERE seed IS NOT NULL;
    """,
    # 15: what files a lane's live message carries (a digest of its picture and
    # attachments, bot/outbox/posting.py), so that an edit saying the same picture again
    # leaves them in place instead of uploading them again (None: not known, upload).
    """
    ALTER TABLE places ADD COLUMN files TEXT;
    """,
    # 16: an AI seat's level of play (engine.ai.levels); NULL, as for the seats stored
    # before levels, is the default level (the AI those games were played with).
    """
    ALTER TABLE seats ADD COLUMN level TEXT CHECK (level IN ('easy', 'normal', 'hard'));
    """,
    # 17: a user's ``autostrike``: the battle decisions that leave them no choice are made
    # for them at once (engine.game.forced); off unless they turn it on.
    """
    ALTER TABLE users ADD COLUMN autostrike INTEGER NOT NULL DEFAULT 0
        CHECK (autostrike IN (0, 1));
    """,
    # 18: ``autostrike`` names what is made for the user: nothing ('off'), the forced
    # decisions (what 17's 1 meant) or every strike-phase decision ('all').
    """
    ALTER TABLE users ADD COLUMN autostrike_mode TEXT NOT NULL DEFAULT 'off'
        CHECK (autostrike_mode IN ('off', 'forced', 'all'));
    UPDATE users SET autostrike_mode = 'forced' WHERE autostrike = 1;
    ALTER TABLE users DROP COLUMN autostrike;
    ALTER TABLE users RENAME COLUMN autostrike_mode TO autostrike;
    """,
    # 19: a user's ``fighton``: every chance to concede outright that a battle gives them
    # (engine.game.forced.concession_window) is answered "fight on" at once; off unless
    # they turn it on.
    """
    ALTER TABLE users ADD COLUMN fighton INTEGER NOT NULL DEFAULT 0 CHECK (fighton IN (0, 1));
    """,
    # 20: ``player``: the user who held the action's seat when it was given. An organiser's
    # ``replace`` gives a seat to another user; the log keeps whose each action was (a
    # player's reliability reads it). NULL for the actions logged before: the seat's
    # player then is the one it has now, as far as the log knows.
    """
    ALTER TABLE actions ADD COLUMN player INTEGER;
    CREATE INDEX actions_by_player ON actions (player);
    """,
)
