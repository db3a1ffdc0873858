"""The answers to the prompts (`Choose`): each prompt's option turned into the action or the
reaction it stands for."""
from __future__ import annotations


from rules.common import Actor, Choose, Event, IllegalAction, Prompt

from . import actions as A
from . import prompts as P
from .mechanics import say
from .state import GameState, ModelState
from .tables import MULTI_TARGET_SPELLS
from .sections import Sections



class Answers(Sections):
    """Methods of `CarnevaleEngine` (a mixin: every `self` is the whole engine; what it uses of
    the other sections is declared in `Sections`)."""

    # ------------------------------------------------------------------ Choose
    def _do_choose(self, state: GameState, a: Choose, actor: Actor,
                   known: Prompt | None = None) -> list[Event]:
        prompt = self.check_choice(state, a, actor, known)
        pid = prompt.player
        who = Actor(pid, actor.gm)
        pick = a.options[0]
        p = prompt.id
        if prompt.kind == "opportunity":
            return self._take_opportunity(state) if pick == "take" else self._decline_opportunity(state)
        if p.startswith("gy-"):
            state.morale_queue.pop(0)
            hit = [u for u in a.options if u != "none"]
            return self._geyser_attacks(state, hit) if hit else [say("geyser_none")]
        if p.startswith("ee-"):
            state.morale_queue.pop(0)
            if pick == "none":
                return []
            m = state.model(pick)
            m.stunned = False
            return [say("evil_eye_freed", model=m.uid, name=m.name)]
        if p.startswith("mm-"):
            state.mad_minute = []
            return [say("mad_minute_end")]
        if p.startswith("mor-"):
            item = state.morale_queue.pop(0)
            testers = [uid for uid in a.options if uid != "none" and state.models[uid].in_play]
            if not testers:
                return [Event("morale_none", {"player": item["player"]})]
            return self._morale_queue(state, testers, 0, "a friend fell within 5''")
        if p.startswith("annul-"):
            return self._annul(state, pick)
        if p.startswith("dis-"):
            return self._disengage_reaction(state, pick)
        if p.startswith("rr-"):
            return self._reroll_window(state, pick)
        if p.startswith("dc-"):
            return self._defensive(state, int(pick))
        if p.startswith("ar-"):
            return self._ready_shot(state, pick)
        if p.startswith("bg-"):
            return self._bodyguard(state, pick)
        if p.startswith("cancel-"):
            return self._resolve_chain(state, pick == "cancel")
        if p.startswith("deploy-"):
            return self._do_deploy(state, A.Deploy(pid, tuple(a.options)), who)
        if p.startswith("order-"):
            return self._do_order(state, A.ChooseOrder(pick), who)
        if p.startswith("eor-"):
            return self._end_round(state)
        if p.startswith("turn-"):
            if pick == "pass":
                return self._do_pass(state, A.Pass(pid), who)
            if pick == "reinforce":
                state.sub = {"kind": "reinforce"}
                return []
            if pick == "hold":
                state.held.append(pid)
                events = [Event("hold", {"player": pid})]
                self._next_turn(state, events)
                return events
            return self._do_activate(state, A.Activate(pick.split(":", 1)[1]), who)
        if p.startswith("rf-"):
            if pick == "back":
                state.sub = {}
                return []
            meth, uid = pick.split(":", 1)
            method = {"a": "assault", "f": "flanking", "s": "sneak"}[meth]
            state.sub = {}
            return self._do_reinforce(state, A.Reinforce(uid, method), who)
        m = state.models[state.active]
        if pick == "back":
            state.sub = {}
            state.counter += 1
            return []
        if p.startswith("do-"):
            return self._button_action(state, m, pick, who)
        sub = dict(state.sub)
        state.counter += 1
        if p.startswith("tg-"):
            if sub["kind"] == "melee":          # then: who else is in contact (the outnumbering dice)
                state.sub = {"kind": "contact", "target": pick}
            elif P.ranged_band(m):          # then: how far, then what cover
                state.sub = {"kind": "distance", "target": pick}
            else:
                state.sub = {"kind": "cover", "target": pick}
            return []
        if prompt.kind == "melee_contact":
            state.sub = {}
            allies, enemies = int(pick[1]), int(pick[3])
            return self._do_attack(state, A.Attack(m.uid, sub["target"], allies=allies, enemies=enemies), who)
        if prompt.kind == "shot_distance":
            state.sub = {"kind": "cover", "target": sub["target"], "distance": int(pick[1:])}
            return []
        if p.startswith("dp-"):
            state.sub = {}
            return self._do_disengage(state, A.Disengage(m.uid, tuple(a.options)), who)
        if p.startswith("cv-"):
            size, hard = P.COVER_OPTIONS[pick]
            state.sub = {}
            return self._do_shoot(state, A.Shoot(m.uid, sub["target"], distance=sub.get("distance", 0),
                                                 cover_size=size, cover_hardness=hard), who)
        if p.startswith("sp-"):
            spell = self._castable(state, m)[int(pick[1:])]
            nxt = self._spell_next_step(spell)
            if nxt is None:
                state.sub = {}
                return self._cast(state, m, spell, None, [])
            state.sub = {"kind": nxt, "spell": spell["name"], "multi": spell["effect"] in MULTI_TARGET_SPELLS}
            return []
        if p.startswith("st-"):
            spell = self._spell(state, sub["spell"])
            if spell["effect"] in ("blessing", "curse"):
                state.sub = {"kind": "attribute", "spell": sub["spell"], "target": pick}
                return []
            state.sub = {}
            if sub.get("multi"):
                return self._cast(state, m, spell, state.model(a.options[0]), [state.model(u) for u in a.options])
            return self._cast(state, m, spell, state.model(pick), [])
        if p.startswith("at-"):
            state.sub = {}
            return self._cast(state, m, self._spell(state, sub["spell"]), state.model(sub["target"]), [],
                              attribute=pick)
        if p.startswith("hl-"):
            state.sub = {}
            return self._do_heal(state, A.Heal(pick, healer=m.uid), who)
        raise IllegalAction("choice_unknown")

    def _spell_next_step(self, spell: dict) -> str | None:
        if spell["effect"] in ("walk_worlds",):
            return None
        if spell["effect"] == "rashaar_heal":
            return None
        return "spell_target"

    def _button_action(self, state: GameState, m: ModelState, pick: str, who: Actor) -> list[Event]:
        state.counter += 1
        if pick == "end":
            return self._end_activation(state, m)
        if pick == "endchain":
            return self._end_activation(state, m, chain=True)
        if pick in ("melee", "shoot"):
            state.sub = {"kind": pick}
            return []
        if pick == "disengage":
            state.sub = {"kind": "dis_pick"}
            return []
        if pick == "cast":
            state.sub = {"kind": "spell"}
            return []
        if pick == "heal":
            state.sub = {"kind": "heal"}
            return []
        if pick == "regen":
            return self._do_heal(state, A.Heal(m.uid, healer=m.uid), who)
        mapping = {"ready_cc": "at_ready_melee", "ready_sh": "at_ready_shooting"}
        return self._do_spend_ap(state, A.SpendAP(m.uid, mapping.get(pick, pick)), who)
