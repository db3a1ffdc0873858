"""The Karmic engine: one engine for checks and combats (`options['mode']`).

- `mode: "check"` — a basic, opposed, combined or ranged check (digest §1.7–§1.10, §5).
- `mode: "combat"` — compound-action melee (§2–§4).
- `mode: "advance"` — advancement between adventures (§6.3, §6.4, §6.8; `advancement.py`).
Characters (sheet + karma deck) are copied into the state; the cog writes them back from
`characters_out(state)` (and `state.world`, the GM's world deck) when the game is over, after
`settle_cards(state)` when it was ended by force.
"""
from __future__ import annotations

from typing import Any

from rules.common import GM, Actor, Choose, Engine, Event, IllegalAction, NotYourTurn, Outcome, Prompt, Rng
from rules.common.defaults import Days
from rules.common.player import decide, seed_for

from . import advancement, checks, combat, defaults
from .ai import KarmicAI
from .actions import ACTIONS, Declare, EndCombat, GmModifier, Hit, NpcControl, PlayCard, Reshuffle, Ruling
from .cards import KarmaDeck, value
from .names import matches
from .state import SCHEMA, KarmicState, house_rules
from .tables import BOT_POLICY_PREFS
from .views import view_for

ADVANCE_ACTIONS = tuple(advancement.ACTIONS.values())


class KarmicEngine(Days, Engine[KarmicState]):
    system = "karmic"
    state_type = KarmicState
    actions = ACTIONS

    days = defaults
    chapter_kinds = defaults.CHAPTER_KINDS
    turning_kinds = defaults.TURNING_KINDS

    def setup(self, seats: list[str], options: dict, seed: int) -> KarmicState:
        return self.start(seats, options, seed).state

    def start(self, seats: list[str], options: dict | None = None, seed: int = 0) -> Outcome:
        """Like new_game, but also returns the set-up events (initiative, first hands for DMs); its
        errors name the game, like `apply`'s (the presenter reads them in the Karmic catalogue)."""
        with self._speaking():
            return self._start(seats, dict(options or {}), seed)

    def _start(self, seats: list[str], options: dict, seed: int) -> Outcome:
        mode = options.get("mode", "combat" if options.get("combatants") else "check")
        if mode not in ("check", "combat", "advance"):
            raise IllegalAction("unknown_mode", mode=str(mode)[:20])
        rng = Rng.from_seed(seed)
        hr = house_rules(options.get("house_rules"))
        world = options.get("world")
        if isinstance(world, dict):
            world = KarmaDeck.from_dict(world)
        elif world is None:
            world = KarmaDeck.new_world(rng, int(hr["world_deck_size"]))
        state = KarmicState(schema=SCHEMA, mode=mode, rng=rng, house_rules=hr, seats=list(seats), world=world,
                            options={"bot_plays_npcs": bool(options.get("bot_plays_npcs", False))})
        pack = options.get("pack")      # the caller's (content.sample_pack("karmic") for the sample): no file read here
        if mode == "advance":
            events = advancement.setup_advance(state, options)
        elif mode == "check":
            events = checks.setup_check(state, options, pack)
        else:
            events = combat.setup_combat(state, options, pack)
        self._autoplay(state, events)
        return Outcome(state=state, events=events)

    # --- prompts ----------------------------------------------------------------------------
    def _prompts(self, state: KarmicState) -> list[tuple[Prompt, dict]]:
        if state.over or state.mode == "advance":
            return []
        if state.mode == "check":
            return checks.check_prompts(state)
        return combat.combat_prompts(state)

    def pending(self, state: KarmicState) -> list[Prompt]:
        return [p for p, _ in self._prompts(state)]

    # --- steps --------------------------------------------------------------------------------
    def step(self, state: KarmicState, action: Any, actor: Actor) -> list[Event]:
        events: list[Event] = []
        state.seq += 1
        if isinstance(action, ADVANCE_ACTIONS):
            events += advancement.advance(state, action, actor)
        elif isinstance(action, Choose):
            prompt = self.check_choice(state, action, actor)
            meta = self._meta(state, prompt.id)
            self._choose(state, meta, action.options[0], events)
        elif isinstance(action, Declare):
            if state.mode != "combat" or state.phase != "declare" or state.combat.turn is None:
                raise IllegalAction("nobody_declaring")
            who = state.combat.turn.who
            claimed = action.combatant
            if not claimed:
                mine = [k for k, ctl in state.controllers.items() if ctl == actor.id]
                claimed = mine[0] if len(mine) == 1 else who
            if claimed != who:
                f = state.combat.fighters.get(claimed)
                if f is not None and not f.hand and not f.out:
                    raise IllegalAction("no_card_left", register=state.combat.reg)
                raise NotYourTurn("turn_to_declare", name=state.characters[who].shown)
            self._own(state, who, actor)
            combat.declare_action(state, action, events)
        elif isinstance(action, PlayCard):
            if state.mode != "check" or state.phase != "play":
                raise IllegalAction("no_check_waiting")
            i = self._side(state, action.combatant, actor)
            checks.check_play(state, i, action.card, events)
        elif isinstance(action, Hit):
            for prompt, meta in self._prompts(state):
                if meta["kind"] == "hit" and (not action.combatant or meta["key"] == action.combatant) \
                        and actor.may_act_for(prompt.player):
                    self._choose(state, meta, "hit" if action.hit else "stand", events)
                    break
            else:
                raise IllegalAction("no_hit_for_you")
        elif isinstance(action, GmModifier):
            self._gm(actor)
            if state.mode == "combat":
                if state.over or state.combat is None:
                    raise IllegalAction("combat_over")
                combat.gm_modifier(state, action.side, action.value, action.hidden, events)
            else:
                checks.gm_modifier(state, action.side, action.value, action.hidden, events)
        elif isinstance(action, Ruling):
            self._gm(actor)
            for _prompt, meta in self._prompts(state):
                if meta["kind"] in ("ruling", "iniruling"):
                    self._choose(state, meta, action.outcome, events)
                    break
            else:
                raise IllegalAction("no_joker_waiting")
        elif isinstance(action, Reshuffle):
            for prompt, meta in self._prompts(state):
                if meta["kind"] == "offer" and (not action.combatant or meta["key"] == action.combatant) \
                        and actor.may_act_for(prompt.player):
                    self._choose(state, meta, "yes" if action.accept else "no", events)
                    break
            else:
                raise IllegalAction("no_reshuffle_offered")
        elif isinstance(action, NpcControl):
            self._gm(actor)
            key = self._npc_key(state, action.combatant)
            manual = [k for k in state.options.get("gm_plays", []) if k != key] + ([] if action.bot else [key])
            state.options = dict(state.options, gm_plays=sorted(manual))
            name = state.characters[key].shown
            events.append(Event("npc_control", {"line": {"term": "npc_to_bot" if action.bot else "npc_to_gm", "name": name},
                                                 "key": key, "bot": action.bot}))
        elif isinstance(action, EndCombat):
            self._gm(actor)
            if state.mode != "combat":
                raise IllegalAction("no_combat")
            combat.end_combat(state, action.reason, events)
        else:
            raise IllegalAction("unknown_action", action=type(action).__name__)
        self._autoplay(state, events)
        return events

    def _meta(self, state: KarmicState, prompt_id: str) -> dict:
        for p, meta in self._prompts(state):
            if p.id == prompt_id:
                return meta
        raise IllegalAction("stale_prompt")

    def _choose(self, state: KarmicState, meta: dict, option: str, events: list[Event]) -> None:
        if state.mode == "check":
            kind = meta["kind"]
            if kind == "play":
                checks.check_play(state, meta["side"], option, events)
            elif kind == "hit":
                checks.check_hit(state, meta["side"], option == "hit", events)
            elif kind == "ruling":
                checks.check_ruling(state, meta["side"], option, events)
            elif kind == "offer":
                checks.answer_offer(state, meta["key"], option == "yes", events)
        else:
            combat.choose(state, meta, option, events)

    @staticmethod
    def _gm(actor: Actor) -> None:
        if not actor.gm and actor.id != GM:
            raise NotYourTurn("gm_only")

    @staticmethod
    def _own(state: KarmicState, key: str, actor: Actor) -> None:
        if not actor.may_act_for(state.controllers.get(key, GM)):
            raise NotYourTurn("not_your_character", name=state.characters[key].shown)

    def _side(self, state: KarmicState, key: str, actor: Actor) -> int:
        for i, s in enumerate(state.check.sides):
            if (not key or s.key == key) and actor.may_act_for(state.controllers[s.key]) and s.play is None:
                return i
        raise NotYourTurn("no_card_to_play")

    # --- bot-played NPCs --------------------------------------------------------------------------
    def _autoplay(self, state: KarmicState, events: list[Event]) -> None:
        if not state.options.get("bot_plays_npcs"):
            return
        for _ in range(500):
            if state.over:
                return
            manual = set(state.options.get("gm_plays", []))
            todo = [(p, m) for p, m in self._prompts(state)
                    if p.player == GM and m["kind"] not in ("ruling", "iniruling") and state.characters[m["key"]].npc
                    and m["key"] not in manual]
            if not todo:
                return
            prompt, meta = todo[0]
            self._choose(state, meta, self.npc_choice(state, prompt, meta), events)

    @staticmethod
    def _npc_key(state: KarmicState, who: str) -> str:
        for key, char in state.characters.items():
            if (who == key or matches(who, char.name, char.names)) and char.npc and state.controllers.get(key) == GM:
                return key
        raise IllegalAction("no_such_npc", name=who[:60])

    def npc_choice(self, state: KarmicState, prompt: Prompt, meta: dict) -> str:
        """The bot's answer for an NPC: the generic player (``rules.karmic.ai``: one ply over worlds
        sampled without the players' cards), seeded from what the NPCs' side knows; the fixed policy
        when the option ``npc_level`` is "fixed" or the player finds nothing."""
        lvl = state.options.get("npc_level", "easy")
        if lvl != "fixed":
            choice = decide(AI, state, GM, lvl, seed_for(AI, state, GM, "npc"), only=prompt.id)
            if choice is not None:
                return choice.options[0]
        return self.bot_choice(state, prompt, meta)

    def bot_choice(self, state: KarmicState, prompt: Prompt, meta: dict) -> str:
        """A deterministic NPC policy over the prompt's own options (ties broken by the state's Rng)."""
        ids = [o.id for o in prompt.options]
        kind = meta["kind"]
        if kind in ("play", "iniplay") or (kind == "declare" and state.combat.turn.step == "card"):
            cards = [i for i in ids if i not in ("back",)]
            best = max(value(c.split(":")[-1]) for c in cards)
            return state.rng.choice([c for c in cards if value(c.split(":")[-1]) == best])
        if kind in ("hit", "inihit"):
            total = _running_total(state, meta)
            return "hit" if total < 2 else "stand"
        if kind == "offer":
            return "yes"
        if kind == "declare":
            for pref in BOT_POLICY_PREFS:
                hits = [i for i in ids if i.split(".")[0] == pref and not i.endswith((".n", ".c"))]
                if hits:
                    return hits[0]
            for fallback in ("pass", "stop"):
                if fallback in ids:
                    return fallback
            plain = [i for i in ids if not i.endswith((".n", ".c")) and i not in ("more", "hes", "back")
                     and not i.startswith("chw")]
            return state.rng.choice(plain or ids)
        return ids[0]

    def default_option(self, state: KarmicState, prompt_id: str) -> str:
        """What a time-out should answer: stand on hits, decline reshuffles, pass/stop declaring,
        the GM's default for jokers; NPC seats use the bot policy."""
        prompt = self.prompt(state, prompt_id)
        meta = self._meta(state, prompt_id)
        ids = [o.id for o in prompt.options]
        if state.characters.get(meta.get("key", ""), None) is not None and state.characters[meta["key"]].npc \
                and prompt.player == GM and meta["kind"] not in ("ruling", "iniruling"):
            return self.bot_choice(state, prompt, meta)
        for pref in ("stand", "no", "pass", "stop", "hes", state.house_rules.get("joker_default", "success"),
                     "win", "struggle"):
            if pref in ids:
                return pref
        if meta["kind"] == "declare" and state.combat.turn.step == "card":
            return self.bot_choice(state, prompt, meta)
        if meta["kind"] in ("play", "iniplay"):
            return self.bot_choice(state, prompt, meta)
        return ids[0]

    # --- views -----------------------------------------------------------------------------------------
    def view_for(self, state: KarmicState, viewer: str) -> dict:
        return view_for(self, state, viewer)

    def is_over(self, state: KarmicState) -> bool:
        return state.over


def _running_total(state: KarmicState, meta: dict) -> int:
    if meta["kind"] == "inihit":
        return state.combat.init_plays[meta["key"]].total
    if state.mode == "check":
        return state.check.sides[meta["side"]].play.total
    d = state.combat.registers[meta["reg"] - 1].decls[meta["i"]]
    return sum(value(c) for c in [d.card] + d.chain)


def characters_out(state: KarmicState) -> dict:
    """key -> (controller, Character): what the cog writes back when a game ends."""
    return {k: (state.controllers.get(k, GM), c) for k, c in state.characters.items()}


def settle_cards(state: KarmicState) -> KarmicState:
    """A game ended by force (not by its rules): every card still in play goes to its owner's
    discard pile (the world deck's for NPCs without a deck), in place, so the decks written back
    lose no card. Idempotent: what it returns is cleared from the state."""
    if state.combat is not None:
        combat.return_cards(state)
    if state.check is not None:
        checks.return_cards(state)
    return state


# The engine every caller plays on, and the generic player of its NPCs (`npc_choice`) and of the bot
# player. Both are made here, not in the façade, so that the engine reaches the player without an
# import circle: ai.py knows the engine only as the player's own `self.engine`.
ENGINE: KarmicEngine = KarmicEngine()
AI = KarmicAI(ENGINE)
