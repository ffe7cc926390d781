"""The one clock of the bot: deadlines, reminders and time limits that keep games moving.

After every stored change the :mod:`~bot.schedule.planner` looks at the decision the game
now waits for (:mod:`~bot.schedule.decisions`): a new decision starts its clock and
schedules its due items (its deadline, its reminders) in the same transaction; a decision
made cancels them. One task, the :class:`~bot.schedule.scheduler.Scheduler`, sleeps until
the earliest due item and hands what is due to the service, in order — at start-up too,
so a bot that was down applies what fell due meanwhile, as it would have happened (a
reminder overtaken by a later one, or by its deadline, is not sent). Time comes from an
injected :class:`~bot.schedule.clock.Clock`, so tests run days in milliseconds.

May import: the service's interface (:mod:`bot.ports`), the handlers it plays for and the
building blocks; never the service itself. :mod:`.clock` and :mod:`.timing` are building
blocks (the configuration reads them).
"""
