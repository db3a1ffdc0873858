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


def prompt_view(game_id: int, prompt: Prompt, say: Presenter | None = None) -> discord.ui.View:
    """Buttons or a select for a prompt, labelled by `say` (the reader's presenter)."""
    say = say or Presenter()
    view = discord.ui.View(timeout=None)
    options = prompt.options[:SELECT_MAX]
    if len(prompt.options) > SELECT_MAX:
        log.warning("prompt %s has %d options; only %d shown", prompt.id, len(prompt.options), SELECT_MAX)
    if prompt.max_choices == 1 and len(options) <= BUTTONS_MAX:
        room = 100 - len(f"bauta:b:{game_id}:{prompt.id}:")
        for index, option in enumerate(options):
            view.add_item(PromptButton(game_id, prompt.id, _token(option.id, index, room), say.option(option),
                                       discord.ButtonStyle.primary if index == 0 else discord.ButtonStyle.secondary))
    else:
        select = discord.ui.Select(
            custom_id=f"bauta:s:{game_id}:{prompt.id}"[:100], placeholder=say.prompt(prompt, plain=True)[:150],
            min_values=min(prompt.min_choices, len(options)), max_values=min(prompt.max_choices, len(options)),
            options=[discord.SelectOption(label=say.option(o)[:100] or "…", value=_token(o.id, i, 100),
                                          description=say.option_detail(o)[:100] or None)
                     for i, o in enumerate(options)])
        view.add_item(PromptSelect(game_id, prompt.id, select))
    return view

