"""Game news in words: events (:mod:`.narrate`, with the tables of :mod:`.game_events` and
:mod:`.battle_events`), situations (:mod:`.describe`, :mod:`.battle_text`).

May import: :mod:`bot.replies` and the engine only (a building block).
"""
