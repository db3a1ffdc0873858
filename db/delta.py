"""Reverse deltas between two JSON states, so an action's log row need not keep the whole state
before it (a Klash! state is ~18 KB; an action changes a few fields of it).

`diff(new, old)` is a patch that turns `new` back into `old`; `patch(new, p)` applies it. Values
compare strictly as JSON (`1`, `1.0` and `true` are different values), so a restored state is
the same JSON as the one that was saved. Patches are JSON themselves:

  None                           nothing changed
  ["=", value]                   replaced
  ["{", {key: patch}, [keys]]    a dict: changed/added keys, and keys to remove
  ["[", length, {"i": patch}]    a list: cut or padded to `length`, then changed items

`pack`/`unpack` store a patch (kind "D") or a whole state (kind "S", a snapshot) as zlib bytes;
a small one (most deltas: a few fields) is kept as plain JSON under the lower-case kind ("d", "s"),
because zlib's set-up alone (its 256 KB window) costs more than the whole commit of a small action
and saves nothing on a hundred bytes.
"""
from __future__ import annotations

from .jsontext import dumps_bytes, loads
import zlib
from typing import Any

DELTA, SNAPSHOT = b"D", b"S"


_LEAF = frozenset({str, int, float, bool, type(None)})


def diff(new: Any, old: Any) -> list | None:
    # Leaves of the same type are compared in place, without a call: a state is mostly leaves,
    # it is diffed on every action, and the calls were the cost. (Not `new == old` on whole
    # subtrees: it holds 1 == 1.0 == True, which a JSON value does not.)
    if type(new) is not type(old):
        return ["=", old]
    if isinstance(old, dict):
        changes: dict[str, Any] = {}
        for key, value in old.items():
            if key not in new:
                changes[key] = ["=", value]
                continue
            fresh = new[key]
            if type(fresh) is type(value) and type(value) in _LEAF:
                if fresh != value:
                    changes[key] = ["=", value]
                continue
            sub = diff(fresh, value)
            if sub is not None:
                changes[key] = sub
        gone = [key for key in new if key not in old]
        return ["{", changes, gone] if changes or gone else None
    if isinstance(old, list):
        items: dict[str, Any] = {}
        for index, value in enumerate(old):
            if index >= len(new):
                items[str(index)] = ["=", value]
                continue
            fresh = new[index]
            if type(fresh) is type(value) and type(value) in _LEAF:
                if fresh != value:
                    items[str(index)] = ["=", value]
                continue
            sub = diff(fresh, value)
            if sub is not None:
                items[str(index)] = sub
        return ["[", len(old), items] if items or len(new) != len(old) else None
    return None if new == old else ["=", old]


def patch(value: Any, change: list | None) -> Any:
    """`value` with `change` applied; `value` itself is never modified."""
    if change is None:
        return value
    op = change[0]
    if op == "=":
        return change[1]
    if op == "{":
        gone = set(change[2])
        out = {key: item for key, item in value.items() if key not in gone}
        for key, sub in change[1].items():
            out[key] = patch(value.get(key), sub)
        return out
    if op == "[":
        length = change[1]
        items = list(value[:length]) + [None] * max(0, length - len(value))
        for index, sub in change[2].items():
            items[int(index)] = patch(items[int(index)], sub)
        return items
    raise ValueError(f"unknown delta operation {op!r}")


PLAIN_UNDER = 512          # bytes of JSON below which a delta is not compressed


def pack(kind: bytes, value: Any) -> bytes:
    text = dumps_bytes(value)
    if len(text) < PLAIN_UNDER:
        return kind.lower() + text
    return kind + zlib.compress(text, 6)


def unpack(data: bytes) -> tuple[bytes, Any]:
    data = bytes(data)
    kind = data[:1]
    if kind.islower():
        return kind.upper(), loads(data[1:])
    return kind, loads(zlib.decompress(data[1:]))


def restore(data: bytes, after: Any) -> Any:
    """The state before an action, from its stored undo data and the state after it."""
    kind, value = unpack(data)
    return value if kind == SNAPSHOT else patch(after, value)


# ---------------------------------------------------------------------------- meta patches
# A game's meta (message ids, names, votes) is written by several hands: a publish, a system's
# hook, a GM command. A publish sends only what it changed, as a JSON merge patch (RFC 7386: a
# dict merges key by key, None removes the key, anything else replaces), applied to the meta as
# stored at that moment, so the others' changes to other keys survive.

def merge_patch(target: Any, patch: Any) -> Any:
    """`target` with the merge patch applied (neither is modified)."""
    if not isinstance(patch, dict):
        return patch
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merge_patch(out.get(key), value)
    return out


def merge_diff(before: dict, after: dict) -> dict:
    """The merge patch that turns `before` into `after` (empty when nothing changed). A value
    None in `after` reads as absent, as it does for `.get()`."""
    patch: dict[str, Any] = {key: None for key in before if after.get(key) is None and before[key] is not None}
    for key, value in after.items():
        if value is None:
            continue
        old = before.get(key)
        if isinstance(value, dict) and isinstance(old, dict):
            inner = merge_diff(old, value)
            if inner:
                patch[key] = inner
        elif value != old or type(value) is not type(old):
            patch[key] = value
    return patch
