"""The attacks of a Night Hour and of Dawn, Dawn itself (§4.9) with its cleanup and verdicts, and the Battle Focus penalty."""
from __future__ import annotations

from typing import Any

from rules.common import IllegalAction, term

from .context import SPACES, G, _content, dir_term, next_able
from .state import CAVES, Character, GameState
from .sections import Sections



class AttacksAndDawn(Sections):
    """Mixed into `CarnivalZombie`: each method's `self` is the engine."""

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
                    g.say("unstoppable", attacker=who)
                    self._hit_char(g, a, self._least_stressed(targets))
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
            if ctx.get("auto") or not self._attack_asks(s, targets):
                self._hit_char(g, a, self._least_stressed(targets))
                ctx["k"] += 1
                continue
            plan = ctx.get("plan")
            if plan is None or ctx["k"] > plan["upto"]:
                self._ask(g, "attack")      # one question for every attack of the step that has a choice
                return
            if not self._planned_attack(g, a, targets, plan["picks"].get(str(ctx["k"]))):
                return                      # which Item to throw away is asked first
            ctx["k"] += 1
        if s.over:
            return
        s.stage = after
        if after == "n_time":
            s.ctx = {}

    @staticmethod
    def _least_stressed(targets: list[Character]) -> Character:
        """Where an attack nobody assigned goes: the Stress spread evenly, the Activation Order breaking ties."""
        return min(targets, key=lambda t: (t.stress, t.order))

    @staticmethod
    def _attack_asks(s: GameState, targets: list[Character]) -> bool:
        """Whether an attack is a decision: several Characters could take it, or it could be cancelled."""
        return len(targets) > 1 or s.storage.get("S", 0) > 0 or any(t.items for t in targets)

    # Options of one attack prompt: a select holds 25, and one of them is "spread the rest".
    ATTACK_OPTIONS = 24

    def attack_rows(self, s: GameState) -> list[tuple[int, dict, list[Character]]]:
        """The attacks of this step, from the current one on, that will ask a decision: (index in the
        step's list, attacker, its possible targets). The step is looked ahead on today's board: a
        Barricade absorbs the first outside attack of its Cave, the unmasked traitor's attack cannot be
        stopped. As many as fit in one select; the rest (if any) are asked once these are resolved."""
        ctx, nt = s.ctx, s.night
        barricades = {cv: nt.boxes[cv].count("#") for cv in CAVES}
        unstoppable = s.uncancellable
        rows: list[tuple[int, dict, list[Character]]] = []
        room = self.ATTACK_OPTIONS
        for k in range(ctx["k"], len(ctx["list"])):
            a = ctx["list"][k]
            if a["boss"] and s.boss_area[int(a["code"][1:])] is None:
                continue
            targets = self.attack_targets(s, a)
            if unstoppable:
                unstoppable = not targets
                continue
            if not a["box"] and barricades[a["cave"]]:
                barricades[a["cave"]] -= 1
                continue
            if (not a["box"] and nt.forts.get(a["cave"][0]) == "alley") or not targets:
                continue
            if not self._attack_asks(s, targets):
                continue
            cost = len(targets) + sum(1 for t in targets if t.items) + (1 if s.storage.get("S", 0) > 0 else 0)
            if rows and cost > room:
                break
            rows.append((k, a, targets))
            room -= cost
        return rows

    def _planned_attack(self, g: G, a: dict, targets: list[Character], pick: str | None) -> bool:
        """Resolve one attack as the step's answer planned it. A choice the board no longer allows (its
        Character fell, the Item or the Survivor went to an earlier attack), or none, sends the attack
        to the least stressed Character. False while the Item to throw away is being asked."""
        s, c = g.s, g.c
        how, _, cid = (pick or "").partition(".")
        chosen = next((t for t in targets if t.id == cid), None)
        if how == "surv" and s.storage.get("S", 0) > 0:
            s.storage["S"] -= 1
            s.gamebox["S"] = s.gamebox.get("S", 0) + 1
            g.say("survivor_sacrificed", attacker=self._attacker_name(g, a))
            return True
        if how == "x" and chosen is not None and chosen.items:
            if len(chosen.items) > 1:
                self._ask(g, "discard", char=chosen.id)
                return False
            item = chosen.items.pop()
            g.say("item_thrown", name=self._name(g, chosen.id), item_name=c.items[item]["name"], item=item,
                  character=chosen.id)
            return True
        self._hit_char(g, a, chosen if how == "t" and chosen is not None else self._least_stressed(targets))
        return True

    def _hit_char(self, g: G, a: dict, ch: Character) -> None:
        s = g.s
        who = self._attacker_name(g, a)
        g.say("attack", attacker=who, name=self._name(g, ch.id), cave=a["cave"], target=ch.id, attack=a["atk"])
        self._stress(g, ch, a["atk"], "")
        if s.night.finale and s.night.hull > 0:
            s.night.hull -= 1
            g.say("boat_damaged", hull=s.night.hull)

    def _h_attack(self, g: G, ask: dict, picks: tuple) -> None:
        """The step's attacks answered at once: at most one choice per attack (`<index>.t.<character>`
        takes it, `.x.<character>` throws away an Item instead, `.surv` sacrifices a Survivor); the
        attacks left out go to the least stressed Character, and `auto` spreads the step's later ones too."""
        s = g.s
        ctx = s.ctx
        rows = [k for k, _a, _t in self.attack_rows(s)]
        planned: dict[str, str] = {}
        for pick in picks:
            if pick == "auto":
                ctx["auto"] = True
                continue
            k, _, how = pick.partition(".")
            if k in planned:
                raise IllegalAction("one_choice_per_attack", n=rows.index(int(k)) + 1)
            planned[k] = how
        ctx["plan"] = {"upto": rows[-1] if rows else ctx["k"], "picks": planned}

    def _h_discard(self, g: G, ask: dict, picks: tuple) -> None:
        s, c = g.s, g.c
        ch = self._ch(s, ask["char"])
        if picks[0] == "back":           # the step's attacks from this one on are asked again
            if "plan" in s.ctx:
                s.ctx["plan"]["upto"] = s.ctx["k"] - 1
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
        i = next_able(s, s.ctx)
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
