"""The header of a battleland picture: who fights whom and whose move it is (RULES §8.4).

Both legions' markers, their owners' names and colours, attacker and defender, the battle
turn of 7 and who acts now, in what phase. :func:`header_layout` is pure: it says every
text and box the header draws, so tests read the picture's words back from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import ImageDraw

from engine.battle.position import Side
from engine.battle.state import LAST_TURN, Battle, BattleStep
from render.battle_base import HEADER_SHARE
from render.counters import draw_marker
from render.style import HIGHLIGHT, PAPER, RGB, STRIP, font, mix, player_rgb

Box = tuple[float, float, float, float]
MUTED: RGB = (190, 196, 204)


@dataclass(frozen=True)
class Party:
    """One side of a battle as everyone sees it: its marker, the legion's height (public,
    RULES §3.3), its owner's name and colour."""

    marker: str
    height: int
    owner: str
    colour: str | None


@dataclass(frozen=True)
class Heading:
    """What the header tells: the terrain, both parties, the battle turn, the phase and
    who acts."""

    terrain: str
    attacker: Party
    defender: Party
    turn: int
    phase: str
    """``maneuver``, ``strike``, ``strikeback``, … (see :func:`phase_of`)."""
    acting: Side | None

    def party(self, side: Side) -> Party:
        return self.attacker if side is Side.ATTACKER else self.defender


#: The phase each step of a half battle-turn is in, as the header names it (RULES §8.4).
PHASES: dict[BattleStep, str] = {
    BattleStep.OPEN_ATTACKER: "start",
    BattleStep.OPEN_DEFENDER: "start",
    BattleStep.REINFORCE: "reinforcement",
    BattleStep.SUMMON: "summon",
    BattleStep.MANEUVER: "maneuver",
    BattleStep.DRIFT: "drift",
    BattleStep.STRIKE: "strike",
    BattleStep.SLEW_ALL: "slew all",
    BattleStep.COUNTERSTRIKE: "strikeback",
    BattleStep.END_CHECK: "end check",
    BattleStep.OVER: "over",
}

#: What the side to act does, by phase (``Gold (Ann) strikes back``).
_DOING = {
    "start": "may concede before anyone enters",
    "reinforcement": "may take a reinforcement",
    "summon": "may summon an Angel",
    "maneuver": "maneuvers",
    "drift": "may concede before the drift damage",
    "strike": "strikes",
    "slew all": "may concede before the counterstrikes",
    "strikeback": "strikes back",
    "end check": "may concede at the end check",
}


def phase_of(battle: Battle) -> str:
    """The phase ``battle`` stands in (an entering maneuver is ``enter``; a pending carry
    or concession is named as such)."""
    if battle.step is BattleStep.OVER:
        return "over"
    if battle.concession is not None:
        return "concession"
    if battle.carry is not None:
        return "carry"
    if battle.step is BattleStep.MANEUVER and battle.waiting(battle.phasing):
        return "enter"
    return PHASES[battle.step]


def heading_of(battle: Battle, attacker: Party, defender: Party) -> Heading:
    """The header of ``battle`` between ``attacker`` and ``defender``."""
    return Heading(
        battle.terrain, attacker, defender, battle.turn, phase_of(battle), battle.decider
    )


def status_text(heading: Heading) -> str:
    """``Hills, turn 3 of 7: Ann (Gold, defender) strikes back``."""
    turn = f"{heading.terrain}, turn {heading.turn} of {LAST_TURN}"
    side = heading.acting
    if side is None or heading.phase == "over":
        return f"{turn}: the battle is over"
    party = heading.party(side)
    doing = _DOING.get(heading.phase)
    if heading.phase == "enter":
        doing = "brings the legion on" if heading.turn == 1 else "brings a character on"
    elif heading.phase == "carry":
        doing = "places the carried-over hits"
    elif heading.phase == "concession":
        doing = "answers the concession"
    who = f"{party.owner} ({party.colour or 'no colour'}, {side.value})"
    return f"{turn}: {who} {doing or heading.phase}"


@dataclass(frozen=True)
class Label:
    """One thing the header draws: its ``role`` (``marker``, ``side``, ``owner``,
    ``colour``, ``status``), its text, its box and the side it belongs to."""

    role: str
    text: str
    box: Box
    side: Side | None = None
    size: int = 0
    """The font size of a text (the side of a marker)."""
    at: tuple[float, float] = (0.0, 0.0)
    anchor: str = "la"


@dataclass(frozen=True)
class HeaderLayout:
    """Everything the header draws, with the side whose turn it is (framed)."""

    labels: tuple[Label, ...]
    acting: Side | None
    frame: Box | None
    """The box around the acting side's names (None when nobody acts)."""
    height: float

    def text(self, role: str, side: Side | None = None) -> str:
        """The text of the label of ``role`` (and ``side``)."""
        found = [x.text for x in self.labels if x.role == role and x.side is side]
        if not found:
            raise KeyError((role, side))
        return found[0]

    def texts(self) -> list[str]:
        return [x.text for x in self.labels]


@lru_cache(maxsize=1024)
def _fitted(text: str, size: int, width: float) -> tuple[str, int]:
    """``text`` at the largest size ≤ ``size`` (≥ 12) fitting ``width``, else shortened."""
    for candidate in range(size, 11, -1):
        if font(candidate).getlength(text) <= width:
            return text, candidate
    while len(text) > 1 and font(12).getlength(text + "...") > width:
        text = text[:-1]
    return text + "...", 12


@lru_cache(maxsize=1024)
def _bbox(text: str, size: int, anchor: str) -> tuple[float, float, float, float]:
    """The box ``text`` fills at ``size`` around its anchor point (measured once)."""
    return font(size).getbbox(text, anchor=anchor)


def _text_label(
    role: str, text: str, at: tuple[float, float], size: int, width: float, anchor: str,
    side: Side | None,
) -> Label:  # fmt: skip
    shown, size = _fitted(text, size, width)
    box = _bbox(shown, size, anchor)
    x, y = at
    return Label(
        role, shown, (x + box[0], y + box[1], x + box[2], y + box[3]), side, size, at, anchor
    )


def header_layout(heading: Heading, width: int, r: float) -> HeaderLayout:
    """Where the header of ``heading`` draws what, on a picture ``width`` px wide whose
    hexes have radius ``r``."""
    height = HEADER_SHARE * r
    pad = 0.22 * r
    marker = 1.0 * r
    row = 0.1 * r
    names_width = width / 2 - marker - 3 * pad
    labels: list[Label] = []
    frame: Box | None = None
    for side in Side:
        party = heading.party(side)
        left = side is Side.ATTACKER
        mx = pad if left else width - pad - marker
        box = (mx, row, mx + marker, row + marker)
        labels.append(Label("marker", party.marker, box, side, round(marker)))
        labels.append(Label("height", str(party.height), box, side, round(marker)))
        x = mx + marker + pad if left else mx - pad
        anchor = "la" if left else "ra"
        lines = (
            ("side", side.value.upper(), 0.24 * r),
            ("owner", party.owner, 0.36 * r),
            ("colour", party.colour or "no colour", 0.24 * r),
        )
        y = row
        for role, text, size in lines:
            label = _text_label(role, text, (x, y), round(size), names_width, anchor, side)
            labels.append(label)
            y += 1.3 * size + 0.04 * r
        if side is heading.acting:
            boxes = [x.box for x in labels if x.side is side]
            frame = (
                min(b[0] for b in boxes) - pad / 2,
                min(b[1] for b in boxes) - pad / 3,
                max(b[2] for b in boxes) + pad / 2,
                max(b[3] for b in boxes) + pad / 3,
            )
    status = status_text(heading)
    at = (width / 2, row + marker + 0.42 * r)
    labels.append(_text_label("status", status, at, round(0.3 * r), width - 2 * pad, "mm", None))
    return HeaderLayout(tuple(labels), heading.acting, frame, height)


def draw_header(draw: ImageDraw.ImageDraw, layout: HeaderLayout) -> None:
    """Draw ``layout`` (its band is the static layer's, :func:`render.battle_base.battle_base`)."""
    colours = {x.side: player_rgb(x.text) for x in layout.labels if x.role == "colour"}
    heights = {x.side: int(x.text) for x in layout.labels if x.role == "height"}
    if layout.frame is not None and layout.acting is not None:
        fill = mix(STRIP, colours[layout.acting], 0.3)
        draw.rounded_rectangle(layout.frame, 8, fill=fill, outline=HIGHLIGHT, width=3)
    for label in layout.labels:
        side = label.side
        if label.role == "marker" and side is not None:
            x1, y1, x2, y2 = label.box
            centre = ((x1 + x2) / 2, (y1 + y2) / 2)
            draw_marker(draw, centre, x2 - x1, label.text, heights[side], colours[side])
        elif label.role != "height":
            fill = MUTED if label.role == "side" else PAPER
            if label.role == "status" and layout.acting is not None:
                fill = HIGHLIGHT
            draw.text(label.at, label.text, font=font(label.size), fill=fill, anchor=label.anchor)
