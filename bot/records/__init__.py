"""Game records beyond play: damage notices, verification against the replay, the
organisers' export, and the whole-file check (``titanbot check-db``)."""
