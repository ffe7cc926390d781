"""The pure rules of tournaments: places in a game, roll-offs, standings, seating, brackets
and ratings.

No database, clock, asyncio or Discord here: every function takes data and returns data,
and any chance comes from a seeded :class:`engine.dice.Dice` whose rolls are returned so
the caller can log them.

May import: the engine only (pure rules, a building block).
"""
