"""Magic (digest §4): casting, the Magic roll standing, the Naach-Tith Annulment window."""
from __future__ import annotations


from rules.common import Actor, Event, IllegalAction

from . import actions as A
from . import mechanics as M, spells
from .mechanics import attr, said, say
from .state import GameState, ModelState
from .sections import Sections



class Magic(Sections):
    """Methods of `CarnevaleEngine` (a mixin: every `self` is the whole engine; what it uses of
    the other sections is declared in `Sections`)."""

    # ------------------------------------------------------------------ magic
    def _do_cast(self, state: GameState, a: A.Cast, actor: Actor) -> list[Event]:
        c = self._active(state, a.model, actor)
        spell = self._spell(state, a.spell)
        t = state.model(a.target) if a.target else None
        targets = [state.model(u) for u in a.targets]
        enemies = tuple(state.model(u) for u in a.enemies)
        return self._gondola_check(state, c) + self._cast(state, c, spell, t, targets, a.attribute, a.karma,
                                                          a.use_diamond, enemies)

    def _spell(self, state: GameState, name: str) -> dict:
        for known in state.spells.values():
            if known["name"].lower() == name.lower():
                return known
        raise IllegalAction("no_spell", spell=name)

    def _cast(self, state: GameState, c: ModelState, spell: dict, t, targets, attribute="", karma=0,
              diamond=False, enemies=()) -> list[Event]:
        if any(e.kind == "bond" and e.caster == c.uid for m in state.models.values() for e in m.effects):
            raise IllegalAction("bond_walk_only", model=c.name)
        ctx, events = spells.cast(state, c, spell, t, targets, attribute, karma, diamond, enemies)
        c.last_action = "cast"
        if ctx.get("interrupted") or ctx.get("deferred"):
            return events
        return events + self._after_magic_roll(state, c, ctx, spell)

    def _after_magic_roll(self, state: GameState, c: ModelState, ctx: dict, spell: dict) -> list[Event]:
        """The Magic roll stands: an enemy Naach-Tith Annulment window, else the spell resolves."""
        events: list[Event] = []
        if ctx["aces"] > 0 and not ctx["critical"]:
            for m in state.squad(state.opponent(c.owner)):
                if "Naach-Tith Annulment" in m.spells and m.karma >= ctx["paid"] + 1:
                    state.counter += 1
                    state.sub = {"kind": "annul", "id": f"annul-{state.counter}", "ctx": ctx,
                                 "player": state.opponent(c.owner)}
                    events.append(say("annul_window", player=m.owner))
                    return events
        return events + spells.resolve_spell(state, ctx, spell)

    def _annul(self, state: GameState, choice: str) -> list[Event]:
        sub = state.sub
        ctx = sub["ctx"]
        state.sub = {}
        spell = self._spell(state, ctx["spell"])
        events: list[Event] = []
        if choice != "no":
            n = state.model(choice)
            caster = state.model(ctx["caster"])
            cost = ctx["paid"] + 1
            M.spend_karma(n, cost, "Naach-Tith Annulment")
            events.append(say("annul_cast", model=n.uid, spell="Naach-Tith Annulment", karma_cost=cost, name=n.name))
            r = M.model_roll(state, n, attr(n, "MIN"),
                             mods=[("enemy caster's Mind", -attr(caster, "MIN"))], events=events, stat="MIN",
                             what=said("roll_magic", spell="Naach-Tith Annulment"))
            if r.fumble:
                events += M.stun(state, n, "fumbled Magic roll")
            ctx = dict(ctx)
            ctx["aces"] = max(0, ctx["aces"] - r.aces)
            if ctx["aces"] == 0 or r.critical:
                events.append(say("annulled", spell=ctx["spell"]))
                if r.critical:
                    events += M.stun(state, caster, "Naach-Tith Critical")
                return events
            events.append(say("annul_partial", spell=ctx["spell"], cancelled=r.aces, aces=ctx["aces"]))
        return events + spells.resolve_spell(state, ctx, spell)
