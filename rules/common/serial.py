"""JSON round-trips for the plain dataclasses that hold game state and actions.

A state class subclasses `Serial` and gets `to_dict()` / `from_dict()` driven by its type
hints, so no game writes its own (de)serialiser. Supported field types: str, int, float,
bool, None, nested Serial dataclasses, list/tuple/dict/set/frozenset of those, Optional/Union
of a Serial and None, enums, and `Any` (kept as is, must already be JSON-compatible).
Dict keys are stored as strings and converted back by the key's type hint.
"""
from __future__ import annotations

import copy
import dataclasses
import enum
import json
import sys
import types
import typing
from functools import cache
from typing import Any, TypeVar, cast

S = TypeVar("S", bound="Serial")


_PLAIN = frozenset({str, int, float, bool, type(None)})


@cache
def _names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


def _encode(value: Any) -> Any:
    # Exact types first: a state is mostly plain values, lists and dicts, and it is encoded on
    # every action (the isinstance ladder below was most of a commit's CPU). Subclasses (an
    # IntEnum, a NamedTuple, a str enum) take the ladder, so they encode as they always did.
    kind = type(value)
    if kind in _PLAIN:
        return value
    # (plain items are taken as they are without a call: calls are what the encoding costs)
    if kind is list or kind is tuple:
        return [v if type(v) in _PLAIN else _encode(v) for v in value]
    if kind is dict:
        return {k if type(k) is str else str(_encode(k)): v if type(v) in _PLAIN else _encode(v)
                for k, v in value.items()}
    if isinstance(value, Serial):
        return value.to_dict()
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return {str(_encode(k)): _encode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((_encode(v) for v in value), key=repr)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: _encode(getattr(value, name)) for name in _names(type(value))}
    return value


def _decode(hint: Any, value: Any) -> Any:
    return _decoder(hint)(value)


def _identity(value: Any) -> Any:
    return value


@cache
def _decoder(hint: Any):
    """A function that turns JSON data into a value of type `hint`, built once per hint: states
    are decoded on every action, and re-reading type hints for every value was the main cost."""
    if hint is Any or hint is typing.Any:
        return _identity
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        nullable = type(None) in args
        if len(options) == 1:
            inner = _decoder(options[0])
            return (lambda v: None if v is None else inner(v)) if nullable else inner
        inners = [_decoder(o) for o in options]

        def union(value):
            if value is None and nullable:
                return None
            for inner in inners:  # first type that accepts the value wins
                try:
                    return inner(value)
                except (TypeError, ValueError, KeyError, AttributeError):
                    continue
            return value
        return union
    if origin is typing.Literal:
        return _identity
    if origin in (list, list):
        item = _decoder(args[0]) if args else _identity
        return _identity if item is _identity else (lambda v: [item(x) for x in v])
    if origin in (tuple, tuple):
        if len(args) == 2 and args[1] is Ellipsis:
            item = _decoder(args[0])
            return lambda v: tuple(item(x) for x in v)
        if args:
            items = [_decoder(a) for a in args]
            return lambda v: tuple(f(x) for f, x in zip(items, v))
        return tuple
    if origin in (set, frozenset):
        item = _decoder(args[0]) if args else _identity
        return lambda v: origin(item(x) for x in v)
    if origin in (dict, dict):
        key_hint, val_hint = args or (Any, Any)
        val = _decoder(val_hint)
        if key_hint in (str, Any) and val is _identity:
            return dict
        return lambda v: {_decode_key(key_hint, k): val(x) for k, x in v.items()}
    if isinstance(hint, type):
        if issubclass(hint, Serial):
            return hint.from_dict
        if issubclass(hint, enum.Enum):
            return hint
        if hint is float:
            return lambda v: float(v) if isinstance(v, int) and not isinstance(v, bool) else v
        if dataclasses.is_dataclass(hint):
            return lambda v: hint(**{f.name: _decode(_hints(hint)[f.name], v[f.name])
                                     for f in dataclasses.fields(hint) if f.name in v})
    return _identity


def _decode_key(hint: Any, key: str) -> Any:
    if hint is int:
        return int(key)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(type(next(iter(hint)).value)(key))
    return key


@cache
def _hints(cls: type) -> dict[str, Any]:
    module = sys.modules.get(cls.__module__)
    return typing.get_type_hints(cls, vars(module) if module else None)


@cache
def _field_decoders(cls: type) -> tuple[tuple[str, Any], ...]:
    hints = _hints(cls)
    return tuple((f.name, _decoder(hints[f.name])) for f in dataclasses.fields(cls))


# ---------------------------------------------------------------------------- deep copies
@cache
def _copier(hint: Any):
    """A function that deep-copies a value of type `hint`, built once per hint, as `_decoder` is.
    `Engine.apply` copies the whole state on every action, and `copy.deepcopy` asks every value
    for its type, its memo entry and (for a dataclass) its reduce protocol: typed, a list of names
    is one `list()` call. What the hints do not say (`Any`, a class of another kind) goes to
    `copy.deepcopy`."""
    if hint is Any or hint is typing.Any:
        return copy.deepcopy
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        inners = {_copier(a) for a in args if a is not type(None)}
        if inners == {_identity}:
            return _identity
        if len(inners) == 1:
            inner = inners.pop()
            return lambda v: None if v is None else inner(v)
        return copy.deepcopy
    if origin is typing.Literal:
        return _identity
    if origin is list:
        item = _copier(args[0]) if args else copy.deepcopy
        return list if item is _identity else (lambda v: [item(x) for x in v])
    if origin is tuple:
        items = {_copier(a) for a in args if a is not Ellipsis}
        return _identity if items == {_identity} else copy.deepcopy
    if origin is frozenset:
        return _identity if args and _copier(args[0]) is _identity else copy.deepcopy
    if origin is set:
        return set if args and _copier(args[0]) is _identity else copy.deepcopy
    if origin is dict:
        val = _copier(args[1]) if args else copy.deepcopy
        return dict if val is _identity else (lambda v: {k: val(x) for k, x in v.items()})
    if isinstance(hint, type):
        if hint in _PLAIN or issubclass(hint, enum.Enum):
            return _identity
        if dataclasses.is_dataclass(hint) and not hasattr(hint, "__slots__"):
            own = getattr(hint, "__deepcopy__", None)      # a class's own copy (Klash!'s) is kept
            return _dataclass_copier(hint) if own is None or own is Serial.__deepcopy__ else copy.deepcopy
    return copy.deepcopy


@cache
def _dataclass_copier(cls: type):
    """A deep copy of a dataclass of exactly `cls` (with a `__dict__`: no state class has slots)."""
    hints = _hints(cls)
    copiers = tuple((f.name, _copier(hints[f.name])) for f in dataclasses.fields(cls))

    def copy_of(value: Any) -> Any:
        if type(value) is not cls:          # a subclass: its own fields, its own copier
            return copy.deepcopy(value)
        fields = value.__dict__
        new = object.__new__(cls)
        copied = {name: copier(fields[name]) for name, copier in copiers}
        if len(fields) != len(copied):      # attributes besides the fields go as deepcopy takes them
            copied.update({k: copy.deepcopy(v) for k, v in fields.items() if k not in copied})
        new.__dict__.update(copied)
        return new
    return copy_of


class Serial:
    """Mixin for dataclasses: `to_dict()` gives JSON-safe data, `from_dict()` reads it back, and
    `copy.deepcopy` copies by the type hints (`_copier`) unless the class has its own."""

    def __deepcopy__(self, memo: dict) -> Any:
        # (the memo is not consulted: a state has no cycles, and shares no object between two
        # places, as it has none once read back from JSON; a value of a type the hints do not
        # say takes copy.deepcopy's own path)
        return _dataclass_copier(cast(type, type(self)))(self)

    def to_dict(self) -> dict:
        # Every Serial is a dataclass (the mixin is only used on them); mypy cannot know that.
        out = {}
        for name in _names(cast(type, type(self))):
            value = getattr(self, name)
            out[name] = value if type(value) in _PLAIN else _encode(value)
        return out

    @classmethod
    def from_dict(cls: type[S], data: dict) -> S:
        decoders = _field_decoders(cast(type, cls))
        return cls(**{name: decode(data[name]) for name, decode in decoders if name in data})

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls: type[S], text: str) -> S:
        return cls.from_dict(json.loads(text))
