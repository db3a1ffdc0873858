"""Carnival Zombie 2nd Edition: the bot is the opponent.

The engine is one class made of the rulebook's phases, each in its own module (mixins whose `self`
is the engine): `story_day` (the Story so far, the Day), `sunset`, `night` (the Hour, the Entrance,
Paranoia, Movement), `activation` (the Characters' Actions, Hits, Wounds, kills, rewards), `pile`
(the Pile of Corpses), `dawn` (attacks, Dawn, cleanup, verdicts, Battle Focus), `traitor`. This
module keeps set-up, the shared helpers, the automatic loop and the engine contract.

After every player decision the engine runs every automatic step (Abyss draws, Nightmare cards,
Infected entrance and movement, Boss powers, attacks, Clock and Calendar) until the next decision
is owed. At most one prompt is live at a time (`state.ask`); decisions that arise while another
is pending wait in `state.queue`. Group decisions go to the First Player.
"""
from __future__ import annotations

from typing import Any

from rules.common import Actor, Choose, Engine, Event, IllegalAction, Outcome, Prompt, Rng, term
from rules.common.defaults import Days
from rules.common.errors import NotYourTurn

from . import defaults
from .actions import ACTIONS, FocusPenalty, PileTiming, Sabotage, Unmask
from .activation import Activation
from .content import Frozen, _freeze, content_for
from .context import G, _content
from .dawn import AttacksAndDawn
from .night import NightSteps
from .pile import Pile
from .state import DEFAULT_HOUSE_RULES, SCHEMA_VERSION, Character, GameState
from .story_day import StoryAndDay
from .sunset import Sunset
from .traitor import Traitor

__all__ = ["CarnivalZombie", "G", "_content"]     # G and _content: tests drive single steps with them


class CarnivalZombie(Days, StoryAndDay, Sunset, NightSteps, Activation, Pile, AttacksAndDawn, Traitor, Engine[GameState]):
    system = "carnival_zombie"
    state_type = GameState
    actions = ACTIONS
    # The mixins declare the contract's check (`Sections`, for the type checker): this is it.
    check_choice = Engine.check_choice
    days = defaults
    chapter_kinds = defaults.CHAPTER_KINDS
    turning_kinds = defaults.TURNING_KINDS

    # ================================================================= setup
    def setup(self, seats: list[str], options: dict, seed: int) -> GameState:
        return self._setup(seats, options, seed).state

    def start(self, seats: list[str], options: dict | None = None, seed: int = 0) -> Outcome:
        """The starting state and what set-up said: with `auto_start` (no setup prompt) the Group
        gathers at once and, in Just a Matter of Time, every seat is dealt its role by DM."""
        return self._setup(list(seats), dict(options or {}), seed)

    def _setup(self, seats: list[str], options: dict, seed: int) -> Outcome:
        if not 1 <= len(seats) <= 6:
            raise IllegalAction("players_1_to_6")
        if len(set(seats)) != len(seats):
            raise IllegalAction("seated_twice")
        pack = options.get("pack")
        if pack is not None and not isinstance(pack, Frozen):
            pack = _freeze(pack)
        c = content_for(pack)
        difficulty = options.get("difficulty", "medium")
        difficulty = {"hard": "difficult"}.get(difficulty, difficulty)  # A7
        if difficulty not in c.difficulty:
            raise IllegalAction("unknown_difficulty")
        scenario = options.get("scenario", "campaign") or "campaign"
        if scenario not in c.scenarios:
            raise IllegalAction("unknown_scenario", scenario=str(scenario)[:40])
        sc = c.scenarios[scenario]
        house = {**DEFAULT_HOUSE_RULES, **(options.get("house_rules") or {})}
        unknown = set(house) - set(DEFAULT_HOUSE_RULES)
        if unknown:
            raise IllegalAction("unknown_house_rules", rules=sorted(unknown))
        if "pile_mode" in sc and "pile_mode" not in (options.get("house_rules") or {}):
            house["pile_mode"] = sc["pile_mode"]
        if sc.get("min_players", 1) > len(seats):
            raise IllegalAction("needs_players", scenario=sc["name"], n=sc["min_players"])
        chars = list(options.get("characters") or c.char_order)
        if sc.get("one_character_each"):
            chars = chars[: len(seats)]
        for cid in chars:
            if cid not in c.characters:
                raise IllegalAction("unknown_character", character=str(cid)[:40])
        rng = Rng.from_seed(seed)
        s = GameState(schema=SCHEMA_VERSION, rng=rng, seats=list(seats), difficulty=difficulty,
                      scenario=scenario, house_rules=house, pack=pack,
                      quick=bool(options.get("quick") or options.get("quick_night")))
        s.quick_night = bool(options.get("quick_night"))
        assignment = options.get("assignment") or self.default_assignment(seats, chars)
        order = list(options.get("order") or chars)
        if sorted(order) != sorted(chars):
            raise IllegalAction("bad_order")
        for cid in chars:
            who = assignment.get(cid, "")
            if who and who not in seats:
                raise IllegalAction("not_seated", player=who)
            s.characters.append(Character(id=cid, controller=who, order=order.index(cid) + 1))
        s.characters.sort(key=lambda ch: ch.order)
        d = c.difficulty[difficulty]
        s.abyss = {t: c.infected[t]["count"] for t in c.infected_order}
        s.abyss["S"] = d["survivors"]
        s.abyss["P"] = d["paranoia"]
        s.supply = {"#": 24, "S": 10 - d["survivors"], "W": 15}
        s.gamebox = {"P": 6 - d["paranoia"], "S": 0}
        s.storage = {"#": 0, "S": 0, "P": 0}
        s.pile = {}
        s.nightmare = list(c.nightmare)
        rng.shuffle(s.nightmare)
        s.boss_deck = [b for b in c.bosses]
        rng.shuffle(s.boss_deck)
        s.item_decks = {}
        for ch in s.characters:
            deck = list(c.decks[ch.id])
            rng.shuffle(deck)
            s.item_decks[ch.id] = deck
        s.tiles = list(range(len(c.tiles)))
        rng.shuffle(s.tiles)
        s.fort_tiles = [t for t, v in c.terrains.items() if v["kind"] == "fortification"]
        rng.shuffle(s.fort_tiles)
        s.boss_area = [None] * c.slots
        s.group_at = d["start"]
        g = G(s, c)
        for seat in s.seats:       # who plays whom, said once (the prompts name Characters, not players)
            mine = [c.characters[ch.id]["name"] for ch in s.characters if ch.controller == seat]
            if mine:
                g.say("dealt", player=seat, names=mine)
        group = [c.characters[ch.id]["name"] for ch in s.characters if not ch.controller]
        if group:
            g.say("dealt_group", names=group)
        if d.get("starting_items"):
            for ch in s.characters:
                for it in [i for i in s.item_decks[ch.id] if c.items[i].get("starting")]:
                    s.item_decks[ch.id].remove(it)
                    ch.items.append(it)
        fin = sc.get("finale")
        if fin and self._finale_item(c.finales.get(fin, {})):
            self._give_item(g, self._finale_item(c.finales[fin]))
        if fin:
            s.group_at = c.finales[fin]["locations"][0]
        if options.get("location") is not None:
            if options["location"] not in c.locations:
                raise IllegalAction("unknown_location")
            s.group_at = options["location"]
        if options.get("ticket") in (1, 2, 3):
            s.ticket = options["ticket"]
        for _ in range(d.get("start_founderings", 0)):
            self._foundering(g)
        if sc.get("traitor"):
            s.traitor = rng.choice(s.seats)
        s.phase, s.stage = "setup", "setup"
        if options.get("auto_start"):
            self._begin(g)
        else:
            s.ask = {"kind": "setup"}
        self._run(g)
        return Outcome(state=s, events=g.ev)

    @staticmethod
    def default_assignment(seats: list[str], chars: list[str]) -> dict:
        """Characters per the player-count table; 4-5 players leave Group Characters ("")."""
        n = len(seats)
        out = {}
        if n <= 3:
            per = -(-len(chars) // n)
            for i, cid in enumerate(chars):
                out[cid] = seats[min(i // per, n - 1)]
        else:
            for i, cid in enumerate(chars):
                out[cid] = seats[i] if i < n else ""
        return out

    @staticmethod
    def _finale_item(f: dict) -> str:
        if f.get("requires") == "holy_bomb":
            return f.get("item", "holy_bomb")
        return f.get("item", "") if f.get("requires") == "item" else ""

    def _give_item(self, g: G, item: str) -> None:
        """A Finale played as a Scenario starts with its key Item in its owner's hands."""
        s, c = g.s, g.c
        if item not in c.items:
            return
        holder = next((ch for ch in s.characters if ch.id == c.items[item]["owner"]), s.characters[0])
        for deck in s.item_decks.values():
            if item in deck:
                deck.remove(item)
        if not any(item in ch.items for ch in s.characters):
            holder.items.append(item)

    def _begin(self, g: G) -> None:
        s, c = g.s, g.c
        sc = c.scenarios[s.scenario]
        if s.traitor:
            # Every seat gets a private role message, so a closed DM (announced in the channel by the
            # host) or the mere arrival of a DM never singles out the traitor.
            for seat in s.seats:
                if seat == s.traitor:
                    g.say("secret", audience=seat)
                else:
                    g.say("role", audience=seat)
        g.say("setup", **self._at(g, s.group_at), difficulty=term(f"difficulty_{s.difficulty}"))
        if s.quick:
            self._move_cubes(s.supply, s.storage, "#", 8)
            s.ctx = {}
            if s.quick_night:
                self._start_sunset(g)
            else:
                self._start_day(g, first=True)
        elif sc.get("story", True):
            s.phase, s.stage = "story", "story"
            s.ctx = {"i": 0, "step": 1, "bg": 0, "drawn": {}, "hide": False, "drew": False}
        else:
            self._after_story(g)

    def _after_story(self, g: G) -> None:
        s, c = g.s, g.c
        sc = c.scenarios[s.scenario]
        if sc["kind"] == "night_only":
            s.ticket = sc.get("ticket", 1)
            self._start_sunset(g)
        else:
            self._start_day(g, first=True)

    # ================================================================= helpers
    def _at(self, g: G, loc: int, key: str = "loc") -> dict:
        """A Location in event data: its number and its name."""
        return {key: loc, f"{key}_name": g.c.locations[loc]["name"]}

    def _ch(self, s: GameState, cid: str) -> Character:
        for ch in s.characters:
            if ch.id == cid:
                return ch
        raise IllegalAction("no_character", character=str(cid)[:40])

    def _name(self, g: G, cid: str) -> str:
        return g.c.characters[cid]["name"]

    def _active(self, s: GameState) -> list[Character]:
        return [ch for ch in s.characters if not ch.incapacitated]

    def first_player(self, s: GameState) -> str:
        for ch in sorted(s.characters, key=lambda x: x.order):
            if not ch.incapacitated and ch.controller:
                return ch.controller
        for ch in sorted(s.characters, key=lambda x: x.order):
            if ch.controller:
                return ch.controller
        return s.seats[0]

    def owner(self, s: GameState, cid: str) -> str:
        return self._ch(s, cid).controller or self.first_player(s)

    @staticmethod
    def _move_cubes(src: dict, dst: dict, code: str, n: int) -> int:
        n = max(0, min(n, src.get(code, 0)))
        if n:
            src[code] = src.get(code, 0) - n
            dst[code] = dst.get(code, 0) + n
        return n

    def _draw_cube(self, g: G) -> str | None:
        s = g.s
        total = sum(s.abyss.values())
        if total <= 0:
            return None
        while s.bag_script:
            code = s.bag_script.pop(0)
            if s.abyss.get(code, 0) > 0:
                s.abyss[code] -= 1
                return code
        x = s.rng.below(total)
        for code in sorted(s.abyss):
            n = s.abyss[code]
            if x < n:
                s.abyss[code] -= 1
                return code
            x -= n
        return None

    def _draw_nm(self, g: G) -> dict:
        s = g.s
        if not s.nightmare:
            s.nightmare, s.nightmare_discard = s.nightmare_discard, []
            s.rng.shuffle(s.nightmare)
        card = s.nightmare.pop()
        s.nightmare_discard.append(card)
        return g.c.nightmare[card]

    def _random_char(self, g: G) -> Character | None:
        active = self._active(g.s)
        if not active:
            return None
        ids = {ch.id for ch in active}
        for _ in range(len(g.c.nightmare) + 2):
            cid = self._draw_nm(g)["character"]
            if cid in ids:
                return self._ch(g.s, cid)
        return g.s.rng.choice(active)

    def _draw_item(self, g: G, deck_of: str, to: str) -> str | None:
        deck = g.s.item_decks.get(deck_of) or []
        if not deck:
            g.say("item_deck_empty", name=self._name(g, deck_of))
            return None
        item = deck.pop()
        self._ch(g.s, to).items.append(item)
        g.say("item", name=self._name(g, to), item_name=g.c.items[item]["name"], item=item, character=to)
        return item

    def _stress(self, g: G, ch: Character, delta: int, why: Any = "") -> None:
        """`why`: a term (a cause in the game's words) or a name from the pack (an Infected, an Item)."""
        s, c = g.s, g.c
        if ch.incapacitated or delta == 0:
            return
        before = ch.stress
        ch.stress = min(c.track + 1, max(0, ch.stress + delta))
        if ch.stress == before:
            return
        g.say("stress_why" if why else "stress", name=self._name(g, ch.id), character=ch.id, stress=ch.stress,
              delta=ch.stress - before, **({"why": why} if why else {}))
        if ch.stress > c.track:
            ch.incapacitated = True
            ch.order_token = False
            if ch.paranoia:
                ch.paranoia = False
                (s.storage if s.phase == "night" else s.abyss)["P"] = \
                    (s.storage if s.phase == "night" else s.abyss).get("P", 0) + 1
            ch.refuge = ""
            g.say("incapacitated", name=self._name(g, ch.id), character=ch.id)
            if not self._active(s):
                self._end(g, "loss", "incapacitated")

    def _end(self, g: G, result: str, reason: str, **args: Any) -> None:
        """The game ends: `reason` is a code (`reasons.<code>` in the catalogue) with its `args`."""
        s = g.s
        if s.over:
            return
        s.over, s.result, s.reason, s.reason_args = True, result, reason, dict(args)
        s.ask, s.queue = {}, []
        if result == "win":
            s.score = self.score(g)
        # One kind per ending (`events.over_<reason>`): the sentence says the result and why.
        g.say(f"over_{reason}", result=result, reason=reason, **args)
        if s.score:
            g.say("final_score", **s.score)
        if s.traitor:
            g.say("traitor_won" if result == "loss" else "traitor_lost", player=s.traitor)

    def score(self, g: G) -> dict:
        s, c = g.s, g.c
        active = self._active(s)
        parts = {
            "characters": 5 * len(active),
            "survivors": 3 * s.storage.get("S", 0),
            "players": 2 * len(s.seats),
            "stress": -sum(ch.stress for ch in active),
            "difficulty": c.difficulty[s.difficulty].get("score", 0),
        }
        parts["total"] = sum(parts.values())
        return parts

    def _ask(self, g: G, kind: str, **data) -> None:
        entry = {"kind": kind, **data}
        if g.s.ask:
            g.s.queue.append(entry)
        else:
            g.s.ask = entry

    # ================================================================= the loop
    def _run(self, g: G) -> None:
        s = g.s
        for _ in range(100000):
            if s.over or s.ask:
                return
            if s.queue:
                nxt = s.queue.pop(0)
                if nxt["kind"] == "paranoia":       # re-check: earlier cubes may have taken the candidates
                    targets = self.paranoia_targets(s, nxt["pit"])
                    if not targets or s.storage.get("P", 0) <= 0:
                        continue
                    if len(targets) == 1:
                        self._give_paranoia(g, targets[0])
                        continue
                s.ask = nxt
                continue
            self._tick(g)
        raise RuntimeError("carnival_zombie: the automatic loop did not settle")

    def _tick(self, g: G) -> None:
        st = g.s.stage
        getattr(self, "_t_" + st)(g)

    # ================================================================= public helpers (tests, tools)
    def movement(self, state: GameState) -> list[Event]:
        """Run the Infected and Boss Movement step on a Night state (mutates it)."""
        g = G(state, _content(state))
        self.move_enemies(g)
        return g.ev

    def census(self, state: GameState) -> dict:
        from .views import census
        return census(state)

    def clock_ordinal(self, state: GameState) -> tuple[int, int, int]:
        """A number that only grows as the Calendar and Clock move on (tests check it)."""
        pos = {"dawn": 50, "sunrise": 0, "day": 0, "sunset": 5, "night": 5}[state.clock]
        if state.clock == "dawn" and state.phase in ("setup", "story"):
            return (0, 0, 0)
        half = 0 if state.half == "day" else 1
        if state.clock in ("sunset", "night", "dawn"):
            half = 1
        return (state.ticket, half, pos + state.hour)

    # ================================================================= contract
    def step(self, state: GameState, action: Any, actor: Actor) -> list[Event]:
        s = state
        g = G(s, _content(s))
        if isinstance(action, Sabotage):
            self._sabotage(g, action, actor)
            return g.ev
        if isinstance(action, Unmask):
            self._unmask(g, actor)
            self._run(g)
            return g.ev
        if isinstance(action, PileTiming):
            self._pile_timing(g, action, actor)
            self._run(g)
            return g.ev
        if isinstance(action, FocusPenalty):
            if not (actor.gm or actor.id in s.seats):
                raise NotYourTurn("focus_players_only")
            self._focus_penalty(g)
            return g.ev
        if not isinstance(action, Choose):
            raise IllegalAction("unknown_action")
        self.check_choice(s, action, actor)
        ask = s.ask
        s.ask = {}
        s.seq += 1
        handler = getattr(self, "_h_" + ask["kind"], None)
        if ask["kind"] == "setup":
            self._h_setup(g, ask, action.options)
        elif ask["kind"] in ("order_pick", "swap_char", "swap_to"):
            getattr(self, "_h_" + ask["kind"])(g, ask, action.options)
        else:
            handler(g, ask, action.options)
        self._run(g)
        return g.ev

    # ---- setup prompts
    def _h_setup(self, g: G, ask: dict, picks: tuple) -> None:
        pick = picks[0]
        if pick == "start":
            self._begin(g)
        elif pick == "order":
            g.s.ctx = {"placed": []}
            self._ask(g, "order_pick")
        elif pick == "swap":
            self._ask(g, "swap_char")

    def _h_order_pick(self, g: G, ask: dict, picks: tuple) -> None:
        s = g.s
        placed = s.ctx["placed"]
        placed.append(picks[0])
        rest = [ch.id for ch in s.characters if ch.id not in placed]
        if len(rest) == 1:
            placed.append(rest[0])
        if len(placed) >= len(s.characters):
            for ch in s.characters:
                ch.order = placed.index(ch.id) + 1
            s.characters.sort(key=lambda ch: ch.order)
            s.ctx = {}
            g.say("order_set", names=[self._name(g, ch.id) for ch in s.characters])
            self._ask(g, "setup")
        else:
            self._ask(g, "order_pick")

    def _h_swap_char(self, g: G, ask: dict, picks: tuple) -> None:
        self._ask(g, "swap_to", char=picks[0])

    def _h_swap_to(self, g: G, ask: dict, picks: tuple) -> None:
        s = g.s
        ch = self._ch(s, ask["char"])
        ch.controller = "" if picks[0] == "group" else s.seats[int(picks[0][1:])]
        if ch.controller:
            g.say("played_by", name=self._name(g, ch.id), player=ch.controller)
        else:
            g.say("played_by_group", name=self._name(g, ch.id))
        self._ask(g, "setup")

    # ---- prompts
    def pending(self, state: GameState) -> list[Prompt]:
        s = state
        if s.over or not s.ask:
            return []
        from .prompts import build_prompt
        return [build_prompt(self, s, _content(s), s.ask)]

    def view_for(self, state: GameState, viewer: str) -> dict:
        from .views import view
        return view(self, state, _content(state), viewer)

    def is_over(self, state: GameState) -> bool:
        return bool(state.over)


# The engine every caller plays on. Made here, not in the façade, so that ai.py (which the façade
# imports) takes it from below without an import circle.
ENGINE: CarnivalZombie = CarnivalZombie()
