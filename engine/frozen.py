"""Cheap construction and copy-on-write updates of frozen dataclasses.

:func:`dataclasses.replace` calls the class's ``__init__`` with every field, which for a
frozen class sets each through ``object.__setattr__``; a battle state has over twenty
fields and a search updates it thousands of times a decision. :func:`evolve` builds the
same new object by copying the field values directly, and :func:`quick_init` gives a
class an ``__init__`` that stores them directly. :class:`derived` is a cached property
for values worked out from the fields, which :func:`evolve` leaves behind.
"""

from __future__ import annotations

import inspect
from dataclasses import MISSING, fields, is_dataclass
from functools import cached_property
from typing import Any, Self, TypeVar, overload

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class derived(cached_property[T_co]):
    """A :func:`functools.cached_property` without the lock Python 3.11 takes on the first
    look-up of each value (3.12 dropped it): a value derived from an immutable object's
    fields is the same whichever thread works it out first, and the lock costs as much
    as working out a small table."""

    @overload
    def __get__(self, instance: None, owner: type[Any] | None = None) -> Self: ...
    @overload
    def __get__(self, instance: object, owner: type[Any] | None = None) -> T_co: ...
    def __get__(self, instance: object | None, owner: type[Any] | None = None) -> Any:
        if instance is None:
            return self
        name = self.attrname
        if name is None:
            raise TypeError("a derived property needs __set_name__")
        # Stored in the instance's dictionary, which later look-ups find first.
        value = instance.__dict__[name] = self.func(instance)
        return value


#: Per class: its field names, and its cached properties (worked out from the old
#: values, so left behind by :func:`evolve`). Filled in by :func:`_plan` on first use.
_PLANS: dict[type, tuple[frozenset[str], tuple[str, ...]]] = {}


def _plan(cls: type) -> tuple[frozenset[str], tuple[str, ...]]:
    if hasattr(cls, "__post_init__") or hasattr(cls, "__slots__"):
        raise TypeError(f"{cls.__name__} needs dataclasses.replace")
    cached = tuple(
        name
        for klass in cls.__mro__
        for name, value in vars(klass).items()
        if isinstance(value, cached_property)  # derived ones included
    )
    plan = _PLANS[cls] = frozenset(f.name for f in fields(cls)), cached
    return plan


def evolve(obj: T, /, **changes: Any) -> T:
    """``obj`` with ``changes``, like :func:`dataclasses.replace`, for frozen dataclasses
    whose ``__init__`` only stores its fields (no ``__post_init__``, no ``InitVar``); the
    values of its cached properties are not carried over."""
    cls = obj.__class__
    names, cached = _PLANS.get(cls) or _plan(cls)
    if not names.issuperset(changes):
        unknown = changes.keys() - names
        raise TypeError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
    state = obj.__dict__.copy()
    if cached:
        for name in cached:
            state.pop(name, None)
    state.update(changes)
    new: T = _new(cls)
    _set(new, "__dict__", state)
    return new


_new = object.__new__
_set = object.__setattr__


def quick_init(cls: type[T]) -> type[T]:
    """``cls``, a frozen dataclass, with an ``__init__`` that stores each field straight
    into the new instance's ``__dict__`` instead of through ``object.__setattr__`` (which
    is what the generated one does, its own ``__setattr__`` refusing): a third of the cost,
    for the events, characters and positions the battle queries build by the thousand.

    The parameters, their order, kinds and defaults, and so the errors for a missing or
    unknown argument, are those of the generated ``__init__``. Only for classes whose
    ``__init__`` just stores their fields: no ``__post_init__``, ``__slots__``,
    ``InitVar``, ``init=False`` field or default factory (a :class:`TypeError` otherwise).
    """
    original = cls.__init__
    found = fields(cls) if is_dataclass(cls) else ()
    positional = [f.name for f in found if not f.kw_only]
    keyword = [f.name for f in found if f.kw_only]
    params = list(inspect.signature(original).parameters)[1:]
    simple = all(f.init and f.default_factory is MISSING for f in found)
    if not found or params != positional + keyword or not simple or _special(cls):
        raise TypeError(f"{cls.__name__} needs its own __init__")
    namespace: dict[str, Any] = {}
    for f in found:
        if f.default is not MISSING:
            namespace[f"_default_{f.name}"] = f.default
    positional = [_param(name, namespace) for name in positional]
    keyword = [_param(name, namespace) for name in keyword]
    signature = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    body = "".join(f"\n    state[{f.name!r}] = {f.name}" for f in found)
    exec(f"def __init__({signature}):\n    state = self.__dict__{body}", namespace)
    init = namespace["__init__"]
    for attribute in ("__module__", "__qualname__", "__doc__", "__annotations__"):
        setattr(init, attribute, getattr(original, attribute))
    setattr(cls, "__init__", init)  # noqa: B010 (a method replaced on the class)
    return cls


def _special(cls: type) -> bool:
    """Whether ``cls`` is no frozen dataclass, or does more on construction than store
    its fields."""
    frozen = getattr(cls, "__dataclass_params__").frozen  # noqa: B009 (not in typeshed)
    return not frozen or hasattr(cls, "__post_init__") or hasattr(cls, "__slots__")


def _param(name: str, defaults: dict[str, Any]) -> str:
    """The parameter ``name``, with its default if ``defaults`` holds one."""
    default = f"_default_{name}"
    return f"{name}={default}" if default in defaults else name


def shared(value: T) -> T:
    """The one instance kept of every value equal to ``value`` (immutable and hashable):
    a memo holding answers by the ten thousand then gives the garbage collector a few
    hundred objects to walk at each full collection, not one per entry."""
    return _POOL.setdefault(value, value)  # type: ignore[no-any-return]


_POOL: dict[Any, Any] = {}
