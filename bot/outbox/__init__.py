"""The outbox: the one way out for what a stored change must tell.

A command (or an AI action) that changes a game writes its news as rows in the same
transaction as the change (:mod:`.writer`); a :class:`~.deliverer.Deliverer` sends them
through a :class:`~.transport.Transport` (Discord, the terminal), in order per channel,
again after a crash or a restart, and marks each delivered.

May import: the building blocks (storage, replies, narration, offers, context) and the
engine; the service and the transports sit above it (a transport implements
:class:`~.transport.Transport`).
"""
