"""Discord's limits hold for the choices of every real position, and nothing is cut to fit.

Along random whole games (two to six players, a fighting agent so that battles come), the
public board and every private step a click may open (breadth first) are drawn as the bot
draws them and checked by the fake Discord's own rules (:mod:`tests.bot.discord.limits`:
five rows, five buttons a row, 25 options a menu, 100-character ids and values, labels of
80 and 100 characters); and every choice offered is drawn (a list too long for a menu is
split into steps, never cut).
"""

from __future__ import annotations

import random
from collections import Counter

from bot.discord.components import choices_view
from bot.offers import Offers, fits, public_offers, step
from bot.offers.model import Choices
from engine.game.apply import apply
from engine.game.legal import legal_actions, to_act
from engine.game.setup import new_game
from tests.bot.agent import pick
from tests.bot.discord.limits import check_message

GAMES = 6
MOST_STEPS = 8
"""Private steps opened at each position (the first ones, breadth first)."""
GAME_ID, VERSION = 10**12, 99_999
"""A long game id and version: the custom ids are as long as they get."""


def drawn(choices: Choices) -> list[str]:
    """The components of ``choices`` as the bot sends them, checked by Discord's rules;
    the commands they carry."""
    view = choices_view(Offers.of(GAME_ID, VERSION, choices))
    if view is None:
        assert not choices
        return []
    components = view.to_components()
    assert check_message({"content": "x", "components": components}, 0) is None, components
    found = []
    for row in components:
        for item in row["components"]:
            if item["type"] == 2:
                found.append(item["custom_id"].split(":")[2])
            elif item.get("max_values", 1) > 1:
                found.append(item["custom_id"].split(":")[2].removeprefix("pick "))
            else:
                found += [o["value"] for o in item["options"]]
    return found


def next_steps(choices: Choices) -> list[str]:
    """The steps ``choices`` lead to (a menu of several picks: with its first options)."""
    found = [c for c in choices.commands() if c.startswith("choices ")]
    found += [
        m.command_for([o.command for o in m.options[: m.least]])
        for m in choices.menus
        if m.prefix is not None
    ]
    return found


def opened(state, seat: int, choices: Choices) -> list[Choices]:
    """The steps a click may open from ``choices``, breadth first."""
    todo = next_steps(choices)
    found, seen = [], set()
    while todo and len(seen) < MOST_STEPS:
        command = todo.pop(0)
        if command in seen:
            continue
        seen.add(command)
        words = command.split()
        shown = step(state, seat, words[1], words[2:]).choices
        found.append(shown)
        todo += next_steps(shown)
    return found


def test_every_board_and_step_of_random_games_fits_discord_and_is_drawn_whole():
    kinds: Counter[str] = Counter()
    for game in range(GAMES):
        rng = random.Random(game)
        state, _ = new_game([f"P{i}" for i in range(2 + game % 5)], game)
        for _ in range(3000):
            seat = to_act(state)
            if seat is None:
                break
            board = public_offers(state)
            for choices in [board, *opened(state, seat, board)]:
                assert fits(choices), choices
                assert Counter(drawn(choices)) == Counter(choices.commands()), choices
                kinds.update(c.split()[0] for c in choices.commands())
            state, _ = apply(state, seat, pick(legal_actions(state, seat), rng, fighting=True))
    assert {"choices", "move", "split", "maneuver", "strike", "muster"} <= set(kinds)
