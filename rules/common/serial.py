"""JSON round-trips for the plain dataclasses that hold game state and actions.

A state class subclasses `Serial` and gets `to_dict()` / `from_dict()` driven by its type
hints, so no game writes its own (de)serialiser. Supported field types: str, int, float,
bool, None, nested Serial dataclasses, list/tuple/dict/set/frozenset of those, Optional/Union
of a Serial and None, enums, and `Any` (kept as is, must already be JSON-compatible).
Dict keys are stored as strings and converted back by the key's type hint.
"""
from __future__ import annotations

import dataclasses
import enum
import json
import sys
import types
import typing
from functools import lru_cache
from typing import Any, TypeVar

S = TypeVar("S", bound="Serial")


def _encode(value: Any) -> Any:
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
        return {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def _decode(hint: Any, value: Any) -> Any:
    if hint is Any or hint is typing.Any:
        return value
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        options = [a for a in args if a is not type(None)]
        if len(options) == 1:
            return _decode(options[0], value)
        for option in options:  # first type that accepts the value wins
            try:
                return _decode(option, value)
            except (TypeError, ValueError, KeyError):
                continue
        return value
    if origin is typing.Literal:
        return value
    if origin in (list, typing.List):
        (item,) = args or (Any,)
        return [_decode(item, v) for v in value]
    if origin in (tuple, typing.Tuple):
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v) for v in value)
        if args:
            return tuple(_decode(a, v) for a, v in zip(args, value))
        return tuple(value)
    if origin in (set, frozenset):
        (item,) = args or (Any,)
        return origin(_decode(item, v) for v in value)
    if origin in (dict, typing.Dict):
        key_hint, val_hint = args or (Any, Any)
        return {_decode_key(key_hint, k): _decode(val_hint, v) for k, v in value.items()}
    if isinstance(hint, type):
        if issubclass(hint, Serial):
            return hint.from_dict(value)
        if issubclass(hint, enum.Enum):
            return hint(value)
        if hint is float and isinstance(value, int):
            return float(value)
        if dataclasses.is_dataclass(hint):
            return hint(**{f.name: _decode(_hints(hint)[f.name], value[f.name])
                           for f in dataclasses.fields(hint) if f.name in value})
    return value


def _decode_key(hint: Any, key: str) -> Any:
    if hint is int:
        return int(key)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(type(next(iter(hint)).value)(key))
    return key


@lru_cache(maxsize=None)
def _hints(cls: type) -> dict[str, Any]:
    module = sys.modules.get(cls.__module__)
    return typing.get_type_hints(cls, vars(module) if module else None)


class Serial:
    """Mixin for dataclasses: `to_dict()` gives JSON-safe data, `from_dict()` reads it back."""

    def to_dict(self) -> dict:
        return {f.name: _encode(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls: type[S], data: dict) -> S:
        hints = _hints(cls)
        kwargs = {}
        for f in dataclasses.fields(cls):
            if f.name in data:
                kwargs[f.name] = _decode(hints[f.name], data[f.name])
        return cls(**kwargs)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls: type[S], text: str) -> S:
        return cls.from_dict(json.loads(text))
