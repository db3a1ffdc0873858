"""Who must decide what now (digest §5: turns, reactions, table facts), as protocol prompts: each a
`kind` with `args` and options whose labels are `kind` + `args`, worded by the presenter from
`i18n/<lang>.carnevale.yaml`. Ids stay those of earlier versions (the engine dispatches on them and
stored games keep their buttons); the cog and the bot read kinds and args only.

Models appear in args by name (and uid, the handle the slash commands take), never a player id
outside a `player` key.
"""
from __future__ import annotations


from rules.common import Option, Prompt, term

from . import combat, shooting, spells, tables
from .dice import PoolResult, ceil_half
from .mechanics import ability_x, attr, weapon_x
from .state import GameState, ModelState
from .sections import Sections


# The action buttons in the order shown (option kind: action_<id>).
BUTTON_ACTIONS = ("walk", "run", "jump", "swim", "climb", "hide", "clear_stun", "melee", "shoot", "reload",
                  "fix_jam", "cast", "heal", "regen", "disengage", "ready_cc", "ready_sh", "end", "endchain")

# cover option id → (size, hardness); option kind: cover_<id with _ for ->
COVER_OPTIONS = {"none": ("", ""), "m-light": ("medium", "light"), "m-blunt": ("medium", "blunt"),
                 "m-heavy": ("medium", "heavy"), "b-light": ("big", "light"), "b-blunt": ("big", "blunt"),
                 "b-heavy": ("big", "heavy")}

REINFORCEMENT_METHODS = ("assault", "flanking", "sneak")


def model_option(m: ModelState, kind: str = "model") -> Option:
    return Option.of(m.uid, kind, name=m.name, uid=m.uid)


def cover_options() -> list[Option]:
    return [Option.of(k, "cover_" + k.replace("-", "_")) for k in COVER_OPTIONS]


def back() -> Option:
    return Option.of("back", "back")


def faces(r: PoolResult) -> str:
    """The faces as the table reads them, the Destiny Die in brackets (no words: any language)."""
    return " ".join([f"[{r.dice[0]}]"] + [str(d) for d in r.dice[1:]]) if r.dice else "—"


# ------------------------------------------------------------------ every prompt now
def pending(engine: Sections, state: GameState) -> list[Prompt]:
    if state.over:
        return []
    prompts: list[Prompt] = []
    for item in state.morale_queue[:1]:
        prompts.append(_queued(state, item))
    if state.opportunities and not state.sub:
        offer = state.opportunities[0]
        att, tgt = state.models[offer["model"]], state.models[offer["target"]]
        names = {"model": att.name, "target": tgt.name}
        prompts.append(Prompt.ask("opportunity", names, att.owner,
                                  [Option.of("take", "opportunity_take", **names),
                                   Option.of("decline", "opportunity_decline", **names)], key=(offer["n"],)))
        return prompts
    if state.mad_minute and not state.sub:
        firing = [state.models[u].name for u in state.mad_minute if u in state.models]
        prompts.append(Prompt(id=f"mm-{state.turn}-{len(state.mad_minute)}",
                              player=state.models[state.mad_minute[0]].owner, kind="mad_minute",
                              args={"models": firing}, options=(Option.of("done", "mad_minute_done"),)))
    reaction = _reaction(engine, state)
    if reaction is not None:
        return prompts + [reaction]
    if state.chain:
        pid = state.chain["player"]
        prompts.append(Prompt(id=state.chain["id"], player=state.opponent(pid), kind="chain", args={},
                              options=(Option.of("allow", "chain_allow"), Option.of("cancel", "chain_cancel"))))
        return prompts
    if state.phase == "deploy":
        for i, pid in enumerate(state.seats):
            if pid in state.deployed:
                continue
            squad = state.squad(pid, in_play_only=False)
            party = tuple(Option.of(m.uid, "model" if m.name == m.profile else "model_profile", name=m.name,
                                    uid=m.uid, profile=m.profile) for m in squad[:25])
            least = min(len(party), ceil_half(len(squad)))
            prompts.append(Prompt(id=f"deploy-{i}", player=pid, kind="deploy", args={"least": least},
                                  options=party, min_choices=least, max_choices=len(party)))
    elif state.phase == "order":
        prompts.append(Prompt(id=f"order-r{state.round}", player=state.initiative["winner"], kind="order",
                              args={"round": state.round},
                              options=(Option.of("me", "order_me"), Option.of("opponent", "order_opponent"))))
    elif state.phase == "end_round":
        prompts.append(Prompt(id=f"eor-r{state.round}", player=state.first_player or state.seats[0],
                              kind="end_round", args={"round": state.round},
                              options=(Option.of("go", "end_round_go", round=state.round),)))
    elif state.phase == "activation":
        if state.active:
            prompts.append(active_prompt(engine, state, state.models[state.active]))
        else:
            prompts.append(turn_prompt(engine, state))
    return prompts


def _queued(state: GameState, item: dict) -> Prompt:
    """The questions the engine asks the table: who stands within 5'' of the Geyser or of a friend
    who fell, and which Stun the Evil Eye's fumble removes."""
    if item.get("kind") == "geyser":
        opts = [Option.of("none", "nobody_near")] + [model_option(m) for m in state.models.values() if m.in_play][:24]
        return Prompt(id=item["id"], player=item["player"], kind="geyser", args={}, options=tuple(opts),
                      min_choices=1, max_choices=len(opts))
    if item.get("kind") == "evil_eye":
        opts = [Option.of("none", "no_stun_removed")] + [model_option(m) for m in state.squad(item["player"])
                                                         if m.stunned][:24]
        return Prompt(id=item["id"], player=item["player"], kind="evil_eye_fumble", args={}, options=tuple(opts))
    opts = [Option.of("none", "nobody_near")] + [model_option(m) for m in state.squad(item["player"])[:24]]
    return Prompt(id=item["id"], player=item["player"], kind="morale_near",
                  args={"fallen": state.models[item["fallen"]].name}, options=tuple(opts), min_choices=1,
                  max_choices=len(opts))


def _reaction(engine: Sections, state: GameState) -> Prompt | None:
    """The reaction the rules grant now (one at a time): Annulment, a reroll, a shot At the Ready,
    Defensive Combat, a Bodyguard, an answer to a disengaging model."""
    sub = state.sub
    kind = sub.get("kind")
    if kind == "annul":
        ctx = sub["ctx"]
        opts = [Option.of("no", "annul_no")] + [
            Option.of(m.uid, "annul_with", name=m.name) for m in state.squad(sub["player"])
            if "Naach-Tith Annulment" in m.spells and m.karma >= ctx["paid"] + 1]
        return Prompt(id=sub["id"], player=sub["player"], kind="annul",
                      args={"caster": state.models[ctx["caster"]].name, "spell": ctx["spell"]}, options=tuple(opts))
    if kind == "reroll":
        ctx = sub["ctx"]
        m = state.models[ctx["a"]]
        r = PoolResult.from_dict(ctx["result"])
        own = ctx.get("stage", "own") == "own"
        opts = [Option.of("keep", "reroll_keep", aces=r.aces)] + (own_reroll_options(m, r) if own else
                                                                  foe_reroll_options(state, m, r))
        return Prompt(id=f"rr-{sub['n']}", player=sub["player"], kind="reroll_own" if own else "reroll_foe",
                      args={"model": m.name, "faces": faces(r), "difficulty": r.difficulty, "aces": r.aces},
                      options=tuple(opts))
    if kind == "ready_shot":
        t = state.models[sub["target"]]
        if not sub["shooter"]:
            opts = [Option.of("no", "no_shot")] + [model_option(x, "ready_shooter") for x in
                                                   engine.ready_shooters(state, t, tuple(sub["done"]))][:24]
            return Prompt(id=f"ar-{sub['n']}", player=sub["player"], kind="ready_shot", args={"target": t.name},
                          options=tuple(opts))
        opts = cover_options() + [Option.of("no", "no_shot_after_all")]
        return Prompt(id=f"ar-{sub['n']}", player=sub["player"], kind="ready_cover",
                      args={"shooter": state.models[sub["shooter"]].name, "target": t.name}, options=tuple(opts))
    if kind == "defensive":
        t, a = state.models[sub["ctx"]["t"]], state.models[sub["ctx"]["a"]]
        dex = attr(t, "DEX", state)
        opts = [Option.of("0", "no_karma")] + [Option.of(str(i), "defensive_karma", karma=i, dex=dex, to=dex + i)
                                               for i in range(1, combat.defensive_allowance(state, t) + 1)]
        return Prompt(id=f"dc-{sub['n']}", player=sub["player"], kind="defensive",
                      args={"attacker": a.name, "target": t.name}, options=tuple(opts))
    if kind == "bodyguard":
        t = state.models[sub["ctx"]["t"]]
        opts = [Option.of("no", "bodyguard_no", target=t.name)] + [
            model_option(m, "bodyguard_steps_in") for m in combat.bodyguards(state, t)[:24]]
        return Prompt(id=f"bg-{sub['n']}", player=sub["player"], kind="bodyguard", args={"target": t.name},
                      options=tuple(opts))
    if kind == "disengage":
        f, leaver = state.models[sub["queue"][0]], state.models[sub["model"]]
        return Prompt(id=f"dis-{sub['n']}", player=f.owner, kind="disengage_reaction",
                      args={"leaver": leaver.name, "model": f.name},
                      options=(Option.of("aoo", "react_aoo"), Option.of("block", "react_block"),
                               Option.of("none", "react_none")))
    return None


def own_reroll_options(m: ModelState, r: PoolResult) -> list[Option]:
    x = ability_x(m, "Reroll Dice")
    return [Option.of("all", "reroll_all") if o == "all" else Option.of("dice", "reroll_dice", x=x)
            for o in combat.reroll_options(m, r)]


def foe_reroll_options(state: GameState, roller: ModelState, r: PoolResult) -> list[Option]:
    out = []
    for o in combat.foe_reroll_options(state, roller, r):
        how, uid = o.split(":", 1)
        helper = state.models[uid]
        out.append(Option.of(o, "reroll_force_all", name=helper.name) if how == "all" else
                   Option.of(o, "reroll_force_dice", name=helper.name, x=ability_x(helper, "Reroll Dice")))
    return out


# ------------------------------------------------------------------ a Turn, an activation
def turn_prompt(engine: Sections, state: GameState) -> Prompt:
    pid = state.turn_player
    if state.sub.get("kind") == "reinforce":
        opts = [Option.of(f"{method[0]}:{m.uid}", "reinforce_method", name=m.name, method=term(f"entry_{method}"))
                for m in engine.reserves(state, pid)[:8] for method in REINFORCEMENT_METHODS] + [back()]
        return Prompt(id=f"rf-t{state.turn}", player=pid, kind="reinforce", args={}, options=tuple(opts[:25]))
    opts = [Option.of(f"act:{m.uid}", "activate", detail="activate_ap", name=m.name, ap=m.ap)
            for m in engine.activatable(state, pid)]
    if engine.can_reinforce(state, pid):
        opts.append(Option.of("reinforce", "reinforce"))
    if engine.can_pass(state, pid):
        opts.append(Option.of("pass", "pass"))
    if not engine.activatable(state, pid):
        opts.append(Option.of("hold", "hold"))
    return Prompt(id=f"turn-t{state.turn}", player=pid, kind="turn", args={"round": state.round},
                  options=tuple(opts[:25]))


def shot_targets(state: GameState, m: ModelState) -> list[ModelState]:
    """The enemies a shot's target prompt offers: a Hidden model cannot be picked."""
    return [x for x in state.squad(state.opponent(m.owner)) if not x.hidden]


def action_options(engine: Sections, state: GameState, m: ModelState) -> list[Option]:
    enemies = state.squad(state.opponent(m.owner))
    ranged = [w for w in m.weapons if w.kind == "ranged"]
    out = []
    for key in BUTTON_ACTIONS:
        ok = m.ap >= 1 and not m.petrified
        if m.entering and key not in ("walk", "run", "jump", "swim", "climb", "hide", "end"):
            ok = False
        elif key in ("walk", "run", "jump", "climb", "hide", "ready_cc"):
            pass
        elif key == "swim":
            ok = ok and m.in_water
        elif key == "clear_stun":
            ok = ok and m.stunned
        elif key in ("melee", "disengage"):
            ok = ok and bool(enemies)
        elif key == "shoot":
            # a shot needs an enemy it may pick (no dead-end target prompt: a bot went Shoot, Back, Shoot…
            # for ever when every enemy was Hidden)
            ok = ok and bool(shot_targets(state, m)) and any(w.loaded and not w.jammed and not w.destroyed
                                                              for w in ranged)
        elif key == "ready_sh":
            ok = ok and any(w.loaded for w in ranged)
        elif key == "reload":
            ok = ok and any(not w.loaded and not w.jammed and not w.destroyed and m.ap >= shooting.reload_cost(w)
                            for w in ranged)
        elif key == "fix_jam":
            ok = m.ap >= 2 and any(w.jammed for w in m.weapons)
        elif key == "cast":
            ok = ok and not m.cast_locked and m.karma >= spells.spell_cost_now(m) and bool(engine._castable(state, m))
        elif key == "heal":
            ok = m.ap >= 2 and ability_x(m, "Healing") is not None and any(
                x.damage for x in state.squad(m.owner) if x.uid != m.uid)
        elif key == "regen":
            ok = m.ap >= 2 and ability_x(m, "Regeneration") is not None and m.damage > 0
        elif key == "end":
            ok = True
        elif key == "endchain":
            ok = engine.can_chain(state, m.owner)
        if ok:
            out.append(Option.of(key, f"action_{key}"))
    return out


def active_prompt(engine: Sections, state: GameState, m: ModelState) -> Prompt:
    sub = state.sub
    base = f"t{state.turn}-{state.counter}"
    who = {"model": m.name}
    if not sub:
        return Prompt(id=f"do-{m.uid}-{base}-{m.ap}", player=m.owner, kind="action", args={**who, "ap": m.ap},
                      options=tuple(action_options(engine, state, m)))
    kind = sub["kind"]
    if kind in ("melee", "shoot"):
        foes = shot_targets(state, m) if kind == "shoot" else state.squad(state.opponent(m.owner))
        opts = [model_option(x) for x in foes[:24]] + [back()]
        return Prompt(id=f"tg-{base}", player=m.owner, kind="target", args=who, options=tuple(opts))
    if kind == "distance":
        return distance_prompt(state, m, state.models[sub["target"]], base)
    if kind == "contact":
        names = {**who, "target": state.models[sub["target"]].name}
        opts = [Option.of(f"a{i}e{j}", "melee_contact", allies=i, enemies=j) for i in range(3) for j in range(3)]
        return Prompt.ask("melee_contact", names, m.owner, opts + [back()], key=(m.uid, base))
    if kind == "dis_pick":
        opts = [model_option(x) for x in state.squad(state.opponent(m.owner))[:24]]
        return Prompt(id=f"dp-{base}", player=m.owner, kind="disengage_from", args=who, options=tuple(opts),
                      min_choices=1, max_choices=len(opts))
    if kind == "cover":
        target = state.models[sub["target"]].name if sub.get("target") in state.models else ""
        return Prompt(id=f"cv-{base}", player=m.owner, kind="cover", args={**who, "target": target},
                      options=tuple(cover_options() + [back()]))
    if kind == "spell":
        cost = spells.spell_cost_now(m)
        opts = [Option.of(f"s{i}", "spell", spell=s["name"], karma=cost)
                for i, s in enumerate(engine._castable(state, m))][:24] + [back()]
        return Prompt(id=f"sp-{base}", player=m.owner, kind="spell", args=who, options=tuple(opts))
    if kind == "spell_target":
        multi = sub.get("multi", False)
        opts = [model_option(x) for x in state.models.values() if x.in_play][:24]
        if not multi:
            opts.append(back())
        return Prompt(id=f"st-{base}", player=m.owner, kind="spell_target", args={"spell": sub["spell"]},
                      options=tuple(opts), min_choices=1, max_choices=min(5, len(opts)) if multi else 1)
    if kind == "attribute":
        opts = [Option.of(x, "attribute", attribute=x) for x in ("MOV", "COM", "DEX", "SHO", "MIN", "PRO")]
        return Prompt(id=f"at-{base}", player=m.owner, kind="attribute", args={"spell": sub["spell"]},
                      options=tuple(opts + [back()]))
    if kind == "heal":
        opts = [Option.of(x.uid, "heal_target", name=x.name, left=x.life_left, life=x.life)
                for x in state.squad(m.owner) if x.damage and x.uid != m.uid][:24] + [back()]
        return Prompt(id=f"hl-{base}", player=m.owner, kind="heal", args=who, options=tuple(opts))
    raise AssertionError("no prompt for the step", kind)  # pragma: no cover


def distance_prompt(state: GameState, m: ModelState, t: ModelState, base: str) -> Prompt:
    """How far the target is, in the bands that change the pool: within the weapon's range, then
    each started 5'' beyond it (−1 die each) up to twice the range."""
    w = combat.pick_weapon(m, "", "ranged")
    opts = [Option.of(f"d{w.range}", "distance_within", range=w.range)]
    near = w.range
    while near + 1 <= 2 * w.range:       # each band is sent as a distance inside it
        far = min(near + 5, 2 * w.range)
        opts.append(Option.of(f"d{near + 1}", "distance_beyond", near=near, far=far,
                              dice=tables.range_penalty(w.range, near + 1)))
        near += 5
    return Prompt.ask("shot_distance", {"model": m.name, "target": t.name, "weapon": w.name, "range": w.range},
                      m.owner, opts + [back()], key=(m.uid, base))


def ranged_band(m: ModelState) -> bool:
    """Whether a shot's distance changes its pool: a weapon with a range, not a template."""
    ranged = [w for w in m.weapons if w.kind == "ranged" and w.loaded and not w.jammed and not w.destroyed]
    if not ranged:
        return False
    w = combat.pick_weapon(m, "", "ranged")
    return w.range > 0 and weapon_x(w.abilities, "Blast") is None and not w.damage_dice
