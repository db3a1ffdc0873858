"""The Story so far (§3.3) and the Day (§4.1-4.4): Sunrise, Group Movement, Day Actions, Items."""
from __future__ import annotations


from rules.common import Option, term

from .context import DAY_ABILITIES, G, _content, dir_term
from .state import DEFAULT_HOUSE_RULES, Character, GameState
from .sections import Sections



class StoryAndDay(Sections):
    """Mixed into `CarnivalZombie`: each method's `self` is the engine."""

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
