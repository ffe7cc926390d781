"""Write titanbot's own data files (engine/data/*.toml) from the shared reference JSON.

Run once when the reference changes: ``python tools/make_data.py ../shared/reference``.
The engine never reads the reference; tests/data compares every value against it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "engine" / "data"
HAZARD_NAMES = {"Brambles": "Bramble"}


def q(value: object) -> str:
    """A TOML literal for a str, int, bool or list of them."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(q(v) for v in value) + "]"
    raise TypeError(value)


def characters(ref: Path) -> str:
    data = json.loads((ref / "creatures.json").read_text())
    lines = [
        "# The characters of TITAN (RULES §1.1): battle factors, abilities, natives, counters.",
        "# kind: lord | demilord | creature. count: counters in the game (caretaker's stacks",
        "# at the start, those dealt to the players included). native: hazards (RULES §1.2).",
        "# Titan power is the starting power; it grows with the score (RULES §1.3).",
        "",
        "[setup]",
        f"starting_legion = {q(data['starting_legion'])}",
        f"titan_power_per_points = {data['titan']['power_per_points']}",
        f"titan_teleport_score = {data['titan']['teleport_at_score']}",
    ]
    for c in data["creatures"]:
        native = [HAZARD_NAMES.get(n, n) for n in c["native"]]
        lines += [
            "",
            f"[characters.{c['name']}]",
            f"plural = {q(c['plural'])}",
            f"kind = {q(c['kind'])}",
            f"power = {c['power']}",
            f"skill = {c['skill']}",
            f"flies = {q(c['flies'])}",
            f"rangestrikes = {q(c['rangestrikes'])}",
            f"magic_missile = {q(c['magic_missile'])}",
            f"native = {q(native)}",
            f"count = {c['count']}",
            f"summonable = {q(c['summonable'])}",
        ]
        if c["acquirable_every"] is not None:
            lines.append(f"acquirable_every = {c['acquirable_every']}")
    return "\n".join(lines) + "\n"


def recruits(ref: Path) -> str:
    data = json.loads((ref / "recruits.json").read_text())["terrains"]
    lines = [
        "# Recruit trees (RULES §6.3, rule 18.2): weakest first; `needs` is how many of the",
        "# creature just below qualify a legion for this one. Tower rules: RULES §6.4, rule 18.5.",
    ]
    for name, terrain in data.items():
        if terrain["special"]:
            continue
        entries = []
        for step in terrain["tree"]:
            if step["needs_previous"] is None:
                entries.append(f"{{ creature = {q(step['creature'])} }}")
            else:
                entries.append(
                    f"{{ creature = {q(step['creature'])}, needs = {step['needs_previous']} }}"
                )
        lines += ["", f"[trees.{name}]", "tree = [" + ", ".join(entries) + "]"]
    tower = data["Tower"]
    lines += ["", "[tower]", f"free = {q(tower['free'])}"]
    for demilord, options in tower["demilords"].items():
        lines += ["", f"[[tower.demilords.{demilord}]]"]
        rendered = []
        for opt in options:
            if "name" in opt:
                rendered.append(f"character = {q(opt['name'])}\ncount = {opt['count']}")
            else:
                rendered.append(
                    f"kind = {q(opt['kind'])}\nsame_type = {q(opt['same_type'])}\n"
                    f"count = {opt['count']}"
                )
        lines.append(f"\n[[tower.demilords.{demilord}]]\n".join(rendered))
    return "\n".join(lines) + "\n"


def markers(ref: Path) -> str:
    data = json.loads((ref / "markers.json").read_text())
    lines = [
        "# The six colours (RULES §1.4) and their 12 legion markers; marker ids are the",
        "# abbreviation plus the 1-based position in `markers`, two digits (Bk01 ... Bk12).",
    ]
    for colour in data["colours"]:
        names = [m["name"] for m in data["markers"][colour["name"]]]
        ids = [m["id"] for m in data["markers"][colour["name"]]]
        assert ids == [f"{colour['abbrev']}{i:02d}" for i in range(1, 13)]
        lines += [
            "",
            "[[colours]]",
            f"name = {q(colour['name'])}",
            f"abbrev = {q(colour['abbrev'])}",
            f"markers = {q(names)}",
        ]
    return "\n".join(lines) + "\n"


def masterboard(ref: Path) -> str:
    data = json.loads((ref / "masterboard.json").read_text())
    lines = [
        "# The masterboard (RULES §2): 96 lands. grid = [x, y] cell on the 15 x 8 drawing grid",
        "# (y down; a land is inverted when x + y is even). label_side: the short hexside",
        "# holding the land's label. exits: the signs printed for leaving the land, in the",
        "# printed order: to = neighbour, sign = block | arch | arrow | arrows, side = the",
        "# hexside (0 top, clockwise) the sign stands on.",
        "",
        f"towers = {q(data['towers'])}",
    ]
    for land in data["lands"]:
        exits = ", ".join(
            f"{{ to = {e['to']}, sign = {q(e['type'])}, side = {e['side']} }}"
            for e in land["exits"]
        )
        lines += [
            "",
            f"[lands.{land['number']}]",
            f"terrain = {q(land['terrain'])}",
            f"grid = [{land['x']}, {land['y']}]",
            f"label_side = {land['label_side']}",
            f"exits = [{exits}]",
        ]
    return "\n".join(lines) + "\n"


def battlelands(ref: Path) -> str:
    data = json.loads((ref / "battlelands.json").read_text())
    lines = [
        "# The eleven battlelands (RULES §8). Hex labels per errata 2.0: columns A-F of",
        "# 3, 4, 5, 6, 5, 4 hexes, row 1 at the bottom. Unlisted hexes are Plain at elevation 0.",
        "# hexsides: `X>Y` is a hazard on hex X's side of its border with Y (X is the upper hex).",
        "# edges: k = 0..5 clockwise from the upper right; the attacker enters on edge k = its",
        "# entry side (1, 3, 5), the defender on edge k + 3; in a Tower the attacker uses edge 3",
        "# and the defender starts on the interior.",
        "",
        f"columns = {q(list(data['columns'].values()))}",
        f"tower_attacker_edge = {data['entry']['tower']['attacker_edge']}",
        "",
    ]
    for edge in data["edges"]:
        lines += [
            "[[edges]]",
            f"name = {q(edge['name'])}",
            f"role = {q(edge['role'])}",
            f"hexes = {q(edge['hexes'])}",
            "",
        ]
    for name, terrain in data["terrains"].items():
        lines += ["", f"[terrains.{name}]"]
        hazards: dict[str, list[str]] = {}
        elevations: dict[int, list[str]] = {}
        for label, hx in terrain["hexes"].items():
            if hx["terrain"] != "Plain":
                hazards.setdefault(HAZARD_NAMES.get(hx["terrain"], hx["terrain"]), []).append(label)
            if hx["elevation"]:
                elevations.setdefault(hx["elevation"], []).append(label)
        if terrain["tower"]:
            lines.append(f"interior = {q(terrain['tower_interior'])}")
        lines.append(f"[terrains.{name}.hazards]")
        lines += [f"{hz} = {q(labels)}" for hz, labels in hazards.items()]
        lines.append(f"[terrains.{name}.elevation]")
        lines += [f'"{lvl}" = {q(labels)}' for lvl, labels in sorted(elevations.items())]
        lines.append(f"[terrains.{name}.hexsides]")
        sides: dict[str, list[str]] = {}
        for border in terrain["borders"]:
            sides.setdefault(border["hazard"], []).append(f"{border['hex']}>{border['neighbour']}")
        lines += [f"{hz} = {q(b)}" for hz, b in sides.items()]
    return "\n".join(lines) + "\n"


def main() -> None:
    ref = Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/reference")
    OUT.mkdir(parents=True, exist_ok=True)
    for name, make in [
        ("characters", characters),
        ("recruits", recruits),
        ("markers", markers),
        ("masterboard", masterboard),
        ("battlelands", battlelands),
    ]:
        (OUT / f"{name}.toml").write_text(make(ref), encoding="utf-8")
        print("wrote", OUT / f"{name}.toml")


if __name__ == "__main__":
    main()
