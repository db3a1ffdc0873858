"""Reactions, each a prompt to its model's owner (digest §1.5, §2.12, §3.1-§3.3): the reroll window,
Morale with its window, At the Ready, Defensive Combat, the Bodyguard, disengaging (and the
Attack of Opportunity or Block it allows)."""
from __future__ import annotations


from rules.common import Actor, Event, IllegalAction, term

from . import actions as A
from . import combat, mechanics as M
from . import prompts as P
from . import shooting, spells
from .dice import reroll_aces, reroll_all, reroll_misses
from .mechanics import attr, has, said, say, slug
from .state import GameState, ModelState
from .sections import Sections



def resume_attack(state: GameState, then: dict) -> list[Event]:
    """An attack held by the reroll window of its target's Fear test goes on (here, above both kinds
    of attack: `combat` cannot import `shooting`, which builds on it)."""
    if then["type"] == "shot":
        return shooting.shot_after_fear(state, then)
    return combat.melee_after_fear(state, then)


class Reactions(Sections):
    """Methods of `CarnevaleEngine` (a mixin: every `self` is the whole engine; what it uses of
    the other sections is declared in `Sections`)."""

    def _reroll_window(self, state: GameState, pick: str) -> list[Event]:
        from .dice import PoolResult
        from .state import WeaponState
        ctx = state.sub["ctx"]
        state.sub = {}
        a, t = state.model(ctx["a"]), state.model(ctx["t"])
        r = PoolResult.from_dict(ctx["result"])
        events: list[Event] = []
        stage = ctx.get("stage", "own")
        if pick == "all":
            M.spend_karma(a, 1, "Reroll All Dice")
            r = reroll_all(state.rng, r)
            events.append(M.record(state, a, r, term("roll_reroll_all")))
        elif pick == "dice":
            M.spend_karma(a, 1, "Reroll Dice")
            r = reroll_misses(state.rng, r, M.ability_x(a, "Reroll Dice") or 1)
            events.append(M.record(state, a, r, term("roll_reroll_dice")))
        elif ":" in pick:
            kind, uid = pick.split(":", 1)
            helper = state.model(uid)
            if kind == "all":
                M.spend_karma(helper, 1, "Reroll All Dice")
                r = reroll_all(state.rng, r)
                events.append(M.record(state, a, r, said("roll_reroll_forced", name=helper.name)))
            else:
                M.spend_karma(helper, 1, "Reroll Dice")
                r = reroll_aces(state.rng, r, M.ability_x(helper, "Reroll Dice") or 1)
                events.append(M.record(state, a, r, said("roll_reroll_aces", name=helper.name)))
        if stage == "own" and combat.offer_reroll(state, a, r, {k: v for k, v in ctx.items()
                                                                 if k not in ("result", "stage")}, events, ("foe",)):
            return events
        if ctx["type"] == "shoot":
            return events + shooting.finish_shot(state, ctx, r)
        if ctx["type"] == "cast":
            done = spells.magic_roll_stands(state, a, ctx["cast"], r, events)
            return events + self._after_magic_roll(state, a, done, self._spell(state, done["spell"]))
        if ctx["type"] == "morale":
            events += (M.rally_result if ctx.get("rally") else M.morale_result)(state, a, r)
            events += self._morale_queue(state, ctx["rest"], ctx["modifier"], ctx["reason"], ctx.get("rally", False))
            if ctx.get("then") and not state.sub:      # the attack that Fear held goes on
                events += resume_attack(state, ctx["then"])
            return events
        if ctx["type"] == "morale_group":
            return events + self._group_stands(state, ctx, r)
        weapon = WeaponState.from_dict(ctx["weapon"])
        combat.finish_melee(state, a, t, weapon, ctx["manoeuvre"], r, events)
        return events

    # ------------------------------------------------------------------ Morale with a reroll window
    def _morale_queue(self, state: GameState, uids: list[str], modifier: int, reason: str, rally: bool = False,
                      window: bool = True) -> list[Event]:
        """Single Morale rolls one model after another; a reroll window after a roll pauses the
        queue (the rest goes into the window's context and resumes when the roll stands).
        `rally`: a fleeing model's End-of-Round roll (success: control again; failure: no Stun)."""
        events: list[Event] = []
        uids = list(uids)
        result = M.rally_result if rally else M.morale_result
        while uids:
            m = state.model(uids.pop(0))
            if not m.in_play:
                continue
            base, mods, auto = M.morale_pool(state, m, modifier)
            r = M.model_roll(state, m, base, mods=mods,
                             auto_mods=auto, events=events, what=M.morale_what(reason, modifier=modifier))
            ctx = {"type": "morale", "a": m.uid, "t": m.uid, "rest": uids, "modifier": modifier, "reason": reason,
                   "rally": rally}
            if window and state.house_rules.get("reroll_window", True) and combat.offer_reroll(state, m, r, ctx,
                                                                                                events):
                return events
            events += result(state, m, r)
        return events

    def _morale_due(self, state: GameState) -> list[Event]:
        """The Morale tests an action caused (a Leader or the last friend fell, Fear after the attack),
        once the action is done and no reaction is pending: each with its reroll window."""
        events: list[Event] = []
        while state.morale_due and not state.sub and not state.opportunities and not state.over:
            item = state.morale_due.pop(0)
            if item["kind"] == "group":
                events += self._morale_group(state, item["player"], item["reason"])
            else:
                events += self._morale_queue(state, item["models"], item.get("modifier", 0), item["reason"])
        return events

    def _morale_group(self, state: GameState, pid: str, reason: str, modifier: int = 0) -> list[Event]:
        """A group Morale roll (highest current Mind + the main Leader's Command), with a reroll window."""
        squad = state.squad(pid)
        if not squad:
            return []
        roller = max(squad, key=lambda x: (attr(x, "MIN"), x.uid == state.players[pid].leader))
        leader = M.first_leader(state, pid)
        events: list[Event] = []
        base, mods, auto = M.morale_pool(state, roller, modifier, single=False)
        if leader and leader.command:
            mods = mods + [("Leader's Command", leader.command)]
        r = M.model_roll(state, roller, base, mods=mods, auto_mods=auto, events=events, what=M.morale_what(reason, group=True, modifier=modifier))
        ctx = {"type": "morale_group", "a": roller.uid, "t": roller.uid, "player": pid, "modifier": modifier,
               "reason": reason}
        if state.house_rules.get("reroll_window", True) and combat.offer_reroll(state, roller, r, ctx, events):
            return events
        return events + self._group_stands(state, ctx, r)

    def _group_stands(self, state: GameState, ctx: dict, r) -> list[Event]:
        pid = ctx["player"]
        if r.success:
            return [Event("squad_holds", {"player": pid})]
        events = [say("morale_group_fail", player=pid)]
        return events + self._morale_queue(state, [m.uid for m in state.squad(pid)], ctx["modifier"],
                                           "group failure")

    # ------------------------------------------------------------------ At the Ready: shooting interrupts
    def ready_shooters(self, state: GameState, target: ModelState, done: tuple = ()) -> list[ModelState]:
        return [x for x in state.squad(state.opponent(target.owner)) if x.at_ready == "shooting" and x.uid not in done
                and any(w.kind == "ranged" and w.loaded and not w.jammed and not w.destroyed for w in x.weapons)]

    def _offer_ready_shot(self, state: GameState, m: ModelState, done: tuple = ()) -> list[Event]:
        """An enemy ended an action: models At the Ready for shooting may interrupt with a 0-AP shot
        (each at most once per enemy action; line of sight is for the table to judge)."""
        if (state.sub or not m.in_play or m.hidden or not state.house_rules.get("ready_shot_prompt", True)
                or not self.ready_shooters(state, m, done)):
            return []
        state.counter += 1
        state.sub = {"kind": "ready_shot", "n": state.counter, "player": state.opponent(m.owner), "target": m.uid,
                     "done": list(done), "shooter": ""}
        return [Event("ready_window", {"model": m.uid, "name": m.name})]

    def _ready_shot(self, state: GameState, pick: str) -> list[Event]:
        sub = dict(state.sub)
        t = state.model(sub["target"])
        if pick == "no":
            state.sub = {}
            return [say("ready_hold", model=t.uid)]
        if not sub["shooter"]:
            state.counter += 1
            state.sub = {**sub, "shooter": pick, "n": state.counter}
            return []
        size, hard = P.COVER_OPTIONS[pick]
        sh = state.model(sub["shooter"])
        state.sub = {}
        events = self._do_shoot(state, A.Shoot(sh.uid, t.uid, cover_size=size, cover_hardness=hard, at_ready=True),
                                Actor(sh.owner))
        if not state.sub:
            events += self._offer_ready_shot(state, t, tuple(sub["done"]) + (sh.uid,))
        return events

    def _defensive(self, state: GameState, n: int) -> list[Event]:
        ctx = state.sub["ctx"]
        state.sub = {}
        t = state.model(ctx["t"])
        events: list[Event] = []
        if n:
            if n > combat.defensive_allowance(state, t):
                raise IllegalAction("defensive_karma", model=t.name, n=n)
            already = t.defensive_dex if t.defensive_turn == state.turn else 0
            M.spend_karma(t, n, "Defensive Combat")
            t.defensive_dex, t.defensive_turn = already + n, state.turn
            events.append(say("karma_defensive", model=t.uid, karma=t.karma, use="defensive", name=t.name, n=n,
                              dex=t.defensive_dex, karma_max=t.karma_max))
        return events + combat.resume_melee(state, ctx)

    def _bodyguard(self, state: GameState, pick: str) -> list[Event]:
        from .dice import PoolResult
        from .state import WeaponState
        ctx = state.sub["ctx"]
        state.sub = {}
        a, t = state.model(ctx["a"]), state.model(ctx["t"])
        events: list[Event] = []
        if pick != "no":
            t = state.model(pick)
            events.append(say("bodyguard", model=t.uid, name=t.name))
        combat.finish_melee(state, a, t, WeaponState.from_dict(ctx["weapon"]), ctx["manoeuvre"],
                            PoolResult.from_dict(ctx["result"]), events, ask_bodyguard=False)
        return events

    def _do_disengage(self, state: GameState, a: A.Disengage, actor: Actor) -> list[Event]:
        m = self._active(state, a.model, actor)
        if state.sub:
            raise IllegalAction("reaction_pending")
        foes = [state.model(u) for u in dict.fromkeys(a.enemies)]
        if not foes:
            raise IllegalAction("name_contacts")
        if any(f.owner == m.owner or not f.in_play for f in foes):
            raise IllegalAction("leave_enemies_only")
        if m.ap < 1:
            raise IllegalAction("needs_ap", model=m.name, cost=1, ap=m.ap)
        m.ap -= 1
        m.last_action = "disengage"
        events = [say("disengage", model=m.uid, name=m.name, ap=m.ap)]
        if has(m, "Slippery"):
            events.append(Event("disengaged", {"model": m.uid, "name": m.name, "how": term("disengage_slippery")}))
            return events
        queue = []
        for f in foes:
            if has(f, "Engage"):
                res = self._opposed_dex(state, m, f, events, "Engage")
                if res.winner != "a":
                    events.append(say("blocked", model=m.uid, how=said("blocked_engage", name=m.name, by=f.name)))
                    return events
            if has(m, "Elusive"):
                res = self._opposed_dex(state, m, f, events, "Elusive")
                if res.winner == "a":
                    events.append(say("elusive", model=m.uid, name=m.name, by=f.name))
                    continue
            queue.append(f.uid)
        if not queue:
            events.append(Event("disengaged", {"model": m.uid, "name": m.name, "how": term("disengage_free")}))
            return events
        state.counter += 1
        state.sub = {"kind": "disengage", "model": m.uid, "queue": queue, "n": state.counter}
        return events

    def _opposed_dex(self, state: GameState, m: ModelState, f: ModelState, events: list[Event], why: str):
        from .dice import compare
        ra = M.model_roll(state, m, attr(m, "DEX", state), kind="DEX", events=events,
                          what=said("roll_leaving", why=term(f"leave_{slug(why)}")))
        rb = M.model_roll(state, f, attr(f, "DEX", state), kind="DEX", events=events,
                          what=said("roll_holding", why=term(f"leave_{slug(why)}")))
        res = compare(ra, rb, "escaper")
        events.append(say("opposed", a=res.a_aces, b=res.b_aces, winner=res.winner,
                          how=said("opposed_escapes" if res.winner == "a" else "opposed_held", name=m.name, by=f.name,
                                   a=res.a_aces, b=res.b_aces)))
        return res

    def _disengage_reaction(self, state: GameState, choice: str) -> list[Event]:
        sub = state.sub
        m = state.model(sub["model"])
        f = state.model(sub["queue"][0])
        events: list[Event] = []
        if choice == "aoo":
            events += combat.melee_attack(state, f, m, opportunity=True)
        elif choice == "block":
            res = self._opposed_dex(state, m, f, events, "Block")
            if res.winner != "a":
                state.sub = {}
                events.append(say("blocked", model=m.uid, how=said("blocked_block", name=m.name, by=f.name)))
                return events
        else:
            events.append(Event("no_reaction", {"model": f.uid, "name": f.name, "leaver": m.name}))
        queue = sub["queue"][1:]
        if queue and m.in_play:
            state.counter += 1
            state.sub = {**sub, "queue": queue, "n": state.counter}
        else:
            state.sub = {}
            if m.in_play:
                events.append(Event("disengaged", {"model": m.uid, "name": m.name, "how": term("disengage_moves")}))
        return events
