"""A prompt as Discord components: persistent buttons or a select, routed by custom_id.

The custom_id carries the game and the prompt; the game is re-read from the database on every
click, so buttons survive restarts."""
from __future__ import annotations

import logging

import discord

from i18n.present import Presenter
from rules.common import ANYONE, Prompt

log = logging.getLogger("bauta.components")

BUTTONS_MAX = 10          # more options than this (or a multi-choice) become a select menu
SELECT_MAX = 25
ROW_BUTTONS = 5          # Discord: five buttons to a row, five rows to a message
ROWS_MAX = 5


def headline(prompt: Prompt, say: Presenter) -> str:
    """A public prompt's message: whose decision it is, then the question."""
    text = say.prompt(prompt)
    return text if prompt.player == ANYONE else f"{say.player(prompt.player)} — {text}"


def _token(value: str, index: int, room: int) -> str:
    """An option id as it fits in a custom_id; `#index` when it does not (or contains ':')."""
    return value if (len(value) <= room and ":" not in value and not value.startswith("#")) else f"#{index}"


def resolve_option(prompt: Prompt, token: str) -> str:
    if token.startswith("#") and token[1:].isdigit():
        index = int(token[1:])
        if index < len(prompt.options):
            return prompt.options[index].id
    return token



# ---------------------------------------------------------------------------- components
class PromptButton(discord.ui.DynamicItem[discord.ui.Button],
                   template=r"bauta:b:(?P<game>[0-9]+):(?P<prompt>.+):(?P<option>[^:]+)"):
    def __init__(self, game_id: int, prompt_id: str, option: str, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary):
        self.game_id, self.prompt_id, self.option = game_id, prompt_id, option
        super().__init__(discord.ui.Button(label=label[:80] or "…", style=style,
                                           custom_id=f"bauta:b:{game_id}:{prompt_id}:{option}"[:100]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match):
        return cls(int(match["game"]), match["prompt"], match["option"], item.label or "…")

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.client.host.choose(interaction, self.game_id, self.prompt_id, [self.option])


class PromptSelect(discord.ui.DynamicItem[discord.ui.Select],
                   template=r"bauta:s:(?P<game>[0-9]+):(?P<prompt>.+)"):
    def __init__(self, game_id: int, prompt_id: str, select: discord.ui.Select | None = None):
        self.game_id, self.prompt_id = game_id, prompt_id
        super().__init__(select or discord.ui.Select(custom_id=f"bauta:s:{game_id}:{prompt_id}",
                                                     options=[discord.SelectOption(label="…")]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match):
        return cls(int(match["game"]), match["prompt"], item)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list((interaction.data or {}).get("values", []))
        await interaction.client.host.choose(interaction, self.game_id, self.prompt_id, values)


def rows_of(prompt: Prompt) -> int:
    """How many of a message's five component rows the prompt takes."""
    if prompt.max_choices == 1 and len(prompt.options) <= BUTTONS_MAX:
        return max(1, -(-len(prompt.options) // ROW_BUTTONS))
    return 1


def prompt_items(game_id: int, prompt: Prompt, say: Presenter, first_row: int = 0) -> list[discord.ui.Item]:
    """A prompt's buttons (five to a row, from `first_row`) or its select, labelled by `say`."""
    options = prompt.options[:SELECT_MAX]
    if len(prompt.options) > SELECT_MAX:
        log.warning("prompt %s has %d options; only %d shown", prompt.id, len(prompt.options), SELECT_MAX)
    if prompt.max_choices == 1 and len(options) <= BUTTONS_MAX:
        room = 100 - len(f"bauta:b:{game_id}:{prompt.id}:")
        items: list[discord.ui.Item] = []
        for index, option in enumerate(options):
            button = PromptButton(game_id, prompt.id, _token(option.id, index, room), say.option(option),
                                  discord.ButtonStyle.primary if index == 0 else discord.ButtonStyle.secondary)
            button.item.row = first_row + index // ROW_BUTTONS
            items.append(button)
        return items
    select = discord.ui.Select(
        custom_id=f"bauta:s:{game_id}:{prompt.id}"[:100], placeholder=say.prompt(prompt, plain=True)[:150],
        min_values=min(prompt.min_choices, len(options)), max_values=min(prompt.max_choices, len(options)),
        options=[discord.SelectOption(label=say.option(o)[:100] or "…", value=_token(o.id, i, 100),
                                      description=say.option_detail(o)[:100] or None)
                 for i, o in enumerate(options)], row=first_row)
    return [PromptSelect(game_id, prompt.id, select)]


def prompt_view(game_id: int, prompt: Prompt, say: Presenter | None = None) -> discord.ui.View:
    """Buttons or a select for a prompt, labelled by `say` (the reader's presenter)."""
    view = discord.ui.View(timeout=None)
    for item in prompt_items(game_id, prompt, say or Presenter()):
        view.add_item(item)
    return view
