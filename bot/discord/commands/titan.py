"""``/titan``: the lobby, the whole game and information.

Opening, joining and starting a game; leaving it (before the start or, by withdrawing, at
any time), the agreed time limit, showing a legion; and every look-up, whose answer only
the caller sees. Each command records in ``extras["verb"]`` the verb of the command
language it writes (see :mod:`bot.discord.commands.mentions`).
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.discord import specs as s
from bot.discord.commands.completion import creatures, own_characters, tournaments
from bot.discord.commands.help import help_text
from bot.discord.commands.leaf import command
from bot.discord.commands.options import CLOCK_OPTIONS, CONFIRM
from bot.discord.host import TitanInteraction
from bot.discord.runner import completer, run_command
from bot.names import clean

ADD_AI = s.Spec("addai", (s.Word("name", many=True), s.Word("level", keyword="level")))
"""``/titan ai``: the lobby's ``addai``."""
CANCEL = s.Spec("cancel", (s.Word("game"),))
"""``/titan cancel``: the lobby's ``cancel [GAME]``."""
Topic = Literal["lobby", "turn", "engagement", "battle", "information", "tournament", "organiser"]


@app_commands.guild_only()
class TitanCommands(
    app_commands.Group, name="titan", description="Play TITAN here: lobby, whole game, look-ups"
):
    """The lobby, the game as a whole, and information (RULES §1.6, §12.4)."""

    # --- the lobby ---------------------------------------------------------------------------
    @command("new", "Open a game in this channel (you host it)")
    @app_commands.describe(
        players="the most players, 2 to 6 (default 6)",
        record_keeping="players may see what each legion was seen to hold",
        time_limit="a time limit (errata 21.1): a UTC date like 2027-03-01, or agreed",
        deadline="how long each decision may wait, like 24h or 2d (default: none)",
        timeout="when a deadline passes: ai plays, pass plays the least, pause waits",
        standin=CLOCK_OPTIONS["standin"],
        inactivity="errata 20.4: 3 timeouts in a row, then a timeout concedes",
        unrated="the result moves nobody's rating",
    )
    async def new(
        self,
        interaction: TitanInteraction,
        players: app_commands.Range[int, 2, 6] | None = None,
        record_keeping: bool = False,
        time_limit: app_commands.Range[str, 1, 16] | None = None,
        deadline: app_commands.Range[str, 1, 16] | None = None,
        timeout: Literal["ai", "pass", "pause"] | None = None,
        standin: Literal["easy", "normal", "hard"] | None = None,
        inactivity: bool = False,
        unrated: bool = False,
    ) -> None:
        await run_command(
            interaction,
            s.NEW,
            inactivity=inactivity,
            unrated=unrated,
            players=players,
            record_keeping=record_keeping,
            time_limit=time_limit,
            deadline=deadline,
            timeout=timeout,
            standin=standin,
        )

    @command("join", "Take a seat in the game being formed")
    @app_commands.describe(name="your name in the game (default: your display name)")
    async def join(self, interaction: TitanInteraction, name: str | None = None) -> None:
        await run_command(interaction, s.JOIN, name=name)

    @command("leave", "Give up your seat before the start")
    async def leave(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.LEAVE)

    @command("add", "Invite someone to a seat (the host)")
    @app_commands.describe(user="who to invite", name="their name in the game")
    async def invite(
        self, interaction: TitanInteraction, user: discord.User, name: str | None = None
    ) -> None:
        name = name or clean(user.display_name) or None  # None: the lobby's "Player N"
        await run_command(interaction, s.ADD, user=f"<@{user.id}>", name=name)

    @command("addai", "Seat an AI player (the host)")
    @app_commands.describe(
        name="its name in the game (default: Bot 1, Bot 2, …)",
        level="easy (a newcomer can beat it), normal or hard (it searches)",
    )
    async def ai(
        self,
        interaction: TitanInteraction,
        name: str | None = None,
        level: Literal["easy", "normal", "hard"] | None = None,
    ) -> None:
        await run_command(interaction, ADD_AI, name=name, level=level)

    @command("start", "Start the game (the host; 2 seats or more)")
    async def start(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.START)

    @command("cancel", "Cancel this channel's game (the host)")
    @app_commands.describe(game="a damaged game's number (default: this channel's game)")
    async def cancel(
        self, interaction: TitanInteraction, game: app_commands.Range[int, 1] | None = None
    ) -> None:
        await run_command(interaction, CANCEL, game=game)

    # --- the whole game ----------------------------------------------------------------------
    @command("settings", "Change the game's clock (the host)")
    @app_commands.describe(**CLOCK_OPTIONS)
    async def settings(
        self,
        interaction: TitanInteraction,
        deadline: app_commands.Range[str, 2, 16] | None = None,
        timeout: Literal["ai", "pass", "pause"] | None = None,
        standin: Literal["easy", "normal", "hard"] | None = None,
        remind: app_commands.Range[str, 1, 40] | None = None,
        before: app_commands.Range[str, 2, 16] | None = None,
    ) -> None:
        await run_command(
            interaction, s.SETTINGS,
            deadline=deadline, timeout=timeout, standin=standin, remind=remind, before=before,
        )  # fmt: skip

    @command("withdraw", "Concede the whole game (RULES §12.4)")
    @app_commands.describe(confirm=CONFIRM)
    async def withdraw(self, interaction: TitanInteraction, confirm: bool = False) -> None:
        await run_command(interaction, s.WITHDRAW, confirm=confirm)

    @command("expire", "Declare the agreed time limit expired (errata 21.1)")
    async def expire(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.EXPIRE)

    @command("reveal", "Show one of your legions, or part of it, to all")
    @app_commands.describe(
        legion="the legion to show", characters="which characters (default: all)"
    )
    @app_commands.autocomplete(legion=completer(s.REVEAL, "legion"), characters=own_characters)
    async def reveal(
        self, interaction: TitanInteraction, legion: str, characters: str | None = None
    ) -> None:
        await run_command(interaction, s.REVEAL, legion=legion, characters=characters)

    # --- information (only the caller sees it) -----------------------------------------------
    @command("status", "Turn, phase, scores and who must act")
    async def status(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.STATUS)

    @command("mygames", "Your open games, those waiting for you first")
    async def mygames(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.MYGAMES)

    @command("board", "The masterboard and the legions you may see")
    async def board(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.BOARD)

    @command("legions", "Your legions (only you see them)")
    async def legions(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.LEGIONS)

    @command("dms", "Private news by direct message: on or off")
    @app_commands.describe(choice="on: what others do to your legions; off: none")
    async def dms(self, interaction: TitanInteraction, choice: Literal["on", "off"]) -> None:
        await run_command(interaction, s.DMS, choice=choice)

    me = app_commands.Group(name="me", description="Your own choices")

    @me.command(
        name="reminders",
        description="Whether I remind you that a game waits for you",
        extras={"verb": "reminders"},
    )
    @app_commands.describe(choice="on: when a game has waited for you; off: never")
    async def me_reminders(
        self, interaction: TitanInteraction, choice: Literal["on", "off"]
    ) -> None:
        await run_command(interaction, s.REMINDERS, choice=choice)

    @me.command(
        name="autostrike",
        description="Battle strikes I make for you at once",
        extras={"verb": "autostrike"},
    )
    @app_commands.describe(choice="forced: those with one target; all: every one, as AI hard; off")
    async def me_autostrike(
        self, interaction: TitanInteraction, choice: Literal["off", "forced", "all"]
    ) -> None:
        await run_command(interaction, s.AUTOSTRIKE, choice=choice)

    @me.command(
        name="fighton",
        description="Fight on at once when a battle lets you concede",
        extras={"verb": "fighton"},
    )
    @app_commands.describe(choice="on: at once; off: ask each time")
    async def me_fighton(self, interaction: TitanInteraction, choice: Literal["on", "off"]) -> None:
        await run_command(interaction, s.FIGHTON, choice=choice)

    @me.command(
        name="rating",
        description="Rating, rated games, reliability here",
        extras={"verb": "rating"},
    )
    @app_commands.describe(user="whose (default: yours)")
    async def me_rating(
        self, interaction: TitanInteraction, user: discord.User | None = None
    ) -> None:
        await run_command(interaction, s.RATING, user=f"<@{user.id}>" if user else None)

    @me.command(
        name="quiet",
        description="Hours when no reminder wakes you",
        extras={"verb": "quiet"},
    )
    @app_commands.describe(
        hours="like 22:00-08:00, or off", tz="your time zone, like Europe/Paris (default UTC)"
    )
    async def me_quiet(
        self,
        interaction: TitanInteraction,
        hours: app_commands.Range[str, 2, 11],
        tz: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        await run_command(interaction, s.QUIET, hours=hours, tz=tz)

    @me.command(
        name="away",
        description="You are away: your clocks stop, or someone plays for you",
        extras={"verb": "away"},
    )
    @app_commands.describe(
        until="the UTC date you are back, like 2026-12-20, or back",
        standin="ai: the computer plays for you (default: clocks stop)",
        standin_user="someone who plays your seats until then (they get your private news)",
    )
    async def me_away(
        self,
        interaction: TitanInteraction,
        until: app_commands.Range[str, 4, 16],
        standin: Literal["ai"] | None = None,
        standin_user: discord.User | None = None,
    ) -> None:
        if until.strip().lower() == "back":
            await run_command(interaction, s.BACK, off=True)
            return
        if standin is not None and standin_user is not None:
            text = "Choose the computer (`standin: ai`) or someone (`standin_user`), not both."
            await interaction.response.send_message(text, ephemeral=True)
            return
        chosen = f"<@{standin_user.id}>" if standin_user is not None else standin
        await run_command(interaction, s.AWAY, until=until, standin=chosen)

    tournament = app_commands.Group(
        name="tournament", description="Tournaments: sign up, leave, see the standings"
    )

    @tournament.command(
        name="join", description="Sign up for a tournament", extras={"verb": "tournament join"}
    )
    @app_commands.describe(name="the tournament")
    @app_commands.autocomplete(name=tournaments)
    async def tournament_join(
        self, interaction: TitanInteraction, name: app_commands.Range[str, 1, 40]
    ) -> None:
        await run_command(interaction, s.T_JOIN, name=name)

    @tournament.command(
        name="leave",
        description="Leave a tournament before sign-up closes",
        extras={"verb": "tournament leave"},
    )
    @app_commands.describe(name="the tournament")
    @app_commands.autocomplete(name=tournaments)
    async def tournament_leave(
        self, interaction: TitanInteraction, name: app_commands.Range[str, 1, 40]
    ) -> None:
        await run_command(interaction, s.T_LEAVE, name=name)

    @tournament.command(
        name="standings",
        description="A tournament's standings (only you see them)",
        extras={"verb": "tournament standings"},
    )
    @app_commands.describe(name="the tournament")
    @app_commands.autocomplete(name=tournaments)
    async def tournament_standings(
        self, interaction: TitanInteraction, name: app_commands.Range[str, 1, 40]
    ) -> None:
        await run_command(interaction, s.T_STANDINGS, name=name)

    @command("ratings", "The server's rating leaderboard")
    async def ratings(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.RATINGS)

    @command("history", "The last things that happened")
    @app_commands.describe(count="how many actions (default 10, at most 50)")
    async def history(
        self, interaction: TitanInteraction, count: app_commands.Range[int, 1, 50] | None = None
    ) -> None:
        await run_command(interaction, s.HISTORY, count=count)

    info = app_commands.Group(name="info", description="A game's records: what anyone may check")

    @info.command(
        name="record",
        description="A finished game's public record: every action and die",
        extras={"verb": "record"},
    )
    @app_commands.describe(game="its number (default: this channel's latest game)")
    async def info_record(
        self, interaction: TitanInteraction, game: app_commands.Range[int, 1] | None = None
    ) -> None:
        await run_command(interaction, s.RECORD, game=game)

    @info.command(
        name="replay",
        description="A finished game's replay: the board, turn by turn",
        extras={"verb": "replay"},
    )
    @app_commands.describe(game="its number (default: this channel's latest game)")
    async def info_replay(
        self, interaction: TitanInteraction, game: app_commands.Range[int, 1] | None = None
    ) -> None:
        await run_command(interaction, s.REPLAY, game=game)

    @command("legal", "Every command you may give now")
    async def legal(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.LEGAL)

    @command("creature", "A character's factors and where it musters")
    @app_commands.describe(name="the character, e.g. Cyclops")
    @app_commands.autocomplete(name=creatures)
    async def creature(self, interaction: TitanInteraction, name: str) -> None:
        await run_command(interaction, s.CREATURE, name=name)

    @command("land", "A land: terrain, exits, recruits, legions")
    @app_commands.describe(number="the land's number on the masterboard")
    async def land(
        self, interaction: TitanInteraction, number: app_commands.Range[int, 1, 999]
    ) -> None:
        await run_command(interaction, s.LAND, number=number)

    @command("help", "The commands, by topic (only you see it)")
    @app_commands.describe(topic="which commands (default: an overview)")
    async def help(self, interaction: TitanInteraction, topic: Topic | None = None) -> None:
        text = help_text(interaction.client.dialect, topic)
        await interaction.response.send_message(text, ephemeral=True)
