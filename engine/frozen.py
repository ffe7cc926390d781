"""Cheap copy-on-write updates of frozen dataclasses.

:func:`dataclasses.replace` calls the class's ``__init__`` with every field, which for a
frozen class sets each through ``object.__setattr__``; a battle state has over twenty
fields and a search updates it thousands of times a decision. :func:`evolve` builds the
same new object by copying the field values directly.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import fields
from functools import cache, cached_property
from typing import Any, TypeVar, cast

T = TypeVar("T")


@cache
def _field_names(cls: Any) -> frozenset[str]:
    if hasattr(cls, "__post_init__") or hasattr(cls, "__slots__"):
        raise TypeError(f"{cls.__name__} needs dataclasses.replace")
    return frozenset(f.name for f in fields(cls))


@cache
def _derived(cls: Any) -> tuple[str, ...]:
    """The class's cached properties: worked out from the old values, left behind."""
    return tuple(
        name
        for klass in cls.__mro__
        for name, value in vars(klass).items()
        if isinstance(value, cached_property)
    )


def evolve(obj: T, **changes: Any) -> T:
    """``obj`` with ``changes``, like :func:`dataclasses.replace`, for frozen dataclasses
    whose ``__init__`` only stores its fields (no ``__post_init__``, no ``InitVar``); the
    values of its cached properties are not carried over."""
    cls = type(obj)
    key = cast(Hashable, cls)
    unknown = changes.keys() - _field_names(key)
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
    new: T = object.__new__(cls)
    state = new.__dict__
    state.update(obj.__dict__)
    state.update(changes)
    for name in _derived(key):
        state.pop(name, None)
    return new
