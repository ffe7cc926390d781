"""Messages as the outbox stores them: JSON, with the picture named, not drawn.

A picture is stored as what to draw — its kind, whose view, the land, a battle's marks,
the legion chosen on the masterboard (when there is one) — and drawn by the deliverer
from the game's state when the message is sent.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from bot.offers import Menu, Offer, Offers, Style
from bot.replies import Battle, BattleMarks, BattleStage, Message, Picture, PictureKind
from engine.game.state import GameState


@dataclass(frozen=True)
class Drawing:
    """What picture a stored message carries (without the state it is drawn from)."""

    kind: PictureKind
    viewer: int | None = None
    land: int | None = None
    marks: BattleMarks | None = None
    legion: str | None = None

    def of(self, state: GameState) -> Picture:
        return Picture(self.kind, state, self.viewer, self.land, self.marks, self.legion)


@dataclass(frozen=True)
class Stored:
    """A message read back from the outbox: its words, pings and choices, and its picture."""

    message: Message
    drawing: Drawing | None = None


def message_to_json(message: Message) -> str:
    """The stored form of ``message`` (its drawn image and its picture's state left out)."""
    data: dict[str, Any] = {"text": message.text}
    if message.mention:
        data["mention"] = list(message.mention)
    if message.picture is not None:
        shown = message.picture
        marks = asdict(shown.marks) if shown.marks is not None else None
        data["picture"] = [shown.kind.value, shown.viewer, shown.land, marks]
        if shown.legion is not None:  # since the masterboard's reach: older rows have four
            data["picture"].append(shown.legion)
    if message.battle is not None:
        data["battle"] = [message.battle.stage.value, message.battle.name]
    if message.progress is not None:
        data["progress"] = message.progress
    if message.offers is not None:
        offers = message.offers
        items = [_offer(o) for o in offers.items]
        data["offers"] = [offers.game, offers.version, items]
        if offers.menus:
            data["menus"] = [
                [m.placeholder, [_offer(o) for o in m.options], m.prefix, m.least, m.most]
                for m in offers.menus
            ]
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def message_from_json(text: str) -> Stored:
    """The message stored as ``text`` (see :func:`message_to_json`)."""
    data = json.loads(text)
    offers = None
    if "offers" in data:
        game, version, items = data["offers"]
        menus = tuple(
            Menu(str(placeholder), tuple(_read_offer(o) for o in options), prefix, least, most)
            for placeholder, options, prefix, least, most in data.get("menus", ())
        )
        buttons = tuple(_read_offer(item) for item in items)
        offers = Offers(int(game), int(version), buttons, menus)
    drawing = None
    if "picture" in data:
        kind, viewer, land, marks, *more = data["picture"]
        legion = str(more[0]) if more and more[0] is not None else None
        drawing = Drawing(PictureKind(kind), viewer, land, _marks(marks), legion)
    battle = None
    if "battle" in data:
        stage, name = data["battle"]
        battle = Battle(BattleStage(stage), str(name))
    mention = tuple(data.get("mention", ()))
    message = Message(
        str(data["text"]), mention=mention, offers=offers, battle=battle,
        progress=data.get("progress"),
    )  # fmt: skip
    return Stored(message, drawing)


def _offer(offer: Offer) -> list[Any]:
    found: list[Any] = [offer.label, offer.command, offer.style.value]
    return [*found, offer.detail] if offer.detail is not None else found


def _read_offer(item: list[Any]) -> Offer:
    """An offer as stored: label, command, style and (since menus) a detail."""
    label, command, style, *more = item
    return Offer(str(label), str(command), Style(style), more[0] if more else None)


def _marks(raw: dict[str, Any] | None) -> BattleMarks | None:
    if raw is None:
        return None
    return BattleMarks(
        last_move=_pair(raw.get("last_move")),
        entered=raw.get("entered"),
        last_strike=_pair(raw.get("last_strike")),
        strike_result=raw.get("strike_result"),
        rangestrike=bool(raw.get("rangestrike")),
        moves=tuple((None if a is None else str(a), str(b)) for a, b in raw.get("moves", ())),
        strikes=tuple(
            (str(s), str(t), None if r is None else str(r), bool(rs))
            for s, t, r, rs in raw.get("strikes", ())
        ),
        selected=raw.get("selected"),
        destinations=tuple(str(h) for h in raw.get("destinations", ())),
    )


def _pair(value: list[str] | None) -> tuple[str, str] | None:
    return (str(value[0]), str(value[1])) if value else None
