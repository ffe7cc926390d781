"""JSON round trips for the engine's frozen dataclasses (state, actions, events).

Encoding follows the type hints: dataclasses become objects, tuples and frozensets lists,
mappings objects (non-string keys are written as strings and read back by their hint),
enums their values. Decoding rebuilds exactly the same values, so ``decode(T, encode(x))
== x`` for every engine value.
"""

from __future__ import annotations

import dataclasses
import enum
import sys
import types
import typing
from collections.abc import Hashable, Mapping
from functools import cache
from typing import Any, TypeVar, cast

from engine.errors import InvalidNotation

T = TypeVar("T")


_AS_IS = frozenset({str, int, float, bool, type(None)})
"""The types whose values are their own JSON form (exactly these: an enum of strings is
not one of them)."""


def encode(value: Any) -> Any:
    """A JSON-compatible form of an engine value."""
    kind = type(value)
    if kind in _AS_IS:
        return value
    names = _field_names(cast(Hashable, kind))
    if names is not None:
        return {name: encode(getattr(value, name)) for name in names}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Mapping):
        return {
            str(k.value if isinstance(k, enum.Enum) else k): encode(v) for k, v in value.items()
        }
    if isinstance(value, frozenset):
        return sorted((encode(v) for v in value), key=repr)
    if isinstance(value, tuple | list):
        return [encode(v) for v in value]
    return value


@cache
def _field_names(kind: Any) -> tuple[str, ...] | None:
    """The fields of a dataclass's instances, in order; None for any other type."""
    if dataclasses.is_dataclass(kind):
        return tuple(f.name for f in dataclasses.fields(kind))
    return None


@cache
def _hints(cls: type) -> dict[str, Any]:
    module = sys.modules[cls.__module__]
    return typing.get_type_hints(cls, vars(module))


def decode(hint: Any, data: Any) -> Any:
    """The engine value of type ``hint`` that :func:`encode` turned into ``data``."""
    try:
        return _decode(hint, data)
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidNotation(f"cannot read {getattr(hint, '__name__', hint)}: {exc}") from exc


def _decode(hint: Any, data: Any) -> Any:
    return _decoder(hint)(data)


Decoder = typing.Callable[[Any], Any]


@cache
def _decoder(hint: Any) -> Decoder:
    """How to read a value of type ``hint``: worked out once per type from its hints."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is Any:
        return _as_it_is
    if origin in (typing.Union, types.UnionType):
        return _union(args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _decoder(args[0])
            return lambda data: tuple(map(item, data))
        items = tuple(_decoder(a) for a in args)
        return lambda data: tuple(d(v) for d, v in zip(items, data, strict=True))
    if origin is frozenset:
        member = _decoder(args[0])
        return lambda data: frozenset(map(member, data))
    if origin in (Mapping, dict, typing.Mapping):
        key_hint, value_hint = args
        value = _decoder(value_hint)
        return lambda data: {_decode_key(key_hint, k): value(v) for k, v in data.items()}
    if origin is typing.Literal:
        return lambda data: _literal(args, data)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass(hint)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint
    if hint in (int, str, bool, float):
        return lambda data: _scalar(hint, data)
    if hint is type(None):
        return _null
    raise TypeError(f"unsupported type {hint!r}")


def _as_it_is(data: Any) -> Any:
    return data


def _union(args: tuple[Any, ...]) -> Decoder:
    nullable = type(None) in args
    options = [a for a in args if a is not type(None)]
    if len(options) == 1:
        only = _decoder(options[0])
        return lambda data: None if data is None and nullable else only(data)

    def either(data: Any) -> Any:
        if data is None and nullable:
            return None
        for option in options:
            if _matches(option, data):
                return _decode(option, data)
        raise TypeError(f"{data!r} matches none of {args}")

    return either


def _dataclass(cls: type) -> Decoder:
    """A dataclass's decoder; its fields' decoders are worked out at its first use (a
    dataclass may name itself among its fields' types)."""
    known: list[tuple[tuple[str, Decoder], ...]] = []

    def read(data: Any) -> Any:
        if not known:
            hints = _hints(cls)
            init = [f.name for f in dataclasses.fields(cls) if f.init]
            known[:] = [tuple((name, _decoder(hints[name])) for name in init)]
        return cls(**{name: field(data[name]) for name, field in known[0] if name in data})

    return read


def _literal(args: tuple[Any, ...], data: Any) -> Any:
    if data not in args:
        raise ValueError(f"{data!r} is not one of {args}")
    return data


def _scalar(hint: type, data: Any) -> Any:
    if hint is float and isinstance(data, int):
        return float(data)
    if not isinstance(data, hint) or (hint is int and isinstance(data, bool)):
        raise TypeError(f"{data!r} is not {hint.__name__}")
    return data


def _null(data: Any) -> None:
    if data is not None:
        raise TypeError(f"{data!r} is not null")


def _decode_key(hint: Any, key: str) -> Any:
    if hint is int:
        return int(key)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(key)
    return key


def _matches(hint: Any, data: Any) -> bool:
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return isinstance(data, dict) and {
            f.name for f in dataclasses.fields(hint) if f.init
        } >= set(data)
    try:
        _decode(hint, data)
    except (KeyError, TypeError, ValueError):
        return False
    return True
