"""The Pile of Corpses (§10.4): drops, spills, the honour and reaction modes."""
from __future__ import annotations


from rules.common import Actor, IllegalAction, term
from rules.common.errors import NotYourTurn

from .actions import PileTiming
from .context import G
from .state import Character, GameState
from .sections import Sections



class Pile(Sections):
    """Mixed into `CarnivalZombie`: each method's `self` is the engine."""

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
        """"Drop!" pressed by a driver that does not time it (a test, the bot), or the "untimed" answer of
        a drop left waiting for its timing by an older version: the drop lands untimed."""
        self._timed_drop(g, ask, -1)

    def _pile_timing(self, g: G, action: PileTiming, actor: Actor) -> None:
        s = g.s
        ask = s.ask
        if ask.get("kind") != "pile_react" or not (action.prompt or ask.get("timing")):
            raise IllegalAction("no_drop_waiting")
        if action.prompt:                  # the click itself: live, theirs, and "Drop!"
            self.check_choice(s, action, actor)
        elif not actor.may_act_for(self.owner(s, ask["char"])):
            raise NotYourTurn("not_your_drop")
        s.ask = {}
        s.seq += 1
        self._timed_drop(g, ask, int(action.ms))

    def _timed_drop(self, g: G, ask: dict, ms: int) -> None:
        """The drop lands: the hand's timing (ms; -1 untimed) is told, and scales the spill chance."""
        s = g.s
        s.ctx.pop("drop", None)
        ch = self._ch(s, ask["char"])
        factor, words = self.reaction_factor(ms)
        g.say("pile_timing" if ms >= 0 else "pile_untimed", name=self._name(g, ch.id),
              hand=term(f"hand_{words}"), seconds=round(ms / 1000, 1), ms=ms, factor=factor)
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
