"""What the service runs for a command: the lobby (:mod:`.lobby`), game actions
(:mod:`.play`), information (:mod:`.info`) and the AI seats that answer them
(:mod:`.ai_seats`)."""
