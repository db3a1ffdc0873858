"""Reading untrusted YAML and JSON within bounds.

A 400-byte YAML file can stand for gigabytes: each alias (`*a`) repeats its anchor, and eight levels
of nine aliases make 9**8 copies ("billion laughs"). The parser shares one object per anchor, so the
parse is quick, but whatever walks the result afterwards (the schema validator, its error messages,
`json.dumps` of a game state) walks every copy. An alias may also point into its own anchor
(`&a [*a]`), a cycle that every walker follows forever, and deep nesting ends in RecursionError.

`load_yaml` refuses all three before anything walks the document:
- nesting deeper than MAX_DEPTH (counted while the parser composes, so the parser never recurses
  further);
- a document whose size, counted as if every alias were written out (1 per value plus the
  characters of each scalar), exceeds MAX_SIZE;
- an alias inside its own anchor.
`load_json` applies the same depth bound to JSON. A refusal is a PackError with one `Problem` (a code
and its limit, `rules/common/packs.py`) naming the file; it quotes little of the input (`shorten`).
"""
from __future__ import annotations

import json
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .errors import PackError, Where

MAX_DEPTH = 40            # real packs nest 5 or 6 levels (pack → list → entry → field → list → item)
MAX_SIZE = 2_000_000      # about twice what the largest accepted file (1 MB) can hold without aliases

_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # libyaml's parser and composer when present


class LimitExceeded(Exception):
    """Raised inside the loader with a problem code and its limit; `load_yaml` turns it into a
    PackError naming the file."""

    def __init__(self, code: str, limit: int):
        super().__init__(code, limit)
        self.code, self.limit = code, limit


class BoundedLoader(_Base):  # type: ignore[misc, valid-type]
    """PyYAML's safe loader that counts nesting while composing and measures the node graph
    (aliases expanded) before constructing any Python object from it."""

    def __init__(self, stream, max_size: int = MAX_SIZE, max_depth: int = MAX_DEPTH, aliases: bool = True):
        super().__init__(stream)
        self.max_size, self.max_depth = max_size, max_depth
        self.aliases = aliases      # False when the text has no '*': nothing can repeat, skip `measure`
        self._depth = 0

    # The composer calls these two around every node it builds (the C composer too), so this
    # is where nesting is bounded, before the composer recurses another level. (The safe loader
    # has no path resolvers, so the base methods have nothing to do.)
    def descend_resolver(self, current_node, current_index):
        self._depth += 1
        if self._depth > self.max_depth:
            raise LimitExceeded("too_deep", self.max_depth)
        if self.yaml_path_resolvers:
            super().descend_resolver(current_node, current_index)

    def ascend_resolver(self):
        self._depth -= 1
        if self.yaml_path_resolvers:
            super().ascend_resolver()

    def get_single_node(self):
        node = super().get_single_node()
        if node is not None and self.aliases:
            measure(node, self.max_size, self.max_depth)
        return node


def _children(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def measure(root: Node, max_size: int = MAX_SIZE, max_depth: int = MAX_DEPTH) -> int:
    """The size of the document under `root` with every alias written out; raise LimitExceeded
    past max_size, past max_depth (an alias can carry a deep anchor deeper) or on a cycle.
    Each distinct node is visited once (sizes are memoised), so this costs what the text costs."""
    size: dict[int, int] = {}
    height: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            open_nodes.discard(key)
            kids = _children(node)
            total = 1 + (len(node.value) if isinstance(node, ScalarNode) else sum(size[id(k)] for k in kids))
            deep = 1 + max((height[id(k)] for k in kids), default=0)
            if total > max_size:
                raise LimitExceeded("aliases_too_big", max_size)
            if deep > max_depth:
                raise LimitExceeded("aliases_too_deep", max_depth)
            size[key], height[key] = total, deep
            continue
        if key in size:
            continue
        if key in open_nodes:
            raise LimitExceeded("alias_cycle", 0)
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((kid, False) for kid in _children(node))
    return size[id(root)]


def shorten(text: Any, limit: int = 60) -> str:
    """At most `limit` characters of `text`, the middle replaced by '…' (the end of a validator's
    message says what is wrong, the start says where)."""
    text = str(text)
    if len(text) <= limit:
        return text
    head = (limit - 1) * 2 // 3
    return text[:head] + "…" + text[len(text) - (limit - 1 - head):]


def refused(source: str, code: str, **params: Any) -> PackError:
    """A PackError with one problem about the whole file (its name shortened)."""
    return PackError.one(code, Where(shorten(source, 60)), **params)


def load_yaml(text: str, source: str = "pack", max_size: int = MAX_SIZE) -> Any:
    """Parse untrusted YAML; PackError (naming the file and the line) if it is not YAML or goes
    past a bound."""
    try:
        # What yaml.load does, with the limits. Without a '*' the text has no alias: its size is
        # bounded by its length already, so the measuring pass is skipped.
        loader = BoundedLoader(text, max_size, aliases="*" in text)
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except LimitExceeded as exc:
        raise refused(source, exc.code, limit=exc.limit) from None
    except yaml.YAMLError as exc:
        # PyYAML's own words for what it found (English, quoted as the parser's detail)
        mark = getattr(exc, "problem_mark", None)
        detail = shorten(getattr(exc, "problem", None) or exc, 100)
        if mark is None:
            raise refused(source, "not_yaml", detail=detail) from None
        raise refused(source, "not_yaml_at", line=mark.line + 1, column=mark.column + 1, detail=detail) from None
    except RecursionError:  # a constructor deeper than Python's stack; MAX_DEPTH keeps this out of reach
        raise refused(source, "too_deep", limit=MAX_DEPTH) from None


def depth(document: Any) -> int:
    """Nesting depth of parsed JSON-like data, without recursion."""
    deepest, stack = 0, [(document, 1)]
    while stack:
        value, level = stack.pop()
        deepest = max(deepest, level)          # a leaf counts as a level, as in load_yaml
        if isinstance(value, (dict, list)):
            stack.extend((v, level + 1) for v in (value.values() if isinstance(value, dict) else value))
    return deepest


def load_json(text: str, source: str = "sheet") -> Any:
    """Parse untrusted JSON with the same nesting bound as YAML."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise refused(source, "not_json", line=exc.lineno, detail=shorten(exc.msg, 100)) from None
    except RecursionError:  # the C decoder stops near Python's recursion limit (about 1,000 levels)
        raise refused(source, "too_deep", limit=MAX_DEPTH) from None
    if depth(document) > MAX_DEPTH:
        raise refused(source, "too_deep", limit=MAX_DEPTH)
    return document
