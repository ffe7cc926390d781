"""``/tournament``: the organisers' desk — create, fill, close and seat a tournament, and
look after its tables (remind, extend, pause, resume, adjudicate, replace, eliminate,
advance a bracket; an entrant playing on as an eliminator).

Players sign up with ``/titan tournament join`` (and leave, and see the standings there);
these are the organisers'. Discord alone decides who may use them, as for
``/titan-admin``: by default members with Manage Server (and administrators) see and use
``/tournament`` (``default_permissions``), and a server may allow its organiser role, or
other members, in Server Settings → Integrations. Whoever's interaction arrives is an
organiser here (:func:`bot.discord.host.organiser_of`). Each command writes one line
``tournament SUB NAME …`` of the command language (its leaf's ``extras["verb"]`` is
``tournament SUB``), which the service reads as the terminal does.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.discord import specs as s
from bot.discord.commands.completion import tournaments
from bot.discord.commands.leaf import command
from bot.discord.host import TitanInteraction
from bot.discord.runner import run_command

Name = app_commands.Range[str, 1, 40]
Table = app_commands.Range[str, 3, 7]
NAME = "the tournament"
TABLE = "heat.table, like 2.3"
AGREED = ("agreed", "yes", "on")
"""A ``time_limit`` without a date: the players agree when the game ends (errata 21.1)."""


async def _run(interaction: TitanInteraction, spec: s.Spec, **values: object) -> None:
    await run_command(interaction, spec, organiser=True, **values)


def _mention(user: discord.abc.User) -> str:
    return f"<@{user.id}>"


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class TournamentCommands(
    app_commands.Group, name="tournament", description="Run this server's TITAN tournaments"
):
    """Organisers create and run tournaments: heats of tables, or a bracket."""

    @command("tournament create", "Create a tournament; sign-up opens here")
    @app_commands.describe(
        name="1 to 40 letters, digits, spaces or -_'",
        format="heats (default), or a 2-player bracket",
        players="players per table, like 3-4 (default)",
        heats="how many heats (default 3)",
        scheme="how a game's places score (default wbc_points)",
        advance="how many the standings mark as advancing (default 4)",
        count="only a player's first N games count",
        mutual="Titans falling together: a rolloff (default) or a shared draw",
        deadline="how long each decision may wait, like 24h",
        timeout="when a deadline passes: ai plays, pass plays the least, pause waits",
        standin="the level the computer plays at for a late or away player (default hard)",
        time_limit="a time limit: a UTC date like 2027-03-01, or agreed",
        record_keeping="players may see what each legion was seen to hold",
        threads="tables as private threads of this channel, not channels",
        unrated="its games leave the ratings alone",
        autostrike="the most a player's autostrike makes at its tables (default all)",
        away="the most days a player's time away stops the clocks (default 14; 0: none)",
    )
    async def create(
        self,
        interaction: TitanInteraction,
        name: Name,
        format: Literal["heats", "bracket"] | None = None,
        players: app_commands.Range[str, 1, 3] | None = None,
        heats: app_commands.Range[int, 1, 99] | None = None,
        scheme: Literal["wbc_points", "wbc_classic", "wins", "average_place"] | None = None,
        advance: app_commands.Range[int, 1, 99] | None = None,
        count: app_commands.Range[int, 1, 99] | None = None,
        mutual: Literal["rolloff", "draw"] | None = None,
        deadline: app_commands.Range[str, 2, 16] | None = None,
        timeout: Literal["ai", "pass", "pause"] | None = None,
        standin: Literal["easy", "normal", "hard"] | None = None,
        time_limit: app_commands.Range[str, 2, 16] | None = None,
        record_keeping: bool = False,
        threads: bool = False,
        unrated: bool = False,
        autostrike: Literal["off", "forced", "all"] | None = None,
        away: app_commands.Range[int, 0, 90] | None = None,
    ) -> None:
        agreed = time_limit is not None and time_limit.strip().lower() in AGREED
        await _run(
            interaction, s.T_CREATE,
            name=name, format=format, players=players, heats=heats, scheme=scheme,
            advance=advance, count=count, mutual=mutual, deadline=deadline, timeout=timeout,
            standin=standin,
            time_limit=None if agreed else time_limit, agreed=agreed,
            record_keeping=record_keeping, threads=threads, unrated=unrated,
            autostrike=autostrike, away=away,
        )  # fmt: skip

    @command("tournament add", "Sign up entrants: mentions, or AI players")
    @app_commands.describe(name=NAME, players="mentions, like @ann @bob", ai="or N AI players")
    @app_commands.autocomplete(name=tournaments)
    async def add(
        self,
        interaction: TitanInteraction,
        name: Name,
        players: app_commands.Range[str, 1, 4000] | None = None,
        ai: app_commands.Range[int, 1, 64] | None = None,
    ) -> None:
        if (players is None) == (ai is None):
            text = "Name the entrants (`players`: mentions) or a number of AI players (`ai`)."
            await interaction.response.send_message(text, ephemeral=True)
            return
        if ai is not None:
            await _run(interaction, s.T_ADD_AI, name=name, ai=ai)
        else:
            await _run(interaction, s.T_ADD, name=name, players=players)

    @command("tournament close", "Close sign-up")
    @app_commands.describe(name=NAME)
    @app_commands.autocomplete(name=tournaments)
    async def close(self, interaction: TitanInteraction, name: Name) -> None:
        await _run(interaction, s.T_CLOSE, name=name)

    @command("tournament heat", "Seat the next heat: its tables open")
    @app_commands.describe(name=NAME)
    @app_commands.autocomplete(name=tournaments)
    async def heat(self, interaction: TitanInteraction, name: Name) -> None:
        await _run(interaction, s.T_HEAT, name=name)

    @command("tournament status", "Every table: its turn, whom it waits for")
    @app_commands.describe(name=NAME)
    @app_commands.autocomplete(name=tournaments)
    async def status(self, interaction: TitanInteraction, name: Name) -> None:
        await _run(interaction, s.T_STATUS, name=name)

    @command("tournament archive", "Every finished game's record and the standings, zipped")
    @app_commands.describe(name=NAME)
    @app_commands.autocomplete(name=tournaments)
    async def archive(self, interaction: TitanInteraction, name: Name) -> None:
        await _run(interaction, s.T_ARCHIVE, name=name)

    @command("tournament remind", "Remind whoever a table waits for")
    @app_commands.describe(name=NAME)
    @app_commands.autocomplete(name=tournaments)
    async def remind(self, interaction: TitanInteraction, name: Name) -> None:
        await _run(interaction, s.T_REMIND, name=name)

    @command("tournament extend", "Give a table's current decision more time")
    @app_commands.describe(name=NAME, table=TABLE, by="how much longer, like 24h")
    @app_commands.autocomplete(name=tournaments)
    async def extend(
        self,
        interaction: TitanInteraction,
        name: Name,
        table: Table,
        by: app_commands.Range[str, 2, 16],
    ) -> None:
        await _run(interaction, s.T_EXTEND, name=name, table=table, by=by)

    @command("tournament force", "End a table's wait now, as its deadline would")
    @app_commands.describe(name=NAME, table=TABLE)
    @app_commands.autocomplete(name=tournaments)
    async def force(self, interaction: TitanInteraction, name: Name, table: Table) -> None:
        await _run(interaction, s.T_FORCE, name=name, table=table)

    @command("tournament pause", "Stop the clocks of a table, or of all")
    @app_commands.describe(name=NAME, table=f"{TABLE} (default: every table)")
    @app_commands.autocomplete(name=tournaments)
    async def pause(
        self, interaction: TitanInteraction, name: Name, table: Table | None = None
    ) -> None:
        await _run(interaction, s.T_PAUSE, name=name, table=table)

    @command("tournament resume", "Start the clocks again")
    @app_commands.describe(name=NAME, table=f"{TABLE} (default: every table)")
    @app_commands.autocomplete(name=tournaments)
    async def resume(
        self, interaction: TitanInteraction, name: Name, table: Table | None = None
    ) -> None:
        await _run(interaction, s.T_RESUME, name=name, table=table)

    @command("tournament adjudicate", "End a table's game by a ruling")
    @app_commands.describe(
        name=NAME,
        table=TABLE,
        reason="why (said at the table and logged)",
        places="places, like @ann=1 @bob=2 (default: by the score)",
    )
    @app_commands.autocomplete(name=tournaments)
    async def adjudicate(
        self,
        interaction: TitanInteraction,
        name: Name,
        table: Table,
        reason: app_commands.Range[str, 1, 200],
        places: app_commands.Range[str, 3, 600] | None = None,
    ) -> None:
        how = "score" if places is None else "ruling"
        await _run(
            interaction, s.T_ADJUDICATE,
            name=name, table=table, how=how, places=places, reason=reason,
        )  # fmt: skip

    @command("tournament replace", "Give an entrant's place to a substitute")
    @app_commands.describe(name=NAME, old="who leaves", new="who takes over")
    @app_commands.autocomplete(name=tournaments)
    async def replace(
        self, interaction: TitanInteraction, name: Name, old: discord.User, new: discord.User
    ) -> None:
        await _run(interaction, s.T_REPLACE, name=name, old=_mention(old), new=_mention(new))

    @command("tournament eliminator", "An entrant plays on as an eliminator (no standing)")
    @app_commands.describe(name=NAME, entrant="who plays on as an eliminator")
    @app_commands.autocomplete(name=tournaments)
    async def eliminator(
        self, interaction: TitanInteraction, name: Name, entrant: discord.User
    ) -> None:
        await _run(interaction, s.T_ELIMINATOR, name=name, entrant=_mention(entrant))

    @command("tournament advance", "Seat a bracket's next round")
    @app_commands.describe(name=NAME)
    @app_commands.autocomplete(name=tournaments)
    async def advance(self, interaction: TitanInteraction, name: Name) -> None:
        await _run(interaction, s.T_ADVANCE, name=name)
