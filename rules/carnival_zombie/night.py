"""Night (§4.6): the Hour, Items, the Entrance from the Abyss, Paranoia, Infected and Boss Movement."""
from __future__ import annotations

from typing import Any


from .context import G, _content
from .state import CAVES, PITS, BossSlot, Character, GameState
from .sections import Sections



class NightSteps(Sections):
    """Mixed into `CarnivalZombie`: each method's `self` is the engine."""

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
        infected = [{"term": "cubes", "n": n, "name": g.c.infected[k]["name"]} for k, n in sorted(cubes.items())
                    if k in g.c.infected and n]
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
