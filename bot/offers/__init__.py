"""The choices the bot offers: the public board (:mod:`bot.offers.board`), the private
steps of a decision (:mod:`bot.offers.steps`), their words (:mod:`bot.offers.labels`)
and their shape (:mod:`bot.offers.model`).

May import: the building blocks (narration, syntax, legality, replies) and the engine.
"""

from bot.offers.board import NOT_OFFERED, PUBLIC, ask, public_offers
from bot.offers.labels import describe, offer
from bot.offers.model import MAX_OFFERS, MAX_OPTIONS, Choices, Menu, Offer, Offers, Style, fits
from bot.offers.steps import FOLLOWS, KINDS, Kind, Step, step

__all__ = [
    "FOLLOWS",
    "KINDS",
    "MAX_OFFERS",
    "MAX_OPTIONS",
    "NOT_OFFERED",
    "PUBLIC",
    "Choices",
    "Kind",
    "Menu",
    "Offer",
    "Offers",
    "Step",
    "Style",
    "ask",
    "describe",
    "fits",
    "offer",
    "public_offers",
    "step",
]
