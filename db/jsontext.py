"""The store's JSON. A game's state, events and meta are encoded and decoded on every action,
so this is on every click's path.

Both ways use msgspec (writing a game's state: about 10× json.dumps; reading: about 1.5×
json.loads), and Python's json wherever msgspec would not give back what was written:
- msgspec writes a non-finite float as ``null``, Python's json as ``Infinity``/``NaN`` (not JSON,
  but it reads back): a text msgspec wrote with a ``null`` in it is written again by json, which
  tells the two apart. Most texts have none (nothing in them is ``None``).
- msgspec refuses a lone surrogate (not UTF-8) and keys json spells out (``True`` as ``"true"``):
  json writes those (or refuses them too).
- On reading, msgspec rejects json's ``Infinity``/``NaN``.
A float may be spelled otherwise than json spells it (``1e16`` for ``1e+16``): it reads back as
the same float. msgspec also writes some values json refuses (a set, bytes, a date, a dataclass),
which read back as other types: the engines' states are JSON types only, and their tests encode
them with Python's json, which refuses anything else.
"""
from __future__ import annotations

import json
from typing import Any

import msgspec

_DECODER = msgspec.json.Decoder()
_ENCODER = msgspec.json.Encoder()
_REFUSED = (TypeError, UnicodeEncodeError)


def dumps(value: Any) -> str:
    encoded = _msgspec(value)
    return _json(value) if encoded is None else encoded.decode()


def dumps_bytes(value: Any) -> bytes:
    encoded = _msgspec(value)
    return _json(value).encode() if encoded is None else encoded   # (a lone surrogate raises here)


def _msgspec(value: Any) -> bytes | None:
    """msgspec's text of `value`, or None where json must write it (see the module's docstring)."""
    try:
        text = _ENCODER.encode(value)
    except _REFUSED:
        return None
    return None if b"null" in text else text


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def loads(text: str | bytes | bytearray | memoryview) -> Any:
    try:
        return _DECODER.decode(text)
    except (msgspec.DecodeError, UnicodeEncodeError):     # (a str msgspec cannot read as UTF-8)
        return json.loads(bytes(text) if isinstance(text, memoryview) else text)
