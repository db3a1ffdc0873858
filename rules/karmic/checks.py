"""Basic, opposed, combined and ranged checks (digest §1.7–§1.10, §5)."""
from __future__ import annotations

from rules.common import GM, PUBLIC, Event, IllegalAction, Option, Prompt

from . import ranged as rangedmod
from . import skill_tables, wounds
from .base import (card_term, cards_term, deck_of, discard, draw, load_character, name, offer_prompt,
                   owner_audience, skill_term)
from .cards import is_face, is_joker, value
from .state import Check, CheckSide, KarmicState, Play
from .tables import attribute_name, difficulty_mod, result_chart, skill_key


def setup_check(state: KarmicState, options: dict, pack: dict | None) -> list[Event]:
    events: list[Event] = []
    actor = options.get("actor")
    if not actor:
        raise IllegalAction("check_needs_actor")
    player = actor.get("player") or (state.seats[0] if state.seats else GM)

    def add(key, spec, who):
        state.characters[key] = load_character(spec["character"], pack, who, state.rng, key)
        state.characters[key].fatigue_effect = int(state.house_rules["fatigue_card_effect"])
        for extra in state.house_rules["extra_advanced_skills"]:
            if skill_key(extra) not in state.characters[key].advanced:
                state.characters[key].advanced.append(skill_key(extra))
        if state.characters[key].deck is not None:
            state.characters[key].deck.mode = state.house_rules["reshuffle_mode"]
        state.controllers[key] = who
    add("c1", actor, player)
    helpers = options.get("helpers", [])
    cap = int(options.get("max_helpers", state.house_rules["max_helpers_default"]))
    if len(helpers) > cap:
        raise IllegalAction("too_many_helpers", cap=cap)
    for i, h in enumerate(helpers):
        add(f"h{i + 1}", h, h.get("player", GM))
    opp = options.get("opponent")
    if opp:
        add("o1", opp, opp.get("player", GM))
    for key, cards in (options.get("stack") or {}).items():
        deck_of(state, key).stack(list(cards))

    diff = difficulty_mod(options.get("difficulty"))
    skill = options.get("skill") or ""
    ranged_opts = options.get("ranged") or {}
    if ranged_opts.get("weapon") and not skill:     # a shot is a check of the weapon's skill (§5.2)
        skill = rangedmod.weapon_named(state.characters["c1"], ranged_opts["weapon"]).skill
    attr = attribute_name(options["attribute"]) if options.get("attribute") else ""
    check = Check(label=options.get("label", skill or attr or "check"), difficulty=diff,
                  ranged=dict(options.get("ranged") or {}),
                  situations=[s.id for s in skill_tables.pick(skill, list(options.get("situations") or []))])
    side = CheckSide("c1", skill=skill_key(skill) if skill else "", attribute=attr,
                     foe_field=options.get("field") or "",
                     modifier=diff + int(options.get("modifier", 0)),
                     hidden=int(options.get("hidden_modifier", 0)))
    char = state.characters["c1"]
    if skill_tables.unknown_language(check.situations):
        pass            # L783: the gist of a language he lacks; the field names it (L789), no bonus
    elif side.foe_field or (skill and skill_key(skill) in char.fields):
        char.foe_bonus(skill, side.foe_field or None)       # refuses a field he lacks
    hand_n = char.hand_for(skill or None)
    if options.get("skill2"):
        hand_n = min(hand_n, char.hand_for(options["skill2"]))
    if check.ranged:
        rangedmod.prepare(state, char, check.ranged, side)
    if check.ranged.get("from_aim") and state.house_rules["aim_card_mode"] == "replace":
        side.hand = list(char.aim_row)
        char.aim_row = []
    elif check.ranged.get("from_aim"):      # A17 variant: the best aim card is a bonus to a normal draw
        best = max(char.aim_row, key=value) if char.aim_row else None
        if best is not None:
            side.modifier += value(best)
            discard(state, "c1", list(char.aim_row))
            char.aim_row = []
        side.hand = draw(state, "c1", hand_n, events)
    else:
        side.hand = draw(state, "c1", hand_n, events)
    for i in range(len(helpers)):
        hk = f"h{i + 1}"
        hand = draw(state, hk, state.characters[hk].hand_for(skill or None), events)
        numeric = [c for c in hand if not is_joker(c)] or hand
        best = max(numeric, key=value)
        side.helper_cards[hk] = best
        discard(state, hk, [c for c in hand if c != best])
        events.append(Event("helper", {"name": name(state, hk), "who": hk}))
        events.append(Event("helper_hand", {"name": name(state, hk), "drawn": cards_term(hand),
                                            "offered": card_term(best), "cards": hand, "best": best},
                            owner_audience(state, hk)))
    check.sides.append(side)
    if opp:
        defense = check.ranged.get("defense") if check.ranged else None
        if defense not in (None, "dodge", "block"):
            raise IllegalAction("bad_defense")
        oskill = opp.get("skill") or {"dodge": "dodge", "block": "shield", None: ""}[defense]
        oattr = opp.get("attribute") or {"dodge": "awareness", "block": "finesse", None: ""}[defense]
        oside = CheckSide("o1", skill=skill_key(oskill) if oskill else "",
                          attribute=attribute_name(oattr) if oattr else "",
                          modifier=int(opp.get("modifier", 0)), hidden=int(opp.get("hidden_modifier", 0)))
        oside.hand = draw(state, "o1", state.characters["o1"].hand_for(oskill or None), events)
        check.sides.append(oside)
    state.check = check
    state.phase = "play"
    what = skill_term(skill_key(skill) if skill else "", attr)
    start = {"name": char.shown, "what": what, "skill": skill, "attribute": attr, "difficulty": diff,
             "cards": len(side.hand)}
    if opp:
        start["opponent"] = name(state, "o1")
    events.append(Event("check_start_opposed" if opp else "check_start", start))
    for s in check.sides:
        events.append(Event("hand", {"name": name(state, s.key), "what": skill_term(s.skill, s.attribute),
                                     "hand": cards_term(s.hand), "who": s.key, "cards": list(s.hand)},
                            owner_audience(state, s.key)))
        if s.hidden:
            events.append(Event("gm_modifier", {"name": name(state, s.key), "side": s.key, "value": s.hidden}, GM))
    return events


# --- prompts ---------------------------------------------------------------------------------
def check_prompts(state: KarmicState) -> list[tuple[Prompt, dict]]:
    out = []
    check = state.check
    if state.phase == "play":
        for i, s in enumerate(check.sides):
            who = state.controllers[s.key]
            if s.play is None:
                opts = [Option.of(c, "card", card=card_term(c)) for c in s.hand]
                opts += [Option.of(f"{hk}:{c}"[:20], "helper_card", card=card_term(c), helper=name(state, hk))
                         for hk, c in s.helper_cards.items()]
                out.append((Prompt.ask("play", {"name": name(state, s.key)}, who, opts, key=(s.key,),
                                       private=True), {"key": s.key, "kind": "play", "side": i}))
            elif s.play.open:
                out.append((Prompt.ask("hit", {"name": name(state, s.key), "card": card_term(s.play.last),
                                               "total": s.play.total}, who,
                                       [Option.of("hit", "hit"), Option.of("stand", "stand")],
                                       key=(s.key, len(s.play.chain)), private=True),
                            {"key": s.key, "kind": "hit", "side": i}))
        if all(s.play is not None and not s.play.open for s in check.sides):
            for i, s in enumerate(check.sides):
                if s.play.joker and not s.ruling:
                    # a joker played, or drawn while hitting: the whole check is the GM's ruling (A3)
                    drawn = not is_joker(s.play.card)
                    out.append((Prompt.ask("joker_drawn" if drawn else "joker", {
                        "name": name(state, s.key), "what": skill_term(s.skill, s.attribute),
                        "cards": cards_term(s.play.cards())}, GM,
                        [Option.of("success", "success"), Option.of("failure", "failure")],
                        key=(s.key,), private=True), {"key": s.key, "kind": "ruling", "side": i}))
    elif state.phase == "offers":
        for key in sorted(state.characters):
            deck = state.characters[key].deck
            if deck is not None and deck.offer:
                out.append((offer_prompt(state, key, f"rs-{key}"), {"key": key, "kind": "offer"}))
    return out


# --- steps ---------------------------------------------------------------------------------------
def check_play(state: KarmicState, side_i: int, card: str, events: list[Event]) -> None:
    side = state.check.sides[side_i]
    if side.play is not None:
        raise IllegalAction("card_already_played")
    owner = ""
    if ":" in card:
        owner, c = card.split(":", 1)
        if side.helper_cards.get(owner) != c:
            raise IllegalAction("not_offered")
    else:
        c = card
        if c not in side.hand:
            raise IllegalAction("not_in_hand", card=c[:12])
    side.play = Play(c, [], False)
    side.played_from = owner
    side.play.open = is_face(c)
    events.append(Event("played", {"name": name(state, side.key), "who": side.key}))
    played = {"played": card_term(c), "who": side.key, "card": c}
    if owner:
        played["helper"] = name(state, owner)
    events.append(Event("played_helper_card" if owner else "played_card", played, owner_audience(state, side.key)))
    _maybe_finish(state, events)


def check_hit(state: KarmicState, side_i: int, hit: bool, events: list[Event]) -> None:
    side = state.check.sides[side_i]
    if side.play is None or not side.play.open:
        raise IllegalAction("no_hit_waiting")
    if hit:
        key = side.played_from or side.key
        card = draw(state, key, 1, events)[0]
        side.play.chain.append(card)
        side.play.open = is_face(card)
        events.append(Event("hit", {"name": name(state, side.key), "drawn": card_term(card), "who": side.key,
                                    "card": card, "total": side.play.total},
                            PUBLIC if _public_cards(state, side) else owner_audience(state, side.key)))
    else:
        side.play.open = False
    _maybe_finish(state, events)


def check_ruling(state: KarmicState, side_i: int, outcome: str, events: list[Event]) -> None:
    side = state.check.sides[side_i]
    if outcome not in ("success", "failure"):
        raise IllegalAction("rule_success_or_failure")
    side.ruling = outcome
    events.append(Event("ruling", {"name": name(state, side.key), "verdict": {"term": outcome}, "who": side.key,
                                   "outcome": outcome}))
    _maybe_finish(state, events)


def gm_modifier(state: KarmicState, side_i: int, val: int, hidden: bool, events: list[Event]) -> None:
    if state.phase != "play":
        raise IllegalAction("check_resolved")
    if not 0 <= side_i < len(state.check.sides):
        raise IllegalAction("no_such_side", side=side_i)
    side = state.check.sides[side_i]
    if hidden:
        side.hidden += val
        events.append(Event("gm_modifier", {"name": name(state, side.key), "side": side.key, "value": val}, GM))
    else:
        side.modifier += val
        events.append(Event("modifier", {"name": name(state, side.key), "side": side.key, "value": val}))


def _public_cards(state: KarmicState, side: CheckSide) -> bool:
    npc_hidden = state.house_rules.get("hide_npc_check_cards", True)
    return not (npc_hidden and state.controllers.get(side.key) == GM)


def _maybe_finish(state: KarmicState, events: list[Event]) -> None:
    check = state.check
    if any(s.play is None or s.play.open for s in check.sides):
        return
    if any(s.play.joker and not s.ruling for s in check.sides):
        return
    _resolve(state, events)


def side_mt(state: KarmicState, side: CheckSide) -> tuple[int, list[dict]]:
    """A side's total and its parts, each a word of the game with its number ("card +5")."""
    char = state.characters[side.key]
    parts = [{"term": "part.card", "n": side.play.total}]
    mt = side.play.total
    if side.attribute:
        a = char.finesse_armored if (state.check.ranged and side.key == "c1") else char.attr(side.attribute)
        mt += a
        parts.append({"term": "part.attribute", "attribute": {"term": f"attribute.{side.attribute}"}, "n": a})
    if side.foe_field and not (side.key == "c1" and skill_tables.unknown_language(state.check.situations)):
        b = char.foe_bonus(side.skill, side.foe_field)
        if b:
            mt += b
            parts.append({"term": "part.field", "n": b})
    if side.key == "c1" and state.check.situations:       # the skill tables' named rows
        n, rows = skill_tables.situation_parts(state.check.situations)
        mt += n
        parts += rows
    tending = wounds.tending_modifier(side.skill, char) if side.key == "c1" else 0
    if tending:                                           # L780: first aid and medicine, −(boxes marked)
        mt += tending
        parts.append({"term": "first_aid_part", "n": tending})
    if side.modifier:
        mt += side.modifier
        parts.append({"term": "part.modifiers", "n": side.modifier})
    wp = char.wound_penalty(int(state.house_rules["wound_row_penalty"]))
    if wp:
        mt += wp
        parts.append({"term": "part.wounds", "n": wp})
    return mt, parts


def _total_event(state: KarmicState, side: CheckSide, parts: list[dict], public_cards: bool) -> Event:
    """One side's arithmetic for the table: its cards and parts, "?" for a total the GM hides."""
    shown = "?" if side.hidden else side.mt
    if not public_cards:              # an NPC's draw stays the GM's (house rule hide_npc_check_cards)
        return Event("check_total_secret", {"name": name(state, side.key), "mt": shown})
    if side.hidden:
        parts = parts + [{"term": "part.hidden"}]
    return Event("check_total", {"name": name(state, side.key), "cards": cards_term(side.play.cards()),
                                 "parts": parts, "mt": shown})


def _resolve(state: KarmicState, events: list[Event]) -> None:
    check = state.check
    results = []
    for s in check.sides:
        mt, parts = side_mt(state, s)
        s.mt = mt + s.hidden
        results.append((s, mt, parts))
    actor, amt, aparts = results[0]
    joker = actor.play.joker
    if len(results) == 2:
        opp, omt, oparts = results[1]
        if joker:
            success = actor.ruling == "success"
        elif opp.play.joker:
            success = opp.ruling == "failure"
        else:
            success = actor.mt > opp.mt
        margin = actor.mt - opp.mt
    else:
        success = actor.ruling == "success" if joker else actor.mt > 0
        margin = actor.mt
    chart = result_chart(margin)
    result = {"success": success, "mt": actor.mt, "margin": margin, "chart": chart,
              "card": actor.play.card, "chain": list(actor.play.chain)}
    if check.ranged:
        result.update(rangedmod.resolve(state, state.characters["c1"], check.ranged, actor, success,
                                        check.sides[1] if len(check.sides) > 1 else None))
        success = bool(result["success"])
    check.result = result
    events.append(_total_event(state, actor, aparts, True))
    if len(results) == 2:
        opp = results[1][0]
        events.append(_total_event(state, opp, results[1][2], _public_cards(state, opp)))
    hidden = actor.hidden or (len(results) == 2 and results[1][0].hidden)
    if hidden:
        margin_term: dict = {"term": "margin_hidden"}
    elif chart["general"]:
        margin_term = {"term": "margin_chart", "chart": {"term": f"chart.{chart['general'].lower()}"}, "margin": margin}
    else:
        margin_term = {"term": "margin", "margin": margin}
    shot: dict = {"term": "no_shot"}
    if check.ranged and result.get("damage") is not None:
        shot = {"term": f"shot_hits_{result.get('into_melee') or 'target'}", "total": result["damage_total"],
                "max": result["max_damage"], "damage": result["damage"]}
    elif check.ranged:
        shot = {"term": "shot_misses_everyone" if check.ranged.get("into_melee") else "shot_misses"}
    events.append(Event("check_result", {
        "verdict": {"term": "success" if success else "failure"},
        "joker": {"term": "joker_ruled" if joker else "no_joker"}, "margin_text": margin_term, "shot": shot,
        "success": success, "mt": None if actor.hidden else actor.mt, "margin": None if actor.hidden else margin,
        "card": actor.play.card, "chain": list(actor.play.chain)}))
    events += skill_tables.check_outcomes(state, success)
    gm = {"name": name(state, actor.key), "mt": actor.mt, "result": result}
    if len(results) == 2:
        opp = results[1][0]
        gm.update(opponent=name(state, opp.key), opponent_mt=opp.mt, cards=cards_term(opp.play.cards()),
                  hand=cards_term(opp.hand))
    events.append(Event("check_result_gm_opposed" if len(results) == 2 else "check_result_gm", gm, GM))
    # all cards drawn go to the discard piles
    for s in check.sides:
        used = list(s.hand)
        if s.played_from:
            discard(state, s.played_from, [s.play.card] + s.play.chain)
        else:
            used += [c for c in s.play.chain]
        if check.ranged.get("from_aim") and s.key == "c1":
            discard(state, s.key, used)
        else:
            discard(state, s.key, used)
    for hk in list(check.sides[0].helper_cards):
        if check.sides[0].played_from != hk:
            discard(state, hk, [check.sides[0].helper_cards[hk]])
    # The check is over at once: a Rule-of-Fives window it opened stays open on the deck
    # (`deck.offer`), answered outside the game (the cog offers it by DM, `/karmic deck` shows it),
    # so the channel is free for the next check. (Games stored in phase "offers" still finish there.)
    state.phase = "done"
    state.over = True


def return_cards(state: KarmicState) -> None:
    """A check ended by force before its result: every card drawn for it (hands, hits, helper
    cards) goes to its owner's discard pile, so no card is lost."""
    check = state.check
    if check.result:
        return                      # resolved: `_resolve` has discarded them already
    for side in check.sides:
        play = side.play
        used = list(side.hand)
        if play is not None and side.played_from:
            discard(state, side.played_from, [play.card, *play.chain])
            side.helper_cards.pop(side.played_from, None)
        elif play is not None:
            used += play.chain
        discard(state, side.key, used)
        for helper, card in side.helper_cards.items():
            discard(state, helper, [card])
        side.hand, side.play, side.helper_cards = [], None, {}


def answer_offer(state: KarmicState, key: str, accept: bool, events: list[Event]) -> None:
    deck = state.characters[key].deck
    if deck is None or not deck.offer:
        raise IllegalAction("no_reshuffle_offered")
    if accept:
        deck.reshuffle(state.rng)
        events.append(Event("reshuffle", {"name": name(state, key), "who": key}))
    else:
        deck.decline()
        events.append(Event("reshuffle_declined", {"name": name(state, key), "who": key}))
    if state.mode == "check" and not any(c.deck is not None and c.deck.offer for c in state.characters.values()):
        state.phase = "done"
        state.over = True
