"""The JSON the store writes and reads. A game's state, events and meta are encoded and decoded
on every action, so this is on every click's path.

Reading uses msgspec's decoder (about 1.5× json.loads on a game's state), and json.loads for
the text it refuses: Python's json writes non-finite floats as ``Infinity``/``NaN``, which is not
JSON, and msgspec rejects it. Writing stays json.dumps: msgspec's encoder is faster still but
writes an infinite float as ``null``, and a stored value must read back as it was written."""
from __future__ import annotations

import json
from typing import Any

import msgspec

_DECODER = msgspec.json.Decoder()


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def dumps_bytes(value: Any) -> bytes:
    return dumps(value).encode()


def loads(text: str | bytes | bytearray | memoryview) -> Any:
    try:
        return _DECODER.decode(text)
    except (msgspec.DecodeError, UnicodeEncodeError):     # (a str msgspec cannot read as UTF-8)
        return json.loads(bytes(text) if isinstance(text, memoryview) else text)
