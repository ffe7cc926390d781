"""A whole game of TITAN as a seed and an ordered list of actions (RULES §1–§7, §11–§12)."""
