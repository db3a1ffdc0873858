"""The books the bot keeps for the table (digest §1.8, §2.6-§2.12): damage, healing, Stun, Karma and
Command spent, statuses told by the players, falls, the Spiritual Bond, Morale called, free rolls
and their rerolls."""
from __future__ import annotations


from rules.common import Actor, Event, IllegalAction, NotYourTurn, term

from . import actions as A
from . import mechanics as M
from .dice import reroll_all, reroll_misses
from .mechanics import attr, has, said, say, slug
from .state import GameState
from .sections import Sections



class Books(Sections):
    """Methods of `CarnevaleEngine` (a mixin: every `self` is the whole engine; what it uses of
    the other sections is declared in `Sections`)."""

    # ------------------------------------------------------------------ books
    def _do_damage(self, state: GameState, a: A.Damage, actor: Actor) -> list[Event]:
        m = state.model(a.model)
        if a.attacker:
            src = state.model(a.attacker)
            if not (actor.may_act_for(src.owner) or actor.may_act_for(m.owner)):
                raise NotYourTurn("damage_who")
        elif not (actor.gm or actor.id in state.seats):
            raise NotYourTurn("players_or_gm")
        if a.amount < 0 or a.penetration < 0:
            raise IllegalAction("damage_negative")
        if not m.in_play:
            raise IllegalAction("not_on_table", model=m.name)
        return M.apply_damage(state, m, a.amount, a.penetration, a.spiritual, a.flames, a.ignore_protection,
                              a.source, a.attacker)[1]

    def _do_heal(self, state: GameState, a: A.Heal, actor: Actor) -> list[Event]:
        m = state.model(a.model)
        if not m.in_play:
            raise IllegalAction("not_on_table", model=m.name)
        if not a.healer:
            if not actor.gm:
                raise NotYourTurn("heal_gm")
            return M.heal(state, m, a.amount, term("heal_gm"))
        h = self._active(state, a.healer, actor)
        if m.owner != h.owner:
            raise IllegalAction("heal_friends")
        if h.uid == m.uid:
            x = M.ability_x(h, "Regeneration")
            if x is None:
                raise IllegalAction("no_regeneration", model=h.name)
            source = "Regeneration"
        else:
            x = M.ability_x(h, "Healing")
            if x is None:
                raise IllegalAction("no_healing", model=h.name)
            source = "Healing"
        if not m.damage:
            raise IllegalAction("not_hurt", model=m.name)
        if h.ap < 2:
            raise IllegalAction("needs_ap", model=h.name, cost=2, ap=h.ap)
        h.ap -= 2
        extra = [("first-aid kit", 1)] if "First-aid kit" in h.items and h.uid != m.uid else []
        h.last_action = "heal"
        return [say("heal_action", model=h.uid, name=h.name, target_name=m.name, ap=h.ap,
                    how=said(f"heal_{slug(source)}", x=x))] + \
            M.healing_roll(state, h, m, x, source, a.karma, extra)

    def _do_stun(self, state: GameState, a: A.Stun, actor: Actor) -> list[Event]:
        m = state.model(a.model)
        if not (actor.gm or actor.id in state.seats):
            raise NotYourTurn("players_or_gm")
        if not m.in_play:
            raise IllegalAction("not_on_table", model=m.name)
        return M.stun(state, m, a.source or "an effect")

    def _do_spend_karma(self, state: GameState, a: A.SpendKarma, actor: Actor) -> list[Event]:
        m = state.model(a.model)
        self._own(state, m, actor)
        if a.n < 1:
            raise IllegalAction("karma_at_least_1")
        if a.use == "protection":
            if m.protection_boost + a.n > 2:
                raise IllegalAction("karma_protection_max")
            M.spend_karma(m, a.n, "Protection")
            m.protection_boost += a.n
            use = said("karma_protection", n=m.protection_boost)
        elif a.use == "defensive":
            x = M.ability_x(m, "Defensive Combat")
            if x is None:
                raise IllegalAction("no_defensive", model=m.name)
            already = m.defensive_dex if m.defensive_turn == state.turn else 0
            if already + a.n > x:
                raise IllegalAction("defensive_max", x=x)
            M.spend_karma(m, a.n, "Defensive Combat")
            m.defensive_dex = already + a.n
            m.defensive_turn = state.turn
            use = said("karma_dex", n=m.defensive_dex)
        elif a.use == "swift":
            if not has(m, "Swift"):
                raise IllegalAction("not_swift", model=m.name)
            if a.n != 1:
                raise IllegalAction("swift_cost")
            M.spend_karma(m, 1, "Swift")
            use = said("karma_swift", inches=2 * attr(m, "MOV"))
        elif a.use == "aim":
            if not has(m, "Expert Marksman"):
                raise IllegalAction("not_marksman", model=m.name)
            if a.n > 2:
                raise IllegalAction("aim_max")
            M.spend_karma(m, a.n, "aiming")
            m.ap += a.n   # the shot's aim AP are paid with Karma instead
            use = said("karma_aim", n=a.n)
        elif a.use == "other":
            M.spend_karma(m, a.n, "an effect")
            use = said("karma_other", n=a.n)
        else:
            raise IllegalAction("karma_use")
        return [say("karma", model=m.uid, karma=m.karma, use=a.use, name=m.name, n=a.n, how=use,
                    karma_max=m.karma_max)]

    def _do_spend_command(self, state: GameState, a: A.SpendCommand, actor: Actor) -> list[Event]:
        leader = state.model(a.model)
        self._own(state, leader, actor)
        t = state.model(a.target)
        if state.players[leader.owner].leader != leader.uid:
            raise IllegalAction("not_main_leader", model=leader.name)
        if a.n < 1 or a.n > leader.command:
            raise IllegalAction("command_points", model=leader.name, n=leader.command)
        if t.owner != leader.owner or state.active != t.uid:
            raise IllegalAction("command_activating_now")
        if t.uid == leader.uid:
            raise IllegalAction("command_himself")
        if has(t, "Rebellious"):
            raise IllegalAction("rebellious", model=t.name)
        if t.command_turn != state.turn:
            t.command_turn, t.command_received = state.turn, 0
        if t.command_received + a.n > 2:
            raise IllegalAction("command_at_most_2")
        leader.command -= a.n
        t.command_received += a.n
        t.ap += a.n
        return [say("command", model=t.uid, leader=leader.uid, name=leader.name, n=a.n, command=leader.command,
                    command_max=leader.command_max, target_name=t.name, ap=t.ap)]

    def _do_set_status(self, state: GameState, a: A.SetStatus, actor: Actor) -> list[Event]:
        m = state.model(a.model)
        if not (actor.may_act_for(m.owner) or actor.gm):
            raise NotYourTurn("not_your_model", model=m.name)
        s = a.status
        if s == "evacuated":
            if not m.in_play:
                raise IllegalAction("not_on_table", model=m.name)
            m.on_table = False
            m.evacuated = True
            m.activated = True
            return [say("evacuated", model=m.uid, name=m.name)]
        if s == "off_table":
            if not m.in_play:
                raise IllegalAction("not_on_table", model=m.name)
            return M.fall_in_combat(state, m, "", fled=True)
        fields = {"in_water": "in_water", "hidden": "hidden", "immobilised": "immobilised", "drowning": "drowning",
                  "darkness": "in_darkness", "on_gondola": "on_gondola"}
        if s == "fragment":
            if a.value:
                for other in state.models.values():
                    if other.carrying == "fragment":
                        other.carrying = ""
            m.carrying = "fragment" if a.value else ""
        elif s == "on_gondola" and a.value:
            name = a.gondola or "1"
            seats = {"Medium": 1, "Large": 2}
            if m.size not in seats:
                raise IllegalAction("gondola_too_big", model=m.name, size=m.size)
            riders = [x for x in state.models.values() if x.in_play and x.on_gondola and x.uid != m.uid
                      and (x.gondola or "1") == name]
            used = sum(seats.get(x.size, 2) for x in riders)
            if used + seats[m.size] > 2:
                raise IllegalAction("gondola_full", gondola=name, riders=", ".join(x.name for x in riders))
            m.on_gondola, m.gondola = True, name
        elif s in fields:
            setattr(m, fields[s], a.value)
            if s == "on_gondola":
                m.gondola = ""
            if s == "in_water" and a.value:
                ha = M.ability_x(m, "Heavy Armor")
                if ha:
                    events: list[Event] = []
                    r = M.model_roll(state, m, attr(m, "DEX", state), kind="DEX",
                                     events=events, what=term("roll_heavy_armor_water"))
                    if not r.success:
                        m.immobilised = True
                        events.append(say("immobilised", model=m.uid, name=m.name))
                    return [say("into_water", model=m.uid, name=m.name)] + events
        else:
            raise IllegalAction("status_choices")
        return [say("status_on" if a.value else "status_off", model=m.uid, status=s, value=a.value, name=m.name,
                    what=term(f"status_{s}"))]

    def _do_fall(self, state: GameState, a: A.Fall, actor: Actor) -> list[Event]:
        m = state.model(a.model)
        if not (actor.may_act_for(m.owner) or actor.gm or actor.id in state.seats):
            raise NotYourTurn("not_your_model", model=m.name)
        if not m.in_play:
            raise IllegalAction("not_on_table", model=m.name)
        if a.height < 0 or a.height > 100:
            raise IllegalAction("height_range")
        events: list[Event] = []
        if a.voluntary:
            self._active(state, a.model, actor)
            if m.ap < 1:
                raise IllegalAction("needs_ap", model=m.name, cost=1, ap=m.ap)
            m.ap -= 1
            m.last_action = "jump_down"
            events.append(say("jump_down", model=m.uid, name=m.name, ap=m.ap))
        return events + M.fall(state, m, a.height, a.voluntary)

    def _do_bond_roll(self, state: GameState, a: A.BondRoll, actor: Actor) -> list[Event]:
        t = state.model(a.model)
        bond = next((e for e in t.effects if e.kind == "bond"), None)
        if bond is None:
            raise IllegalAction("not_bound", model=t.name)
        if not actor.may_act_for(bond.ability):
            raise NotYourTurn("bond_owner")
        if state.active != t.uid:
            raise IllegalAction("bond_when")
        if t.karma < 1:
            raise IllegalAction("no_karma", model=t.name)
        t.karma -= 1
        return M.bond_maintenance(state, t, bond, said("bond_fought", name=t.name))

    def _do_morale(self, state: GameState, a: A.Morale, actor: Actor) -> list[Event]:
        if a.group:
            pid = a.player or (state.model(a.models[0]).owner if a.models else actor.id)
            if pid not in state.players:
                raise IllegalAction("name_the_player")
            if not (actor.gm or actor.id in state.seats):
                raise NotYourTurn("players_or_gm")
            return self._morale_group(state, pid, "called", a.modifier)
        if not a.models:
            raise IllegalAction("name_testers")
        for uid in a.models:
            m = state.model(uid)
            if not (actor.gm or actor.id in state.seats):
                raise NotYourTurn("players_or_gm")
            if not m.in_play:
                raise IllegalAction("not_on_table", model=m.name)
        return self._morale_queue(state, list(dict.fromkeys(a.models)), a.modifier, "called")

    def _do_roll(self, state: GameState, a: A.Roll, actor: Actor) -> list[Event]:
        if a.difficulty < 2 or a.difficulty > 10:
            raise IllegalAction("difficulty_range")
        if a.pool < 0 or a.pool > 30:
            raise IllegalAction("pool_range")
        events: list[Event] = []
        if a.model:
            m = state.model(a.model)
            self._own(state, m, actor)
            base = attr(m, a.attribute.upper(), state) if a.attribute else a.pool
            # a player's own label is shown as typed
            what = a.label or (said("roll_attribute", stat=M.stat(a.attribute)) if a.attribute else term("roll_free"))
            M.model_roll(state, m, base, a.difficulty, kind=a.attribute.upper(), karma=a.karma, auto_mods=bool(a.attribute), default_effects=True,
                         events=events, what=what)
        else:
            from .dice import roll_pool
            if a.karma:
                raise IllegalAction("karma_needs_model")
            r = roll_pool(state.rng, a.pool, a.difficulty)
            events.append(M.record(state, None, r, a.label or term("roll_free")))
        state.last_roll["free"] = True
        state.last_roll["by"] = actor.id
        return events

    def _do_reroll(self, state: GameState, a: A.Reroll, actor: Actor) -> list[Event]:
        m = state.model(a.model)
        self._own(state, m, actor)
        if not state.last_roll or not state.last_roll.get("free"):
            raise IllegalAction("reroll_free_only")
        from .dice import PoolResult
        r = PoolResult.from_dict(state.last_roll["result"])
        if a.mode == "all":
            if not has(m, "Reroll All Dice"):
                raise IllegalAction("no_reroll_all", model=m.name)
            M.spend_karma(m, 1, "Reroll All Dice")
            new = reroll_all(state.rng, r)
        elif a.mode == "dice":
            x = M.ability_x(m, "Reroll Dice")
            if x is None:
                raise IllegalAction("no_reroll_dice", model=m.name)
            if a.count < 1 or a.count > x:
                raise IllegalAction("reroll_dice_count", x=x)
            M.spend_karma(m, 1, "Reroll Dice")
            new = reroll_misses(state.rng, r, a.count)
        else:
            raise IllegalAction("reroll_mode")
        owner = state.models.get(state.last_roll.get("model", ""))
        e = M.record(state, owner, new, said("roll_reroll_by", name=m.name))
        state.last_roll["free"] = True
        return [e]
