"""The actions a model spends its AP on (digest §2, §3.1, the terrain rules): movement and the other
1-AP actions, gondolas, the Powers table, close-combat attacks and their free Attack of
Opportunity, stealing the fragment, shooting."""
from __future__ import annotations


from rules.common import Actor, Event, IllegalAction, term

from . import actions as A
from . import combat, mechanics as M, shooting
from .mechanics import attr, said, say
from .moves import MOVES, Step
from .state import Effect, GameState, ModelState, WeaponState
from .tables import MOVE_ACTIONS
from .sections import Sections



class APActions(Sections):
    """Methods of `CarnevaleEngine` (a mixin: every `self` is the whole engine; what it uses of
    the other sections is declared in `Sections`)."""

    # ------------------------------------------------------------------ AP actions
    def _do_spend_ap(self, state: GameState, a: A.SpendAP, actor: Actor) -> list[Event]:
        m = self._active(state, a.model, actor)
        action = a.action
        if action not in MOVE_ACTIONS:
            raise IllegalAction("unknown_move", action=action, choices=", ".join(MOVE_ACTIONS))
        cost, dex = MOVE_ACTIONS[action]
        events: list[Event] = []
        w: WeaponState | None = None          # the weapon a reload or a jam fix is for
        if action in ("reload", "fix_jam"):
            w = next((w for w in m.weapons if (w.jammed if action == "fix_jam" else
                                                (not w.loaded and not w.jammed and not w.destroyed))), None)
            if w is None:
                raise IllegalAction(f"nothing_to_{action}", model=m.name)
            cost = 2 if action == "fix_jam" else shooting.reload_cost(w)
        if action == "other":
            cost = max(1, a.n or 1)
        if m.ap < cost:
            raise IllegalAction("needs_ap", model=m.name, cost=cost, ap=m.ap)
        for ab in M.all_abilities(m):
            if ab["name"] == "Limited Movement":
                banned = str(ab.get("target", "")).lower().replace(" ", "_")
                advanced = {"running_jump", "climb", "rappel", "run_on_walls", "jump", "swim"}
                if action == banned or (action in advanced and action != "swim") or (banned and action.startswith(banned)):
                    raise IllegalAction("limited_movement", model=m.name, limit=str(ab.get("target", "")),
                                        move=term(f"move_{action}"))
        if action == "clear_stun" and not m.stunned:
            raise IllegalAction("not_stunned", model=m.name)
        if action == "running_jump" and m.last_action not in ("walk", "run"):
            raise IllegalAction("running_jump_run_up")
        if action == "run_on_walls" and m.last_action not in ("walk", "run"):
            raise IllegalAction("run_on_walls_run_up")
        if action == "rappel" and "Climbing tools" not in m.items:
            raise IllegalAction("rappel_tools")
        if action == "row" and state.house_rules.get("terrain") != "es_ttcombat":
            raise IllegalAction("row_terrain")
        if action in ("at_ready_melee", "at_ready_shooting") and action == "at_ready_shooting" and not any(
                w.kind == "ranged" and w.loaded for w in m.weapons):
            raise IllegalAction("ready_loaded")
        if action == "drink_infusion" and m.magic_item != "Infusion of the Rent in the Sky":
            raise IllegalAction("infusion_bearer")
        if action == "drink_elixir":
            if m.magic_item != "The Errand Jew's Life Elixir":
                raise IllegalAction("elixir_bearer")
            if "elixir" in m.used_once:
                raise IllegalAction("elixir_used")
        m.ap -= cost
        m.entering = False
        events += self._gondola_check(state, m)
        mov = max(0, attr(m, "MOV") - (1 if state.aqua_alta and action in ("walk", "run", "walk_difficult") else 0))
        r = None
        if dex:
            extra = [("climbing tools", 1)] if action == "climb" and "Climbing tools" in m.items else []
            r = M.model_roll(state, m, attr(m, "DEX", state), kind="DEX",
                             mods=extra, karma=a.karma, events=events, what=term(f"move_{action}"))
        dist, how = MOVES[action](Step(self, state, m, a, r, mov, w, events))
        m.last_action = action
        events.insert(0, say("action", model=m.uid, action=action, ap=m.ap, inches=dist, name=m.name,
                             move=term(f"move_{action}"), cost=cost, how=how))
        if action in ("at_ready_melee", "at_ready_shooting"):
            events += self._end_activation(state, m)
        return events

    def _gondola_check(self, state: GameState, m: ModelState) -> list[Event]:
        """EN gondolas: before any action aboard, a basic Dex roll; a Fumble drops the rider in."""
        if not m.on_gondola or state.house_rules.get("terrain") != "en":
            return []
        events: list[Event] = []
        r = M.model_roll(state, m, attr(m, "DEX", state), kind="DEX",
                         events=events, what=term("roll_gondola_balance"))
        if r.fumble:
            m.on_gondola = False
            m.in_water = True
            events.append(say("gondola_fall", model=m.uid, how=said("gondola_balance_lost", name=m.name)))
        return events

    def _power_roll(self, state: GameState, m: ModelState, temporary: bool) -> list[Event]:
        from .campaign import roll_power_names
        names, faces = roll_power_names(state.rng, {a["name"] for a in M.all_abilities(m)})
        events = []
        for name, x in names:
            m.effects.append(Effect(name="Infusion" if temporary else "Power", kind="ability", ability=name,
                                    x=x or 0, expires=state.round if temporary else 0))
        armed = combat.arm_powers(state, m)
        powers = [said("power_x" if x else "power_name", power=n, x=x) for n, x in names]
        events.append(say(("power_temporary" if temporary else "power") + ("" if powers else "_none"), model=m.uid,
                          name=m.name, faces=str(faces), powers=powers))
        if armed:
            events.append(say("power_weapon", model=m.uid, name=m.name, weapons=armed, weapon=armed[0]))
        return events

    def _do_attack(self, state: GameState, a: A.Attack, actor: Actor) -> list[Event]:
        att = state.model(a.model)
        self._own(state, att, actor)
        tgt = state.model(a.target)
        if a.opportunity:
            offer = state.opportunities[0] if state.opportunities else {}
            if offer.get("model") != att.uid or offer.get("target") != tgt.uid:
                raise IllegalAction("no_opportunity", model=att.name, target=tgt.name)
            return self._take_opportunity(state, a.weapon)
        else:
            self._active(state, a.model, actor)
            if att.petrified:
                raise IllegalAction("petrified", model=att.name)
        pre = [] if a.opportunity else self._gondola_check(state, att)
        return pre + combat.melee_attack(state, att, tgt, a.weapon, a.manoeuvre, a.allies, a.enemies, a.karma,
                                         a.companion, a.opportunity, a.two_weapons, a.drown_attr, tuple(a.targets))

    def _take_opportunity(self, state: GameState, weapon: str = "") -> list[Event]:
        """The first free Attack of Opportunity on offer is made (0 AP, a plain attack)."""
        offer = state.opportunities.pop(0)
        att, tgt = state.model(offer["model"]), state.model(offer["target"])
        if not (att.in_play and tgt.in_play):
            return []
        return combat.melee_attack(state, att, tgt, weapon, opportunity=True)

    def _decline_opportunity(self, state: GameState) -> list[Event]:
        offer = state.opportunities.pop(0)
        return [Event("opportunity_declined", {"model": state.models[offer["model"]].name,
                                               "target": state.models[offer["target"]].name})]

    def _do_steal(self, state: GameState, a: A.StealFragment, actor: Actor) -> list[Event]:
        m = self._active(state, a.model, actor)
        bearer = state.model(a.bearer)
        if bearer.carrying != "fragment" or bearer.owner == m.owner:
            raise IllegalAction("no_fragment_bearer", model=bearer.name)
        if m.ap < 1:
            raise IllegalAction("needs_ap", model=m.name, cost=1, ap=m.ap)
        m.ap -= 1
        events = [say("steal", model=m.uid, name=m.name, bearer=bearer.name)]
        from .dice import compare
        while True:
            ra = M.model_roll(state, m, attr(m, "DEX", state), kind="DEX", events=events,
                              what=term("roll_steal"))
            rb = M.model_roll(state, bearer, attr(bearer, "DEX", state), kind="DEX",
                              events=events, what=term("roll_hold_on"))
            res = compare(ra, rb)
            if res.winner != "tie" or state.house_rules.get("fragment_steal_tie") != "reroll":
                break
        if res.winner == "a":
            bearer.carrying = ""
            m.carrying = "fragment"
            events.append(say("fragment_taken", model=m.uid, name=m.name))
        else:
            events.append(say("fragment_kept", model=bearer.uid, name=bearer.name))
        return events

    def _do_shoot(self, state: GameState, a: A.Shoot, actor: Actor) -> list[Event]:
        sh = state.model(a.model)
        self._own(state, sh, actor)
        free = ""
        if a.at_ready:
            if sh.at_ready != "shooting":
                raise IllegalAction("not_ready_shooting", model=sh.name)
            sh.at_ready = ""
        elif sh.uid in state.mad_minute and state.active != sh.uid:
            if not sh.in_play:
                raise IllegalAction("not_on_table", model=sh.name)
            state.mad_minute.remove(sh.uid)
            free = "mad_minute"
        else:
            self._active(state, a.model, actor)
        tgt = state.model(a.target) if a.target else None
        targets = tuple(state.model(u) for u in a.targets)
        pre = [] if a.at_ready or free else self._gondola_check(state, sh)
        return pre + shooting.shoot(state, sh, tgt, a.weapon, a.distance, a.cover_size, a.cover_hardness, a.aim, a.aim_at,
                            a.moving, a.target_contacts, a.shooter_enemies, a.in_contact, a.karma, a.at_ready,
                            targets, tuple(a.split), a.good_cover, free)
