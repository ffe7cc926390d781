"""Game records beyond play: damage notices, verification against the replay, the
organisers' export, and the whole-file check (``titanbot check-db``).

May import: the building blocks and the other features' data (competition's codec and
settings); :mod:`.proof`, :mod:`.canonical` (the commitment a game's start binds) and
:mod:`.course` (how a finished game went, for its pictures) are building blocks themselves.
"""
