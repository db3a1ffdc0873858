"""/cz: Carnival Zombie 2nd Edition on Discord. The bot is the opponent and the whole table.

Thin on purpose: the rules live in `rules/carnival_zombie/`, the images in
`renderers/carnival_zombie.py`, and every decision is one of the engine's prompts, which the
framework turns into buttons or a select for the player who owns it (group decisions go to the
First Player). This cog adds:

- `/cz start difficulty [scenario] [pack] [quick]`: a Join/Leave/Start lobby (1–6 players); after
  Start the engine's setup prompt offers Character swaps and the Activation Order.
- Board images: the Venice map by Day (a new image when the Day begins, at each Group Movement
  step with the route costs, and when the phase changes); by Night ONE live board message (tactical
  map + Clock/Calendar/Terror strip) edited after every step (`host.live_message`: its id is kept in
  the game's `meta`, so a restarted bot edits the same message; if it is gone, a new one is posted).
- `/cz status`: the board, a summary, and the pending prompt again (pinging its player).
- `/cz remind`: ping the player who owes the pending decision once more (once per decision).
- `/cz sabotage cave`, `/cz unmask`: the traitor of "Just a Matter of Time", answered ephemerally;
  the secret never passes through a channel (see `_secret_act`).
- `/cz focus [reason]`: the Battle Focus penalty (optional rule).

Pile of Corpses (§10.4), set with `/gm rules carnival_zombie pile_mode`: `probabilistic` (default)
and `honour` (the dropper reports the result with buttons) are played through the engine's prompts.
`reaction`: the "Drop!" button is the engine's prompt, and the click is one action that carries its
timing (`click` turns it into `PileTiming(ms)`): the time from the message showing the prompt to the
click, both from Discord's timestamps (server-side, so no client clock counts), or from the bot's
clock (noted in the game's meta when the prompt appeared) when those are missing.
"""
from __future__ import annotations

import asyncio
import io
import logging
import time
from datetime import datetime
from typing import Any

import discord
from discord import app_commands

from i18n import present, t
from i18n.present import Presenter
from renderers import carnival_zombie as R
from rules.carnival_zombie import (CAVES, DEFAULT_HOUSE_RULES, ENGINE, FocusPenalty, PileTiming, Sabotage, Unmask,
                                   load_pack_text, load_sample_pack)
from rules.common import GM, PUBLIC, BautaError
from rules.common.packs import in_language

from . import systems, untrusted
from .framework import MESSAGE_LIMIT, BautaCog, chunks, mention
from .text import echo

log = logging.getLogger("bauta.carnival_zombie")

NAME = ENGINE.system                      # "carnival_zombie"
TITLE = "Carnival Zombie 2nd Edition"
LIVE = "cz_live"                          # meta: the Night's live board {message, channel, night, version}
SHOWN = "cz_shown"                        # meta: the last Day board posted {step, move, message, channel}
REMINDED = "cz_reminded"                  # meta: the prompt id whose player was last reminded
SECRET_ACTOR = "secret"                   # the log's actor for a traitor's secret action
REACT = "cz_react"                        # meta: when the reaction-mode "Drop!" prompt appeared {prompt, at}
DIFFICULTIES = ("easy", "medium", "difficult")


# ============================================================================ system hooks
def _clock_text(view: dict, locale=None) -> str:
    clock = view["clock"]
    phase = clock["phase"]
    if phase == "day":
        return t("carnival_zombie.clock_day", locale, hour=clock["hour"])
    if phase == "night":
        return t("carnival_zombie.clock_night", locale, hour=clock["hour"], hours=clock["night_hours"])
    return t(f"carnival_zombie.phase.{phase}", locale)


def _dir(d: str, locale=None) -> str:
    return t(f"carnival_zombie.dir.{d}", locale) if d in ("N", "E", "S", "W") else d


def _reader_locale(locale):
    """The reader's language: the one given, else that of the reader `/game status` and `/hand` set
    (`present.READER`), else English."""
    if locale is None and present.READER.get() is not None:
        return present.READER.get().language
    return locale


def describe(view: dict, viewer: str, locale=None) -> str:
    """The game as text for `/game status`, `/cz status` and `/hand`: only what `view` holds."""
    locale = _reader_locale(locale)
    view = in_language(view, present.language(locale))         # the pack's names, in the reader's language
    d = "carnival_zombie.describe."
    lines = [t(d + "header", locale, scenario=view["scenario_name"],
               difficulty=t(f"carnival_zombie.difficulty.{view['difficulty']}", locale),
               phase=t(f"carnival_zombie.phase.{view['phase']}", locale)),
             t(d + "clock", locale, ticket=view["calendar"]["ticket"],
               half=t(f"carnival_zombie.half.{view['calendar']['half']}", locale), clock=_clock_text(view, locale))]
    m = view["map"]
    names = {loc["id"]: loc["name"] for loc in m["locations"]}
    lines.append(t(d + "group", locale, loc=f"{m['group_at']} {names.get(m['group_at'], '')}".strip(),
                   sunken=", ".join(map(str, m["sunken"])) or "—"))
    if m.get("forced_dir"):
        lines.append(t(d + "forced", locale, dir=_dir(m["forced_dir"], locale)))
    lines.append(t(d + "characters", locale))
    for ch in sorted(view["characters"], key=lambda c: c["order"]):
        flags = "".join(" · " + t(d + flag, locale) for flag in ("terror", "paranoia", "incapacitated") if ch[flag])
        items = ", ".join(i["name"] for i in ch["items"])
        lines.append(t(d + "character", locale, order=ch["order"], first="★ " if ch["order"] == 1 else "",
                       name=ch["name"], who=mention(ch["player"]) if ch["player"] else t(d + "group_player", locale),
                       stress=ch["stress"], flags=flags,
                       refuge=t(d + "refuge", locale, pit=_dir(ch["refuge"], locale))
                       if view["night"] and ch["refuge"] else "",
                       items=t(d + "items", locale, items=items) if items else ""))
    if view["bosses"]:
        lines.append(t(d + "bosses", locale, bosses="; ".join(
            t(d + "boss", locale, name=b["name"], pos=b["pos"] or t(d + "off_map", locale), wounds=b["wounds"],
              life=b["life"])
            for b in view["bosses"])))
    st = view["storage"]
    lines.append(t(d + "storage", locale, barricades=st.get("#", 0), survivors=st.get("S", 0),
                   abyss=sum(view["abyss"].values()), pile=sum(view["pile"].values())))
    night = view["night"]
    if night:
        totals: dict[str, int] = {}
        for cubes in night["rings"].values():
            for code, n in cubes.items():
                totals[code] = totals.get(code, 0) + n
        barricades = sum(1 for box in night["boxes"].values() for x in box if x == "#")
        lines.append(t(d + "night", locale, hour=night["hour"], hours=view["clock"]["night_hours"],
                       rings=", ".join(f"{n} {code}" for code, n in sorted(totals.items())) or "—",
                       barricades=barricades))
        lines.append(t(d + "legend", locale))
    if "traitor" in view:
        sab = view.get("sabotage") or {}
        sabotage = (sab.get("cave") or t(d + ("sabotage_used" if sab.get("used_this_night") else "sabotage_ready"),
                                         locale)) if sab else "—"
        if viewer == view["traitor"] and not view["over"]:
            lines.append(t(d + "traitor_you", locale, sabotage=sabotage))
        elif viewer == GM and not view["over"]:
            lines.append(t(d + "traitor_gm", locale, player=mention(view["traitor"]), sabotage=sabotage))
        else:
            lines.append(t(d + "traitor_public", locale, player=mention(view["traitor"])))
    say = Presenter(locale, NAME)
    if view["over"]:
        lines.append(t(d + "over", locale, reason=ending(say, view)))
        if view.get("score"):
            lines.append(say.text("events.final_score", **view["score"]))
    for w in view["waiting_for"]:
        lines.append(t(d + "waiting", locale, player=mention(w["player"]),
                       text=say.text(f"prompts.{w['kind']}", **w.get("args", {}))[:300]))
    if view.get("provisional"):
        lines.append(t(d + "provisional", locale))
    return "\n".join(lines)


def ending(say: Presenter, view: dict) -> str:
    """Why the game ended, in the reader's words (older games stored an English sentence)."""
    reason = view.get("reason") or ""
    if " " in reason:
        return reason
    return say.text(f"events.over_{reason}", **(view.get("reason_args") or {}))


def render(view: dict) -> bytes:
    """The board of the moment: Venice by Day, the tactical map by Night, the strip below; its words
    those of the view, else of the reader `/game status` set (`present.READER`), else English."""
    say = present.READER.get()
    if "words" not in view and say is not None:
        view = {**in_language(view, say.language), "words": image_words(say, view)}
    return R.board(view)


def image_words(say: Presenter, view: dict) -> dict[str, str]:
    """The words the board shows, in the reader's language (the renderer draws them as given)."""
    w = "words.board_"
    words = {key: say.text(w + key, plain=True) for key in
             ("venice", "venice_provisional", "day", "paranoia", "incapacitated", "special")}
    words.update({f"cube_{code}": say.text(f"{w}cube_{name}", plain=True)
                  for code, name in (("S", "survivor"), ("P", "paranoia"), ("#", "barricade"))})
    st = view["storage"]
    words["storage"] = say.text(w + "storage", plain=True, barricades=st.get("#", 0), survivors=st.get("S", 0),
                                abyss=sum(view["abyss"].values()), pile=sum(view["pile"].values()))
    night = view.get("night")
    if night:
        ticket, hour = view["calendar"]["ticket"], night["hour"]
        parts = [say.text(w + ("dawn" if hour > view["clock"]["night_hours"] else "night"), plain=True,
                          night=ticket, hour=hour)]
        if night.get("finale"):
            parts.append(say.text(w + "finale", plain=True, finale_name=view["names"]["finales"].get(night["finale"],
                                                                                                    night["finale"])))
            if night["finale"] == "boat":
                parts.append(say.text(w + "hull", plain=True, hull=night["hull"]))
        if night.get("dawn_pit"):
            parts.append(say.text(w + "exit", plain=True, dir={"term": f"dir_{night['dawn_pit']}"}))
        words["banner"] = " · ".join(parts)
    if view["over"]:
        score = view.get("score") or {}
        words["result"] = ending(say, view) + (
            " · " + say.text(w + "score", plain=True, total=score["total"]) if "total" in score else "")
    return words


def _board_caption(view: dict, locale=None) -> str:
    params = {"ticket": view["calendar"]["ticket"], "clock": _clock_text(view, locale)}
    if view["over"]:
        return t("carnival_zombie.board_over", locale)
    if view["night"]:
        return t("carnival_zombie.board_night", locale, **params)
    return t("carnival_zombie.board_day", locale, **params)


def _file(png: bytes, game_id: int) -> discord.File:
    return discord.File(io.BytesIO(png), filename=f"cz-{game_id}-board.png")


def _night_key(view: dict) -> str:
    return f"{view['calendar']['ticket']}:{view['scenario']}"


async def show_board(host, game, state, *, force: bool = False, interaction=None) -> None:
    """Post or edit the board after a step. Night: one live message, edited; Day: a new image when
    the phase changes or a Group Movement decision is pending (with its route costs). In the
    server's language: `/gm language`, else the guild's own, which only an interaction tells."""
    view = ENGINE.view_for(state, PUBLIC)
    meta = (await host.store.game(game.id) or game).meta
    locale = await host.server_locale(game, interaction)
    say = host.presenter(game, locale)
    view = {**in_language(view, say.language), "words": image_words(say, view)}
    if view["night"] and not view["over"]:
        night = _night_key(view)
        live = meta.get(LIVE) or {}
        same_night = live.get("night") == night
        # `game.version` is the version `state` belongs to: an older step finishing late never
        # paints over a newer image.
        if not force and same_night and int(live.get("version", -1)) >= game.version:
            return
        png = await asyncio.to_thread(render, view)
        await host.live_message(game, LIVE, _board_caption(view, locale), file=_file(png, game.id),
                                new=not same_night, night=night, version=game.version)
        return
    step = f"{view['phase']}:{view['calendar']['ticket']}:{view['over']}"
    move = next((w["prompt"] for w in view["waiting_for"] if w["kind"] == "move"), "")
    shown = meta.get(SHOWN) or {}
    # A Night just ended (its live board is still recorded): the Day's first map is always posted.
    if not force and LIVE not in meta and shown.get("step") == step and (not move or shown.get("move") == move):
        return
    png = await asyncio.to_thread(render, view)
    fresh = await host.live_message(game, SHOWN, _board_caption(view, locale), file=_file(png, game.id), new=True,
                                    step=step, move=move)
    if LIVE in fresh.meta:
        await host.store.set_meta(fresh, {k: v for k, v in fresh.meta.items() if k != LIVE})


def _now() -> float:
    return time.time()


def _reaction_ms(interaction, react: dict | None, prompt_id: str) -> int:
    """How long the dropper took: from the message showing the prompt (its last edit, else its
    posting: the table message is edited to carry each new prompt) to the click, both Discord's
    timestamps; else the bot's clock since the prompt was noted as shown; -1 when neither exists."""
    clicked = getattr(interaction, "created_at", None)
    message = getattr(interaction, "message", None)
    posted = getattr(message, "edited_at", None) or getattr(message, "created_at", None)
    if isinstance(clicked, datetime) and isinstance(posted, datetime):
        return max(0, int((clicked - posted).total_seconds() * 1000))
    if react and react.get("prompt") == prompt_id:
        return max(0, int((_now() - float(react["at"])) * 1000))
    return -1


def click(interaction, game, prompt, action):
    """Reaction mode: the click on "Drop!" becomes ONE action carrying its timing (`PileTiming`)."""
    if prompt.kind != "pile_react" or tuple(action.options) != ("drop",):
        return action
    return PileTiming(action.prompt, action.options, ms=_reaction_ms(interaction, game.meta.get(REACT), prompt.id))


async def note_the_drop(host, game, state) -> None:
    """Reaction mode: when the "Drop!" prompt appears, note the time (the clock for the click's
    timing when Discord's timestamps are missing); forget it once the drop is made. A meta write only."""
    ask = state.ask if isinstance(state.ask, dict) else {}
    waiting = ask.get("kind") == "pile_react" and not ask.get("timing") and not state.over
    prompt = ENGINE.pending(state)[0].id if waiting else None
    if (game.meta.get(REACT) or {}).get("prompt") == prompt:
        return                          # (no read, no write: most publishes)
    fresh = await host.store.game(game.id) or game
    if (fresh.meta.get(REACT) or {}).get("prompt") == prompt:
        return                          # noted already (the clock must not start again)
    # a merge patch: what the publish (or anyone) wrote to other keys meanwhile stays
    await host.store.patch_meta(fresh, {REACT: {"prompt": prompt, "at": _now()} if prompt else None})


async def after_publish(host, interaction, game, state, events) -> None:
    try:
        await note_the_drop(host, game, state)
    except Exception:  # noqa: BLE001 - without a note the click is timed by Discord's clock, or untimed
        log.exception("reaction note failed for game %s", game.id)
    try:
        await show_board(host, game, state, interaction=interaction)
    except Exception:  # noqa: BLE001 - an image must never break the game's flow
        log.exception("board update failed for game %s", game.id)


def load_pack(text: str, source: str):
    return load_pack_text(text, source)


SYSTEM = systems.register(systems.System(
    name=NAME, title=TITLE, engine=ENGINE, describe=describe, render=render,
    house_rules=dict(DEFAULT_HOUSE_RULES), load_pack=load_pack, after_publish=after_publish, click=click))


# ============================================================================ the cog
def _scenarios(pack: dict | None = None) -> dict[str, dict]:
    return {s["id"]: s for s in (pack or load_sample_pack())["scenarios"]}


class CarnivalZombieCog(BautaCog):
    cz = app_commands.Group(name="cz", description="Carnival Zombie 2nd Edition: the cooperative campaign",
                            guild_only=True)

    # ---------------------------------------------------------------- autocomplete
    async def _scenario_choices(self, interaction: discord.Interaction, current: str):
        scenarios = dict(_scenarios())
        pack_name = getattr(getattr(interaction, "namespace", None), "pack", None)
        if pack_name and interaction.guild_id:
            text = await self.store.pack(interaction.guild_id, NAME, pack_name)
            if text:
                try:  # off the event loop, briefly: autocomplete must answer within 3 seconds
                    scenarios.update(_scenarios(await untrusted.parse(load_pack_text, text, pack_name,
                                                                      source=pack_name, seconds=2)))
                except Exception:  # noqa: BLE001 - a broken pack simply offers the sample's list
                    pass
        current = (current or "").lower()
        language = present.language(interaction.locale)
        names = {sid: str(in_language(s["name"], language)) for sid, s in scenarios.items()}
        return [app_commands.Choice(name=f"{names[sid]} ({sid})"[:100], value=sid)
                for sid in scenarios if current in sid or current in names[sid].lower()][:25]

    async def _pack_choices(self, interaction: discord.Interaction, current: str):
        if not interaction.guild_id:
            return []
        packs = await self.store.packs(interaction.guild_id, NAME)
        current = (current or "").lower()
        return [app_commands.Choice(name=p["name"][:100], value=p["name"][:100])
                for p in packs if current in p["name"].lower()][:25]

    # ---------------------------------------------------------------- /cz start
    @cz.command(name="start", description="Open a Carnival Zombie table: players join, then the host starts")
    @app_commands.describe(difficulty="Easy, Medium or Difficult",
                           scenario="Campaign (default) or a Scenario / Finale played as a Scenario",
                           pack="A content pack imported with /pack import (default: the sample pack)",
                           quick="Quick Playtest (Day 1 with 8 Barricades) or a practice Night")
    @app_commands.choices(
        difficulty=[app_commands.Choice(name=d.capitalize(), value=d) for d in DIFFICULTIES],
        quick=[app_commands.Choice(name="Full game", value="no"),
               app_commands.Choice(name="Quick Playtest (no Story so far, 8 Barricades)", value="day"),
               app_commands.Choice(name="Practice a Night (straight to Sunset)", value="night")])
    @app_commands.autocomplete(scenario=_scenario_choices, pack=_pack_choices)
    async def start(self, interaction: discord.Interaction, difficulty: str, scenario: str | None = None,
                    pack: str | None = None, quick: str | None = None):
        await self.host.begin(interaction)          # private: a refusal is seen by its sender only
        locale = interaction.locale
        difficulty = {"hard": "difficult"}.get((difficulty or "").lower(), (difficulty or "").lower())
        if difficulty not in DIFFICULTIES:
            raise BautaError(t("carnival_zombie.unknown_difficulty", locale))
        options: dict[str, Any] = {"difficulty": difficulty}
        content = None
        if pack:
            text = await self.store.pack(interaction.guild_id, NAME, pack)
            if text is None:
                raise BautaError(t("carnival_zombie.no_pack", locale, name=echo(pack)))
            content = await untrusted.parse(load_pack_text, text, pack, source=pack, locale=locale)
            options["pack"] = content
        known = _scenarios(content)
        scenario = (scenario or "campaign").strip()
        if scenario not in known:
            raise BautaError(t("carnival_zombie.unknown_scenario", locale, scenario=echo(scenario),
                               known=", ".join(known)))
        options["scenario"] = scenario
        if quick == "day":
            options["quick"] = True
        elif quick == "night":
            options["quick_night"] = True
        min_players = max(1, int(known[scenario].get("min_players", 1)))
        await self.host.open_lobby(interaction, NAME, min_players, 6, options=options)
        public = (await self.store.settings(interaction.guild_id)).locale or interaction.guild_locale
        await self.host.courier.send_channel(interaction.channel_id, t(
            "carnival_zombie.lobby_note", public, difficulty=t(f"carnival_zombie.difficulty.{difficulty}", public),
            scenario=in_language(known[scenario]["name"], present.language(public)),
            pack=t("carnival_zombie.pack_note", public, name=pack) if pack else "",
            quick=t(f"carnival_zombie.quick_{quick}", public) if quick in ("day", "night") else ""))

    # ---------------------------------------------------------------- /cz status
    @cz.command(name="status", description="The board, the state and the pending decision (its player is pinged)")
    async def status(self, interaction: discord.Interaction):
        await self.host.begin(interaction)
        game = await self.host.channel_game(interaction, NAME, ended=True)
        state = ENGINE.load_state(game.state)
        view = ENGINE.view_for(state, PUBLIC)
        public = await self.host.server_locale(game, interaction)
        header = t("carnival_zombie.status_header", public, id=game.id,
                   players=", ".join(map(mention, game.seats)))
        lines = [header, describe(view, PUBLIC, public),
                 t("carnival_zombie.pile_modes", public, mode=view["house_rules"]["pile_mode"])]
        if not view["waiting_for"] and not view["over"]:
            lines.append(t("carnival_zombie.nothing_pending", public))
        for text in chunks(lines):
            await self.host.courier.send_channel(game.channel_id, text, allowed_mentions=discord.AllowedMentions.none())
        # The board redrawn, and with the prompts on it moved to the bottom of the channel.
        await show_board(self.host, game, state, force=True, interaction=interaction)
        await self.host.republish(interaction, await self.store.game(game.id) or game, dm_prompts=False)
        await self.host.finish(interaction)

    # ---------------------------------------------------------------- /cz remind
    @cz.command(name="remind", description="Ping the player who owes the pending decision (once per decision)")
    async def remind(self, interaction: discord.Interaction):
        await self.host.begin(interaction)
        game = await self.host.channel_game(interaction, NAME)
        if str(interaction.user.id) not in game.seats and not await self.host.is_gm(interaction):
            raise BautaError(t("carnival_zombie.not_seated", interaction.locale))
        pending = ENGINE.pending(ENGINE.load_state(game.state))
        if not pending:
            await self.host.finish(interaction, t("carnival_zombie.remind_none", interaction.locale))
            return
        prompt = pending[0]
        if game.meta.get(REMINDED) == prompt.id:
            await self.host.finish(interaction, t("carnival_zombie.remind_done", interaction.locale,
                                                  player=mention(prompt.player)))
            return
        await self.store.set_meta(game, {**game.meta, REMINDED: prompt.id})
        public = await self.host.server_locale(game, interaction)
        await self.host.courier.send_channel(game.channel_id, t(
            "carnival_zombie.remind", public, player=mention(prompt.player),
            text=self.host.presenter(game, public).prompt(prompt))[:MESSAGE_LIMIT])
        await self.host.finish(interaction, t("carnival_zombie.remind_sent", interaction.locale))

    # ---------------------------------------------------------------- the traitor
    @cz.command(name="sabotage", description="Just a Matter of Time, traitor only: 2 more cubes at a Cave's next Entrance")
    @app_commands.describe(cave="The Cave where 2 more cubes will crawl in at the next Entrance")
    @app_commands.choices(cave=[app_commands.Choice(name=c, value=c) for c in CAVES])
    async def sabotage(self, interaction: discord.Interaction, cave: str):
        mine = await self._secret_act(interaction, Sabotage(cave=cave))
        await self.host.finish(interaction, t("carnival_zombie.sabotage_done", interaction.locale,
                                              details=" ".join(mine))[:MESSAGE_LIMIT])

    @cz.command(name="unmask", description="Just a Matter of Time, traitor only: reveal yourself (the next attack cannot be stopped)")
    async def unmask(self, interaction: discord.Interaction):
        await self._secret_act(interaction, Unmask())
        await self.host.finish(interaction, t("carnival_zombie.unmask_done", interaction.locale))

    async def _secret_act(self, interaction: discord.Interaction, action: Any) -> list[str]:
        """Apply a traitor action without DMing its author: the actor's private events come back to
        be shown privately (the caller closes the private acknowledgement with them); only public and
        GM events are published. `host.act` would DM the traitor and, with DMs closed, announce
        "could not DM @traitor" in the channel — which would unmask them."""
        await self.host.begin(interaction)
        game = await self.host.channel_game(interaction, NAME)
        actor = await self.host.actor(interaction, game=game)
        # A secret action is logged without its author: `/game log` and `/game export` list every
        # action's actor to any player, which would name the traitor.
        log_as = SECRET_ACTOR if isinstance(action, Sabotage) else None
        new, outcome, before = await self.host.commit(game, action, actor, log_as=log_as)
        shared = [e for e in outcome.events if e.audience in (PUBLIC, GM)]
        await self.host.publish(None, new, outcome.state, shared, before)
        say = self.host.presenter(game, interaction.locale)
        return [say.event(e) for e in outcome.events if e.audience == actor.id]

    # ---------------------------------------------------------------- Battle Focus
    @cz.command(name="focus", description="Battle Focus broken (optional rule): 3 cubes crawl into a random Cave")
    @app_commands.describe(reason="What happened (optional)")
    async def focus(self, interaction: discord.Interaction, reason: str | None = None):
        await self.host.act(interaction, FocusPenalty(reason=(reason or "")[:200]), system=NAME)


async def setup(bot):
    await bot.add_cog(CarnivalZombieCog(bot))
