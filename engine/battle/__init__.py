"""Battle rules on the battlelands (RULES §8–§11)."""
