"""Running tournaments in the bot: the organiser's and players' commands, opening a heat's
tables, and the results of finished games (places, standings, ratings).

The rules of a tournament — seating, places, standings, ratings — are pure functions in
:mod:`bot.tournament`; this package stores and tells what they decide.

May import: the service's interface (:mod:`bot.ports`), the other features (handlers,
schedule, records) and the building blocks; never the service itself. (:mod:`.terminal` is
the console's tournament runner, a transport.)
"""
