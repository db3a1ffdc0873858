"""The Characters' Activation at Night: options, Hits, Wounds, kills and Boss rewards."""
from __future__ import annotations


from rules.common import IllegalAction, Option, term

from .context import ROMAN, G, _content, dir_term, next_able
from .state import BELLTOWER, CAVES, PITS, Character, GameState
from .sections import Sections



class Activation(Sections):
    """Mixed into `CarnivalZombie`: each method's `self` is the engine."""

    # ----------------------------------------------------------------- activation
    def _t_n_activate(self, g: G) -> None:
        s = g.s
        ctx = s.ctx
        i = next_able(s, ctx)
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

    def _space_desc(self, s: GameState, sp: str) -> list:
        c = _content(s)
        parts: list = [{"term": "cubes", "n": n, "name": c.infected[t]["name"]}
                       for t, n in s.night.rings[sp].items() if n and t in c.infected]
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
