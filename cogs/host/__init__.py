"""The table framework: what every game cog builds on, and nothing of any one game.

A game cog gets from here: `BautaCog` (its base: `self.bot`, `self.host`, `self.store`), the
`GameHost` on `bot.host` (`start`, `open_lobby`, `act`, `commit` + `publish`, `live_message`,
`courier`), `systems.register(System(...))` to plug its engine in, `botplayer` to seat the bot,
`untrusted` for files and packs a member sends, and the small helpers `reply`, `chunks`,
`mention`, `echo`, `prompt_view`, `MESSAGE_LIMIT`.

Layers, each importing only those below it (docs/architecture.md): `text`, `errors`, `replies`,
`systems`, `components` <- `courier` (Discord sends, edits, chunks, DM fallback) <- `table` (the
live table message) <- `publish` (one step's narration and prompts) <- `thinking` (the bot's
decisions, in a child process or a thread) <- `botplayer` (the bot's seats, plugged into the publish through the host's hooks) <- `gamehost` (load, apply, commit,
publish; the outbox; the lobby).
"""
from . import botplayer, systems, thinking, untrusted
from .components import PromptButton, PromptSelect, prompt_view
from .courier import MESSAGE_LIMIT, chunks, mention
from .errors import NotGM, report_error
from .gamehost import BautaCog, GameHost
from .replies import reply, settle
from .text import echo, newest

__all__ = ["MESSAGE_LIMIT", "BautaCog", "GameHost", "NotGM", "PromptButton", "PromptSelect", "botplayer", "chunks",
           "echo", "mention", "newest", "prompt_view", "reply", "report_error", "settle", "systems", "thinking", "untrusted"]
