"""/carnevale: d10 pools with the Destiny Die, squads, and games of Carnevale on a physical table.

The cog is thin: every rule is in `rules/carnevale` (the engine decides what is legal, rolls the
dice and writes the events); the cog maps slash commands and autocompletes to engine actions, keeps
squads per owner and guild, and keeps one live squad sheet image (`host.live_message`), redrawn in
place when the public sheet changes.

- `/carnevale roll|opposed|odds` need no game (a fresh `Rng` per roll, seeded with `secrets`).
- `/carnevale squad create|add|remove|show|list|delete`: squads saved with `store.save_character`,
  built from the SAMPLE pack or a guild pack imported with `/pack import`.
- `/carnevale-game start` and the turn commands (activate, ap, attack, shoot, cast, …); `/carnevale-table` for
  bookkeeping (damage, heal, stun, karma, command, morale, fall, status, event, objective, agenda).
  The framework turns the engine's prompts into buttons, so a game can also be played by clicking.
- `/carnevale-campaign …`: the campaign ledger (start, record, experience, bonus, injury, power, hostage,
  spend, upkeep, promote, retire, legacy, show). A game played with saved squads that have a ledger is
  recorded into both ledgers when it ends (`on_over`).
"""
from __future__ import annotations

import asyncio
import hashlib
import io
import json
import secrets
from fractions import Fraction

import discord
from discord import app_commands
from discord.ext import commands

from i18n import present, t
from renderers.carnevale import english, game_sheet, presenter_words, roll_image, squad_sheet
from rules.carnevale import (BLACK_STATUE, DEFAULT_HOUSE_RULES, ENGINE, MAX_KARMA_DICE, MOVE_ACTIONS, TIE_RULES,
                             CampaignRecord, Squad, SquadMember, add_member, check_squad, load_pack_text,
                             load_sample_pack, member_cost, odds, opposed_roll, remove_member, roll_pool, squad_cost,
                             squad_view, validate_squad)
from rules.carnevale import actions as A
from rules.carnevale import campaign as C
from rules.common import GM, PUBLIC, BautaError, Event, Rng

from . import botplayer, systems, untrusted
from .framework import chunks, mention, reply
from .text import echo

SYSTEM_NAME = "carnevale"
ATTRIBUTES = ("MOV", "COM", "DEX", "SHO", "MIN", "PRO")
STATUSES = ("in_water", "hidden", "immobilised", "drowning", "darkness", "on_gondola", "fragment", "off_table")
KARMA_USES = ("protection", "defensive", "swift", "other")
MANOEUVRES = ("charge", "low_blow", "push", "round_house", "strike_from_above", "trample", "drown")
SHEET_KEY = "live_sheet"                     # game meta: the live sheet's message and digest
SHEET_KEYS_IGNORED = ("ap", "active")        # AP moves with every click: the sheet is redrawn for the rest


# ============================================================================ text helpers
def _percent(p: Fraction | float) -> str:
    value = float(p) * 100
    if value and value < 0.1:
        return f"{value:.3f}%"
    return f"{value:.1f}%"


def format_pool(roll: dict, who: str, label: str = "", locale=None) -> str:
    """A rolled pool (PoolResult.to_public()) as text: every die, the Destiny Die distinct."""
    lines = [t("carnevale.roll.head", locale, who=who, label=f" — *{label}*" if label else "",
               pool=roll.get("pool", f"{len(roll['dice'])}d10"), difficulty=roll["difficulty"])]
    dice = roll["dice"]
    if not dice:
        lines.append(t("carnevale.roll.no_dice", locale))
        return "\n".join(lines)
    flags = roll.get("ace_flags") or [False] * len(dice)

    def face(i: int) -> str:
        return f"**{dice[i]}**" if flags[i] else str(dice[i])

    destiny = f"🟨 {face(0)}"
    others = ", ".join(face(i) for i in range(1, len(dice))) or "—"
    lines.append(t("carnevale.roll.dice", locale, destiny=destiny, others=others))
    tail = [t("carnevale.roll.aces", locale, aces=roll["aces"])]
    if roll.get("critical"):
        tail.append(t("carnevale.roll.critical", locale))
    if roll.get("fumble"):
        tail.append(t("carnevale.roll.fumble", locale))
    elif roll.get("discarded"):
        tail.append(t("carnevale.roll.discarded", locale))
    lines.append(" · ".join(tail))
    return "\n".join(lines)


def odds_text(pool: int, difficulty: int, karma: int = 0, locale=None) -> str:
    o = odds(pool, difficulty, karma)
    head = t("carnevale.odds.head", locale, dice=o.dice, difficulty=difficulty,
             karma=f" (with {karma} Karma {'die' if karma == 1 else 'dice'})" if karma else "")
    if o.dice == 0:
        return head + "\n" + t("carnevale.odds.none", locale)
    lines = [head]
    for k, p in enumerate(o.aces):
        lines.append(t("carnevale.odds.row", locale, k=k, p=_percent(p), at_least=_percent(o.at_least(k))))
    lines.append(t("carnevale.odds.summary", locale, success=_percent(o.success), critical=_percent(o.critical),
                   fumble=_percent(o.fumble), expected=f"{float(o.expected):.2f}"))
    if karma:
        plain = odds(pool, difficulty)
        lines.append(t("carnevale.odds.without_karma", locale, success=_percent(plain.success),
                       fumble=_percent(plain.fumble), expected=f"{float(plain.expected):.2f}"))
    return "\n".join(lines)


def _moments(pool: int, difficulty: int, karma: int) -> tuple[float, float]:
    o = odds(pool, difficulty, karma)
    mean = float(o.expected)
    var = float(sum(k * k * p for k, p in enumerate(o.aces))) - mean * mean
    return mean, var


# ============================================================================ the System
def _status_words(m: dict) -> list[str]:
    words = []
    for key, word in (("fallen", "fallen"), ("stunned", "stunned"), ("activated", "activated"),
                      ("at_ready", "at the ready"), ("hidden", "hidden"), ("fleeing", "fleeing"),
                      ("drowning", "drowning"), ("in_water", "in water"), ("petrified", "petrified"),
                      ("immobilised", "immobilised")):
        if m.get(key) and not (key == "activated" and m.get("fallen")):
            words.append(word)
    if not m.get("on_table", True) and not m.get("fallen"):
        words.append("in reserve")
    return words


def describe(view: dict, viewer: str, locale=None) -> str:
    """The game (or a squad) as text for /game status and /hand: only what `view` holds."""
    lines = []
    if "phase" in view:
        turn = t("carnevale.describe.turn", locale, who=mention(view["turn_player"])) if view.get("turn_player") \
            and view["phase"] == "activation" else ""
        if view.get("active"):
            active = next((m["name"] for m in view["models"] if m["uid"] == view["active"]), view["active"])
            turn += t("carnevale.describe.active", locale, model=f"{active} ({view['active']})")
        lines.append(t("carnevale.describe.round", locale, round=view["round"], max_rounds=view["max_rounds"],
                       phase=view["phase"].replace("_", " "), turn=turn))
    for pid, p in view.get("players", {}).items():
        lines.append(t("carnevale.describe.player", locale, name=p.get("name", pid), squad=p.get("squad", ""),
                       faction=p.get("faction", ""), vp=p.get("vp", 0), events=p.get("events_left", 0)))
        agenda = p.get("agenda")
        if agenda:
            lines.append(t("carnevale.describe.agenda", locale, name=agenda["name"], condition=agenda["condition"],
                           vp=agenda["vp"]))
        for m in view["models"]:
            if m["owner"] != pid and len(view.get("players", {})) > 1:
                continue
            pain = f" (pain {m['pain_penalty']})" if m.get("pain_penalty") else ""
            command = f" · Command {m['command']}/{m['command_max']}" if m.get("command_max") else ""
            status = _status_words(m)
            lines.append(t("carnevale.describe.model", locale, uid=m["uid"], name=m["name"],
                           leader=" ★" if m.get("leader") else "", left=m["life_left"], life=m["life"], pain=pain,
                           ap=m["ap"], ap_max=m["ap_max"], karma=m["karma"], karma_max=m["karma_max"],
                           command=command, status=(" · " + ", ".join(status)) if status else ""))
            if m.get("magic_item") and m["magic_item"] != "hidden":
                lines.append(t("carnevale.describe.magic", locale, name=m["name"], item=m["magic_item"]))
    if view.get("over"):
        vp = (view.get("result") or {}).get("vp", {})
        result = "; ".join(f"{view['players'][pid]['name']} {r['total']} VP" for pid, r in vp.items())
        lines.append(t("carnevale.describe.over", locale, result=result))
    return "\n".join(lines)


def render(view: dict) -> bytes:
    """The game sheet in the words of the reader `/game status` set (`present.READER`), else English."""
    say = present.READER.get()
    return game_sheet(view, presenter_words(say) if say is not None else english)


def load_pack(text: str, source: str) -> dict:
    return load_pack_text(text, source).doc


def sheet_digest(view: dict) -> str:
    models = [{k: v for k, v in m.items() if k not in SHEET_KEYS_IGNORED} for m in view["models"]]
    payload = {"round": view.get("round"), "models": models, "over": view.get("over")}
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()[:16]


async def post_sheet(host, game, state, new: bool = False, interaction=None) -> None:
    """The public squad sheet, one live message edited in place when the sheet changes (its digest
    is kept with it in the game's meta); `new` posts it again at the foot of the channel."""
    view = ENGINE.view_for(state, PUBLIC)
    digest = sheet_digest(view)
    fresh = await host.store.game(game.id) or game
    if not new and (fresh.meta.get(SHEET_KEY) or {}).get("digest") == digest:
        return
    locale = await host.server_locale(game, interaction)    # a public message: the channel's language
    png = await asyncio.to_thread(game_sheet, view, presenter_words(host.presenter(fresh, locale)))
    caption = t("carnevale.game.sheet", locale, round=view["round"], max_rounds=view["max_rounds"])
    await host.live_message(fresh, SHEET_KEY, caption, new=new, digest=digest,
                            file=discord.File(io.BytesIO(png), filename=f"carnevale-{game.id}-sheet.png"))


async def after_publish(host, interaction, game, state, events) -> None:
    await post_sheet(host, game, state, interaction=interaction)


def adventure_title(state) -> str:
    return next((a["name"] for a in BLACK_STATUE if a["id"] == state.adventure), state.adventure or "")


async def record_result(store, guild_id: int, state, locale=None) -> list[str]:
    """Write a finished game into the campaign ledger of each squad that has one (the squad of the
    same name saved by the player): VP, the win and Campaign Points. Returns one line per ledger."""
    vp = (state.result or {}).get("vp", {})
    lines = []
    for pid in state.seats:
        if pid not in vp or not str(pid).isdigit():
            continue
        name = state.players[pid].squad
        data = await store.character(guild_id, int(pid), SYSTEM_NAME, name)
        if not data or not data.get("campaign"):
            continue
        rec = CampaignRecord.from_dict(data["campaign"])
        title = adventure_title(state)
        models = [(m.name, m.fallen) for m in state.models.values() if m.owner == pid]
        C.record_adventure(rec, title, int(vp[pid]["total"]), state.winner == pid,
                           fallen=C.fallen_in_game(rec, models))
        data["campaign"] = rec.to_dict()
        await store.save_character(guild_id, int(pid), SYSTEM_NAME, name, data)
        lines.append(t("carnevale.game.recorded", locale, who=mention(pid), squad=name, line=rec.history[-1]))
    return lines


async def on_over(host, interaction, game, state) -> None:
    """The adventure is over: the score, and the result written into both squads' campaign ledgers."""
    vp = (state.result or {}).get("vp", {})
    if not vp:
        return
    locale = await host.server_locale(game, interaction)
    scores = ", ".join(t("carnevale.game.score", locale, player=mention(pid), vp=r["total"]) for pid, r in vp.items())
    lines = [t("carnevale.game.over_campaign", locale, scores=scores)]
    lines += await record_result(host.store, game.guild_id, state, locale)
    for part in chunks(lines):
        await host.courier.send_channel(game.channel_id, part)


SYSTEM = systems.register(systems.System(
    name=SYSTEM_NAME, title="Carnevale", engine=ENGINE, describe=describe, render=render,
    house_rules=dict(DEFAULT_HOUSE_RULES), load_pack=load_pack, after_publish=after_publish,
    on_over=on_over))


# ============================================================================ the cog
def _split_ids(text: str | None) -> tuple[str, ...]:
    if not text:
        return ()
    return tuple(x.strip() for x in text.replace(";", ",").split(",") if x.strip())


def _user_id(value) -> int | None:
    if value is None:
        return None
    return int(getattr(value, "id", value))


class CarnevaleCog(commands.Cog):
    carnevale = app_commands.Group(name="carnevale", description="Carnevale: d10 pools, squads and games",
                                   guild_only=True)
    squad = app_commands.Group(name="squad", description="Carnevale squads: build, show, list",
                               parent=carnevale)
    # Discord caps one top-level command at 4,000 characters of names and descriptions, so the game's
    # commands live in two top-level groups of their own: playing turns, and keeping the table's books.
    game = app_commands.Group(name="carnevale-game", description="Play a Carnevale game in this channel: turns and actions",
                              guild_only=True)
    table = app_commands.Group(name="carnevale-table", description="Carnevale game bookkeeping: damage, healing, morale, table facts",
                               guild_only=True)
    # The campaign ledger is a top-level group too (/carnevale would pass Discord's 4,000 characters).
    campaign = app_commands.Group(name="carnevale-campaign",
                                  description="Carnevale: a squad's campaign ledger between adventures", guild_only=True)

    def __init__(self, bot):
        self.bot = bot

    @property
    def host(self):
        return self.bot.host

    @property
    def store(self):
        return self.bot.store

    # ------------------------------------------------------------------ packs and squads (storage)
    async def _pack(self, guild_id: int, name: str | None, locale=None):
        if not name:
            return load_sample_pack()
        text = await self.store.pack(guild_id, SYSTEM_NAME, name)
        if text is None:
            raise BautaError(t("carnevale.squad.pack_missing", locale, name=echo(name)))
        return await untrusted.parse(load_pack_text, text, name, source=name, locale=locale)  # seconds for a big pack

    async def _squad(self, guild_id: int, owner_id: int, name: str, locale=None, who: str | None = None):
        data = await self.store.character(guild_id, owner_id, SYSTEM_NAME, name)
        if data is None:
            if who:
                raise BautaError(t("carnevale.squad.missing_of", locale, who=who, name=echo(name)))
            raise BautaError(t("carnevale.squad.missing", locale, name=echo(name)))
        return Squad.from_dict(data["squad"]), data.get("pack") or ""

    async def _save(self, guild_id: int, owner_id: int, squad: Squad, pack_name: str) -> None:
        await self.store.save_character(guild_id, owner_id, SYSTEM_NAME, squad.name,
                                        {"squad": squad.to_dict(), "pack": pack_name})

    def _summary(self, pack, squad: Squad, pack_name: str, locale=None) -> str:
        try:
            cost = squad_cost(pack, squad)
        except Exception:  # noqa: BLE001 - a profile gone from the pack is reported below
            cost = "?"
        lines = [t("carnevale.squad.summary", locale, name=squad.name, faction=squad.faction, cost=cost,
                   points=squad.points_limit, n=len(squad.members),
                   pack=pack_name or t("carnevale.squad.sample", locale))]
        for i, m in enumerate(squad.members, 1):
            extra = []
            if m.equipment:
                extra.append("+ " + ", ".join(m.equipment))
            if m.spells:
                extra.append("spells: " + ", ".join(m.spells))
            try:
                mcost = member_cost(pack, m)
            except Exception:  # noqa: BLE001
                mcost = "?"
            named = m.name and m.name != m.profile        # an unnamed model is its profile, said once
            lines.append(t("carnevale.squad.member" if named else "carnevale.squad.member_unnamed", locale, i=i,
                           name=m.name, profile=m.profile, leader=" ★ Leader" if m.leader else "", cost=mcost,
                           extra=(" · " + " · ".join(extra)) if extra else ""))
        problems = validate_squad(pack, squad)
        lines.append(t("carnevale.squad.problems", locale, problems=" ".join(problems)) if problems
                     else t("carnevale.squad.ready", locale))
        return "\n".join(lines)

    # ------------------------------------------------------------------ autocompletes
    async def _state(self, interaction: discord.Interaction):
        if interaction.guild_id is None:
            return None
        game = await self.store.active_game(interaction.guild_id, interaction.channel_id)
        if game is None or game.system != SYSTEM_NAME:
            return None
        return ENGINE.load_state(game.state)

    async def model_autocomplete(self, interaction: discord.Interaction, current: str):
        state = await self._state(interaction)
        if state is None:
            return []
        me = str(interaction.user.id)
        models = sorted(state.models.values(), key=lambda m: (m.owner != me, m.uid))
        out = []
        for m in models:
            owner = state.players[m.owner].name if m.owner in state.players else m.owner
            label = f"{m.uid} — {m.name} ({owner}) {m.life_left}/{m.life} LP"
            if m.fallen:
                label += ", fallen"
            if current.lower() in label.lower():
                out.append(app_commands.Choice(name=label[:100], value=m.uid))
        return out[:25]

    async def spell_autocomplete(self, interaction: discord.Interaction, current: str):
        state = await self._state(interaction)
        if state is None:
            return []
        uid = getattr(interaction.namespace, "model", None)
        names = state.models[uid].spells if uid in state.models else list(state.spells)
        return [app_commands.Choice(name=n[:100], value=n) for n in names if current.lower() in n.lower()][:25]

    async def weapon_autocomplete(self, interaction: discord.Interaction, current: str):
        state = await self._state(interaction)
        uid = getattr(interaction.namespace, "model", None)
        if state is None or uid not in state.models:
            return []
        return [app_commands.Choice(name=f"{w.name} ({w.kind})"[:100], value=w.name)
                for w in state.models[uid].weapons if current.lower() in w.name.lower()][:25]

    async def _squad_choices(self, interaction: discord.Interaction, owner: int | None, current: str):
        if interaction.guild_id is None or owner is None:
            return []
        rows = await self.store.characters(interaction.guild_id, SYSTEM_NAME, owner)
        # A choice's value is at most 100 characters or Discord drops the whole list (older
        # squads may have longer names: those are typed, not offered).
        return [app_commands.Choice(name=name, value=name) for _, name, _ in rows
                if len(name) <= 100 and current.lower() in name.lower()][:25]

    async def my_squad_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self._squad_choices(interaction, interaction.user.id, current)

    async def their_squad_autocomplete(self, interaction: discord.Interaction, current: str):
        ns = interaction.namespace
        owner = _user_id(getattr(ns, "opponent", None) or getattr(ns, "member", None))
        return await self._squad_choices(interaction, owner, current)

    async def shown_squad_autocomplete(self, interaction: discord.Interaction, current: str):
        owner = _user_id(getattr(interaction.namespace, "member", None)) or interaction.user.id
        return await self._squad_choices(interaction, owner, current)

    async def pack_autocomplete(self, interaction: discord.Interaction, current: str):
        if interaction.guild_id is None:
            return []
        packs = await self.store.packs(interaction.guild_id, SYSTEM_NAME)
        return [app_commands.Choice(name=p["name"], value=p["name"]) for p in packs
                if len(p["name"]) <= 100 and current.lower() in p["name"].lower()][:25]

    async def _namespace_pack(self, interaction: discord.Interaction):
        """The pack of the squad named in the command (or of the `pack` option), else the sample."""
        ns = interaction.namespace
        name = getattr(ns, "pack", None)
        squad_name = getattr(ns, "squad", None)
        try:
            if squad_name:
                _, name = await self._squad(interaction.guild_id, interaction.user.id, squad_name)
            return await self._pack(interaction.guild_id, name)
        except Exception:  # noqa: BLE001 - an autocomplete never fails loudly
            return load_sample_pack()

    async def faction_autocomplete(self, interaction: discord.Interaction, current: str):
        pack = await self._namespace_pack(interaction)
        return [app_commands.Choice(name=f[:100], value=f) for f in pack.factions
                if f not in pack.independent_factions and current.lower() in f.lower()][:25]

    async def profile_autocomplete(self, interaction: discord.Interaction, current: str):
        pack = await self._namespace_pack(interaction)
        faction = None
        squad_name = getattr(interaction.namespace, "squad", None)
        if squad_name and interaction.guild_id is not None:
            data = await self.store.character(interaction.guild_id, interaction.user.id, SYSTEM_NAME, squad_name)
            faction = data["squad"]["faction"] if data else None
        out = []
        for name, p in pack.profiles.items():
            if faction and p["faction"] != faction and p["faction"] not in pack.independent_factions:
                continue
            label = f"{name} — {p['faction']}, {p['cost']} pts"
            if current.lower() in label.lower():
                out.append(app_commands.Choice(name=label[:100], value=name))
        return out[:25]

    async def ap_action_autocomplete(self, interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=f"{k.replace('_', ' ')} ({ap} AP{', Dex roll' if roll else ''})", value=k)
                for k, (ap, roll) in MOVE_ACTIONS.items() if current.lower() in k][:25]

    # ------------------------------------------------------------------ dice without a game
    @carnevale.command(name="roll", description="Roll a d10 pool: every die, the Destiny Die, Aces, Critical/Fumble")
    @app_commands.describe(pool="Dice in the pool (over 10 are lost to the cap)", difficulty="Ace on this or more (7)",
                           karma="Karma dice added (0-2)", label="What the roll is for")
    async def roll(self, interaction: discord.Interaction, pool: app_commands.Range[int, 0, 20],
                   difficulty: app_commands.Range[int, 2, 10] = 7, karma: app_commands.Range[int, 0, 2] = 0,
                   label: app_commands.Range[str, 1, 100] | None = None):
        await interaction.response.defer(thinking=True)
        label = echo(label) if label else None
        result = roll_pool(Rng.from_seed(secrets.randbits(63)), pool, difficulty, karma, label or "")
        public = result.to_public()
        text = format_pool(public, interaction.user.mention, label or "", interaction.guild_locale)
        if result.pool and result.pool.lost_to_cap:
            text += "\n" + t("carnevale.roll.cap", interaction.guild_locale, n=result.pool.lost_to_cap)
        mean, var = _moments(pool, difficulty, karma)
        await self.store.log_roll(interaction.guild_id, interaction.channel_id, interaction.user.id,
                                  f"{result.pool.dice if result.pool else pool}d10>={difficulty}", float(result.aces),
                                  label, mean, var)
        words = presenter_words(present.Presenter(interaction.guild_locale, SYSTEM_NAME))
        png = await asyncio.to_thread(roll_image, public, words)
        await interaction.followup.send(text, file=discord.File(io.BytesIO(png), filename="carnevale-roll.png"))

    @carnevale.command(name="opposed", description="An opposed roll against another member: both pools in one message")
    @app_commands.describe(opponent="Who rolls against you", pool="Your dice", their_pool="Their dice",
                           difficulty="Your difficulty (7)", their_difficulty="Their difficulty (7)",
                           tie_rule="What a tie means", karma="Your Karma dice", their_karma="Their Karma dice",
                           label="What the roll is for")
    @app_commands.choices(tie_rule=[app_commands.Choice(name=v[:100], value=k) for k, v in TIE_RULES.items()])
    async def opposed(self, interaction: discord.Interaction, opponent: discord.Member,
                      pool: app_commands.Range[int, 0, 20], their_pool: app_commands.Range[int, 0, 20],
                      difficulty: app_commands.Range[int, 2, 10] = 7,
                      their_difficulty: app_commands.Range[int, 2, 10] = 7, tie_rule: str = "none",
                      karma: app_commands.Range[int, 0, 2] = 0, their_karma: app_commands.Range[int, 0, 2] = 0,
                      label: app_commands.Range[str, 1, 100] | None = None):
        if opponent.id == interaction.user.id:
            raise BautaError(t("carnevale.opposed.self", interaction.locale))
        await interaction.response.defer(thinking=True)
        label = echo(label) if label else None
        res = opposed_roll(Rng.from_seed(secrets.randbits(63)), pool, their_pool, difficulty, their_difficulty,
                           tie_rule, karma, their_karma)
        loc = interaction.guild_locale
        me, them = interaction.user.mention, opponent.mention
        lines = [t("carnevale.opposed.head", loc, label=f" — *{label}*" if label else "", a=me, b=them),
                 format_pool(res.a.to_public(), me, "", loc), format_pool(res.b.to_public(), them, "", loc)]
        notes = f" ({'; '.join(res.adjustments)})" if res.adjustments else ""
        lines.append(t("carnevale.opposed.adjusted", loc, a_aces=res.a_aces, b_aces=res.b_aces, notes=notes))
        rule = TIE_RULES.get(tie_rule, tie_rule)
        if res.a_aces == res.b_aces and res.winner != "tie":
            lines.append(t("carnevale.opposed.tie_won", loc, who=me if res.winner == "a" else them, rule=rule))
        elif res.winner == "tie" and tie_rule == "none":
            lines.append(t("carnevale.opposed.tie_none", loc))
        elif res.winner == "tie":
            lines.append(t("carnevale.opposed.tie", loc, rule=rule))
        else:
            lines.append(t("carnevale.opposed.winner", loc, who=me if res.winner == "a" else them, margin=res.margin))
        for user, r, n, d, k in ((interaction.user, res.a, pool, difficulty, karma),
                                 (opponent, res.b, their_pool, their_difficulty, their_karma)):
            mean, var = _moments(n, d, k)
            await self.store.log_roll(interaction.guild_id, interaction.channel_id, user.id,
                                      f"{len(r.dice)}d10>={d}", float(r.aces), label or "opposed", mean, var)
        for text in chunks(lines):
            await interaction.followup.send(text)

    @carnevale.command(name="odds", description="Exact chances of 0…n Aces, a Critical and a Fumble for a pool")
    @app_commands.describe(pool="Dice in the pool", difficulty="Ace on this or more (7)", karma="Karma dice added",
                           public="Show it to the channel (default: only you)")
    async def odds_command(self, interaction: discord.Interaction, pool: app_commands.Range[int, 0, 20],
                           difficulty: app_commands.Range[int, 2, 10] = 7, karma: app_commands.Range[int, 0, 2] = 0,
                           public: bool = False):
        text = odds_text(pool, difficulty, karma, interaction.locale)
        await interaction.response.send_message(text[:2000], ephemeral=not public)

    # ------------------------------------------------------------------ squads
    @squad.command(name="create", description="Start a new squad: a faction and a points limit")
    @app_commands.describe(name="The squad's name", faction="Its faction", points="Points limit (200)",
                           pack="A server pack (default: the SAMPLE pack)", events="Events bought (0-2, 10 pts each)",
                           campaign="A campaign squad (campaign equipment allowed)")
    @app_commands.autocomplete(faction=faction_autocomplete, pack=pack_autocomplete)
    async def squad_create(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 60], faction: str,
                           points: app_commands.Range[int, 20, 1000] = 200, pack: str | None = None,
                           events: app_commands.Range[int, 0, 2] = 0, campaign: bool = False):
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = interaction.locale
        if await self.store.character(interaction.guild_id, interaction.user.id, SYSTEM_NAME, name):
            raise BautaError(t("carnevale.squad.exists", loc, name=echo(name)))
        content = await self._pack(interaction.guild_id, pack, loc)
        if faction not in content.factions or faction in content.independent_factions:
            raise BautaError(t("carnevale.squad.no_faction", loc, faction=echo(faction), pack=content.name,
                               factions=", ".join(f for f in content.factions
                                                  if f not in content.independent_factions)))
        squad = Squad(name=name, faction=faction, points_limit=points, events=events, campaign=campaign)
        await self._save(interaction.guild_id, interaction.user.id, squad, pack or "")
        await interaction.followup.send(t("carnevale.squad.created", loc, name=name, faction=faction, points=points,
                                          pack=pack or t("carnevale.squad.sample", loc)), ephemeral=True)

    @squad.command(name="add", description="Add a model from the pack to one of your squads (checks every rule)")
    @app_commands.describe(squad="Your squad", profile="The profile (class) to add", name="A name for the model",
                           leader="Make it the squad's Leader", equipment="Extra equipment, comma-separated",
                           spells="Spells, comma-separated (Mages only)")
    @app_commands.autocomplete(squad=my_squad_autocomplete, profile=profile_autocomplete)
    async def squad_add(self, interaction: discord.Interaction, squad: str, profile: str,
                        name: app_commands.Range[str, 1, 40] | None = None, leader: bool = False,
                        equipment: str | None = None, spells: str | None = None):
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = interaction.locale
        current, pack_name = await self._squad(interaction.guild_id, interaction.user.id, squad, loc)
        pack = await self._pack(interaction.guild_id, pack_name, loc)
        member = SquadMember(profile=profile, name=name or "", equipment=list(_split_ids(equipment)),
                             spells=list(_split_ids(spells)), leader=leader)
        updated = add_member(pack, current, member)       # SquadError names every reason
        await self._save(interaction.guild_id, interaction.user.id, updated, pack_name)
        text = t("carnevale.squad.added", loc, model=name or profile, name=current.name) + "\n" + \
            self._summary(pack, updated, pack_name, loc)
        for part in chunks(text.split("\n")):
            await interaction.followup.send(part, ephemeral=True)

    @squad.command(name="remove", description="Remove a model (by its number in /carnevale squad show) from a squad")
    @app_commands.describe(squad="Your squad", number="The model's number")
    @app_commands.autocomplete(squad=my_squad_autocomplete)
    async def squad_remove(self, interaction: discord.Interaction, squad: str, number: app_commands.Range[int, 1, 50]):
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = interaction.locale
        current, pack_name = await self._squad(interaction.guild_id, interaction.user.id, squad, loc)
        pack = await self._pack(interaction.guild_id, pack_name, loc)
        updated = remove_member(current, number)
        gone = current.members[number - 1]
        await self._save(interaction.guild_id, interaction.user.id, updated, pack_name)
        text = t("carnevale.squad.removed", loc, model=gone.name or gone.profile, name=current.name) + "\n" + \
            self._summary(pack, updated, pack_name, loc)
        for part in chunks(text.split("\n")):
            await interaction.followup.send(part, ephemeral=True)

    @squad.command(name="show", description="A squad's sheet image and list (yours privately, or in the channel)")
    @app_commands.describe(squad="The squad", member="Whose squad (default: yours)",
                           public="Post it in the channel (magical items stay hidden)")
    @app_commands.autocomplete(squad=shown_squad_autocomplete)
    async def squad_show(self, interaction: discord.Interaction, squad: str, member: discord.Member | None = None,
                         public: bool = False):
        owner = member or interaction.user
        mine = owner.id == interaction.user.id
        full = mine and not public                  # the owner's own eyes only: magical items shown
        loc = interaction.locale
        # Looked up before the (maybe public) acknowledgement: a refusal stays with the caller.
        current, pack_name = await self._squad(interaction.guild_id, owner.id, squad, loc,
                                               who=None if mine else owner.mention)
        await interaction.response.defer(ephemeral=not public, thinking=True)
        pack = await self._pack(interaction.guild_id, pack_name, loc)
        name = getattr(owner, "display_name", str(owner))
        view = squad_view(pack, current, name, viewer=None if full else PUBLIC)
        png = await asyncio.to_thread(squad_sheet, view, name, presenter_words(present.Presenter(loc, SYSTEM_NAME)))
        if full:
            text = self._summary(pack, current, pack_name, loc)
        else:
            text = t("carnevale.squad.sheet", loc, name=current.name, who=owner.mention)
        parts = chunks(text.split("\n"))
        await interaction.followup.send(parts[0], ephemeral=not public,
                                        file=discord.File(io.BytesIO(png), filename="carnevale-squad.png"))
        for part in parts[1:]:
            await interaction.followup.send(part, ephemeral=not public)

    @squad.command(name="list", description="The Carnevale squads of a member (default: yours)")
    async def squad_list(self, interaction: discord.Interaction, member: discord.Member | None = None):
        await interaction.response.defer(ephemeral=True, thinking=True)
        owner = member or interaction.user
        rows = await self.store.characters(interaction.guild_id, SYSTEM_NAME, owner.id)
        loc = interaction.locale
        if not rows:
            await interaction.followup.send(t("carnevale.squad.none", loc), ephemeral=True)
            return
        lines = [t("carnevale.squad.list_head", loc, who=owner.mention)]
        for _, name, data in rows:
            squad = Squad.from_dict(data["squad"])
            try:
                pack = await self._pack(interaction.guild_id, data.get("pack"), loc)
                cost = squad_cost(pack, squad)
            except Exception:  # noqa: BLE001 - a pack deleted since: show the squad anyway
                cost = "?"
            lines.append(f"• **{name}** — {squad.faction} · {cost}/{squad.points_limit} pts · "
                         f"{len(squad.members)} model(s)")
        for part in chunks(lines):
            await interaction.followup.send(part, ephemeral=True)

    @squad.command(name="delete", description="Delete one of your squads")
    @app_commands.autocomplete(squad=my_squad_autocomplete)
    async def squad_delete(self, interaction: discord.Interaction, squad: str):
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = interaction.locale
        if not await self.store.delete_character(interaction.guild_id, interaction.user.id, SYSTEM_NAME, squad):
            raise BautaError(t("carnevale.squad.missing", loc, name=echo(squad)))
        await interaction.followup.send(t("carnevale.squad.deleted", loc, name=squad), ephemeral=True)

    # ------------------------------------------------------------------ a game
    @game.command(name="start", description="Start a game here against another member, with your squads")
    @app_commands.describe(opponent="Who you play against (or Bauta itself)", vs_bot="Play against Bauta",
                           level="How well Bauta plays (default normal)",
                           my_squad="Your saved squad (default: a sample squad)",
                           their_squad="Their saved squad (default: a sample squad)",
                           my_faction="Sample squad faction when you name no squad",
                           their_faction="Their sample squad faction", points="Sample squads' points (200)",
                           rounds="Rounds (default 5 or the adventure's)", adventure="A Black Statue adventure",
                           deploy_all="Everyone on the table from Round 1 (no reinforcements)")
    @app_commands.autocomplete(my_squad=my_squad_autocomplete, their_squad=their_squad_autocomplete,
                               my_faction=faction_autocomplete, their_faction=faction_autocomplete)
    @app_commands.choices(adventure=[app_commands.Choice(name=a["name"], value=a["id"]) for a in BLACK_STATUE])
    async def game_start(self, interaction: discord.Interaction, opponent: discord.Member | None = None,
                         my_squad: str | None = None,
                         their_squad: str | None = None, my_faction: str | None = None,
                         their_faction: str | None = None, points: app_commands.Range[int, 20, 1000] = 200,
                         rounds: app_commands.Range[int, 1, 20] | None = None, adventure: str | None = None,
                         deploy_all: bool = False, vs_bot: bool = False, level: botplayer.Level = "normal"):
        loc = interaction.locale
        them = botplayer.opponent(self.bot, interaction, opponent, vs_bot, "carnevale.game.opponent_self")
        bot_seat = them == botplayer.bot_id(self.bot)
        if bot_seat:
            their_squad = None          # the bot keeps no saved squads: it builds one below
            opponent = opponent or self.bot.user
        # Acknowledged privately: every refusal (no such squad, an illegal squad, a busy channel) stays
        # with the caller; host.start announces the game in public once the engine has set it up.
        await self.host.begin(interaction)
        me = str(interaction.user.id)
        squads, packs = {}, {}
        for pid, owner, name in ((me, interaction.user, my_squad), (them, opponent, their_squad)):
            if name:
                squad, pack_name = await self._squad(interaction.guild_id, owner.id, name, loc,
                                                     who=None if pid == me else owner.mention)
                squads[pid] = squad.to_dict()
                packs[pid] = pack_name
        if len(set(packs.values())) > 1:
            a, b = packs[me], packs[them]
            raise BautaError(t("carnevale.squad.two_packs", loc,
                               a=a or t("carnevale.squad.sample", loc), b=b or t("carnevale.squad.sample", loc)))
        pack_name = next(iter(packs.values()), "")
        options: dict = {"squads": squads, "points": points, "deploy_all": deploy_all,
                         "names": {me: interaction.user.display_name, them: opponent.display_name}}
        factions = {pid: f for pid, f in ((me, my_faction), (them, their_faction)) if f}
        if factions:
            options["factions"] = factions
        if pack_name:
            options["pack"] = (await self._pack(interaction.guild_id, pack_name, loc)).doc
        if bot_seat:
            squads[them] = botplayer.carnevale_squad(options.get("pack"), points, their_faction, interaction.channel_id)
        if rounds:
            options["rounds"] = rounds
        if adventure:
            options["adventure"] = adventure
        title = next((a["name"] for a in BLACK_STATUE if a["id"] == adventure), "")
        if await self.store.active_game(interaction.guild_id, interaction.channel_id) is not None:
            raise BautaError(t("carnevale.game.busy", loc))
        intro = Event("game_intro_adventure" if title else "game_intro",
                      {"a_player": me, "b_player": them, "adventure": title, "rounds": ENGINE.rounds_of(options)})
        # The engine's set-up events follow the intro: the opening rolls in public, the Agendas by DM.
        return await self.host.start(interaction, SYSTEM_NAME, [me, them], options=options, intro=intro,
                                     meta=botplayer.meta(self.bot, [me, them], level))

    async def _act(self, interaction: discord.Interaction, action) -> None:
        """One action through the host: acknowledged privately, so a refusal stays with its sender."""
        await self.host.act(interaction, action, system=SYSTEM_NAME)

    def _me(self, interaction: discord.Interaction) -> str:
        return str(interaction.user.id)

    @game.command(name="activate", description="Activate one of your models (with its Partner, if any)")
    @app_commands.describe(model="The model (a1…, b1…)", partner="Its Partner within 5'' (shares the AP)")
    @app_commands.autocomplete(model=model_autocomplete, partner=model_autocomplete)
    async def activate(self, interaction: discord.Interaction, model: str, partner: str | None = None):
        await self._act(interaction, A.Activate(model, partner or ""))

    @game.command(name="ap", description="Spend AP on an action: walk, run, climb, hide, reload, aim…")
    @app_commands.describe(model="The active model", action="The action", n="AP to spend (default: its cost)",
                           karma="Karma dice for its roll", note="What it does, for the log")
    @app_commands.autocomplete(model=model_autocomplete, action=ap_action_autocomplete)
    async def ap(self, interaction: discord.Interaction, model: str, action: str,
                 n: app_commands.Range[int, 0, 10] = 0, karma: app_commands.Range[int, 0, MAX_KARMA_DICE] = 0,
                 note: app_commands.Range[str, 1, 100] | None = None):
        await self._act(interaction, A.SpendAP(model, action, n, karma, note or ""))

    @game.command(name="end", description="End a model's activation")
    @app_commands.autocomplete(model=model_autocomplete)
    async def end(self, interaction: discord.Interaction, model: str):
        await self._act(interaction, A.EndActivation(model))

    @game.command(name="pass", description="Pass your Turn (when the rules allow it)")
    async def pass_(self, interaction: discord.Interaction):
        await self._act(interaction, A.Pass(self._me(interaction)))

    @game.command(name="attack", description="A close-combat attack or manoeuvre; the bot rolls and applies damage")
    @app_commands.describe(model="The attacker", target="The enemy", weapon="Weapon (default: its best)",
                           manoeuvre="A manoeuvre", allies="Your other models in contact with the target",
                           enemies="Other enemies in contact with the attacker", karma="Karma dice",
                           two_weapons="Fighting with two weapons",
                           opportunity="The free Attack of Opportunity on offer (after a Fumble)")
    @app_commands.autocomplete(model=model_autocomplete, target=model_autocomplete, weapon=weapon_autocomplete)
    @app_commands.choices(manoeuvre=[app_commands.Choice(name=m.replace("_", " "), value=m) for m in MANOEUVRES])
    async def attack(self, interaction: discord.Interaction, model: str, target: str, weapon: str | None = None,
                     manoeuvre: str | None = None, allies: app_commands.Range[int, 0, 10] = 0,
                     enemies: app_commands.Range[int, 0, 10] = 0,
                     karma: app_commands.Range[int, 0, MAX_KARMA_DICE] = 0, two_weapons: bool = False,
                     opportunity: bool = False):
        await self._act(interaction, A.Attack(model, target, weapon or "", manoeuvre or "", allies, enemies, karma,
                                              two_weapons=two_weapons, opportunity=opportunity))

    @game.command(name="shoot", description="Shoot or throw at an enemy: range, cover and aim worked out")
    @app_commands.describe(model="The shooter", target="The enemy", weapon="Weapon (default: the first loaded)",
                           distance="Distance in inches (0: within range)", cover_size="Cover the target has",
                           cover_hardness="How hard that cover is", aim="Extra AP spent aiming (0-2)",
                           aim_at="Aim for more dice or to beat Protection", moving="Shooting on the move",
                           karma="Karma dice", good_cover="The target is behind the cover Event 8 improved")
    @app_commands.autocomplete(model=model_autocomplete, target=model_autocomplete, weapon=weapon_autocomplete)
    @app_commands.choices(cover_size=[app_commands.Choice(name=c, value=c) for c in ("none", "medium", "big")],
                          cover_hardness=[app_commands.Choice(name=c, value=c)
                                          for c in ("none", "light", "blunt", "heavy")],
                          aim_at=[app_commands.Choice(name=c, value=c) for c in ("dice", "protection")],
                          moving=[app_commands.Choice(name=c, value=c) for c in ("move", "jump")])
    async def shoot(self, interaction: discord.Interaction, model: str, target: str, weapon: str | None = None,
                    distance: app_commands.Range[float, 0, 200] = 0, cover_size: str | None = None,
                    cover_hardness: str | None = None, aim: app_commands.Range[int, 0, 2] = 0, aim_at: str = "dice",
                    moving: str | None = None, karma: app_commands.Range[int, 0, MAX_KARMA_DICE] = 0,
                    good_cover: bool = False):
        size = "" if cover_size in (None, "none") else cover_size
        hard = "" if cover_hardness in (None, "none") else cover_hardness
        await self._act(interaction, A.Shoot(model, target, weapon or "", distance, size, hard, aim, aim_at,
                                             moving or "", karma=karma, good_cover=good_cover))

    @game.command(name="disengage", description="Leave close combat (1 AP); the enemies in contact may react")
    @app_commands.describe(model="The model leaving", enemies="Enemy ids in base contact, comma-separated (b1, b2)")
    @app_commands.autocomplete(model=model_autocomplete)
    async def disengage(self, interaction: discord.Interaction, model: str, enemies: str):
        await self._act(interaction, A.Disengage(model, _split_ids(enemies)))

    @table.command(name="damage", description="Apply damage to a model: Protection and Penetration worked out")
    @app_commands.describe(model="The model hit", amount="Damage before Protection (Aces + weapon modifier)",
                           penetration="Penetration", spiritual="Spiritual damage", flames="Flames",
                           ignore_protection="Ignores Protection", source="What hit it")
    @app_commands.autocomplete(model=model_autocomplete)
    async def damage(self, interaction: discord.Interaction, model: str, amount: app_commands.Range[int, 0, 50],
                     penetration: app_commands.Range[int, 0, 10] = 0, spiritual: bool = False, flames: bool = False,
                     ignore_protection: bool = False, source: app_commands.Range[str, 1, 80] | None = None):
        await self._act(interaction, A.Damage(model, amount, penetration, spiritual, flames, ignore_protection,
                                              source or ""))

    @table.command(name="heal", description="Heal: a healer's roll (2 AP), Regeneration, or a GM's direct LP")
    @app_commands.describe(model="The model healed", healer="The model with Healing (itself: Regeneration)",
                           amount="LP restored directly (GM only)", karma="Karma dice for the roll")
    @app_commands.autocomplete(model=model_autocomplete, healer=model_autocomplete)
    async def heal(self, interaction: discord.Interaction, model: str, healer: str | None = None,
                   amount: app_commands.Range[int, 0, 30] = 0, karma: app_commands.Range[int, 0, MAX_KARMA_DICE] = 0):
        await self._act(interaction, A.Heal(model, healer or "", amount, karma))

    @table.command(name="stun", description="Stun a model (a second Stun in a later Turn becomes damage)")
    @app_commands.autocomplete(model=model_autocomplete)
    async def stun(self, interaction: discord.Interaction, model: str,
                   source: app_commands.Range[str, 1, 80] | None = None):
        await self._act(interaction, A.Stun(model, source or ""))

    @table.command(name="karma", description="Spend a model's Karma: Protection, Defensive Combat, Swift…")
    @app_commands.autocomplete(model=model_autocomplete)
    @app_commands.choices(use=[app_commands.Choice(name=u, value=u) for u in KARMA_USES])
    async def karma(self, interaction: discord.Interaction, model: str, n: app_commands.Range[int, 1, 10] = 1,
                    use: str = "other"):
        await self._act(interaction, A.SpendKarma(model, n, use))

    @table.command(name="command", description="The Leader spends Command: AP for the activating model")
    @app_commands.describe(model="The Leader", target="The activating model", n="AP given (Command spent)")
    @app_commands.autocomplete(model=model_autocomplete, target=model_autocomplete)
    async def command_(self, interaction: discord.Interaction, model: str, target: str,
                      n: app_commands.Range[int, 1, 2] = 1):
        await self._act(interaction, A.SpendCommand(model, target, n))

    @game.command(name="cast", description="Cast a spell: Karma cost (escalating each Round) and Magic roll")
    @app_commands.describe(model="The caster", spell="The spell", target="The target model",
                           targets="Several targets, comma-separated", attribute="For Blessing / Curse",
                           karma="Karma dice for the Magic roll", use_diamond="Use Cagliostro's Diamond",
                           enemies="Enemies in base contact (their Attacks of Opportunity come first)")
    @app_commands.autocomplete(model=model_autocomplete, spell=spell_autocomplete, target=model_autocomplete)
    @app_commands.choices(attribute=[app_commands.Choice(name=a, value=a) for a in ATTRIBUTES])
    async def cast(self, interaction: discord.Interaction, model: str, spell: str, target: str | None = None,
                   targets: str | None = None, attribute: str | None = None,
                   karma: app_commands.Range[int, 0, MAX_KARMA_DICE] = 0, use_diamond: bool = False,
                   enemies: str | None = None):
        await self._act(interaction, A.Cast(model, spell, target or "", _split_ids(targets), attribute or "", karma,
                                            use_diamond, _split_ids(enemies)))

    @table.command(name="morale", description="A Morale test: one model, or a squad's group test")
    @app_commands.describe(model="The model testing (single test)", group="A group test of a player's squad",
                           player="Whose squad tests (default: yours)", modifier="Dice added or removed")
    @app_commands.autocomplete(model=model_autocomplete)
    async def morale(self, interaction: discord.Interaction, model: str | None = None, group: bool = False,
                     player: discord.Member | None = None, modifier: app_commands.Range[int, -10, 10] = 0):
        pid = str(player.id) if player else (self._me(interaction) if group else "")
        await self._act(interaction, A.Morale((model,) if model else (), group, pid, modifier))

    @table.command(name="fall", description="A model falls (or jumps down) from a height in inches")
    @app_commands.autocomplete(model=model_autocomplete)
    async def fall(self, interaction: discord.Interaction, model: str, height: app_commands.Range[float, 0, 100],
                   voluntary: bool = False):
        await self._act(interaction, A.Fall(model, height, voluntary))

    @table.command(name="status", description="Tell the bot a table fact: in water, hidden, immobilised…")
    @app_commands.autocomplete(model=model_autocomplete)
    @app_commands.choices(status=[app_commands.Choice(name=s.replace("_", " "), value=s) for s in STATUSES])
    @app_commands.describe(gondola="on gondola: which gondola (each carries two 30 mm or one 40 mm model)")
    async def status(self, interaction: discord.Interaction, model: str, status: str, value: bool = True,
                     gondola: app_commands.Range[str, 1, 20] | None = None):
        await self._act(interaction, A.SetStatus(model, status, value, gondola or ""))

    @game.command(name="roll", description="A roll in the game: a model's attribute (modifiers applied) or a pool")
    @app_commands.describe(model="The model rolling", attribute="Its attribute", pool="Or a plain pool",
                           difficulty="Ace on this or more (7)", karma="Karma dice", label="What it is for")
    @app_commands.autocomplete(model=model_autocomplete)
    @app_commands.choices(attribute=[app_commands.Choice(name=a, value=a) for a in ATTRIBUTES])
    async def game_roll(self, interaction: discord.Interaction, model: str | None = None,
                        attribute: str | None = None, pool: app_commands.Range[int, 0, 20] = 0,
                        difficulty: app_commands.Range[int, 2, 10] = 7,
                        karma: app_commands.Range[int, 0, MAX_KARMA_DICE] = 0,
                        label: app_commands.Range[str, 1, 80] | None = None):
        await self._act(interaction, A.Roll(pool, difficulty, karma, echo(label or "", 80), model or "", attribute or ""))

    @game.command(name="reroll", description="Reroll the last roll: missed dice or all of them (abilities permitting)")
    @app_commands.autocomplete(model=model_autocomplete)
    @app_commands.choices(mode=[app_commands.Choice(name="missed dice", value="dice"),
                                app_commands.Choice(name="all dice", value="all")])
    async def reroll(self, interaction: discord.Interaction, model: str, mode: str = "dice",
                     count: app_commands.Range[int, 1, 10] = 1):
        await self._act(interaction, A.Reroll(model, mode, count))

    @table.command(name="event", description="Play one of your squad's Events (2d10 on the table)")
    @app_commands.autocomplete(model=model_autocomplete, target=model_autocomplete)
    async def play_event(self, interaction: discord.Interaction, model: str | None = None, target: str | None = None):
        await self._act(interaction, A.PlayEvent(self._me(interaction), model or "", target or ""))

    @table.command(name="objective", description="GM: award (or take back) the adventure objective")
    async def objective(self, interaction: discord.Interaction, player: discord.Member, achieved: bool = True):
        await self._act(interaction, A.Objective(str(player.id), achieved))

    @table.command(name="agenda", description="Declare your secret Agenda achieved (table-judged Agendas)")
    async def agenda(self, interaction: discord.Interaction):
        await self._act(interaction, A.ClaimAgenda(self._me(interaction)))

    @game.command(name="endround", description="End the Round: effects expire, AP and Command reset")
    async def endround(self, interaction: discord.Interaction):
        await self._act(interaction, A.EndRound())

    @game.command(name="concede", description="Concede the game")
    async def concede(self, interaction: discord.Interaction):
        await self._act(interaction, A.Concede(self._me(interaction)))

    @game.command(name="sheet", description="Post the squad sheets; your private view (Agenda, items) to you")
    async def sheet(self, interaction: discord.Interaction):
        await self.host.begin(interaction)
        game = await self.host.channel_game(interaction, SYSTEM_NAME)
        state = ENGINE.load_state(game.state)
        me = self._me(interaction)
        gm = await self.host.is_gm(interaction, game.guild_id)
        viewer = me if me in game.seats else (GM if gm else PUBLIC)
        text = t("carnevale.game.my_sheet", interaction.locale) + "\n" + \
            describe(ENGINE.view_for(state, viewer), viewer, interaction.locale)
        for part in chunks(text.split("\n")):
            await reply(interaction, part, ephemeral=True)      # host.begin promises, reply answers
        await post_sheet(self.host, game, state, new=True)

    # ------------------------------------------------------------------ the campaign ledger
    async def _campaign(self, interaction: discord.Interaction, squad: str):
        """(saved data, CampaignRecord) of one of the caller's squads; refused without a campaign."""
        loc = interaction.locale
        data = await self.store.character(interaction.guild_id, interaction.user.id, SYSTEM_NAME, squad)
        if data is None:
            raise BautaError(t("carnevale.squad.missing", loc, name=echo(squad)))
        if not data.get("campaign"):
            raise BautaError(t("carnevale.campaign.none", loc, name=echo(squad)))
        return data, CampaignRecord.from_dict(data["campaign"])

    async def _ledger(self, interaction: discord.Interaction, squad: str, change) -> None:
        """Change a campaign record (rolls use the record's own Rng): a refusal stays private and
        changes nothing; a result is saved, then told to the channel."""
        await self.host.begin(interaction)
        data, rec = await self._campaign(interaction, squad)
        try:
            lines = change(rec)                               # raises IllegalAction: nothing saved
        except BautaError as exc:
            exc.system = exc.system or SYSTEM_NAME            # its code is in the Carnevale catalogue
            raise
        data["campaign"] = rec.to_dict()
        await self.store.save_character(interaction.guild_id, interaction.user.id, SYSTEM_NAME, data["squad"]["name"],
                                        data)
        head = t("carnevale.campaign.head", interaction.guild_locale, who=interaction.user.mention, name=rec.squad)
        for part in chunks([head, *lines]):
            await self.host.courier.send_channel(interaction.channel_id, part)
        await self.host.finish(interaction)

    async def campaign_member_autocomplete(self, interaction: discord.Interaction, current: str):
        squad = getattr(interaction.namespace, "squad", None)
        if not squad or interaction.guild_id is None:
            return []
        data = await self.store.character(interaction.guild_id, interaction.user.id, SYSTEM_NAME, squad)
        if not data or not data.get("campaign"):
            return []
        return [app_commands.Choice(name=m["name"][:100], value=m["name"]) for m in data["campaign"]["members"]
                if current.lower() in m["name"].lower()][:25]

    @staticmethod
    def _roll_line(res: dict) -> str:
        if not res.get("eligible", True):
            return f"• {res['reason']}"
        text = f"• {res['member']}: rolled {res['roll']}"
        if "needed" in res:
            text += f" (needs {res['needed']}+)"
        if res.get("faces") and len(res["faces"]) > 0 and "value" in res:
            text += f"; table roll {', '.join(map(str, res['faces']))}"
        if "injury_roll" in res:
            text += f"; injury roll {res['injury_roll']}"
        return text + f" → **{res['result']}**"

    @classmethod
    def _record_rolls(cls, rec, results: list[dict]) -> list[str]:
        """The channel lines for campaign rolls; the ledger's history keeps them as plain text."""
        lines = [cls._roll_line(r) for r in results]
        rec.history.extend(line[2:].replace("**", "") for line in lines)
        return lines

    @campaign.command(name="start", description="Open the campaign ledger of one of your squads")
    @app_commands.describe(squad="Your squad", length="Adventures in the campaign (5)")
    @app_commands.autocomplete(squad=my_squad_autocomplete)
    async def campaign_start(self, interaction: discord.Interaction, squad: str,
                             length: app_commands.Range[int, 1, 20] = C.STANDARD_LENGTH):
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = interaction.locale
        current, pack_name = await self._squad(interaction.guild_id, interaction.user.id, squad, loc)
        data = await self.store.character(interaction.guild_id, interaction.user.id, SYSTEM_NAME, squad)
        if data.get("campaign"):
            raise BautaError(t("carnevale.campaign.exists", loc, name=current.name))
        pack = await self._pack(interaction.guild_id, pack_name, loc)
        check_squad(pack, current)
        rec = C.new_campaign(pack, current, str(interaction.user.id), seed=secrets.randbits(63), length=length)
        data["campaign"] = rec.to_dict()
        await self.store.save_character(interaction.guild_id, interaction.user.id, SYSTEM_NAME, current.name, data)
        await interaction.followup.send(t("carnevale.campaign.started", loc, name=current.name, n=length),
                                        ephemeral=True)

    @campaign.command(name="record", description="Record an adventure: VP and the win give Campaign Points")
    @app_commands.describe(squad="Your squad", vp="Victory Points scored", won="Did you win?",
                           adventure="Which adventure", note="A note for the history")
    @app_commands.autocomplete(squad=my_squad_autocomplete)
    @app_commands.choices(adventure=[app_commands.Choice(name=a["name"], value=a["name"]) for a in BLACK_STATUE])
    async def campaign_record(self, interaction: discord.Interaction, squad: str, vp: app_commands.Range[int, 0, 200],
                              won: bool, adventure: str | None = None,
                              note: app_commands.Range[str, 1, 200] | None = None):
        def change(rec):
            C.record_adventure(rec, adventure or "", vp, won, [note] if note else [])
            return [rec.history[-1]]
        await self._ledger(interaction, squad, change)

    @campaign.command(name="experience", description="A surviving character's Experience roll (Leader 9+, others 8+)")
    @app_commands.autocomplete(squad=my_squad_autocomplete, member=campaign_member_autocomplete)
    async def campaign_experience(self, interaction: discord.Interaction, squad: str, member: str):
        def change(rec):
            return self._record_rolls(rec, [C.experience_roll(rec.rng, rec.member(member))])
        await self._ledger(interaction, squad, change)

    @campaign.command(name="bonus", description="Bonus Experience: one roll per 5 VP for chosen non-Leaders")
    @app_commands.describe(squad="Your squad", vp="VP scored in the adventure",
                           members="The characters who roll, comma-separated")
    @app_commands.autocomplete(squad=my_squad_autocomplete)
    async def campaign_bonus(self, interaction: discord.Interaction, squad: str, vp: app_commands.Range[int, 0, 200],
                             members: str):
        def change(rec):
            return self._record_rolls(rec, C.bonus_experience(rec.rng, rec, vp, list(_split_ids(members))))
        await self._ledger(interaction, squad, change)

    @campaign.command(name="injury", description="Fallen in Combat: a fallen character rolls (5+ recovers)")
    @app_commands.autocomplete(squad=my_squad_autocomplete, member=campaign_member_autocomplete)
    async def campaign_injury(self, interaction: discord.Interaction, squad: str, member: str):
        def change(rec):
            return self._record_rolls(rec, [C.injury_roll(rec, member)])
        await self._ledger(interaction, squad, change)

    @campaign.command(name="spend", description="Spend Campaign Points from the squad's bank")
    @app_commands.autocomplete(squad=my_squad_autocomplete)
    async def campaign_spend(self, interaction: discord.Interaction, squad: str,
                             amount: app_commands.Range[int, 1, 1000], what: app_commands.Range[str, 1, 100]):
        def change(rec):
            C.spend(rec, amount, what)
            return [rec.history[-1]]
        await self._ledger(interaction, squad, change)

    @campaign.command(name="upkeep", description="Pay maintenance before the next adventure (injuries first)")
    @app_commands.autocomplete(squad=my_squad_autocomplete)
    async def campaign_upkeep(self, interaction: discord.Interaction, squad: str):
        def change(rec):
            return C.pay_upkeep(rec) or [t("carnevale.campaign.no_upkeep", interaction.guild_locale)]
        await self._ledger(interaction, squad, change)

    @campaign.command(name="power", description="A character rolls on the Powers table (duplicates −1, a 10 rolls twice)")
    @app_commands.autocomplete(squad=my_squad_autocomplete, member=campaign_member_autocomplete)
    async def campaign_power(self, interaction: discord.Interaction, squad: str, member: str):
        def change(rec):
            m = rec.member(member)
            res = C.roll_power(rec.rng, m)
            line = f"{m.name}: Powers table {', '.join(map(str, res['faces']))} → {res['result']}"
            rec.history.append(line)
            return [f"• {line}"]
        await self._ledger(interaction, squad, change)

    @campaign.command(name="hostage", description="Rescue of the Prisoner: of the models that died, the cheapest was captured")
    @app_commands.describe(squad="Your squad (the loser of Nighttime Ambush)",
                           members="The models that died on the Fallen table, comma-separated")
    @app_commands.autocomplete(squad=my_squad_autocomplete)
    async def campaign_hostage(self, interaction: discord.Interaction, squad: str, members: str):
        def change(rec):
            h = C.hostage(rec, list(_split_ids(members)))
            if h is None:
                return [t("carnevale.campaign.no_hostage", interaction.guild_locale)]
            return [t("carnevale.campaign.hostage", interaction.guild_locale, name=h.name)]
        await self._ledger(interaction, squad, change)

    @campaign.command(name="promote", description="Legacy: the old Leader retires and a veteran is promoted")
    @app_commands.autocomplete(squad=my_squad_autocomplete, member=campaign_member_autocomplete)
    async def campaign_promote(self, interaction: discord.Interaction, squad: str, member: str):
        await self._ledger(interaction, squad, lambda rec: [C.legacy_promote(rec, member)])

    @campaign.command(name="retire", description="Legacy: a member tries to retire (1d10, 5+ leaves; else it stays, paid)")
    @app_commands.autocomplete(squad=my_squad_autocomplete, member=campaign_member_autocomplete)
    async def campaign_retire(self, interaction: discord.Interaction, squad: str, member: str):
        def change(rec):
            C.legacy_retire(rec.rng, rec, member)
            return [rec.history[-1]]
        await self._ledger(interaction, squad, change)

    @campaign.command(name="legacy", description="Legacy: start the next campaign with the kept squad (+10 pts per improvement)")
    @app_commands.autocomplete(squad=my_squad_autocomplete)
    async def campaign_legacy(self, interaction: discord.Interaction, squad: str):
        def change(rec):
            points = C.new_legacy_campaign(rec)
            return [t("carnevale.campaign.legacy", interaction.guild_locale, no=rec.campaign_no, points=points)]
        await self._ledger(interaction, squad, change)

    @campaign.command(name="show", description="A squad's campaign: bank, adventures, each character's history")
    @app_commands.autocomplete(squad=my_squad_autocomplete)
    async def campaign_show(self, interaction: discord.Interaction, squad: str, public: bool = False):
        _, rec = await self._campaign(interaction, squad)     # before a public acknowledgement
        await interaction.response.defer(ephemeral=not public, thinking=True)
        loc = interaction.locale
        lines = [t("carnevale.campaign.show", loc, name=rec.squad, faction=rec.faction, bank=rec.bank,
                   done=len(rec.adventures), length=rec.length, no=rec.campaign_no)]
        for a in rec.adventures:
            lines.append(f"• {a.number}. {a.name}: {a.vp} VP{' — won' if a.won else ''} → {a.cp} CP")
        for m in rec.members:
            extra = []
            if m.leader:
                extra.append("Leader")
            if m.improvements:
                extra.append("improvements: " + ", ".join(m.improvements))
            if m.powers:
                extra.append("powers: " + ", ".join(m.powers))
            if m.injuries:
                extra.append("injuries: " + ", ".join(m.injuries))
            if m.dead:
                extra.append("dead")
            if m.captured:
                extra.append("captured")
            if m.misses_next:
                extra.append("misses the next adventure")
            who = f"**{m.name}**" + (f" ({m.profile})" if m.profile != m.name else "")
            lines.append(who + (" — " + "; ".join(extra) if extra else ""))
        if rec.history:
            lines.append(t("carnevale.campaign.history", loc))
            lines += [f"· {h}" for h in rec.history[-15:]]
        for part in chunks(lines):
            await interaction.followup.send(part, ephemeral=not public)


async def setup(bot):
    await bot.add_cog(CarnevaleCog(bot))
