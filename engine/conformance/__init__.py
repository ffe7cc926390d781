"""Answer rules cases (``../shared/conformance`` format) through the engine's public API.

Each case kind has an answering function ``answer(input) -> dict`` in its own module; it
sees only the case's ``input``, never its ``expect``. :func:`answer_case` dispatches,
:func:`check` compares an answer with an expectation the way the case format says.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping
from typing import Any

from engine.errors import TitanError

#: kind → module (in this package) holding its ``answer`` function.
KIND_MODULES: Mapping[str, str] = {
    "movement": "movement",
    "recruit": "recruit",
    "hexinfo": "hexinfo",
    "misc": "misc",
    "maneuver": "maneuver",
    "strike": "strike",
    "rangestrike": "rangestrike",
    "carry": "carry",
    "resolve": "carry",
}

#: Keys whose list values are tuples (order matters), not sets.
ORDERED_KEYS = frozenset({"natural"})


class Unsupported(Exception):
    """The engine cannot answer this kind of case yet."""


def answerer(kind: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The answering function for a case kind, or :class:`Unsupported`."""
    module_name = KIND_MODULES.get(kind)
    if module_name is None:
        raise Unsupported(f"unknown case kind {kind!r}")
    try:
        module = importlib.import_module(f"{__name__}.{module_name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{module_name}":
            raise
        raise Unsupported(f"the engine cannot answer {kind!r} cases yet") from None
    answer: Callable[[dict[str, Any]], dict[str, Any]] = getattr(module, f"answer_{kind}")
    return answer


def answer_case(case: Mapping[str, Any]) -> dict[str, Any]:
    """The answer to one case from its ``input`` alone (its ``expect`` is never read)."""
    kind = str(case["kind"])
    payload = json.loads(json.dumps(case["input"]))  # a private copy: answers cannot peek
    try:
        return answerer(kind)(payload)
    except TitanError as exc:
        raise Unsupported(f"input rejected: {exc}") from exc


def _canonical(value: Any, key: str | None = None) -> Any:
    if isinstance(value, dict):
        return {k: _canonical(v, k) for k, v in value.items()}
    if isinstance(value, list):
        items = [_canonical(v) for v in value]
        if key in ORDERED_KEYS:
            return items
        return sorted(items, key=lambda v: json.dumps(v, sort_keys=True))
    return value


def _as_set(values: Any) -> list[str]:
    return [json.dumps(_canonical(v), sort_keys=True) for v in values or []]


def check(got: Mapping[str, Any], expect: Mapping[str, Any]) -> list[str]:
    """Differences between an answer and an expectation (empty when it passes).

    Only the keys of ``expect`` are checked; lists compare as sets (except
    :data:`ORDERED_KEYS`); ``<name>_include`` / ``<name>_exclude`` ask that every / none
    of the listed items be in the answer's ``<name>``.
    """
    problems = []
    for key, wanted in expect.items():
        for suffix, must_be_in in (("_include", True), ("_exclude", False)):
            if key.endswith(suffix):
                base = key[: -len(suffix)]
                present = set(_as_set(got.get(base)))
                wrong = [w for w in _as_set(wanted) if (w in present) != must_be_in]
                if base not in got:
                    problems.append(f"{base}: missing from the answer")
                elif wrong:
                    verb = "missing" if must_be_in else "present"
                    problems.append(f"{base}: {verb} {', '.join(wrong)}")
                break
        else:
            if key not in got:
                problems.append(f"{key}: missing from the answer")
            elif _canonical(got[key], key) != _canonical(wanted, key):
                problems.append(f"{key}: expected {wanted!r}, got {got[key]!r}")
    return problems
