"""Carnival Zombie 2nd Edition: the bot is the opponent.

After every player decision the engine runs every automatic step (Abyss draws, Nightmare cards,
Infected entrance and movement, Boss powers, attacks, Clock and Calendar) until the next decision
is owed. At most one prompt is live at a time (`state.ask`); decisions that arise while another
is pending wait in `state.queue`. Group decisions go to the First Player.
"""
from __future__ import annotations

from typing import Any

from rules.common import GM, PUBLIC, Actor, Choose, Engine, Event, IllegalAction, Option, Outcome, Prompt, Rng, term
from rules.common.errors import NotYourTurn

from .actions import ACTIONS, FocusPenalty, PileTiming, Sabotage, Unmask
from .content import Content, Frozen, _freeze, content_for
from .state import (BELLTOWER, CAVES, CLOCKWISE, DEFAULT_HOUSE_RULES, PITS, SCHEMA_VERSION, BossSlot, Character,
                    GameState, Night)

PIT_CW = ("N", "E", "S", "W")
SPACES = tuple(f"{c}.{r}" for c in CAVES for r in (1, 2, 3))
TOTAL_CUBES = {"S": 10, "#": 24, "W": 15, "P": 6}
ROMAN = {1: "I", 2: "II", 3: "III"}


def dir_term(d: str) -> dict:
    """A compass direction (a Pit, a Refuge space, an Alley) as a word of the game's vocabulary."""
    return term(f"dir_{d}")


class G:
    """Working context for one step: the state, its content and the events emitted."""

    __slots__ = ("s", "c", "ev", "hr")

    def __init__(self, s: GameState, c: Content):
        self.s, self.c = s, c
        self.ev: list[Event] = []
        self.hr = {**DEFAULT_HOUSE_RULES, **(s.house_rules or {})}

    def say(self, kind: str, audience: str = PUBLIC, **data) -> None:
        """An event: its `kind` and data (names of Characters, Bosses, Items as the pack spells them;
        players as ids); the presenter words it."""
        self.ev.append(Event(kind, data, audience))
        if audience == PUBLIC:
            self.s.log.append({"kind": kind, "data": data})
            if len(self.s.log) > 30:
                del self.s.log[:-30]


def _content(s: GameState) -> Content:
    if s.pack is not None and not isinstance(s.pack, Frozen):
        s.pack = _freeze(s.pack)
    return content_for(s.pack)


class CarnivalZombie(Engine[GameState]):
    system = "carnival_zombie"
    state_type = GameState
    actions = ACTIONS

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

    # ================================================================= Story so far (§3.3)
    def _t_story(self, g: G) -> None:
        s, c = g.s, g.c
        ctx = s.ctx
        order = s.characters
        if ctx["i"] >= len(order):
            s.ctx = {}
            g.say("story_told")
            self._after_story(g)
            return
        ch = order[ctx["i"]]
        if ch.incapacitated:
            self._story_done(g)
            return
        if ctx["drew"]:
            return
        ctx["drew"] = True
        code = self._draw_cube(g)
        if code is None:
            self._story_done(g)
            return
        name = self._name(g, ch.id)
        if code == "S":
            s.storage["S"] += 1
            g.say("story_survivor", name=name, character=ch.id, cube=code)
        else:
            ctx["drawn"][code] = ctx["drawn"].get(code, 0) + 1
            if code == "P":
                ctx["hide"] = True
                g.say("story_paranoia", name=name, character=ch.id, cube=code)
            elif code == "B":
                ctx["bg"] += 1
                g.say("story_barghest", name=name, character=ch.id, cube=code)
            else:
                gain = {"V": 1, "M": 2, "G": 1}.get(code, c.infected[code]["attack"])
                barr = code in ("V", "M")
                gain += self._story_bonus(g)
                g.say("story_infected", name=name, infected_name=c.infected[code]["name"], character=ch.id,
                      cube=code)
                self._stress(g, ch, gain, c.infected[code]["name"])
                if barr and self._move_cubes(s.supply, s.storage, "#", 1):
                    g.say("story_barricade")
        if s.over:
            return
        if ctx["hide"] or ch.incapacitated:
            self._story_done(g)
        else:
            self._ask(g, "story", char=ch.id, step=ctx["step"])

    def _story_bonus(self, g: G) -> int:
        ctx = g.s.ctx
        bonus = ctx["bg"]
        if g.hr["barghest_bonus_mode"] == "once":
            ctx["bg"] = 0
        return bonus

    def _story_done(self, g: G) -> None:
        s = g.s
        ctx = s.ctx
        for code, n in ctx["drawn"].items():
            s.abyss[code] = s.abyss.get(code, 0) + n
        ctx.update(i=ctx["i"] + 1, step=1, bg=0, drawn={}, hide=False, drew=False)

    def _h_story(self, g: G, ask: dict, picks: tuple) -> None:
        s, c = g.s, g.c
        ctx = s.ctx
        ch = self._ch(s, ask["char"])
        if picks[0] == "hide":
            g.say("story_hide", name=self._name(g, ch.id))
            self._story_done(g)
            return
        if ctx["step"] == 1:
            ctx.update(step=2, drew=False)
            return
        # Step III: the Boss deck
        boss = s.boss_deck[-1] if s.boss_deck else None
        if boss is None:
            self._story_done(g)
            return
        b = c.bosses[boss]
        g.say("story_boss", name=self._name(g, ch.id), boss_name=b["name"], character=ch.id, boss=boss)
        self._stress(g, ch, b["attack"] + self._story_bonus(g), b["name"])
        s.rng.shuffle(s.boss_deck)
        if s.over:
            return
        if ch.incapacitated:
            self._story_done(g)
        else:
            self._ask(g, "story_boss", char=ch.id)

    def _h_story_boss(self, g: G, ask: dict, picks: tuple) -> None:
        s = g.s
        if picks[0] == "item":
            self._draw_item(g, ask["char"], ask["char"])
        elif self._move_cubes(s.supply, s.storage, "#", 1):
            g.say("story_barricade")
        self._story_done(g)

    # ================================================================= Day (§4.1-4.4)
    def _start_day(self, g: G, first: bool) -> None:
        s = g.s
        s.phase, s.half, s.days_played = "day", "day", s.days_played + 1
        s.fewer_obstacles = 0
        if first and not g.hr["day1_sunrise_rituals"]:
            s.clock, s.hour = "day", 1
            s.stage, s.ctx = "move", {"used": 0, "moves": 0}
            g.say("day", day=s.ticket, **self._at(g, s.group_at))
            return
        s.clock, s.hour = "sunrise", 0
        s.stage, s.ctx = "sunrise", {}

    def _t_sunrise(self, g: G) -> None:
        s, c = g.s, g.c
        s.nightmare.extend(s.nightmare_discard)
        s.nightmare_discard = []
        s.rng.shuffle(s.nightmare)
        sc = c.scenarios[s.scenario]
        if "foundering" not in sc.get("disabled", ()):
            self._foundering(g)
        card = self._draw_nm(g)
        self._event_of_day(g, c.events[card["event"]])
        if s.over:
            return
        s.clock, s.hour = "day", 1
        s.stage, s.ctx = "move", {"used": 0, "moves": 0}
        g.say("day", day=s.ticket, **self._at(g, s.group_at))

    def _foundering(self, g: G, loc: int | None = None) -> int | None:
        s, c = g.s, g.c
        if len(s.sunken) >= 6:
            return None
        if loc is None:
            loc = self._draw_nm(g)["location"]
        ids = sorted(c.locations)
        target = None
        if loc not in s.sunken:
            target = loc
        else:
            higher = [i for i in ids if i > loc and i not in s.sunken]
            lower = [i for i in ids if i < loc and i not in s.sunken]
            target = higher[0] if higher else (lower[-1] if lower else None)
        if target is None:
            return None
        s.sunken.append(target)
        g.say("sink", location=target, **self._at(g, target))
        return target

    def _event_of_day(self, g: G, ev: dict) -> None:
        s = g.s
        eff, val = ev["effect"], ev.get("value", 0)
        g.say("event", event=ev["id"], event_name=ev["name"])
        if eff == "extra_foundering":
            for _ in range(max(1, val)):
                self._foundering(g)
        elif eff == "barricades":
            if val > 0:
                self._move_cubes(s.supply, s.storage, "#", val)
            else:
                self._move_cubes(s.storage, s.supply, "#", -val)
        elif eff == "random_stress":
            ch = self._random_char(g)
            if ch:
                self._stress(g, ch, val, ev["name"])  # the pack's name of the Event
        elif eff == "first_move_extra":
            s.first_move_extra = val

    def move_options(self, s: GameState) -> list[tuple[str, int, int]]:
        """(direction, destination, Hour cost) of every move the Group may make now."""
        c = _content(s)
        used = s.ctx.get("used", 0)
        left = 4 - used
        out = []
        forced = s.forced_dir if (s.ctx.get("moves", 0) == 0 and s.forced_dir
                                  and self._hr(s)["forced_first_move"]) else ""
        for d, (dest, _extra) in sorted(c.alleys[s.group_at].items()):
            if forced and d != forced:
                continue
            cost = self.move_cost(s, s.group_at, d)
            if cost <= left:
                out.append((d, dest, cost))
        return out

    def move_cost(self, s: GameState, frm: int, d: str) -> int:
        c = _content(s)
        dest, extra = c.alleys[frm][d]
        cost = 1 + extra + (1 if frm in s.sunken else 0)
        if s.ctx.get("moves", 0) == 0:
            cost += s.first_move_extra
        return cost

    def _hr(self, s: GameState) -> dict:
        return {**DEFAULT_HOUSE_RULES, **(s.house_rules or {})}

    def _must_move(self, s: GameState) -> bool:
        return bool(s.ctx.get("moves", 0) == 0 and s.forced_dir and self._hr(s)["forced_first_move"]
                    and self.move_options(s))

    def _t_move(self, g: G) -> None:
        s = g.s
        if self.move_options(s):
            self._ask(g, "move")
        else:
            self._end_movement(g)

    def _h_move(self, g: G, ask: dict, picks: tuple) -> None:
        s = g.s
        pick = picks[0]
        if pick == "stop":
            self._end_movement(g)
            return
        d = pick.split(".")[1]
        opts = {o[0]: o for o in self.move_options(s)}
        _, dest, cost = opts[d]
        frm = s.group_at
        s.group_at = dest
        s.ctx["used"] += cost
        s.ctx["moves"] += 1
        s.hour = min(4, s.ctx["used"] + 1)
        g.say("move", dir=dir_term(d), frm=frm, to=dest, to_name=g.c.locations[dest]["name"], cost=cost)

    def _end_movement(self, g: G) -> None:
        s = g.s
        s.forced_dir = ""
        s.first_move_extra = 0
        used = s.ctx.get("used", 0)
        if used >= 4:
            self._start_sunset(g)
            return
        s.hour = used + 1
        s.stage, s.ctx = "dayact", {"i": 0}

    def _t_dayact(self, g: G) -> None:
        s = g.s
        ctx = s.ctx
        while ctx["i"] < len(s.characters) and s.characters[ctx["i"]].incapacitated:
            ctx["i"] += 1
        if ctx["i"] >= len(s.characters):
            if s.hour >= 4:
                self._start_sunset(g)
            else:
                s.hour += 1
                ctx["i"] = 0
            return
        self._ask(g, "dayact", char=s.characters[ctx["i"]].id)

    def day_action_options(self, s: GameState, cid: str) -> list[Option]:
        c = _content(s)
        ch = self._ch(s, cid)
        cd = c.characters[cid]
        opts = [Option.of("rest", "rest"), Option.of("barr", "barricades", n=s.supply.get("#", 0)),
                Option.of("search", "search")]
        ab = cd["day_ability"]
        if ab != "none" and self._ability_usable(s, cid, ab):
            opts.append(Option.of("abil", f"ability_{ab}" if ab in DAY_ABILITIES else "ability", ability=ab))
        sp = c.locations[s.group_at].get("special")
        if sp and not (sp == "call_airship" and s.airship_called):
            opts.append(Option.of("spec", "special", special=c.specials.get(sp, {}).get("name", sp)))
        for other in s.characters:
            if other.incapacitated:
                opts.append(Option.of(f"rean.{other.id}", "reanimate", name=c.characters[other.id]["name"]))
        for k, it in enumerate(ch.items):
            item = c.items[it]
            if "day" in item.get("when", ()) and item.get("effect", "none") not in ("none", "holy_bomb"):
                opts.append(Option.of(f"use.{k}", "use_item", item_name=item["name"]))
        return opts[:25]

    def _ability_usable(self, s: GameState, cid: str, ab: str) -> bool:
        if ab == "treatment":
            return any(o.id != cid and not o.incapacitated for o in s.characters)
        if ab == "barter":
            return bool(s.item_decks.get(cid))
        return True

    def _h_dayact(self, g: G, ask: dict, picks: tuple) -> None:
        s, c = g.s, g.c
        ch = self._ch(s, ask["char"])
        name = self._name(g, ch.id)
        pick = picks[0]
        done = True
        if pick == "rest":
            g.say("rest", name=name)
            self._stress(g, ch, -2, term("why_rest"))
        elif pick == "barr":
            n = self._move_cubes(s.supply, s.storage, "#", 3)
            g.say("gather", name=name, n=n, storage=s.storage["#"])
        elif pick == "search":
            g.say("search", name=name)
            card = self._draw_nm(g)
            done = self._search_result(g, ch, card["search"])
        elif pick == "abil":
            done = self._day_ability(g, ch)
        elif pick == "spec":
            sp = c.locations[s.group_at].get("special")
            if sp == "arsenal_search":
                self._ask(g, "target", char=ch.id, purpose="arsenal")
                done = False
            elif sp == "call_airship":
                s.airship_called = True
                g.say("airship_called", name=name)
        elif pick.startswith("rean."):
            tgt = self._ch(s, pick[5:])
            tgt.incapacitated = False
            tgt.stress = c.terror_from
            g.say("reanimate", name=name, other=self._name(g, tgt.id), stress=tgt.stress)
        elif pick.startswith("use."):
            self._use_item(g, ch, int(pick[4:]))
            if not s.over:
                self._ask(g, "dayact", char=ch.id)
            return
        if done and not s.over:
            s.ctx["i"] += 1

    def _search_result(self, g: G, ch: Character, result: str) -> bool:
        s = g.s
        name = self._name(g, ch.id)
        if result == "survivor" and s.supply.get("S", 0) <= 0:
            result = "item"
        if result == "item":
            g.say("search_item", name=name)
            self._draw_item(g, ch.id, ch.id)
        elif result == "survivor":
            self._move_cubes(s.supply, s.abyss, "S", 1)
            g.say("search_survivor", name=name)
        else:
            g.say("search_infected", name=name)
            self._stress(g, ch, 1, term("why_search"))
            if s.over or ch.incapacitated:
                return True
            self._ask(g, "search_inf", char=ch.id)
            return False
        return True

    def _h_search_inf(self, g: G, ask: dict, picks: tuple) -> None:
        s = g.s
        ch = self._ch(s, ask["char"])
        self._search_result(g, ch, "survivor" if picks[0] == "surv" else "item")
        s.ctx["i"] += 1

    def _day_ability(self, g: G, ch: Character) -> bool:
        s, c = g.s, g.c
        ab = c.characters[ch.id]["day_ability"]
        name = self._name(g, ch.id)
        if ab == "rally":
            g.say("rally", name=name)
            for o in self._active(s):
                if o.id != ch.id:
                    self._stress(g, o, -1, term("why_rally"))
        elif ab == "exploration":
            s.fewer_obstacles += 2
            g.say("explore", name=name, n=2)
        elif ab == "fortify":
            n = self._move_cubes(s.supply, s.storage, "#", 4)
            g.say("fortify", name=name, n=n)
        elif ab == "scavenge":
            r1, r2 = self._draw_nm(g)["search"], self._draw_nm(g)["search"]
            g.say("scavenge", name=name, first=term(f"found_{r1}"), second=term(f"found_{r2}"))
            if r1 == r2:
                return self._search_result(g, ch, r1)
            self._ask(g, "scavenge", char=ch.id, results=[r1, r2])
            return False
        elif ab == "barter":
            deck = s.item_decks.get(ch.id) or []
            if deck:
                self._ask(g, "target", char=ch.id, purpose="barter")
                return False
        elif ab == "treatment":
            self._ask(g, "target", char=ch.id, purpose="treatment")
            return False
        return True

    def _h_scavenge(self, g: G, ask: dict, picks: tuple) -> None:
        ch = self._ch(g.s, ask["char"])
        if self._search_result(g, ch, picks[0][2:]):
            g.s.ctx["i"] += 1

    def _h_target(self, g: G, ask: dict, picks: tuple) -> None:
        s = g.s
        ch = self._ch(s, ask["char"])
        tgt = self._ch(s, picks[0][2:])
        purpose = ask["purpose"]
        if purpose == "arsenal":
            g.say("arsenal", name=self._name(g, ch.id), other=self._name(g, tgt.id))
            self._draw_item(g, tgt.id, tgt.id)
        elif purpose == "barter":
            g.say("barter", name=self._name(g, ch.id), other=self._name(g, tgt.id))
            self._draw_item(g, ch.id, tgt.id)
        elif purpose == "treatment":
            g.say("treatment", name=self._name(g, ch.id), other=self._name(g, tgt.id))
            self._stress(g, tgt, -3, term("why_treatment"))
        elif purpose == "heal2":
            self._stress(g, tgt, -2, term("why_reward"))
            if tgt.paranoia:
                tgt.paranoia = False
                s.storage["P"] = s.storage.get("P", 0) + 1
            return
        s.ctx["i"] += 1

    # ----------------------------------------------------------------- Items
    def _use_item(self, g: G, ch: Character, k: int) -> None:
        s, c = g.s, g.c
        item_id = ch.items[k]
        item = c.items[item_id]
        eff, val = item.get("effect", "none"), item.get("value", 1)
        name = self._name(g, ch.id)
        g.say("item_use", name=name, item_name=item["name"], item=item_id, character=ch.id)
        if item.get("single_use"):
            ch.items.pop(k)
        if eff == "recover":
            self._stress(g, ch, -val, item["name"])
        elif eff == "group_recover":
            for o in self._active(s):
                self._stress(g, o, -val, item["name"])
        elif eff == "barricades":
            self._move_cubes(s.supply, s.storage, "#", val)
        elif eff == "survivor":
            self._move_cubes(s.supply, s.storage, "S", val)
        elif eff == "fewer_obstacles":
            s.fewer_obstacles += val
        elif eff == "fireworks" and s.night and ch.refuge:
            self._fireworks(g, ch, val)

    def _fireworks(self, g: G, ch: Character, n: int) -> None:
        """Eliminate up to n Infected (never Bosses) in the holder's Pit, nearest first, strongest first."""
        s, c = g.s, g.c
        nt = s.night
        killed = 0
        for cave in (ch.refuge + "1", ch.refuge + "2"):
            for k, occ in enumerate(nt.boxes[cave]):
                if killed < n and occ in c.infected:
                    nt.boxes[cave][k] = ""
                    self._to_pile_or_abyss(g, cave, occ)
                    killed += 1
        for ring in (1, 2, 3):
            for t in c.strength_order:
                for cave in (ch.refuge + "1", ch.refuge + "2"):
                    sp = nt.rings[f"{cave}.{ring}"]
                    while killed < n and sp.get(t, 0) > 0:
                        sp[t] -= 1
                        self._to_pile_or_abyss(g, cave, t)
                        killed += 1
        g.say("fireworks", killed=killed)

    def _to_pile_or_abyss(self, g: G, cave: str, code: str) -> None:
        s = g.s
        if s.night.forts.get(cave[0]) == "altar":
            s.abyss[code] = s.abyss.get(code, 0) + 1
        else:
            s.pile[code] = s.pile.get(code, 0) + 1
            s.night.pile_killed += 1

    # ================================================================= Sunset (§4.5)
    def _start_sunset(self, g: G) -> None:
        s, c = g.s, g.c
        s.phase = "sunset"
        s.clock, s.hour = "sunset", 0
        s.half = "night"
        if s.group_at in s.sunken:
            g.say("sunset_sunken")
            self._end(g, "loss", "sunken")
            return
        sc = c.scenarios[s.scenario]
        s.night = Night(rings={sp: {} for sp in SPACES}, boxes={cv: ["", "", ""] for cv in CAVES})
        if sc.get("finale"):
            s.night.finale = sc["finale"]
            self._finale_start(g)
        s.stage, s.ctx = "s_finale", {}
        g.say("sunset", **self._at(g, s.group_at))

    def finale_options(self, s: GameState) -> list[str]:
        c = _content(s)
        hr = self._hr(s)
        if s.night and s.night.finale:
            return []
        if s.ticket < self._last_ticket(s) and not hr["allow_early_finale"]:
            return []
        out = []
        for fid, f in c.finales.items():
            if s.group_at not in f["locations"]:
                continue
            req = f.get("requires", "none")
            if req == "airship_called" and not s.airship_called:
                continue
            item = self._finale_item(f)
            if item and not any(item in ch.items for ch in self._active(s)):
                continue
            out.append(fid)
        return out

    def _last_ticket(self, s: GameState) -> int:
        c = _content(s)
        return c.scenarios[s.scenario].get("days", 3)

    def _t_s_finale(self, g: G) -> None:
        s, c = g.s, g.c
        if not s.ctx.get("asked") and self.finale_options(s):
            s.ctx["asked"] = True
            self._ask(g, "finale")
            return
        sc = c.scenarios[s.scenario]
        if (sc["kind"] == "day_night" and "victory" not in sc and s.ticket >= self._last_ticket(s)
                and not s.night.finale and g.hr["leviathan_check"] == "sunset"):
            g.say("leviathan")
            self._end(g, "loss", "leviathan_sunset")
            return
        self._start_terrains(g)

    def _h_finale(self, g: G, ask: dict, picks: tuple) -> None:
        if picks[0] != "no":
            g.s.night.finale = picks[0][4:]
            self._finale_start(g)

    def _finale_start(self, g: G) -> None:
        s, c = g.s, g.c
        f = c.finales[s.night.finale]
        s.night.hull = f.get("hull", 0)
        g.say("finale", finale=f["id"], finale_name=f["name"])

    def _start_terrains(self, g: G) -> None:
        s, c = g.s, g.c
        loc = c.locations[s.group_at]
        black, blue, forts = loc.get("black", 0), loc.get("blue", 0), loc.get("forts", 0)
        s.stage = "s_terrain"
        s.ctx = {"todo": []}
        fewer = min(s.fewer_obstacles, black + blue)
        s.fewer_obstacles = 0
        if fewer and black and blue:
            s.ctx["fewer"] = fewer
            s.ctx["counts"] = [black, blue, forts]
            self._ask(g, "explore", n=fewer)
            return
        if fewer:
            black, blue = (black - fewer, blue) if black else (black, blue - fewer)
        self._terrain_todo(g, black, blue, forts)

    def _terrain_todo(self, g: G, black: int, blue: int, forts: int) -> None:
        # The rulebook's example places the blue Obstacles first; the order among Obstacles is free.
        g.s.ctx["todo"] = ["blue"] * max(0, blue) + ["black"] * max(0, black) + ["fort"] * forts

    def _h_explore(self, g: G, ask: dict, picks: tuple) -> None:
        s = g.s
        black, blue, forts = s.ctx["counts"]
        nb = int(picks[0][1:])
        drop_black, drop_blue = nb, s.ctx["fewer"] - nb
        g.say("explored", black=drop_black, blue=drop_blue)
        self._terrain_todo(g, black - drop_black, blue - drop_blue, forts)

    def explore_choices(self, s: GameState) -> list[int]:
        black, blue, _ = s.ctx["counts"]
        n = s.ctx["fewer"]
        return [nb for nb in range(0, n + 1) if nb <= black and n - nb <= blue]

    def _t_s_terrain(self, g: G) -> None:
        s, c = g.s, g.c
        todo = s.ctx["todo"]
        if not todo:
            s.stage, s.ctx = "s_barr", {}
            return
        kind = todo.pop(0)
        if kind == "fort":
            if not s.fort_tiles:
                return
            terrain = s.fort_tiles.pop()
            cave = self._draw_nm(g)["cave"]
            if cave == "choice":
                self._ask(g, "terrain_pit", terrain=terrain)
            else:
                self.place_fort(g, terrain, cave[0])
        else:
            if not s.tiles:
                return
            tile = c.tiles[s.tiles.pop()]
            terrain = next((f for f in tile if c.terrains[f].get("colour") == kind), tile[0 if kind == "black" else 1])
            cave = self._draw_nm(g)["cave"]
            if cave == "choice":
                self._ask(g, "terrain_cave", terrain=terrain)
            else:
                self.place_obstacle(g, terrain, cave)

    def place_obstacle(self, g: G, terrain: str, cave: str) -> str | None:
        s, c = g.s, g.c
        ring = c.terrains[terrain].get("ring", 1)
        start = CLOCKWISE.index(cave)
        for k in range(8):
            cv = CLOCKWISE[(start + k) % 8]
            sp = f"{cv}.{ring}"
            if sp not in s.night.obstacles:
                s.night.obstacles[sp] = terrain
                g.say("terrain", terrain_name=c.terrains[terrain]["name"], ring=ROMAN.get(ring, str(ring)), cave=cv,
                      terrain=terrain, space=sp)
                return sp
        return None

    def place_fort(self, g: G, terrain: str, pit: str) -> str | None:
        s, c = g.s, g.c
        start = PIT_CW.index(pit)
        for k in range(4):
            p = PIT_CW[(start + k) % 4]
            if p not in s.night.forts:
                s.night.forts[p] = terrain
                g.say("fortification", terrain_name=c.terrains[terrain]["name"], dir=dir_term(p), terrain=terrain,
                      pit=p)
                return p
        return None

    def _h_terrain_cave(self, g: G, ask: dict, picks: tuple) -> None:
        self.place_obstacle(g, ask["terrain"], picks[0])

    def _h_terrain_pit(self, g: G, ask: dict, picks: tuple) -> None:
        self.place_fort(g, ask["terrain"], picks[0])

    def _t_s_barr(self, g: G) -> None:
        s = g.s
        if s.ctx.get("custom") is not None:
            k = s.ctx["custom"]
            if k >= 8 or s.storage["#"] <= 0:
                self._barr_done(g)
                return
            self._ask(g, "barr_cave", cave=CLOCKWISE[k])
            return
        if s.storage.get("#", 0) <= 0:
            self._barr_done(g)
            return
        self._ask(g, "barricades")

    def _h_barricades(self, g: G, ask: dict, picks: tuple) -> None:
        s = g.s
        if picks[0] == "custom":
            s.ctx["custom"] = 0
            return
        if picks[0] == "even":
            n = min(24, s.storage["#"])
            k = 0
            while n > 0:
                slot, cave = divmod(k, 8)
                s.night.boxes[CLOCKWISE[cave]][slot] = "#"
                n -= 1
                k += 1
                s.storage["#"] -= 1
        elif picks[0].startswith("pit."):
            order = [p for p in PIT_CW if p != picks[0][4:]]
            pits = [picks[0][4:]] + order
            for p in pits:
                for cave in (p + "1", p + "2"):
                    for slot in range(3):
                        if s.storage["#"] > 0:
                            s.night.boxes[cave][slot] = "#"
                            s.storage["#"] -= 1
        self._barr_done(g)

    def _h_barr_cave(self, g: G, ask: dict, picks: tuple) -> None:
        s = g.s
        n = int(picks[0][1:])
        for slot in range(n):
            s.night.boxes[ask["cave"]][slot] = "#"
        s.storage["#"] -= n
        s.ctx["custom"] += 1

    def _barr_done(self, g: G) -> None:
        s = g.s
        placed = {cv: s.night.boxes[cv].count("#") for cv in CAVES}
        g.say("barricades", caves=[f"{cv} {n}" for cv, n in placed.items() if n], storage=s.storage["#"],
              placed=placed)
        s.stage, s.ctx = "s_enter", {"i": 0}

    def _t_s_enter(self, g: G) -> None:
        s = g.s
        i = s.ctx["i"]
        while i < len(s.characters) and s.characters[i].incapacitated:
            i += 1
        s.ctx["i"] = i
        if i >= len(s.characters):
            s.stage, s.ctx = "s_boss", {"step": "old", "k": 0}
            return
        self._ask(g, "enter", char=s.characters[i].id)

    def _h_enter(self, g: G, ask: dict, picks: tuple) -> None:
        s = g.s
        ch = self._ch(s, ask["char"])
        ch.refuge = picks[0]
        g.say("enter", name=self._name(g, ch.id), dir=dir_term(ch.refuge), character=ch.id, pit=ch.refuge)
        s.ctx["i"] += 1

    def _t_s_boss(self, g: G) -> None:
        s, c = g.s, g.c
        ctx = s.ctx
        if ctx["step"] == "old":
            k = ctx["k"]
            while k < len(s.boss_area) and (s.boss_area[k] is None or s.boss_area[k].pos):
                k += 1
            if k < len(s.boss_area):
                ctx["k"] = k + 1
                self._boss_enter(g, k)
                return
            sc = c.scenarios[s.scenario]
            n = 0 if "bosses" in sc.get("disabled", ()) else c.calendar[s.ticket][s.difficulty]
            free = sum(1 for b in s.boss_area if b is None)
            ctx.update(step="new", n=min(n, len(s.boss_deck), free))
            s.rng.shuffle(s.boss_deck)
            return
        if ctx["n"] > 0:
            ctx["n"] -= 1
            boss = s.boss_deck.pop()
            k = s.boss_area.index(None)
            s.boss_area[k] = BossSlot(boss=boss)
            g.say("boss", boss_name=c.bosses[boss]["name"], boss=boss, slot=k + 1)
            self._boss_enter(g, k)
            return
        self._start_hour(g, 1)

    def _boss_enter(self, g: G, k: int) -> None:
        cave = self._draw_nm(g)["cave"]
        if cave == "choice":
            self._ask(g, "boss_cave", slot=k)
        else:
            self.place_boss(g, k, cave)

    def place_boss(self, g: G, k: int, cave: str) -> None:
        s, c = g.s, g.c
        ring = 2 if s.night.obstacles.get(f"{cave}.3") == "pier" else 3
        b = s.boss_area[k]
        b.pos = f"{cave}.{ring}"
        g.say("boss_enter", boss_name=c.bosses[b.boss]["name"], ring=ROMAN[ring], cave=cave, boss=b.boss,
              space=b.pos)

    def _h_boss_cave(self, g: G, ask: dict, picks: tuple) -> None:
        self.place_boss(g, ask["slot"], picks[0])

    # ================================================================= Night (§4.6)
    def night_hours(self, s: GameState) -> int:
        return _content(s).scenarios[s.scenario].get("night_hours", 3)

    def _start_hour(self, g: G, h: int) -> None:
        s, c = g.s, g.c
        s.phase, s.clock, s.hour = "night", "night", h
        s.night.hour = h
        for ch in s.characters:
            ch.order_token = False
        s.stage, s.ctx = "n_items", {"i": 0, "flags": []}
        g.say("hour", night=s.ticket, hour=h)
        sc = c.scenarios[s.scenario]
        if sc.get("extra_bosses_hour") == h and h > 1:
            free = sum(1 for b in s.boss_area if b is None)
            n = min(c.calendar[1][s.difficulty], len(s.boss_deck), free)
            s.rng.shuffle(s.boss_deck)
            for _ in range(n):
                boss = s.boss_deck.pop()
                k = s.boss_area.index(None)
                s.boss_area[k] = BossSlot(boss=boss)
                cave = self._draw_nm(g)["cave"]
                self.place_boss(g, k, cave if cave != "choice" else s.rng.choice(CAVES))

    def _usable_night_items(self, s: GameState, ch: Character) -> list[int]:
        c = _content(s)
        out = []
        for k, it in enumerate(ch.items):
            item = c.items[it]
            when = item.get("when", ())
            if item.get("effect", "none") in ("none", "holy_bomb"):
                continue
            if "night_step1" in when or ("night_first_hour" in when and s.night.hour == 1):
                out.append(k)
        return out

    def _t_n_items(self, g: G) -> None:
        s = g.s
        i = s.ctx["i"]
        while i < len(s.characters) and (s.characters[i].incapacitated
                                         or not self._usable_night_items(s, s.characters[i])):
            i += 1
        s.ctx["i"] = i
        if i >= len(s.characters):
            s.stage = "n_entrance"
            return
        self._ask(g, "item_use", char=s.characters[i].id)

    def _h_item_use(self, g: G, ask: dict, picks: tuple) -> None:
        s = g.s
        ch = self._ch(s, ask["char"])
        if picks[0] == "done":
            s.ctx["i"] += 1
            return
        self._use_item(g, ch, int(picks[0][4:]))

    def _t_n_entrance(self, g: G) -> None:
        s, c = g.s, g.c
        nt = s.night
        fin = c.finales.get(nt.finale, {}) if nt.finale else {}
        pits = fin.get("entrance_pits") or PITS
        per = fin.get("entrance_cubes", 3)
        drawn: dict[str, Any] = {}
        for cave in CAVES:
            if cave[0] not in pits:
                continue
            ring = 2 if nt.obstacles.get(f"{cave}.3") == "pier" else 3
            for _ in range(per):
                code = self._enter_cube(g, cave, ring)
                if code:
                    drawn[code] = drawn.get(code, 0) + 1
        if s.sabotage:
            cave, s.sabotage = s.sabotage, ""
            n = 0
            for _ in range(2):
                code = self._enter_cube(g, cave, 2 if nt.obstacles.get(f"{cave}.3") == "pier" else 3)
                if code:
                    drawn[code] = drawn.get(code, 0) + 1
                    n += 1
            g.say("sabotaged", n=n, cave=cave)
        for sp, terrain in sorted(nt.obstacles.items()):
            if terrain == "manhole":
                code = self._enter_cube(g, sp[:2], 2)
                if code:
                    drawn[code] = drawn.get(code, 0) + 1
        g.say("entrance" if drawn else "entrance_none", drawn=drawn, **self._cube_words(g, drawn))
        s.stage = "n_move"

    def _cube_words(self, g: G, cubes: dict) -> dict:
        """Counts of cubes for a sentence: the Infected by their names, Survivors and Paranoia as numbers."""
        infected = [f"{n} {g.c.infected[k]['name']}" for k, n in sorted(cubes.items()) if k in g.c.infected and n]
        return {"infected": infected, "survivors": cubes.get("S", 0), "paranoia": cubes.get("P", 0)}

    def _enter_cube(self, g: G, cave: str, ring: int) -> str | None:
        s = g.s
        code = self._draw_cube(g)
        if code is None:
            return None
        if code == "P":
            s.storage["P"] = s.storage.get("P", 0) + 1
            self._paranoia(g, cave[0])
        else:
            sp = s.night.rings[f"{cave}.{ring}"]
            sp[code] = sp.get(code, 0) + 1
        return code

    def paranoia_targets(self, s: GameState, pit: str) -> list[Character]:
        free = [ch for ch in self._active(s) if not ch.paranoia]
        here = [ch for ch in free if ch.refuge == pit]
        return here or free

    def _paranoia(self, g: G, pit: str, auto: bool = False) -> None:
        s = g.s
        targets = self.paranoia_targets(s, pit)
        if not targets:
            g.say("paranoia_none")
            return
        if auto:
            self._give_paranoia(g, targets[0])
        else:
            # Always through the queue: `_run` re-checks the candidates when its turn comes.
            s.queue.append({"kind": "paranoia", "pit": pit})

    def _give_paranoia(self, g: G, ch: Character) -> None:
        s = g.s
        if s.storage.get("P", 0) <= 0 or ch.paranoia or ch.incapacitated:
            return
        s.storage["P"] -= 1
        ch.paranoia = True
        g.say("paranoia", name=self._name(g, ch.id), character=ch.id)

    def _h_paranoia(self, g: G, ask: dict, picks: tuple) -> None:
        self._give_paranoia(g, self._ch(g.s, picks[0]))

    # ----------------------------------------------------------------- movement
    def _t_n_move(self, g: G) -> None:
        s = g.s
        self.move_enemies(g)
        s.stage, s.ctx = "n_activate", {"i": 0, "acts": 0, "heal": False, "orders": 0, "fmove": False,
                                         "flags": s.ctx.get("flags", [])}
        # The Survivor delay ends at the start of the Characters' Activation of the next Hour (A23).
        for b in s.boss_area:
            if b and b.survivor and b.survivor_hour < s.night.hour:
                b.survivor = False
                s.gamebox["S"] = s.gamebox.get("S", 0) + 1

    def _boss_power(self, s: GameState, b: BossSlot) -> tuple[str, int]:
        if b.survivor:
            return "none", 0
        bd = _content(s).bosses[b.boss]
        return bd.get("power", "none"), bd.get("power_value", 1)

    def move_enemies(self, g: G) -> None:
        s, c = g.s, g.c
        nt = s.night
        cost = 1 if g.hr["box_entry_costs_move"] else 0
        moved = 0
        for b in s.boss_area:
            if b and b.pos and not b.pos.endswith(".b"):
                power, val = self._boss_power(s, b)
                if power == "summon":
                    for _ in range(val):
                        code = self._draw_cube(g)
                        if code is None:
                            break
                        if code == "P":
                            s.storage["P"] = s.storage.get("P", 0) + 1
                            self._paranoia(g, b.pos[0], auto=True)
                        else:
                            sp = nt.rings[b.pos]
                            sp[code] = sp.get(code, 0) + 1
                    g.say("boss_power", boss_name=c.bosses[b.boss]["name"], boss=b.boss)
        for cave in CAVES:
            rally = 0
            bosses = [(k, b) for k, b in enumerate(s.boss_area)
                      if b and b.pos.startswith(cave) and not b.pos.endswith(".b")]
            for _k, b in bosses:
                power, val = self._boss_power(s, b)
                if power == "rally":
                    rally += val
            bosses.sort(key=lambda kb: (-c.bosses[kb[1].boss]["attack"], kb[0]))
            for k, b in bosses:
                if b.survivor:
                    continue
                ring = int(b.pos[3])
                mv = c.bosses[b.boss]["move"]
                new = self._advance(g, cave, ring, mv, cost, boss_slot=k)
                if new != b.pos:
                    moved += 1
                b.pos = new
            movers = []
            for ring in (1, 2, 3):
                sp = nt.rings[f"{cave}.{ring}"]
                for t in c.strength_order:
                    movers.extend([(t, ring)] * sp.get(t, 0))
            for t, ring in movers:
                mv = c.infected[t]["move"] + rally
                if mv <= 0:
                    continue
                nt.rings[f"{cave}.{ring}"][t] -= 1
                new = self._advance(g, cave, ring, mv, cost, code=t)
                if new != f"{cave}.b":
                    nt.rings[new][t] = nt.rings[new].get(t, 0) + 1
                if new != f"{cave}.{ring}":
                    moved += 1
        inside = sum(1 for cv in CAVES for x in nt.boxes[cv] if x and x != "#")
        g.say("movement", moved=moved, inside=inside)

    def _advance(self, g: G, cave: str, ring: int, mv: int, cost: int, code: str = "",
                 boss_slot: int = -1) -> str:
        nt = g.s.night
        while mv > 0 and ring > 1:
            ring -= 1
            mv -= 1
        if ring == 1 and mv >= cost:
            boxes = nt.boxes[cave]
            if boss_slot >= 0:
                if all(x == "" for x in boxes):
                    nt.boxes[cave] = [f"@{boss_slot}"] * 3
                    return f"{cave}.b"
            else:
                barricaded = "#" in boxes and nt.obstacles.get(f"{cave}.1") != "catacomb"
                if not barricaded and "" in boxes:
                    boxes[boxes.index("")] = code
                    return f"{cave}.b"
        return f"{cave}.{ring}"

    # ----------------------------------------------------------------- activation
    def _t_n_activate(self, g: G) -> None:
        s = g.s
        ctx = s.ctx
        i = ctx["i"]
        while i < len(s.characters) and s.characters[i].incapacitated:
            i += 1
        ctx["i"] = i
        if i >= len(s.characters):
            s.night.focus = {}
            s.stage, s.ctx = "n_attack", {"list": self._attackers(g, None), "k": 0, "auto": False}
            return
        if [o.id for o in self.act_options(s, s.characters[i].id)] == ["end"]:
            g.say("nothing_to_do", name=self._name(g, s.characters[i].id))
            self._next_char(g)
            return
        self._ask(g, "act", char=s.characters[i].id)

    def _next_char(self, g: G) -> None:
        s = g.s
        s.night.focus = {}
        s.ctx.update(i=s.ctx["i"] + 1, acts=0, heal=False, fmove=False)

    def pit_caves(self, pit: str) -> tuple[str, str]:
        return (pit + "1", pit + "2")

    def enemies_in_boxes(self, s: GameState, pit: str) -> bool:
        return any(x and x != "#" for cv in self.pit_caves(pit) for x in s.night.boxes[cv])

    def _weapons(self, s: GameState, ch: Character, kind: str) -> list[tuple[str, dict]]:
        c = _content(s)
        cd = c.characters[ch.id]
        if kind == "fire":
            out = [("s", {"name": cd["firearm"].get("name", ""), **cd["firearm"]})]
        else:
            out = [("s", {"name": "", "assault": list(cd["assault"])})]
        for k, it in enumerate(ch.items):
            item = c.items[it]
            if kind == "fire" and item["kind"] == "firearm":
                out.append((f"i{k}", item))
            if kind == "assault" and item["kind"] == "assault":
                out.append((f"i{k}", item))
        return out

    def act_options(self, s: GameState, cid: str) -> list[Option]:
        c = _content(s)
        ch = self._ch(s, cid)
        ctx = s.ctx
        nt = s.night
        acts = ctx.get("acts", 0)
        opts: list[Option] = []
        can_act = acts == 0 or (acts == 1 and not ch.paranoia)
        # what a second Action costs, shown on its options: nothing with an Order Token, else 1 Stress
        cost = "first" if acts == 0 else ("order" if ch.order_token else "stress")
        na = c.characters[cid]["night_ability"]
        if can_act:
            for p in PITS:
                if p != ch.refuge:
                    opts.append(Option.of(f"mv.{p}", f"move_{cost}", dir=dir_term(p)))
            spaces = self.fire_spaces(s, ch)
            if spaces:
                jerry = nt.forts.get(ch.refuge) == "jerrycans" and self._jerry_source(s, ch.refuge)
                for w, wd in self._weapons(s, ch, "fire"):
                    if not any(int(sp[3]) <= wd["range"] for sp in spaces):
                        continue
                    boxes = "_boxes" if self.enemies_in_boxes(s, ch.refuge) else ""
                    expl = "_explosive" if wd.get("explosive") else ""
                    weapon = {"weapon": wd["name"] or term("firearm"), "hits": wd["hits"], "wounds": wd["wounds"],
                              "range": wd["range"]}
                    opts.append(Option.of(f"fire.{w}", f"fire{expl}_{cost}{boxes}", **weapon))
                    if jerry and not wd.get("explosive"):
                        opts.append(Option.of(f"fireJ.{w}", f"fire_jerrycans_{cost}{boxes}", **weapon))
            if self.assault_targets(s, ch, dawn=False):
                for w, wd in self._weapons(s, ch, "assault"):
                    opts.append(Option.of(f"asl.{w}", f"assault_{cost}", weapon=wd["name"] or term("bare_hands"),
                                          hits="/".join(map(str, wd["assault"]))))
            if s.storage.get("S", 0) > 0:
                for k, b in enumerate(s.boss_area):
                    if b and b.pos and not b.survivor:
                        opts.append(Option.of(f"surv.{k}", f"survivor_{cost}", boss_name=c.bosses[b.boss]["name"]))
        if na == "medico_heal" and not ctx.get("heal"):
            for o in self._active(s):
                if o.refuge == ch.refuge and (o.stress > 0 or o.paranoia):
                    opts.append(Option.of(f"heal.{o.id}", "soothe", name=c.characters[o.id]["name"]))
        if na == "orders" and ctx.get("orders", 0) < 3:
            for o in self._active(s):
                if o.id != cid and not o.order_token:
                    opts.append(Option.of(f"order.{o.id}", "order", name=c.characters[o.id]["name"]))
        if na == "free_move" and not ctx.get("fmove"):
            for p in PITS:
                if p != ch.refuge:
                    opts.append(Option.of(f"fmv.{p}", "free_move", dir=dir_term(p)))
        for k, it in enumerate(ch.items):
            item = c.items[it]
            if "night" in item.get("when", ()) and item.get("effect", "none") not in ("none", "holy_bomb"):
                opts.append(Option.of(f"use.{k}", "use_item", item_name=item["name"]))
        opts.append(Option.of("end", "pass" if acts == 0 else "end_activation"))
        return opts[-25:] if len(opts) > 25 else opts

    def _jerry_source(self, s: GameState, pit: str) -> str | None:
        for cv in self.pit_caves(pit) + tuple(c for c in CAVES if c[0] != pit):
            if "#" in s.night.boxes[cv]:
                return cv
        return None

    def fire_spaces(self, s: GameState, ch: Character, rng_limit: int = 9) -> list[str]:
        """Ring spaces this Character may target with a Fire Action now (rule (b) and Building)."""
        nt = s.night
        caves = list(self.pit_caves(ch.refuge))
        if nt.forts.get(ch.refuge) == "belltower":
            caves += list(BELLTOWER[ch.refuge])
        out = []
        for cave in caves:
            for ring in (1, 2, 3):
                sp = f"{cave}.{ring}"
                if self._enemies_at(s, sp):
                    if nt.obstacles.get(f"{cave}.1") == "building" and ring != 1:
                        break
                    out.append(sp)
                    break
        return out

    def _enemies_at(self, s: GameState, sp: str) -> bool:
        c = _content(s)
        if any(s.night.rings[sp].get(t, 0) for t in c.infected):
            return True
        return any(b and b.pos == sp for b in s.boss_area)

    def _infected_at(self, s: GameState, sp: str) -> bool:
        c = _content(s)
        return any(s.night.rings[sp].get(t, 0) for t in c.infected)

    def hit_options(self, s: GameState) -> list[Option]:
        """Targets for the next Hit of the action in progress."""
        c = _content(s)
        h = s.ctx["hit"]
        opts = []
        if h["mode"] == "fire":
            for sp in h["spaces"]:
                if int(sp[3]) > h["range"] or not self._enemies_at(s, sp):
                    continue
                if h["explosive"]:
                    opts.append(Option.of(sp, "explode", cave=sp[:2], ring=ROMAN[int(sp[3])],
                                          targets=self._space_desc(s, sp)))
                    continue
                opts += self._single_targets(s, sp, shield=True)
        else:
            for sp in h["spaces"]:
                if sp.endswith(".b"):
                    cave = sp[:2]
                    seen = set()
                    for x in s.night.boxes[cave]:
                        if x and x != "#" and x not in seen:
                            seen.add(x)
                            if x.startswith("@"):
                                b = s.boss_area[int(x[1:])]
                                opts.append(Option.of(f"{cave}.b.{x}", "boss_in_boxes", boss_name=c.bosses[b.boss]["name"],
                                                      cave=cave, wounds=b.wounds, life=c.bosses[b.boss]["life"]))
                            else:
                                opts.append(Option.of(f"{cave}.b.{x}", "infected_in_box",
                                                      infected_name=c.infected[x]["name"], cave=cave))
                else:
                    opts += self._single_targets(s, sp, shield=True)
        if len(h["hits"]) > 1:     # the rest of the Hits, each on the first target listed (nearest, strongest)
            opts.append(Option.of("auto", "aim_rest", n=len(h["hits"])))
        opts.append(Option.of("waste", "waste"))
        return opts[-25:] if len(opts) > 25 else opts

    def _single_targets(self, s: GameState, sp: str, shield: bool) -> list[Option]:
        c = _content(s)
        opts = []
        ring = ROMAN[int(sp[3])]
        for t in c.infected_order:
            if s.night.rings[sp].get(t, 0):
                hurt = s.night.focus.get(f"{sp}.{t}")
                where = {"infected_name": c.infected[t]["name"], "cave": sp[:2], "ring": ring}
                opts.append(Option.of(f"{sp}.{t}", "infected_hurt", **where, wounds=max(hurt)) if hurt else
                            Option.of(f"{sp}.{t}", "infected_at", **where))
        shielded = shield and self._infected_at(s, sp)
        for k, b in enumerate(s.boss_area):
            if b and b.pos == sp and not shielded:
                bd = c.bosses[b.boss]
                opts.append(Option.of(f"{sp}.@{k}", "boss_at", boss_name=bd["name"], cave=sp[:2], ring=ring,
                                      wounds=b.wounds, life=bd["life"]))
        return opts

    def _space_desc(self, s: GameState, sp: str) -> list[str]:
        c = _content(s)
        parts = [f"{n} {c.infected[t]['name']}" for t, n in s.night.rings[sp].items() if n and t in c.infected]
        parts += [c.bosses[b.boss]["name"] for b in s.boss_area if b and b.pos == sp]
        return parts if len(parts) <= 3 else parts[:3] + ["…"]      # a button label holds 80 characters

    def assault_targets(self, s: GameState, ch: Character, dawn: bool) -> list[str]:
        """Spaces holding legal Assault targets: this Pit's boxes (Night), the exit Pit (Dawn)."""
        nt = s.night
        if not dawn:
            return [f"{cv}.b" for cv in self.pit_caves(ch.refuge)
                    if any(x and x != "#" for x in nt.boxes[cv])]
        hr = self._hr(s)
        caves = CAVES if hr["dawn_assault_scope"] == "anywhere" else self.pit_caves(nt.dawn_pit)
        out = []
        for cv in caves:
            if any(x and x != "#" for x in nt.boxes[cv]):
                out.append(f"{cv}.b")
            for ring in (1, 2, 3):
                if self._enemies_at(s, f"{cv}.{ring}"):
                    out.append(f"{cv}.{ring}")
        return out

    def _h_act(self, g: G, ask: dict, picks: tuple) -> None:
        s, c = g.s, g.c
        ch = self._ch(s, ask["char"])
        ctx = s.ctx
        pick = picks[0]
        name = self._name(g, ch.id)
        kind, _, arg = pick.partition(".")
        if kind == "end":
            if ctx.get("acts", 0) == 0:
                g.say("pass", name=name)
            self._next_char(g)
            return
        if kind == "heal":
            tgt = self._ch(s, arg)
            ctx["heal"] = True
            g.say("soothe", name=name, other=self._name(g, tgt.id))
            self._stress(g, tgt, -1, term("why_night_ability"))
            if tgt.paranoia:
                tgt.paranoia = False
                s.storage["P"] = s.storage.get("P", 0) + 1
            self._after_free(g, ch)
            return
        if kind == "order":
            ctx["orders"] = ctx.get("orders", 0) + 1
            self._ch(s, arg).order_token = True
            g.say("order", name=name, other=self._name(g, arg))
            self._after_free(g, ch)
            return
        if kind == "use":
            self._use_item(g, ch, int(arg))
            if not s.over:
                self._after_free(g, ch)
            return
        if kind == "fmv":
            ctx["fmove"] = True
            ch.refuge = arg
            g.say("free_move", name=name, dir=dir_term(arg))
            self._after_free(g, ch)
            return
        # a real Action
        if ctx.get("acts", 0) >= 1:
            if ch.paranoia:
                raise IllegalAction("paranoia_one_action", name=name)
            if ch.order_token:
                ch.order_token = False
            else:
                self._stress(g, ch, 1, term("why_second_action"))
                if s.over or ch.incapacitated:
                    self._next_char(g)
                    return
        ctx["acts"] = ctx.get("acts", 0) + 1
        if kind == "mv":
            ch.refuge = arg
            g.say("move_space", name=name, dir=dir_term(arg))
            self._after_action(g, ch)
        elif kind == "surv":
            b = s.boss_area[int(arg)]
            s.storage["S"] -= 1
            b.survivor, b.survivor_hour = True, s.night.hour
            g.say("survivor_thrown", name=name, boss_name=c.bosses[b.boss]["name"], boss=b.boss)
            self._after_action(g, ch)
        elif kind in ("fire", "fireJ"):
            wd = dict(self._weapons(s, ch, "fire"))[arg]
            explosive = bool(wd.get("explosive"))
            if kind == "fireJ":
                src = self._jerry_source(s, ch.refuge)
                if src:
                    box = s.night.boxes[src]
                    box[box.index("#")] = ""
                    s.supply["#"] = s.supply.get("#", 0) + 1
                    explosive = True
                    g.say("jerrycans", name=name, cave=src)
            g.say("fire", name=name, weapon=wd["name"] or term("firearm"), character=ch.id)
            if self.enemies_in_boxes(s, ch.refuge):
                self._stress(g, ch, 1, term("why_fire_boxes"))
                if s.over or ch.incapacitated:
                    self._next_char(g)
                    return
            ctx["hit"] = {"mode": "fire", "char": ch.id, "hits": [wd["wounds"]] * wd["hits"],
                          "explosive": explosive, "range": wd["range"], "spaces": self.fire_spaces(s, ch),
                          "killed": [], "dawn": False}
            self._aim(g, ch)
        elif kind == "asl":
            wd = dict(self._weapons(s, ch, "assault"))[arg]
            hits = list(wd["assault"])
            if c.characters[ch.id]["night_ability"] == "brute" and ch.id not in ctx.setdefault("flags", []):
                ctx["flags"].append(ch.id)
                hits[0] += 1
            g.say("assault", name=name, weapon=wd["name"] or term("bare_hands"), character=ch.id)
            ctx["hit"] = {"mode": "assault", "char": ch.id, "hits": hits, "explosive": False, "range": 9,
                          "spaces": self.assault_targets(s, ch, dawn=False), "killed": [], "dawn": False}
            self._aim(g, ch)
        else:
            raise IllegalAction("unknown_action")

    def _after_free(self, g: G, ch: Character) -> None:
        """After something that is not an Action: the same Character goes on (or is done)."""
        if ch.incapacitated or [o.id for o in self.act_options(g.s, ch.id)] == ["end"]:
            self._next_char(g)
        else:
            self._ask(g, "act", char=ch.id)

    def _after_action(self, g: G, ch: Character) -> None:
        s = g.s
        if s.over:
            return
        if s.phase == "dawn":
            s.night.focus = {}
            s.ctx["i"] += 1
            return
        if ch.incapacitated or [o.id for o in self.act_options(s, ch.id)] == ["end"]:
            self._next_char(g)
            return
        self._ask(g, "act", char=ch.id)

    def _h_hit(self, g: G, ask: dict, picks: tuple) -> None:
        ch = self._ch(g.s, g.s.ctx["hit"]["char"])
        if picks[0] == "auto":
            g.s.ctx["hit"]["auto"] = True
        else:
            self._land(g, ch, picks[0])
        if not g.s.over:
            self._aim(g, ch)

    def _aim(self, g: G, ch: Character) -> None:
        """The Hits of the action in progress: a Hit that can only go one way lands there without
        a question (wasting it is no real alternative); the player is asked only between targets."""
        s = g.s
        h = s.ctx["hit"]
        while h["hits"] and not s.over:
            targets = [o.id for o in self.hit_options(s) if o.id not in ("waste", "auto")]
            if len(targets) > 1 and not h.get("auto"):
                self._ask(g, "hit", char=ch.id)
                return
            if not targets:
                break
            self._land(g, ch, targets[0])
        if not s.over:
            self._finish_hits(g, ch)

    def _land(self, g: G, ch: Character, pick: str) -> None:
        """One Hit on the target `pick` (a hit option's id), or wasted."""
        h = g.s.ctx["hit"]
        w = h["hits"].pop(0)
        if pick == "waste":
            return
        if h["mode"] == "fire" and h["explosive"]:
            self._explode(g, ch, pick, w)
        else:
            sp, _, code = pick.rpartition(".")
            self._wound(g, ch, sp, code, w)

    def _finish_hits(self, g: G, ch: Character) -> None:
        s = g.s
        h = s.ctx.pop("hit")
        if h["killed"]:
            self._drop(g, ch, h["killed"])
            return
        self._after_action(g, ch)

    def _explode(self, g: G, ch: Character, sp: str, w: int) -> None:
        s, c = g.s, g.c
        for t in c.infected_order:
            n = s.night.rings[sp].get(t, 0)
            if not n:
                continue
            life = c.infected[t]["life"]
            key = f"{sp}.{t}"
            hurt = list(s.night.focus.get(key, []))[:n]
            fresh = n - len(hurt)
            after = [x + w for x in hurt] + [w] * fresh      # every cube in the space takes the Wounds once
            dead = sum(1 for x in after if x >= life)
            alive = [x for x in after if x < life]
            for _ in range(dead):
                self._kill_infected(g, ch, sp, t)
            if alive:
                s.night.focus[key] = alive
            else:
                s.night.focus.pop(key, None)
        for k, b in enumerate(s.boss_area):
            if b and b.pos == sp:
                self._wound(g, ch, sp, f"@{k}", w, quiet=True)
        g.say("explosion", cave=sp[:2], ring=ROMAN[int(sp[3])], wounds=w, space=sp)

    def _wound(self, g: G, ch: Character, sp: str, code: str, w: int, quiet: bool = False) -> None:
        """One Hit of w Wounds on one target (an Infected type in a space, or a Boss "@slot")."""
        s, c = g.s, g.c
        nt = s.night
        if code.startswith("@"):
            k = int(code[1:])
            b = s.boss_area[k]
            if b is None:
                return
            bd = c.bosses[b.boss]
            b.wounds += w
            add = min(w, s.supply.get("W", 0))
            s.supply["W"] = s.supply.get("W", 0) - add
            b.cubes += add
            if not quiet:
                g.say("hit", boss_name=bd["name"], wounds=w, total=b.wounds, life=bd["life"], boss=b.boss)
            if b.wounds >= bd["life"]:
                self._kill_boss(g, k)
            return
        life = c.infected[code]["life"]
        key = f"{sp}.{code}"
        hurt = nt.focus.get(key, [])
        if sp.endswith(".b"):
            present = nt.boxes[sp[:2]].count(code)
        else:
            present = nt.rings[sp].get(code, 0)
        if present <= 0:
            return
        if hurt:
            j = hurt.index(max(hurt))
            total = hurt[j] + w
            if total >= life:
                hurt.pop(j)
                self._kill_infected(g, ch, sp, code)
            else:
                hurt[j] = total
                self._wounded(g, ch, sp, code, total, life, quiet)
        elif w >= life:
            self._kill_infected(g, ch, sp, code)
        else:
            hurt.append(w)
            self._wounded(g, ch, sp, code, w, life, quiet)
        if hurt:
            nt.focus[key] = hurt
        else:
            nt.focus.pop(key, None)

    def _wounded(self, g: G, ch: Character, sp: str, code: str, wounds: int, life: int, quiet: bool) -> None:
        """A Hit that wounds an Infected without killing it is said too, so the table sees it land."""
        if not quiet:
            g.say("wound", name=self._name(g, ch.id), infected_name=g.c.infected[code]["name"], cave=sp[:2],
                  character=ch.id, infected=code, space=sp, wounds=wounds, life=life)

    def _kill_infected(self, g: G, ch: Character, sp: str, code: str) -> None:
        s, c = g.s, g.c
        nt = s.night
        if sp.endswith(".b"):
            box = nt.boxes[sp[:2]]
            box[box.index(code)] = ""
        else:
            nt.rings[sp][code] -= 1
        g.say("kill", name=self._name(g, ch.id), infected_name=c.infected[code]["name"], cave=sp[:2],
              character=ch.id, infected=code, space=sp)
        if nt.forts.get(sp[0]) == "altar":
            s.abyss[code] = s.abyss.get(code, 0) + 1
        else:
            s.ctx["hit"]["killed"].append(code)

    def _kill_boss(self, g: G, k: int) -> None:
        s, c = g.s, g.c
        nt = s.night
        b = s.boss_area[k]
        for cv in CAVES:
            nt.boxes[cv] = ["" if x == f"@{k}" else x for x in nt.boxes[cv]]
        s.supply["W"] = s.supply.get("W", 0) + b.cubes
        if b.survivor:
            s.gamebox["S"] = s.gamebox.get("S", 0) + 1
        s.boss_area[k] = None
        s.boss_deck.append(b.boss)
        s.rng.shuffle(s.boss_deck)
        g.say("boss_killed", boss_name=c.bosses[b.boss]["name"], boss=b.boss)
        if self._active(s):
            self._ask(g, "reward")

    def _h_reward(self, g: G, ask: dict, picks: tuple) -> None:
        s = g.s
        if picks[0] == "item":
            ch = self._random_char(g)
            if ch:
                self._draw_item(g, ch.id, ch.id)
        else:
            tgt = self._ch(s, picks[0][5:])
            g.say("reward", name=self._name(g, tgt.id))
            self._stress(g, tgt, -2, term("why_reward"))
            if tgt.paranoia:
                tgt.paranoia = False
                s.storage["P"] = s.storage.get("P", 0) + 1

    # ----------------------------------------------------------------- the Pile of Corpses
    def _drop(self, g: G, ch: Character, killed: list[str]) -> None:
        s = g.s
        mode = g.hr["pile_mode"]
        n = len(killed)
        for code in killed:
            s.pile[code] = s.pile.get(code, 0) + 1
        s.night.pile_killed += n
        if mode == "off":
            self._after_action(g, ch)
            return
        if mode == "honour":
            s.ctx["drop"] = {"char": ch.id, "n": n}
            self._ask(g, "pile_honour", char=ch.id, n=n)
            return
        if mode == "reaction":
            s.ctx["drop"] = {"char": ch.id, "n": n}
            self._ask(g, "pile_react", char=ch.id, n=n)
            return
        self._spill_roll(g, ch, n, 1.0)

    def spill_chance(self, n: int, pile: int, factor: float = 1.0) -> float:
        return min(0.6, (0.02 * n + 0.006 * pile) * factor)

    def _spill_roll(self, g: G, ch: Character, n: int, factor: float) -> None:
        s = g.s
        pile = sum(s.pile.values()) - n
        if s.rng.random() < self.spill_chance(n, pile, factor):
            trials = max(0, n + pile // 10 - 1)
            fallen = 1 + sum(1 for _ in range(trials) if s.rng.random() < 0.25)
            self._spill(g, ch, min(fallen, n + pile))
        else:
            g.say("pile", n=n)
            self._after_action(g, ch)

    def _h_pile_honour(self, g: G, ask: dict, picks: tuple) -> None:
        ch = self._ch(g.s, ask["char"])
        g.s.ctx.pop("drop", None)
        if picks[0] == "clean":
            g.say("pile_clean")
            self._after_action(g, ch)
        else:
            self._spill(g, ch, int(picks[0][1:]))

    # Reaction mode: (limit in ms, factor on the spill chance, how the hand is called); slower = 2.0.
    REACTION_WINDOWS = ((3000, 0.5, "quick"), (15000, 1.0, "steady"))

    def reaction_factor(self, ms: int) -> tuple[float, str]:
        """The factor on the spill chance and the hand's word (`terms.hand_<word>`)."""
        if ms < 0:
            return 1.0, "untimed"
        for limit, factor, words in self.REACTION_WINDOWS:
            if ms <= limit:
                return factor, words
        return 2.0, "shaky"

    def _h_pile_react(self, g: G, ask: dict, picks: tuple) -> None:
        s = g.s
        if not ask.get("timing"):
            # "Drop!" was pressed: the same decision (same prompt id, so a host does not post it
            # again) now waits for its timing, which the host answers with PileTiming at once.
            # Any other driver (or a host that lost the timing) answers "untimed".
            s.seq -= 1
            s.ask = {**ask, "timing": True}
            return
        ch = self._ch(s, ask["char"])
        s.ctx.pop("drop", None)
        self._spill_roll(g, ch, ask["n"], 1.0)

    def _pile_timing(self, g: G, action: PileTiming, actor: Actor) -> None:
        s = g.s
        ask = s.ask
        if not (ask.get("kind") == "pile_react" and ask.get("timing")):
            raise IllegalAction("no_drop_waiting")
        if not actor.may_act_for(self.owner(s, ask["char"])):
            raise NotYourTurn("not_your_drop")
        s.ask = {}
        s.seq += 1
        s.ctx.pop("drop", None)
        ch = self._ch(s, ask["char"])
        factor, words = self.reaction_factor(int(action.ms))
        g.say("pile_timing" if action.ms >= 0 else "pile_untimed", name=self._name(g, ch.id),
              hand=term(f"hand_{words}"), seconds=round(action.ms / 1000, 1), ms=int(action.ms), factor=factor)
        self._spill_roll(g, ch, ask["n"], factor)

    def _spill(self, g: G, ch: Character, fallen: int) -> None:
        s, c = g.s, g.c
        fallen = min(fallen, sum(s.pile.values()))
        cubes: dict[str, int] = {}
        for _ in range(fallen):
            total = sum(s.pile.values())
            x = s.rng.below(total)
            for code in sorted(s.pile):
                if x < s.pile[code]:
                    s.pile[code] -= 1
                    cubes[code] = cubes.get(code, 0) + 1
                    break
                x -= s.pile[code]
        s.night.pile_killed -= fallen
        g.say("spill", fallen=fallen)
        pit = ch.refuge or (s.night.dawn_pit or "N")
        if ch.stress >= c.terror_from:
            if not g.hr["terror_spill_everyone_once"]:
                self._stress(g, ch, 1, term("why_spill"))
            for o in self._active(s):
                self._stress(g, o, 1, term("why_terror_spill"))
        else:
            self._stress(g, ch, 1, term("why_spill"))
        sc = c.scenarios[s.scenario]
        for cv in self.pit_caves(pit):
            for _ in range(sc.get("spill_adds", 0)):
                code = self._draw_cube(g)
                if code and code != "P":
                    sp = s.night.rings[f"{cv}.3"]
                    sp[code] = sp.get(code, 0) + 1
                elif code == "P":
                    s.abyss["P"] += 1
        if s.over:
            ring = s.night.rings[f"{pit}1.3"]
            for code, n in cubes.items():
                ring[code] = ring.get(code, 0) + n
            return
        s.ctx["spill"] = {"char": ch.id, "cubes": cubes, "pit": pit}
        if len(cubes) == 0:
            s.ctx.pop("spill")
            self._after_action(g, ch)
        else:
            self._ask(g, "spill_split", char=ch.id)

    def spill_choices(self, s: GameState) -> list[int]:
        n = sum(s.ctx["spill"]["cubes"].values())
        return list(range(n + 1))[:25]

    def _h_spill_split(self, g: G, ask: dict, picks: tuple) -> None:
        s, c = g.s, g.c
        sp = s.ctx.pop("spill")
        ch = self._ch(s, sp["char"])
        k = int(picks[0][1:])
        a, b = self.pit_caves(sp["pit"])
        seq = [t for t in sorted(sp["cubes"], key=lambda t: c.strength_order.index(t) if t in c.strength_order else 9)
               for _ in range(sp["cubes"][t])]
        for j, t in enumerate(seq):
            cave = a if j < k else b
            ring = s.night.rings[f"{cave}.3"]
            ring[t] = ring.get(t, 0) + 1
        g.say("spill_back", a=a, b=b, to_a=min(k, len(seq)), to_b=max(0, len(seq) - k))
        self._after_action(g, ch)

    # ----------------------------------------------------------------- attacks
    def _attackers(self, g: G, pit: str | None) -> list[dict]:
        """Night: everything in Ring I and the boxes. Dawn (pit given): everything in that Pit."""
        s, c = g.s, g.c
        nt = s.night
        out = []
        caves = CAVES if pit is None else self.pit_caves(pit)
        rings = (1,) if pit is None else (1, 2, 3)
        for cv in caves:
            seen_boss = set()
            for x in nt.boxes[cv]:
                if x.startswith("@"):
                    k = int(x[1:])
                    if k not in seen_boss:
                        seen_boss.add(k)
                        out.append(self._boss_attacker(s, k, cv, True))
                elif x and x != "#":
                    out.append({"cave": cv, "box": True, "code": x, "atk": c.infected[x]["attack"],
                                "boss": False, "rank": c.strength_order.index(x)})
            for ring in rings:
                sp = f"{cv}.{ring}"
                for k, b in enumerate(s.boss_area):
                    if b and b.pos == sp:
                        out.append(self._boss_attacker(s, k, cv, False))
                for t in c.strength_order:
                    for _ in range(nt.rings[sp].get(t, 0)):
                        out.append({"cave": cv, "box": False, "code": t, "atk": c.infected[t]["attack"],
                                    "boss": False, "rank": c.strength_order.index(t)})
        out = [a for a in out if a is not None]
        # "The stronger comes first" (L408-410): every Boss before any Infected, then the higher Attack;
        # ties by Boss Area slot / Basic Infected Area order (Vermin last), then by Cave.
        out.sort(key=lambda a: (0 if a["boss"] else 1, -a["atk"], a["rank"], CAVES.index(a["cave"])))
        return out

    def _boss_attacker(self, s: GameState, k: int, cv: str, box: bool) -> dict | None:
        c = _content(s)
        b = s.boss_area[k]
        if b.survivor:
            return None
        atk = c.bosses[b.boss]["attack"]
        power, val = self._boss_power(s, b)
        if power == "fury" and box:
            atk += val
        return {"cave": cv, "box": box, "code": f"@{k}", "atk": atk, "boss": True, "rank": k}

    def attack_targets(self, s: GameState, a: dict) -> list[Character]:
        active = self._active(s)
        here = [ch for ch in active if ch.refuge == a["cave"][0]]
        return here or active

    def _attacker_name(self, g: G, a: dict) -> Any:
        """The attacker as the pack names it (a Boss or an Infected type)."""
        if a["boss"]:
            b = g.s.boss_area[int(a["code"][1:])]
            return g.c.bosses[b.boss]["name"] if b else term("boss")
        return g.c.infected[a["code"]]["name"]

    def _t_n_attack(self, g: G) -> None:
        self._attack_loop(g, after="n_time")

    def _attack_loop(self, g: G, after: str) -> None:
        s = g.s
        ctx = s.ctx
        nt = s.night
        while ctx["k"] < len(ctx["list"]) and not s.over:
            a = ctx["list"][ctx["k"]]
            if a["boss"] and s.boss_area[int(a["code"][1:])] is None:
                ctx["k"] += 1
                continue
            who = self._attacker_name(g, a)
            if s.uncancellable:
                targets = self.attack_targets(s, a)
                if targets:
                    s.uncancellable = False
                    tgt = min(targets, key=lambda t: (t.stress, t.order))
                    g.say("unstoppable", attacker=who)
                    self._hit_char(g, a, tgt)
                ctx["k"] += 1
                continue
            if not a["box"] and "#" in nt.boxes[a["cave"]]:
                box = nt.boxes[a["cave"]]
                box[box.index("#")] = ""
                s.supply["#"] = s.supply.get("#", 0) + 1
                g.say("smash", attacker=who, cave=a["cave"])
                ctx["k"] += 1
                continue
            if not a["box"] and nt.forts.get(a["cave"][0]) == "alley":
                ctx["k"] += 1
                continue
            targets = self.attack_targets(s, a)
            if not targets:
                ctx["k"] += 1
                continue
            cancel = s.storage.get("S", 0) > 0 or any(t.items for t in targets)
            if ctx.get("auto") or (len(targets) == 1 and not cancel):
                tgt = min(targets, key=lambda t: (t.stress, t.order)) if ctx.get("auto") else targets[0]
                self._hit_char(g, a, tgt)
                ctx["k"] += 1
                continue
            self._ask(g, "attack")
            return
        if s.over:
            return
        s.stage = after
        if after == "n_time":
            s.ctx = {}

    def _hit_char(self, g: G, a: dict, ch: Character) -> None:
        s = g.s
        who = self._attacker_name(g, a)
        g.say("attack", attacker=who, name=self._name(g, ch.id), cave=a["cave"], target=ch.id, attack=a["atk"])
        self._stress(g, ch, a["atk"], "")
        if s.night.finale and s.night.hull > 0:
            s.night.hull -= 1
            g.say("boat_damaged", hull=s.night.hull)

    def _h_attack(self, g: G, ask: dict, picks: tuple) -> None:
        s = g.s
        ctx = s.ctx
        a = ctx["list"][ctx["k"]]
        pick = picks[0]
        who = self._attacker_name(g, a)
        if pick == "auto":
            ctx["auto"] = True
            return
        if pick == "surv":
            s.storage["S"] -= 1
            s.gamebox["S"] = s.gamebox.get("S", 0) + 1
            g.say("survivor_sacrificed", attacker=who)
        elif pick.startswith("x."):
            self._ask(g, "discard", char=pick[2:])
            return
        else:
            self._hit_char(g, a, self._ch(s, pick[2:]))
        ctx["k"] += 1

    def _h_discard(self, g: G, ask: dict, picks: tuple) -> None:
        s, c = g.s, g.c
        ch = self._ch(s, ask["char"])
        if picks[0] == "back":
            return
        item = ch.items.pop(int(picks[0][1:]))
        g.say("item_thrown", name=self._name(g, ch.id), item_name=c.items[item]["name"], item=item, character=ch.id)
        s.ctx["k"] += 1

    def _t_n_time(self, g: G) -> None:
        s = g.s
        h = s.night.hour
        if h >= self.night_hours(s):
            self._start_dawn(g)
        else:
            self._start_hour(g, h + 1)

    # ================================================================= Dawn (§4.9)
    def _start_dawn(self, g: G) -> None:
        s, c = g.s, g.c
        s.phase, s.clock = "dawn", "dawn"
        s.hour = self.night_hours(s) + 1
        s.night.hour = s.hour
        for ch in s.characters:
            ch.order_token = False
        g.say("dawn")
        dirs = sorted(c.alleys[s.group_at])
        if not dirs:
            s.night.dawn_pit = "N"
            s.stage, s.ctx = "d_assault", {"i": 0}
            return
        s.stage, s.ctx = "d_exit", {}
        self._t_d_exit(g)

    def _t_d_exit(self, g: G) -> None:
        dirs = sorted(g.c.alleys[g.s.group_at])
        if len(dirs) == 1:            # one Alley out: the Group breaks out there, nobody is asked
            self._h_dawn_exit(g, {}, (dirs[0],))
        else:
            self._ask(g, "dawn_exit")

    def _h_dawn_exit(self, g: G, ask: dict, picks: tuple) -> None:
        s, c = g.s, g.c
        d = picks[0]
        s.night.dawn_pit = d
        s.forced_dir = d
        dest = c.alleys[s.group_at][d][0]
        g.say("dawn_exit", dir=dir_term(d), pit=d, **self._at(g, dest))
        s.stage, s.ctx = "d_assault", {"i": 0}

    def _t_d_assault(self, g: G) -> None:
        s = g.s
        i = s.ctx["i"]
        while i < len(s.characters) and s.characters[i].incapacitated:
            i += 1
        s.ctx["i"] = i
        if i >= len(s.characters):
            s.night.focus = {}
            s.stage = "d_attack"
            s.ctx = {"list": self._attackers(g, s.night.dawn_pit), "k": 0, "auto": False}
            return
        ch = s.characters[i]
        if not self.assault_targets(s, ch, dawn=True):
            s.ctx["i"] += 1
            return
        self._ask(g, "dawn_asl", char=ch.id)

    def _h_dawn_asl(self, g: G, ask: dict, picks: tuple) -> None:
        s = g.s
        ch = self._ch(s, ask["char"])
        if picks[0] == "pass":
            s.ctx["i"] += 1
            return
        wd = dict(self._weapons(s, ch, "assault"))[picks[0][4:]]
        g.say("dawn_assault", name=self._name(g, ch.id), weapon=wd["name"] or term("bare_hands"), character=ch.id)
        s.ctx["hit"] = {"mode": "assault", "char": ch.id, "hits": list(wd["assault"]), "explosive": False,
                        "range": 9, "spaces": self.assault_targets(s, ch, dawn=True), "killed": [], "dawn": True}
        self._aim(g, ch)

    def _t_d_attack(self, g: G) -> None:
        self._attack_loop(g, after="d_cleanup")

    def _t_d_cleanup(self, g: G) -> None:
        s, c = g.s, g.c
        nt = s.night
        sc = c.scenarios[s.scenario]
        # Finale and scenario results are judged before the board is cleared.
        verdict: tuple | None = None
        if nt.finale:
            verdict = self._finale_verdict(g)
        elif sc["kind"] == "night_only" or "victory" in sc:
            vic = sc.get("victory", {})
            if sc["kind"] == "night_only" or vic.get("night") == s.ticket:
                pile = sum(s.pile.values())
                need = vic.get("pile_at_dawn")
                if "pile_at_dawn_per_character" in vic:
                    need = vic["pile_at_dawn_per_character"] * len(s.characters)
                if not self._active(s):
                    verdict = ("loss", "nobody_survived", {})
                elif need is not None:
                    verdict = ("win" if pile >= need else "loss", "pile_full" if pile >= need else "pile_short",
                               {"pile": pile, "need": need})
                else:
                    verdict = ("win", "survived", {})
        # cleanup
        rescued = lost = 0
        for sp in SPACES:
            cv = sp[:2]
            for code, n in nt.rings[sp].items():
                if not n:
                    continue
                if code == "S":
                    busy = any(self._enemies_at(s, f"{cv}.{r}") for r in (1, 2, 3)) or (
                        g.hr["survivor_rescue_counts_boxes"] and any(x and x != "#" for x in nt.boxes[cv]))
                    if busy:
                        lost += n
                        s.gamebox["S"] = s.gamebox.get("S", 0) + n
                    else:
                        rescued += n
                        s.storage["S"] += n
                else:
                    s.abyss[code] = s.abyss.get(code, 0) + n
        for cv in CAVES:
            for x in nt.boxes[cv]:
                if x == "#":
                    s.storage["#"] += 1
                elif x and not x.startswith("@"):
                    s.abyss[x] = s.abyss.get(x, 0) + 1
            nt.boxes[cv] = ["", "", ""]
        for code, n in s.pile.items():
            s.abyss[code] = s.abyss.get(code, 0) + n
        s.pile = {}
        if rescued or lost:
            g.say("survivors", rescued=rescued, lost=lost)
        for b in s.boss_area:
            if b:
                b.pos = ""
                if b.survivor:
                    b.survivor = False
                    s.gamebox["S"] = s.gamebox.get("S", 0) + 1
                if not g.hr["boss_wounds_persist"]:
                    s.supply["W"] += b.cubes
                    b.cubes = b.wounds = 0
        for ch in s.characters:
            if ch.paranoia:
                ch.paranoia = False
                s.abyss["P"] = s.abyss.get("P", 0) + 1
            ch.refuge = ""
            ch.order_token = False
        s.abyss["P"] = s.abyss.get("P", 0) + s.storage.get("P", 0)
        s.storage["P"] = 0
        s.tiles = list(range(len(c.tiles)))
        s.rng.shuffle(s.tiles)
        s.fort_tiles = [t for t, v in c.terrains.items() if v["kind"] == "fortification"]
        s.rng.shuffle(s.fort_tiles)
        s.night = None
        if verdict:
            self._end(g, verdict[0], verdict[1], **verdict[2])
            return
        if s.ticket >= self._last_ticket(s) or sc["kind"] == "night_only":
            self._end(g, "loss", "leviathan")
            return
        s.ticket += 1
        self._start_day(g, first=False)

    def _finale_verdict(self, g: G) -> tuple[str, str, dict]:
        """Judge an engaged Finale at Dawn from its data: every `win` condition must hold."""
        s, c = g.s, g.c
        nt = s.night
        f = c.finales[nt.finale]
        named = {"finale": f["id"], "finale_name": f["name"]}
        for cond in f.get("win", ["active"]):
            if cond == "active" and not self._active(s):
                return ("loss", "finale_nobody", named)
            if cond == "hull" and nt.hull <= 0:
                return ("loss", "finale_sank", named)
            if cond == "bearer_safe":
                item = self._finale_item(f)
                bearer = next((ch for ch in self._active(s) if item in ch.items), None)
                if bearer is None:
                    return ("loss", "finale_no_bearer", {**named, "item_name": c.items.get(item, {}).get("name", item)})
                if self.enemies_in_boxes(s, bearer.refuge or nt.dawn_pit):
                    return ("loss", "finale_overrun", named)
        return ("win", "finale_won", named)

    # ================================================================= Battle Focus penalty
    def _focus_penalty(self, g: G) -> None:
        s = g.s
        if s.phase not in ("night", "dawn") or not s.night:
            raise IllegalAction("focus_only_at_night")
        if not g.hr["battle_focus"]:
            raise IllegalAction("focus_not_in_use")
        cave = self._draw_nm(g)["cave"]
        if cave == "choice":
            cave = s.rng.choice(CAVES)
        n = 0
        for _ in range(3):
            code = self._draw_cube(g)
            if code is None:
                break
            n += 1
            if code == "P":
                s.storage["P"] = s.storage.get("P", 0) + 1
                self._paranoia(g, cave[0], auto=True)
            else:
                sp = s.night.rings[f"{cave}.3"]
                sp[code] = sp.get(code, 0) + 1
        g.say("battle_focus", n=n, cave=cave)

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

    # ================================================================= the traitor (Just a Matter of Time)
    def _sabotage(self, g: G, action: Sabotage, actor: Actor) -> None:
        s = g.s
        if not s.traitor or actor.id != s.traitor:
            raise NotYourTurn("traitor_only")
        if s.phase not in ("sunset", "night") or s.stage in ("d_exit", "d_assault", "d_attack", "d_cleanup"):
            raise IllegalAction("sabotage_when")
        if s.sabotage_night == s.ticket:
            raise IllegalAction("sabotage_done")
        if action.cave not in CAVES:
            raise IllegalAction("sabotage_cave", caves=list(CAVES))
        s.sabotage, s.sabotage_night = action.cave, s.ticket
        g.say("sabotage_set", audience=s.traitor, cave=action.cave)
        g.say("sabotage_gm", audience=GM, cave=action.cave)

    def _unmask(self, g: G, actor: Actor) -> None:
        s = g.s
        if not s.traitor or actor.id != s.traitor:
            raise NotYourTurn("traitor_only")
        if s.unmasked:
            raise IllegalAction("unmasked_already")
        s.unmasked, s.uncancellable = True, True
        g.say("unmask", player=s.traitor)

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


# Day Abilities with their own option label (`options.ability_<name>`); a pack's other ones read `options.ability`.
DAY_ABILITIES = ("rally", "exploration", "scavenge", "fortify", "barter", "treatment")
