"""The replay: an animated GIF of the public masterboard, one frame per player turn, a long
game sampled (never refused) to fit Discord's upload limit, every frame decoded back
exactly as drawn."""

from __future__ import annotations

import io
import itertools
import random

import pytest
from PIL import Image, ImageChops

from engine.masterboard import LANDS
from render.board_info import BoardInfo, MarkerInfo, MoveInfo, PlayerInfo
from render.replay import (
    MOST_FRAMES,
    ReplayFrame,
    caption_lines,
    frame_image,
    replay,
    sampled,
    shared_palette,
)

DISCORD_LIMIT = 10 * 2**20
"""Discord's upload limit per file without a boost (10 MiB)."""
COLOURS = ("Red", "Blue", "Black", "Gold", "Green", "Brown")
LANDS_ = sorted(LANDS)


def synthetic_game(game_turns: int, players: int, seed: int = 5) -> list[ReplayFrame]:
    """The frames of a long finished game as a public board shows it: every player's ten
    legions wander the board turn after turn (a fresh land and height each turn, the
    worst case for a replay's size), scores grow, now and then a battle is fought."""
    rng = random.Random(seed)
    markers = {
        seat: [f"{COLOURS[seat][:2]}{i:02d}" for i in range(1, 11)] for seat in range(players)
    }
    where = {m: rng.choice(LANDS_) for ms in markers.values() for m in ms}
    scores = [0] * players
    frames = []
    for turn in range(1, game_turns + 1):
        for seat in range(players):
            moves = []
            for marker in rng.sample(markers[seat], 4):
                start, where[marker] = where[marker], rng.choice(LANDS_)
                moves.append(MoveInfo(marker, start, where[marker], rng.random() < 0.1))
            scores[seat] += rng.randrange(0, 12)
            legions = tuple(
                MarkerInfo(m, s, where[m], rng.randrange(1, 8))
                for s, ms in markers.items() for m in ms
            )  # fmt: skip
            board = BoardInfo(
                players=tuple(
                    PlayerInfo(f"Player {s}", COLOURS[s], scores[s], False) for s in range(players)
                ),
                legions=legions,
                phase="muster",
                active=seat,
                turn=turn,
                roll=rng.randrange(1, 7),
                moves=tuple(moves),
                engagement=None,
            )
            battles = (moves[0].land,) if rng.random() < 0.3 else ()
            frames.append(ReplayFrame(board, battles))
    return frames


def decoded(data: bytes) -> list[Image.Image]:
    with Image.open(io.BytesIO(data)) as gif:
        assert gif.format == "GIF"
        found = []
        for index in range(gif.n_frames):
            gif.seek(index)
            found.append(gif.convert("RGB"))
        return found


def test_sampling_spreads_evenly_and_keeps_the_first_and_the_last():
    assert sampled(5, 10) == (0, 1, 2, 3, 4)
    chosen = sampled(1200, 300)
    assert len(chosen) == 300 and chosen[0] == 0 and chosen[-1] == 1199
    gaps = {b - a for a, b in itertools.pairwise(chosen)}
    assert gaps <= {4, 5}
    assert sampled(1200, 1) == (0, 1199)  # never fewer than the first and the last


def test_every_frame_decodes_as_it_was_drawn():
    frames = synthetic_game(2, 3)
    made = replay(frames, width=800)
    assert made.shown == tuple(range(len(frames)))
    images = decoded(made.data)
    assert len(images) == len(frames)
    palette = shared_palette(frame_image(frames[0], width=800, count=len(frames)))
    for index, (frame, image) in enumerate(zip(frames, images, strict=True)):
        drawn = frame_image(frame, width=800, index=index, count=len(frames))
        reduced = drawn.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")
        assert ImageChops.difference(reduced, image).getbbox() is None, index


def test_a_long_finished_game_fits_discords_limit_sampled():
    """A 300-turn game of four players (1,200 player turns) fits 10 MiB (the time it takes
    is measured by ``bench/replay.py``)."""
    frames = synthetic_game(300, 4)
    made = replay(frames)
    assert len(made.data) <= DISCORD_LIMIT
    assert len(made.shown) == MOST_FRAMES
    assert made.shown[0] == 0 and made.shown[-1] == len(frames) - 1
    with Image.open(io.BytesIO(made.data)) as gif:
        assert gif.n_frames == MOST_FRAMES and gif.is_animated


def test_a_replay_over_its_budget_shows_fewer_frames_rather_than_none():
    frames = synthetic_game(10, 2)
    whole = replay(frames, width=800)
    budget = len(whole.data) // 2
    made = replay(frames, width=800, max_bytes=budget)
    assert len(made.data) <= budget
    assert 2 <= len(made.shown) < len(frames)
    assert made.shown[0] == 0 and made.shown[-1] == len(frames) - 1
    assert len(decoded(made.data)) == len(made.shown)


def test_captions_name_the_battles():
    board = synthetic_game(1, 2)[0].board
    assert caption_lines(ReplayFrame(board)) == []
    assert caption_lines(ReplayFrame(board, (34,), "Ann wins")) == ["Ann wins", "Battle in 34"]
    assert caption_lines(ReplayFrame(board, (34, 120))) == ["Battles in 34, 120"]


def test_a_replay_needs_a_frame():
    with pytest.raises(ValueError, match="at least one frame"):
        replay([])
