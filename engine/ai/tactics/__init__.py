"""The searching battle tactics of the computer player's level ``hard`` (issue 24).

A maneuver phase is planned whole (:mod:`~engine.ai.tactics.planner`): candidate plans
come from a fast one-pass policy under several stances (:mod:`~engine.ai.tactics.policy`),
from a beam search that places the movers together (:mod:`~engine.ai.tactics.beam`) and
from the best plan with one mover sent elsewhere; each is judged by a forecast of the
coming strike halves — ours, the enemy's answer, ours again, or every half to the time
loss when it is near (:mod:`~engine.ai.tactics.forecast`) — and the best is played move by
move from the phase's start (:mod:`~engine.ai.tactics.phase`). Strikes are chosen for the
whole strike phase they begin (:mod:`~engine.ai.tactics.striker`). What damage is worth is
:mod:`~engine.ai.tactics.damage`.

Pure and deterministic like the rest of the engine: no clock, no global random; the work
is bounded by counts. May import the battle rules (``engine.battle``, ``engine.battleland``,
``engine.characters``, ``engine.frozen``), the game layer's actions, and the computer
player's shared judgements (``engine.ai.odds``, ``engine.ai.battlefield``,
``engine.ai.striking``); nothing of it imports this package but ``engine.ai.battling``.
"""
