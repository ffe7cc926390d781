"""What the service runs for a command: the lobby (:mod:`.lobby`), game actions
(:mod:`.play`), information (:mod:`.info`) and the AI seats that answer them
(:mod:`.ai_seats`).

May import: the other features (competition, schedule, records) and the building blocks;
never the service (a handler gets a :class:`~bot.context.Context`).
"""
