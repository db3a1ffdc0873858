"""The store's JSON. A game's state, events and meta are encoded and decoded on every action,
so this is on every click's path.

Both ways use msgspec (writing a game's state: about 10× json.dumps; reading: about 1.5×
json.loads), and Python's json wherever msgspec would not give back what was written:
- msgspec writes a non-finite float as ``null``, and Python's json as ``Infinity``/``NaN`` (not
  JSON, but it reads back): a text msgspec wrote with a ``null`` in it is written by json instead,
  which tells the two apart. Most texts have none (nothing is ``None`` in them).
- msgspec refuses a lone surrogate (it is not UTF-8), which json writes as it is, and keys json
  spells (``True`` as ``"true"``): json writes what msgspec refuses (or refuses it too). On
  reading, msgspec rejects json's ``Infinity``/``NaN``.
A float may be spelled otherwise than json spells it (``1e16`` for ``1e+16``): it reads back as
the same float."""
from __future__ import annotations

import json
from typing import Any

import msgspec

_DECODER = msgspec.json.Decoder()
_ENCODER = msgspec.json.Encoder()
_REFUSED = (TypeError, UnicodeEncodeError)


def dumps_bytes(value: Any) -> bytes:
    try:
        text = _ENCODER.encode(value)
    except _REFUSED:
        return _json(value).encode()        # (a lone surrogate still raises: it is not UTF-8)
    return _json(value).encode() if b"null" in text else text


def dumps(value: Any) -> str:
    try:
        text = _ENCODER.encode(value)
    except _REFUSED:
        return _json(value)
    return _json(value) if b"null" in text else text.decode()


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def loads(text: str | bytes | bytearray | memoryview) -> Any:
    try:
        return _DECODER.decode(text)
    except (msgspec.DecodeError, UnicodeEncodeError):     # (a str msgspec cannot read as UTF-8)
        return json.loads(bytes(text) if isinstance(text, memoryview) else text)
