"""Klash! resolution: dice, tests, attacks, damage, spells, Victory Points. Pure functions on the state.

Every function appends the events it causes to ``out``. Quality hooks are named after the 42 keys of
``pack.QUALITIES``; grep for a key to find its rule.
"""
from __future__ import annotations

import math
import re
from typing import Any

from rules.common.engine import PUBLIC, Event, term
from rules.common.errors import IllegalAction

from . import arena, dice
from .state import KlashState, Model

IMMUNE_DOMINATION = ("madman", "lifeless")
IMMUNE_STUN_SPELL = ("madman", "lifeless")
IMMUNE_TERROR = ("madman", "lifeless", "daredevil")
IMMUNE_FRIGHT = ("madman", "lifeless", "daredevil", "frightening")
SPELL_CODES = {"armour": "ar", "mystic_dart": "md", "domination": "do", "healing": "he", "stun": "st",
               "terror": "te", "teleport": "tp", "destructive_touch": "dt"}
CODE_SPELLS = {v: k for k, v in SPELL_CODES.items()}
SPELL_RANGE = {"mystic_dart": 25, "domination": 10, "healing": 10, "stun": 15, "terror": 15}
SPELL_DIFFICULTY = {"armour": 2, "healing": 3, "teleport": 5}
OPPOSED = ("mystic_dart", "domination", "stun", "terror", "destructive_touch")


def say(out: list, kind: str, audience: str = PUBLIC, **data) -> None:
    """An event as data (its words are `events.<kind>` in i18n/<lang>.klash.yaml). Models are named
    by their match name (`name`, `target_name`, ...), players by id under `player`/`*_player`."""
    out.append(Event(kind, data, audience))


def words(card: dict, field: str) -> Any:
    """A pack's own words (a card's ``name`` or ``text``) as event data: a ``{"text": {lang: ...}}``
    the presenter reads in the reader's language when the pack gives several, else the plain string."""
    texts = card.get(f"{field}s") if field == "name" else card.get("texts")
    if field == "name":       # the pack's "SAMPLE " mark is for the file; the table reads the name
        texts = {lang: text.replace("SAMPLE ", "") for lang, text in (texts or {"en": card.get("name", "")}).items()}
        return {"text": texts} if len(texts) > 1 else next(iter(texts.values()), "")
    if isinstance(texts, dict) and len(texts) > 1:
        return {"text": dict(texts)}
    return card.get(field, "")


def test_term(why: str) -> dict:
    """The catalogue word of a Discipline test (`Fear (to Charge)` -> terms.test_fear_to_charge)."""
    return term("test_" + re.sub(r"[^a-z0-9]+", "_", why.lower()).strip("_"))


# ---------------------------------------------------------------- model facts
def has(state: KlashState, m: Model, quality: str) -> bool:
    return quality in state.cards[m.card]["qualities"]


def kind_of(state: KlashState, m: Model) -> str:
    return state.cards[m.card]["type"]


def is_beast(state: KlashState, m: Model) -> bool:
    return kind_of(state, m) in ("bestia", "mostro")


def stat(state: KlashState, m: Model, name: str):
    return state.cards[m.card][name]


def radius(state: KlashState, m: Model) -> float:
    return card_radius(state.cards, m.card)


def card_radius(cards: dict, card: str) -> float:
    """A model's base radius by its card: the one place that knows a Huge model has the large base
    (the geometry below asks it of a card table it already holds, about a million times a bot's game)."""
    return arena.BASE_LARGE if "huge" in cards[card]["qualities"] else arena.BASE_NORMAL


def disc(state: KlashState, m: Model) -> arena.Disc:
    r = card_radius(state.cards, m.card)
    return arena.Disc(m.x, m.y, r, m.id, 0 if m.owner == state.seats[0] else state.seats.index(m.owner),
                      r == arena.BASE_LARGE)


def discs(state: KlashState) -> list[arena.Disc]:
    """``disc`` of every model on the field, inlined (the prompts ask it of every state a search reaches)."""
    cards, seats = state.cards, state.seats
    first, out = seats[0], []
    for m in state.models:
        if m.placed and not m.removed:
            r = card_radius(cards, m.card)
            out.append(arena.Disc(m.x, m.y, r, m.id, 0 if m.owner == first else seats.index(m.owner),
                                  r == arena.BASE_LARGE))
    return out


def contact(state: KlashState, a: Model, b: Model) -> bool:
    if a.id == b.id:
        return False
    cards = state.cards      # no Discs made: this runs about a million times in a bot's game
    ra, rb = card_radius(cards, a.card), card_radius(cards, b.card)
    return ((a.x - b.x) ** 2 + (a.y - b.y) ** 2) ** 0.5 - ra - rb <= arena.CONTACT_TOL


def gap(state: KlashState, a: Model, b: Model) -> float:
    # arena.edge_gap of the two discs, the same arithmetic without making them (a search asks it often)
    ra, rb = card_radius(state.cards, a.card), card_radius(state.cards, b.card)
    return math.hypot(a.x - b.x, a.y - b.y) - ra - rb


def enemies_in_contact(state: KlashState, m: Model) -> list[Model]:
    # contact() inlined, m's radius found once: the prompts and the flow ask this of every state
    cards, tol = state.cards, arena.CONTACT_TOL
    ra = card_radius(cards, m.card)
    owner, mid, x, y = m.owner, m.id, m.x, m.y
    out = []
    for e in state.models:
        if e.owner != owner and e.placed and not e.removed and e.id != mid:
            if ((x - e.x) ** 2 + (y - e.y) ** 2) ** 0.5 - ra - card_radius(cards, e.card) <= tol:
                out.append(e)
    return out


def engaged_with(state: KlashState, m: Model) -> list[Model]:
    """Enemies that engage m: in base contact and not Stunned (L47, §6.11)."""
    return [e for e in enemies_in_contact(state, m) if not e.stunned]


def engaged(state: KlashState, m: Model) -> bool:
    return bool(engaged_with(state, m))


def limit_key(state: KlashState) -> int:
    return state.turn_no if state.house_rules.get("once_per", "turn") == "turn" else state.hourglass


# ---------------------------------------------------------------- dice
def die(state: KlashState, sides: int) -> int:
    rr = state.replay
    if rr is not None and rr["at"] < len(rr["rolled"]):
        # replaying an action after a re-roll window: the dice already seen stand
        value, src = rr["rolled"][rr["at"]]
        rr["at"] += 1
        if src == "r":
            state.rng.die(sides)   # the Rng moves on exactly as it did the first time
        rr["log"].append([value, src])
        return value
    if state.dice_queue:
        value, src = max(1, min(sides, int(state.dice_queue.pop(0)))), "q"
    else:
        value, src = state.rng.die(sides), "r"
    if rr is not None:
        rr["at"] += 1
        rr["log"].append([value, src])
    return value


class RerollWindow(Exception):
    """Raised by a failed roll that a Training Token may re-roll: the engine rewinds the action, asks the
    model's player, and replays the action with the answer (the dice already rolled stand)."""

    def __init__(self, model: str, player: str, what: dict):
        super().__init__("reroll_window")
        self.model, self.player, self.what = model, player, what


def token_reroll_ok(state: KlashState, m: Model) -> bool:
    """May m's player spend a Training Token to re-roll m's roll now? (§3.9, one token per character per Turn)"""
    dominated = bool(state.acts and state.acts[-1].dominated and state.acts[-1].model == m.id)
    return (m.placed and not m.removed and state.tokens.get(m.owner, 0) > 0 and not is_beast(state, m)
            and m.token_mark != limit_key(state) and not dominated)   # a dominated model acts for the enemy


def spend_token(state: KlashState, out: list, m: Model, effect: str) -> bool:
    """Pay a token on m: the Discipline test (Veteran skips it). True if the effect happens."""
    state.tokens[m.owner] -= 1
    m.token_mark = limit_key(state)
    if has(state, m, "veteran"):
        ok = True
        say(out, "veteran", model=m.id, name=state.label(m))
    else:
        ok, _ = discipline_test(state, out, m, "Training Token", allow_armed=False)
    say(out, "token", player=m.owner, model=m.id, name=state.label(m), effect=effect, use=term(f"token_{effect}"),
        ok=ok, result=term("token_works" if ok else "token_wasted"))
    return ok


def reroll(state: KlashState, out: list, m: Model, what: dict) -> bool:
    """A roll of m failed: is it re-rolled with a Training Token?

    House rule ``reroll_window`` (default): the player decides after seeing the dice; the engine asks
    (``RerollWindow``) and replays the action with the answer. Otherwise a re-roll armed in advance
    (``reroll_armed``) is used on the first failed roll."""
    if not state.house_rules.get("reroll_window", True):
        if not m.reroll_armed:
            return False
        m.reroll_armed = False
        say(out, "reroll", model=m.id, name=state.label(m), roll=term(f"roll_{what['roll']}"))
        return True
    rr = state.replay
    if rr is None or not token_reroll_ok(state, m):
        return False
    i = rr["asked"]
    rr["asked"] += 1
    if i >= len(rr["decisions"]):
        raise RerollWindow(m.id, m.owner, what)
    if not rr["decisions"][i]:
        return False
    if not spend_token(state, out, m, "reroll"):
        return False
    say(out, "reroll", model=m.id, name=state.label(m), roll=term(f"roll_{what['roll']}"))
    return True


def roll_stat(state: KlashState, text: str, net: int, reroll_ones: bool = False) -> tuple[int, list[int]]:
    return dice.roll(text, net, lambda s: die(state, s), reroll_ones)


def discipline_test(state: KlashState, out: list, m: Model, why: str, *, add: int = 0,
                    value: int | None = None, allow_armed: bool = True) -> tuple[bool, tuple[int, int]]:
    """2d6 summed (+ add) against Discipline: success if the sum is at most Discipline (L49)."""
    target = value if value is not None else stat(state, m, "discipline")
    mod = -1 if (m.stunned and state.house_rules.get("stun_affects_discipline")) else 0

    def throw():
        if mod:
            a, _ = roll_stat(state, "d6", mod)
            b, _ = roll_stat(state, "d6", mod)
        else:
            a, b = die(state, 6), die(state, 6)
        return a, b

    a, b = throw()
    ok = a + b + add <= target
    if not ok and allow_armed and reroll(state, out, m, {"roll": "test", "test": test_term(why), "a": a, "b": b,
                                                          "target": target}):
        a, b = throw()
        ok = a + b + add <= target
    # the dice arithmetic as numbers and signs only ("3+4 + 2"): the same in every language
    say(out, "test", model=m.id, name=state.label(m), test=test_term(why), sum=f"{a}+{b}" + (f" + {add}" if add else ""),
        total=a + b + add, dice=[a, b], add=add, target=target, ok=ok, why=why,
        result=term("success" if ok else "failure"))
    return ok, (a, b)


def tenacity_outcome(damage: int, tenacity: int, mighty: bool = False, lifeless: bool = False) -> str:
    """The damage/Tenacity table (L29-L35, L62-L63): none | stunned | defeated | massacre."""
    if damage <= 0:
        return "none"
    if mighty and tenacity >= 2 * damage:
        return "none"
    if damage >= 2 * tenacity:
        return "defeated" if lifeless else "massacre"
    if tenacity < damage:
        return "defeated"
    return "stunned"


def opposed_damage(attack: int, defence: int) -> int:
    """Attack > Defence deals the difference; a tie or less does nothing (L26)."""
    return attack - defence if attack > defence else 0


def superiority(state: KlashState, attacker: Model, target: Model) -> int:
    """Numerical Superiority: +1 step per other unstunned ally of the attacker in contact with the target."""
    if target.owner == attacker.owner:
        return 0
    return sum(1 for a in state.on_field(attacker.owner)
               if a.id != attacker.id and not a.stunned and contact(state, a, target))


def defender_bonus(state: KlashState, m: Model) -> int:
    """Defender: allied models adjacent to a Defender Increase Melee and Ranged Defence (not cumulative)."""
    return 1 if any(a.id != m.id and has(state, a, "defender") and contact(state, a, m)
                    for a in state.on_field(m.owner)) else 0


# ---------------------------------------------------------------- VP and removal
def score(state: KlashState, player: str, amount: int, reason: str, out: list, **detail) -> None:
    """`reason` is a code (no_melee, underdog, event, removed, crowd_idol): events `vp_<reason>`;
    `detail` names what scored (a model's `name` and `how`, an Event Card's `card_name`)."""
    if amount == 0:
        return
    state.vp[player] = state.vp.get(player, 0) + amount
    state.vp_log.append([player, amount, reason])
    say(out, f"vp_{reason}", player=player, amount=amount, reason=reason, **detail)


def remove(state: KlashState, out: list, m: Model, how: str, by: Model | None = None) -> None:
    """Remove a model; its owner's opponent scores its VP (double for a Massacre), per §6.8."""
    if m.removed:
        return
    m.removed = how
    m.stunned = False
    vp = stat(state, m, "vp") * (2 if how == "massacred" else 1)
    say(out, "removed", model=m.id, name=state.label(m), how=how, removal=term(how))
    scorer = state.other(m.owner)
    score(state, scorer, vp, "removed", out, name=state.label(m), removal=term(how))
    if by is not None and by.owner != m.owner and has(state, by, "crowd_idol") and not by.removed:
        score(state, by.owner, 1, "crowd_idol", out, name=state.label(by))
    for act in state.acts:
        if act.model == m.id:
            act.ended = True


def apply_damage(state: KlashState, out: list, target: Model, damage: int, source: Model | None,
                 lethal: bool = False) -> str:
    if damage <= 0 or target.removed:
        return "none"
    mod = (-1 if target.stunned else 0) + (-1 if lethal else 0) + (1 if target.armour else 0)
    tough, faces = roll_stat(state, stat(state, target, "tenacity"), mod)
    outcome = tenacity_outcome(damage, tough, has(state, target, "mighty"), has(state, target, "lifeless"))
    if outcome in ("defeated", "massacre") and reroll(state, out, target, {"roll": "tenacity", "value": tough,
                                                                           "damage": damage, "outcome": term(outcome)}):
        tough, faces = roll_stat(state, stat(state, target, "tenacity"), mod)
        outcome = tenacity_outcome(damage, tough, has(state, target, "mighty"), has(state, target, "lifeless"))
    say(out, "tenacity", model=target.id, name=state.label(target), damage=damage,
        die=dice.shift(stat(state, target, "tenacity"), mod), roll=tough, outcome=outcome, result=term(outcome))
    if outcome == "stunned":
        target.stunned = True
    elif outcome == "defeated":
        remove(state, out, target, "defeated", source)
    elif outcome == "massacre":
        remove(state, out, target, "massacred", source)
    return outcome


def _consume(m: Model) -> int:
    mod = m.boost - m.hex
    m.boost = 0
    m.hex = 0
    return mod


def _opposed(state: KlashState, out: list, attacker: Model, target: Model, a_stat: str, d_stat: str,
             a_mod: int, d_mod: int, a_reroll1: bool, d_reroll1: bool, label: dict) -> tuple[int, int]:
    a_mod += _consume(attacker) - (1 if attacker.stunned else 0)
    d_mod += -target.hex - (1 if target.stunned else 0)
    target.hex = 0
    a_text, d_text = stat(state, attacker, a_stat), stat(state, target, d_stat)
    att, _ = roll_stat(state, a_text, a_mod, a_reroll1)
    dfn, _ = roll_stat(state, d_text, d_mod, d_reroll1)
    if att <= dfn and attacker.id != target.id and reroll(state, out, attacker, {"roll": "attack", "attack": label,
                                                                                 "a": att, "b": dfn}):
        att, _ = roll_stat(state, a_text, a_mod, a_reroll1)
    if att > dfn and reroll(state, out, target, {"roll": "defence", "attack": label, "a": dfn, "b": att}):
        dfn, _ = roll_stat(state, d_text, d_mod, d_reroll1)
    say(out, "roll", label=label, name=state.label(attacker), target_name=state.label(target), attacker=attacker.id,
        target=target.id, attack=att,
        defence=dfn, attack_die=dice.shift(a_text, a_mod), defence_die=dice.shift(d_text, d_mod))
    return att, dfn


def _hunter(state: KlashState, m: Model, other: Model) -> int:
    """Big Game Hunter: Increase in opposed tests against enemy Beasts or Monsters."""
    return 1 if has(state, m, "big_game_hunter") and is_beast(state, other) and other.owner != m.owner else 0


# ---------------------------------------------------------------- melee
def melee(state: KlashState, out: list, attacker: Model, target: Model, *, inc: int = 0, charge: bool = False,
          kind: str = "assault", allow_follow: bool = True) -> dict:
    """One opposed melee attack with every quality hook. Returns {"attack", "defence", "damage", "outcome"}."""
    result = {"attack": 0, "defence": 0, "damage": 0, "outcome": "none"}
    if attacker.removed or target.removed:
        return result
    dominated = bool(state.acts and state.acts[-1].dominated and state.acts[-1].model == attacker.id)
    if (target.owner != attacker.owner or dominated) and target.owner not in state.melee_against:
        state.melee_against.append(target.owner)
    # Petrifying Gaze: the attacker tests before the dice; a failure turns it to stone (§6.17).
    if has(state, target, "petrifying_gaze") and target.owner != attacker.owner:
        ok, _ = discipline_test(state, out, attacker, "Petrifying Gaze")
        if not ok:
            remove(state, out, attacker, "petrified", None)
            result["outcome"] = "petrified"
            return result
    a_mod, d_mod = inc, 0
    if has(state, target, "taunt") and kind_of(state, attacker) != "bestia" and target.owner != attacker.owner:
        ok, _ = discipline_test(state, out, attacker, "Taunt")
        a_mod -= 0 if ok else 1
    if has(state, attacker, "taunt") and kind_of(state, target) != "bestia" and target.owner != attacker.owner:
        ok, _ = discipline_test(state, out, target, "Taunt")
        d_mod -= 0 if ok else 1
    a_mod += superiority(state, attacker, target) + _hunter(state, attacker, target)
    a_mod -= 1 if has(state, target, "shorty") else 0
    d_mod += defender_bonus(state, target) + (1 if target.armour else 0) + _hunter(state, target, attacker)
    att, dfn = _opposed(state, out, attacker, target, "melee_attack", "melee_defence", a_mod, d_mod,
                        has(state, attacker, "weapon_master"),
                        has(state, target, "weapon_master") or has(state, target, "lightning_reflexes"),
                        term(f"attack_{kind}"))
    result.update(attack=att, defence=dfn)
    damage = opposed_damage(att, dfn)
    if damage:
        damage += 1 if has(state, attacker, "devastating_blow") else 0
        damage += 2 if charge and has(state, attacker, "impetuous_charge") else 0
        if has(state, attacker, "opportunist") and (target.stunned or any(
                a.id != attacker.id and contact(state, a, target) and not a.stunned
                for a in state.on_field(attacker.owner))) and target.owner != attacker.owner:
            damage += 2
        result["damage"] = damage
        was_stunned = target.stunned
        result["outcome"] = apply_damage(state, out, target, damage, attacker, has(state, attacker, "lethal"))
        del was_stunned
        # Fury: damage in melee during its own turn -> a free Assault, once per Turn.
        if (allow_follow and has(state, attacker, "fury") and not attacker.removed and state.turn_player == attacker.owner
                and state.acts and state.acts[-1].model == attacker.id and attacker.fury_mark != limit_key(state)):
            state.choices.append({"kind": "fury", "player": attacker.owner, "model": attacker.id})
    elif dfn > att and kind != "self":
        # Counterattack: a strictly higher Melee Defence allows a free attack, once per Turn. Free attacks
        # are normal melee attacks (§6.12): AoO, Repel Charge, Fury and another Counterattack allow it too.
        if (has(state, target, "counterattack") and not target.stunned and not attacker.removed
                and target.owner != attacker.owner and target.counter_mark != limit_key(state)):
            state.choices.append({"kind": "counter", "player": target.owner, "model": target.id,
                                  "target": attacker.id})
    return result


# ---------------------------------------------------------------- ranged
def volley_problem(state: KlashState, shooter: Model, target: Model, reach: tuple | None = None,
                   magic: bool = False) -> IllegalAction | None:
    """Why shooter may not shoot target (L41), or None."""
    if target.removed or target.owner == shooter.owner:
        return IllegalAction("shoot_enemy_only")
    if not magic and not dice.usable(stat(state, shooter, "ranged_attack")):
        return IllegalAction("no_ranged_attack", name=state.label(shooter))
    short, long = reach or stat(state, shooter, "ranged_range")
    if arena.range_band(gap(state, shooter, target), short, long) is None:
        return IllegalAction("beyond_max_range", target_name=state.label(target), range=long)
    if enemies_in_contact(state, shooter):
        return IllegalAction("shooter_engaged", name=state.label(shooter))
    if any(contact(state, a, target) for a in state.on_field(shooter.owner)):
        return IllegalAction("target_in_friendly_contact", target_name=state.label(target))
    visible, _ = arena.line_of_sight(disc(state, shooter), disc(state, target), discs(state))
    if not visible:
        return IllegalAction("shot_not_in_sight", target_name=state.label(target))
    return None


# The catalogue term for a Volley by range band and cover.
VOLLEY_TERMS = {("short", False): "volley_short", ("long", False): "volley_long",
                ("short", True): "volley_short_cover", ("long", True): "volley_long_cover"}


def volley(state: KlashState, out: list, shooter: Model, target: Model, *, inc: int = 0) -> dict:
    short, long = stat(state, shooter, "ranged_range")
    band = arena.range_band(gap(state, shooter, target), short, long)
    _, cover = arena.line_of_sight(disc(state, shooter), disc(state, target), discs(state))
    hawk = has(state, shooter, "hawk_eye")
    a_mod = inc - (1 if band == "long" else 0) - (1 if cover and not hawk else 0)
    a_mod += _hunter(state, shooter, target) - (1 if has(state, target, "shorty") else 0)
    d_mod = defender_bonus(state, target) + (1 if target.armour else 0) + _hunter(state, target, shooter)
    att, dfn = _opposed(state, out, shooter, target, "ranged_attack", "ranged_defence", a_mod, d_mod, False,
                        has(state, target, "lightning_reflexes"),
                        term(VOLLEY_TERMS[band, bool(cover)]))
    result = {"attack": att, "defence": dfn, "damage": 0, "outcome": "none", "band": band, "cover": cover}
    damage = opposed_damage(att, dfn)
    if damage:
        damage += 1 if has(state, shooter, "mighty_shot") else 0
        damage += 1 if hawk and not cover else 0
        if has(state, shooter, "opportunist") and (target.stunned or any(
                a.id != shooter.id and contact(state, a, target) and not a.stunned for a in state.on_field(shooter.owner))):
            damage += 2
        result["damage"] = damage
        result["outcome"] = apply_damage(state, out, target, damage, shooter, has(state, shooter, "lethal"))
    return result


# ---------------------------------------------------------------- magic
def spell_problem(state: KlashState, caster: Model, spell: str, target: Model | None,
                  point: tuple | None = None) -> IllegalAction | None:
    if not has(state, caster, "spellcaster") or spell not in stat(state, caster, "spells"):
        return IllegalAction("spell_unknown_to", name=state.label(caster))
    if not dice.usable(stat(state, caster, "magic_attack")):
        return IllegalAction("no_magic_attack", name=state.label(caster))
    if caster.id in state.cast:
        return IllegalAction("already_cast", name=state.label(caster))
    if spell in ("armour", "teleport"):
        if spell == "teleport":
            if point is None:
                return IllegalAction("teleport_needs_point")
            return teleport_problem(state, caster, point)
        return None
    if target is None or target.removed:
        return IllegalAction("spell_needs_target")
    if spell == "healing":
        if target.owner != caster.owner:
            return IllegalAction("healing_own_only")
        if target.id != caster.id:
            visible, _ = arena.line_of_sight(disc(state, caster), disc(state, target), discs(state))
            if not visible or gap(state, caster, target) > SPELL_RANGE["healing"] + 1e-9:
                return IllegalAction("healing_reach", target_name=state.label(target), range=SPELL_RANGE["healing"])
        return None
    if target.owner == caster.owner:
        return IllegalAction("spell_enemy_only")
    if spell == "destructive_touch":
        return None if contact(state, caster, target) else IllegalAction("not_in_contact", target_name=state.label(target))
    if spell == "mystic_dart":
        return volley_problem(state, caster, target, (SPELL_RANGE["mystic_dart"], SPELL_RANGE["mystic_dart"]), True)
    visible, _ = arena.line_of_sight(disc(state, caster), disc(state, target), discs(state))
    if not visible:
        return IllegalAction("not_in_sight", target_name=state.label(target))
    if gap(state, caster, target) > SPELL_RANGE[spell] + 1e-9:
        return IllegalAction("beyond_spell_range", target_name=state.label(target), range=SPELL_RANGE[spell])
    return None


def teleport_problem(state: KlashState, caster: Model, point: tuple) -> IllegalAction | None:
    """Teleport: an unoccupied point in line of sight, inside the arena, 1 cm from enemies (§6.20)."""
    x, y = point
    me = arena.Disc(x, y, radius(state, caster), caster.id, state.seats.index(caster.owner))
    if not arena.inside_arena(x, y, me.r):
        return IllegalAction("point_outside")
    for s in arena.scenery():
        if arena.edge_gap(me, s) < 0:
            return IllegalAction("point_in_scenery")
    if arena.blocked_by_scenery((caster.x, caster.y), (x, y)):
        return IllegalAction("point_not_in_sight")
    for m in state.on_field():
        if m.id == caster.id:
            continue
        g = arena.edge_gap(me, disc(state, m))
        if g < -arena.CONTACT_TOL:
            return IllegalAction("point_occupied", target_name=state.label(m))
        if m.owner != caster.owner and g < arena.MIN_ENEMY_GAP - arena.CONTACT_TOL:
            return IllegalAction("point_near_enemy", target_name=state.label(m))
    return None


def cast(state: KlashState, out: list, caster: Model, spell: str, target: Model | None, *, inc: int = 0,
         point: tuple | None = None) -> dict:
    """Resolve a spell (L42-L45). Returns {"success", "margin", ...}. Domination pushes an activation."""
    state.cast.append(caster.id)
    result: dict = {"success": False, "margin": 0}
    mystic = has(state, caster, "mystic_vocation")
    if spell in SPELL_DIFFICULTY:
        mod = inc + _consume(caster) - (1 if caster.stunned else 0)
        roll, _ = roll_stat(state, stat(state, caster, "magic_attack"), mod, mystic)
        if roll < SPELL_DIFFICULTY[spell] and reroll(state, out, caster, {"roll": "magic", "a": roll,
                                                                            "difficulty": SPELL_DIFFICULTY[spell]}):
            roll, _ = roll_stat(state, stat(state, caster, "magic_attack"), mod, mystic)
        ok = roll >= SPELL_DIFFICULTY[spell]
        say(out, "spell", model=caster.id, name=state.label(caster), spell=spell, spell_name=term(f"spell_{spell}"),
            difficulty=SPELL_DIFFICULTY[spell], roll=roll, ok=ok, result=term("success" if ok else "failure"))
        result.update(success=ok, roll=roll)
        if not ok:
            return result
        if spell == "armour":
            caster.armour = True
        elif spell == "healing":
            target.stunned = False
            say(out, "recovered", model=target.id, name=state.label(target))
        elif spell == "teleport":
            caster.x, caster.y = float(point[0]), float(point[1])
            say(out, "teleported", model=caster.id, name=state.label(caster), x=caster.x, y=caster.y)
        return result
    # Opposed spells: Magic Attack vs Magic Defence; a tie does nothing (D-12).
    if spell == "domination" and any(has(state, target, q) for q in IMMUNE_DOMINATION) or \
            spell == "stun" and any(has(state, target, q) for q in IMMUNE_STUN_SPELL) or \
            spell == "terror" and any(has(state, target, q) for q in IMMUNE_TERROR):
        say(out, "spell_immune", model=caster.id, target_name=state.label(target), spell=spell,
            spell_name=term(f"spell_{spell}"), ok=False)
        return result
    a_mod = inc + _hunter(state, caster, target)
    d_mod = (1 if target.armour else 0) + _hunter(state, target, caster)
    if spell == "mystic_dart":
        _, cover = arena.line_of_sight(disc(state, caster), disc(state, target), discs(state))
        a_mod -= 1 if cover else 0
    att, dfn = _opposed(state, out, caster, target, "magic_attack", "magic_defence", a_mod, d_mod, mystic,
                        has(state, target, "mystic_vocation"), term(f"spell_{spell}"))
    margin = att - dfn
    result.update(attack=att, defence=dfn, margin=margin, success=margin > 0)
    if margin <= 0:
        say(out, "spell_no_effect", model=caster.id, spell=spell, ok=False)
        return result
    if spell in ("mystic_dart", "destructive_touch"):
        if spell == "destructive_touch" and state.house_rules.get("destructive_touch_is_melee"):
            if target.owner not in state.melee_against:
                state.melee_against.append(target.owner)
        damage = margin + (1 if has(state, caster, "destructive_power") else 0)
        result["damage"] = damage
        result["outcome"] = apply_damage(state, out, target, damage, caster, has(state, caster, "lethal"))
    elif spell == "stun":
        target.stunned = True
        say(out, "stunned_spell", model=target.id, name=state.label(target))
    elif spell == "terror":
        ok, _ = discipline_test(state, out, target, "Terror")
        if not ok:
            remove(state, out, target, "terrified", None)
        result["outcome"] = "none" if ok else "terrified"
    elif spell == "domination":
        ok, _ = discipline_test(state, out, target, "Domination", add=margin)
        result["controlled"] = not ok
        if not ok:
            from .state import Activation
            say(out, "dominated", model=target.id, name=state.label(target), controller=caster.owner,
                controller_player=caster.owner)
            state.acts.append(Activation(model=target.id, controller=caster.owner, dominated=True,
                                         free_assault=has(state, target, "two_heads")))
            target.armour = False
    return result


def fear_immune(state: KlashState, m: Model) -> bool:
    return any(has(state, m, q) for q in IMMUNE_FRIGHT)


def require(cond: object, code: str, **params) -> None:
    """Refuse with `errors.<code>` unless `cond`."""
    if not cond:
        raise IllegalAction(code, **params)


def check(problem: IllegalAction | None, state: KlashState | None = None) -> None:
    """Refuse with the problem a `*_problem` function found, if any. The arena names models by their
    id (`key`); the refusal names them by their match name (`target_name`)."""
    if problem is None:
        return
    key = problem.params.pop("key", None)
    if key is not None and state is not None:
        problem.params["target_name"] = state.label(state.model(key))
    raise problem
