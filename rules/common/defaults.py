"""The rulebook's default answers to a decision, for a table whose turn clock applies them at a
deadline (`Engine.default_choice`). Each game keeps a small table, prompt kind -> rule, in its own
`defaults.py`; this module holds what those tables share: the rule that picks an option by id, and
the check that what a rule gives is a legal answer to the prompt.

A rule is a pure function `(state, prompt) -> option ids | None`. A kind the table does not name
has no default (None): the host then falls back to the bot stand-in or only reminds.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any

from .engine import Prompt, Standing

Rule = Callable[[Any, Prompt], Sequence[str] | None]


def offered(*ids: str) -> Rule:
    """The first of `ids` the prompt offers, as the one answer (none offered: no default)."""
    def rule(state: Any, prompt: Prompt) -> Sequence[str] | None:
        have = {o.id for o in prompt.options}
        return next(((i,) for i in ids if i in have), None)
    return rule


def rule_for(rules: Mapping[str, Rule], kind: str) -> Rule | None:
    """The rule of `kind`: its own entry, else an entry `prefix*` it starts with (`reroll_*`)."""
    if kind in rules:
        return rules[kind]
    return next((r for k, r in rules.items() if k.endswith("*") and kind.startswith(k[:-1])), None)


def default_answer(rules: Mapping[str, Rule], state: Any, prompt: Prompt) -> tuple[str, ...] | None:
    """What `rules` answer to `prompt`, if it is a legal answer: option ids of the prompt, each once,
    as many as it takes. A timed click (`confirm`) is never answered for the player."""
    rule = rule_for(rules, prompt.kind)
    if rule is None or prompt.confirm:
        return None
    ids = rule(state, prompt)
    if ids is None:
        return None
    ids = tuple(ids)
    have = {o.id for o in prompt.options}
    if not prompt.min_choices <= len(ids) <= prompt.max_choices or len(set(ids)) != len(ids) or not set(ids) <= have:
        return None
    return ids



class Days:
    """The part of an engine for games played over days, read from its game's `defaults` module
    (`days`): the rule table `DEFAULTS` and `standing(state)`. The engine sets `days` and names the
    module's `CHAPTER_KINDS`/`TURNING_KINDS` as its own; list it before `Engine` among its bases."""

    days: ModuleType

    def default_choice(self, state: Any, prompt: Prompt) -> tuple[str, ...] | None:
        return default_answer(self.days.DEFAULTS, state, prompt)

    def standing(self, state: Any) -> Standing | None:
        standing: Callable[[Any], Standing | None] = self.days.standing
        return standing(state)
