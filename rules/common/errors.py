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
from typing import Any

CODE = re.compile(r"[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*\Z")


def is_code(text: str) -> bool:
    return bool(CODE.match(text))


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
        if not self.params:
            return self.code
        return f"{self.code}(" + ", ".join(f"{k}={v!r}" for k, v in sorted(self.params.items())) + ")"


class IllegalAction(BautaError):
    """The action breaks a rule; nothing changed."""


class NotYourTurn(IllegalAction):
    """Someone acted for a seat or a prompt that is not theirs."""


class StalePrompt(IllegalAction):
    """The prompt was already answered (or the game moved on)."""


class GameOver(IllegalAction):
    """The game has ended; no further actions."""


class PackError(BautaError):
    """A content pack failed validation; its code and parameters name the file, entry and field."""
