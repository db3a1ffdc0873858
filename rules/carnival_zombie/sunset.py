"""Sunset (§4.5): Finales, Terrains, Barricades, the Characters' places and the Bosses entering."""
from __future__ import annotations



from .context import PIT_CW, ROMAN, SPACES, G, _content, dir_term, next_able
from .state import CAVES, CLOCKWISE, BossSlot, GameState, Night
from .sections import Sections



class Sunset(Sections):
    """Mixed into `CarnivalZombie`: each method's `self` is the engine."""

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
        g.say("barricades", caves=[{"term": "cave_count", "cave": cv, "n": n} for cv, n in placed.items() if n], storage=s.storage["#"],
              placed=placed)
        s.stage, s.ctx = "s_enter", {"i": 0}

    def _t_s_enter(self, g: G) -> None:
        s = g.s
        i = next_able(s, s.ctx)
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
