"""Typed errors the rules raise. Their messages are written for players: a cog shows them as is."""


class BautaError(Exception):
    """Base for every error whose message can be shown to a user."""


class IllegalAction(BautaError):
    """The action breaks a rule; nothing changed."""


class NotYourTurn(IllegalAction):
    """Someone acted for a seat or a prompt that is not theirs."""


class StalePrompt(IllegalAction):
    """The prompt was already answered (or the game moved on)."""


class GameOver(IllegalAction):
    """The game has ended; no further actions."""


class PackError(BautaError):
    """A content pack failed validation; the message names the file, entry and field."""
