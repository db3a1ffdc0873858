"""Typed errors the rules raise: a code and parameters, not a sentence.

`IllegalAction("no_card_left", register=3)` says *what* went wrong; the presenter
(`i18n/present.py`) turns it into a sentence in the reader's language from the catalogue key
`errors.<code>` (the game's catalogue first, then `common.errors.<code>` in `i18n/<lang>.yaml`).

DEPRECATED legacy form: `IllegalAction("You cannot do that.")`, a finished English sentence, kept
until each game is converted; it is shown as is (and the presenter counts it as a fallback). A
first argument that looks like a code (lower-case words joined by `_` or `.`) or comes with
parameters is a code; anything else is a legacy sentence.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

CODE = re.compile(r"[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*\Z")


def is_code(text: str) -> bool:
    return bool(CODE.match(text))


def coded(code: str, params: dict[str, Any], always: bool = False) -> str:
    """A code and its parameters as logs show them, `type(expected=['integer'])`: data, not a
    sentence (a player reads the presenter's words). Without parameters the bare code, unless
    `always` keeps the parentheses."""
    if not params and not always:
        return code
    return code + "(" + ", ".join(k + "=" + repr(v) for k, v in sorted(params.items())) + ")"


class BautaError(Exception):
    """Base for every error a user may be told about: `code` + `params`, or legacy `text`.

    `system` names the game whose catalogue explains the code; the engine sets it when the error
    leaves `apply`/`new_game`, so the rule that raises it need not know its own game's name.
    """

    def __init__(self, code: str = "", /, **params: Any):
        super().__init__(code)
        if params or is_code(code):
            self.code, self.text = code, ""
        else:
            self.code, self.text = "", code     # deprecated: a finished English sentence
        self.params: dict[str, Any] = params
        self.system: str | None = None

    def __str__(self) -> str:
        """For logs and for legacy callers that show `str(error)`; players read the presenter's."""
        if self.text or not self.code:
            return self.text
        return coded(self.code, self.params)

    def __reduce__(self):
        # An error crosses a process boundary (a pack parsed in a child, cogs/untrusted.py) whole:
        # Exception's own pickling would call `cls(code)` and drop the parameters.
        return _restore, (type(self), dict(self.__dict__))


def _restore(cls: type[BautaError], state: dict[str, Any]) -> BautaError:
    error = cls.__new__(cls)
    Exception.__init__(error, state.get("code") or state.get("text", ""))
    error.__dict__.update(state)
    return error


class IllegalAction(BautaError):
    """The action breaks a rule; nothing changed."""


class NotYourTurn(IllegalAction):
    """Someone acted for a seat or a prompt that is not theirs."""


class StalePrompt(IllegalAction):
    """The prompt was already answered (or the game moved on)."""


class GameOver(IllegalAction):
    """The game has ended; no further actions."""


@dataclass(frozen=True)
class Where:
    """Where in an uploaded file a problem is, as data: the file's name, the path to the entry
    (`("characters", 3)`, `("map", "alleys", 2)`; empty for the whole document), the entry's own
    name (its `name`, or its `id` when the name is in several languages) and the field inside it.
    The presenter writes it as `sample.yaml: characters[3] (Brutus): field 'speed'`."""

    file: str
    entry: tuple[str | int, ...] = ()
    name: str = ""
    field: str = ""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an uploaded file: a code (worded by `errors.pack.<code>` in the game's
    catalogue, else `common.errors.pack.<code>`), where it is, and the values the sentence quotes
    (already shortened: a problem never carries much of the file)."""

    code: str
    where: Where
    params: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        """For logs: `sample.yaml characters[3].speed: type(expected=['integer'], value="'fast'")`."""
        path = ".".join(str(step) for step in (*self.where.entry, self.where.field) if step != "")
        return " ".join((self.where.file, path or "-")) + ": " + coded(self.code, self.params, always=True)


class PackError(BautaError):
    """A content pack (or a sheet, or any uploaded file) was refused: `problems`, each a code with
    where it is and its parameters, in document order; `at_least` when counting stopped before the
    end (so "at least N more"). The legacy form `PackError(sentence)` still carries one sentence."""

    def __init__(self, code: str = "", /, *, problems: tuple[Problem, ...] | list[Problem] = (),
                 at_least: bool = False, **params: Any):
        super().__init__(code or ("pack_refused" if problems else ""), **params)
        self.problems: tuple[Problem, ...] = tuple(problems)
        self.at_least = at_least

    @classmethod
    def one(cls, code: str, where: Where, system: str | None = None, **params: Any) -> PackError:
        """A refusal with one problem; `system` names the game whose catalogue words its code."""
        error = cls(problems=[Problem(code, where, params)])
        error.system = system
        return error

    def __str__(self) -> str:
        if not self.problems:
            return super().__str__()
        more = len(self.problems) - 10        # the rest only counted: "+3", "+3+" when counting stopped
        return "\n".join(str(p) for p in self.problems[:10]) + (
            "\n+" + str(more) + ("+" if self.at_least else "") if more > 0 else "")
