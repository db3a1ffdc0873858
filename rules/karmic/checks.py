"""Basic, opposed, combined and ranged checks (digest §1.7–§1.10, §5)."""
from __future__ import annotations

from rules.common import GM, PUBLIC, Event, IllegalAction, Option, Prompt

from . import ranged as rangedmod
from .base import cards_text, deck_of, discard, draw, load_character, name, offer_prompt, owner_audience, signed
from .cards import is_face, is_joker, label, value
from .state import Check, CheckSide, KarmicState, Play
from .tables import attribute_name, difficulty_mod, result_chart, skill_key


def setup_check(state: KarmicState, options: dict, pack: dict | None) -> list[Event]:
    events: list[Event] = []
    actor = options.get("actor")
    if not actor:
        raise IllegalAction("A check needs an 'actor': {character, player}.")
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
        raise IllegalAction(f"Only {cap} may help with this task.")
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
                  ranged=dict(options.get("ranged") or {}))
    side = CheckSide("c1", skill=skill_key(skill) if skill else "", attribute=attr,
                     foe_field=options.get("field") or "",
                     modifier=diff + int(options.get("modifier", 0)),
                     hidden=int(options.get("hidden_modifier", 0)))
    char = state.characters["c1"]
    if side.foe_field or (skill and skill_key(skill) in char.fields):
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
        events.append(Event("helper", f"{name(state, hk)} helps and offers a card.", PUBLIC, {"who": hk}))
        events.append(Event("helper_hand", f"You drew {cards_text(hand)}; your best card {label(best)} is offered.",
                             owner_audience(state, hk), {"cards": hand, "offered": best}))
    check.sides.append(side)
    if opp:
        defense = check.ranged.get("defense") if check.ranged else None
        if defense not in (None, "dodge", "block"):
            raise IllegalAction("A ranged target defends with 'dodge' or 'block'.")
        oskill = opp.get("skill") or {"dodge": "dodge", "block": "shield", None: ""}[defense]
        oattr = opp.get("attribute") or {"dodge": "awareness", "block": "finesse", None: ""}[defense]
        oside = CheckSide("o1", skill=skill_key(oskill) if oskill else "",
                          attribute=attribute_name(oattr) if oattr else "",
                          modifier=int(opp.get("modifier", 0)), hidden=int(opp.get("hidden_modifier", 0)))
        oside.hand = draw(state, "o1", state.characters["o1"].hand_for(oskill or None), events)
        check.sides.append(oside)
    state.check = check
    state.phase = "play"
    what = skill or attr or "a check"
    vs = f" against {name(state, 'o1')}" if opp else ""
    article = "an" if what[:1].lower() in "aeiou" else "a"
    events.append(Event("check_start", f"{char.name} makes {article} {what} check{vs} ({signed(diff)} difficulty); "
                                       f"{len(side.hand)} card(s) drawn.", PUBLIC,
                        {"skill": skill, "attribute": attr, "difficulty": diff, "cards": len(side.hand)}))
    for s in check.sides:
        events.append(Event("hand", f"{name(state, s.key)}'s hand for {s.skill or s.attribute or what}: "
                                    f"{cards_text(s.hand)}.",
                            owner_audience(state, s.key), {"who": s.key, "cards": list(s.hand)}))
        if s.hidden:
            events.append(Event("gm_modifier", f"Hidden modifier {signed(s.hidden)} on {name(state, s.key)}.",
                                GM, {"side": s.key, "value": s.hidden}))
    return events


# --- prompts ---------------------------------------------------------------------------------
def check_prompts(state: KarmicState) -> list[tuple[Prompt, dict]]:
    out = []
    check = state.check
    if state.phase == "play":
        for i, s in enumerate(check.sides):
            who = state.controllers[s.key]
            if s.play is None:
                opts = [Option(c, label(c)) for c in s.hand]
                opts += [Option(f"{hk}:{c}"[:20], f"{label(c)} (from {name(state, hk)})")
                         for hk, c in s.helper_cards.items()]
                out.append((Prompt(f"play-{s.key}", who, f"{name(state, s.key)}: play one card.",
                                   tuple(opts), private=True), {"key": s.key, "kind": "play", "side": i}))
            elif s.play.open:
                out.append((Prompt(f"hit-{s.key}-{len(s.play.chain)}", who,
                                   f"{name(state, s.key)}: {label(s.play.last)} — hit or stand? "
                                   f"(running value {signed(s.play.total)})",
                                   (Option("hit", "Hit"), Option("stand", "Stand")), private=True),
                            {"key": s.key, "kind": "hit", "side": i}))
        if all(s.play is not None and not s.play.open for s in check.sides):
            for i, s in enumerate(check.sides):
                if s.play.joker and not s.ruling:
                    out.append((Prompt(f"joker-{s.key}", GM,
                                       f"{name(state, s.key)} played a joker: rule the outcome.",
                                       (Option("success", "Success"), Option("failure", "Failure")),
                                       private=True), {"key": s.key, "kind": "ruling", "side": i}))
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
        raise IllegalAction("A card has already been played for this check.")
    owner = ""
    if ":" in card:
        owner, c = card.split(":", 1)
        if side.helper_cards.get(owner) != c:
            raise IllegalAction("That helper did not offer that card.")
    else:
        c = card
        if c not in side.hand:
            raise IllegalAction(f"{label(c) if len(c) <= 4 else c} is not in your hand.")
    side.play = Play(c, [], False)
    side.played_from = owner
    side.play.open = is_face(c)
    who = name(state, owner) if owner else name(state, side.key)
    events.append(Event("played", f"{name(state, side.key)} plays a card.", PUBLIC, {"who": side.key}))
    events.append(Event("played_card", f"You play {label(c)}" + (f" (from {who})" if owner else "") + ".",
                        owner_audience(state, side.key), {"who": side.key, "card": c}))
    _maybe_finish(state, events)


def check_hit(state: KarmicState, side_i: int, hit: bool, events: list[Event]) -> None:
    side = state.check.sides[side_i]
    if side.play is None or not side.play.open:
        raise IllegalAction("There is no hit card waiting for a decision.")
    if hit:
        key = side.played_from or side.key
        card = draw(state, key, 1, events)[0]
        side.play.chain.append(card)
        side.play.open = is_face(card)
        events.append(Event("hit", f"{name(state, side.key)} hits: {label(card)} (running value "
                                   f"{signed(side.play.total)}).",
                            PUBLIC if _public_cards(state, side) else owner_audience(state, side.key),
                            {"who": side.key, "card": card, "total": side.play.total}))
    else:
        side.play.open = False
    _maybe_finish(state, events)


def check_ruling(state: KarmicState, side_i: int, outcome: str, events: list[Event]) -> None:
    side = state.check.sides[side_i]
    if outcome not in ("success", "failure"):
        raise IllegalAction("Rule 'success' or 'failure'.")
    side.ruling = outcome
    events.append(Event("ruling", f"The GM rules {name(state, side.key)}'s joker a {outcome}.", PUBLIC,
                        {"who": side.key, "outcome": outcome}))
    _maybe_finish(state, events)


def gm_modifier(state: KarmicState, side_i: int, val: int, hidden: bool, events: list[Event]) -> None:
    if state.phase != "play":
        raise IllegalAction("The check is already resolved.")
    if not 0 <= side_i < len(state.check.sides):
        raise IllegalAction("No such side in this check.")
    side = state.check.sides[side_i]
    if hidden:
        side.hidden += val
        events.append(Event("gm_modifier", f"Hidden modifier {signed(val)} on {name(state, side.key)}.", GM,
                            {"side": side.key, "value": val}))
    else:
        side.modifier += val
        events.append(Event("modifier", f"The GM sets a modifier of {signed(val)} on {name(state, side.key)}.",
                            PUBLIC, {"side": side.key, "value": val}))


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


def side_mt(state: KarmicState, side: CheckSide) -> tuple[int, list[str]]:
    char = state.characters[side.key]
    parts = [f"card {signed(side.play.total)}"]
    mt = side.play.total
    if side.attribute:
        a = char.finesse_armored if (state.check.ranged and side.key == "c1") else char.attr(side.attribute)
        mt += a
        parts.append(f"{side.attribute} {signed(a)}")
    if side.foe_field:
        b = char.foe_bonus(side.skill, side.foe_field)
        if b:
            mt += b
            parts.append(f"field {signed(b)}")
    if side.modifier:
        mt += side.modifier
        parts.append(f"modifiers {signed(side.modifier)}")
    wp = char.wound_penalty(int(state.house_rules["wound_row_penalty"]))
    if wp:
        mt += wp
        parts.append(f"wounds {signed(wp)}")
    return mt, parts


def _resolve(state: KarmicState, events: list[Event]) -> None:
    check = state.check
    results = []
    for s in check.sides:
        mt, parts = side_mt(state, s)
        s.mt = mt + s.hidden
        results.append((s, mt, parts))
    actor, amt, aparts = results[0]
    _public_cards(state, actor)
    joker = actor.play.joker
    text_cards = " + ".join(label(c) for c in actor.play.cards())
    hidden_note = " + hidden GM modifier" if actor.hidden else ""
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
    verdict = "success" if success else "failure"
    shown_mt = "?" if actor.hidden else str(actor.mt)
    arith = " + ".join(aparts) + hidden_note
    text = f"{name(state, actor.key)} plays {text_cards}: {arith} = {shown_mt}"
    if len(results) == 2:
        opp = results[1][0]
        if _public_cards(state, opp):
            otext = f"{name(state, opp.key)} plays {' + '.join(label(c) for c in opp.play.cards())}: " \
                    f"{' + '.join(results[1][2])}" + (" + hidden GM modifier" if opp.hidden else "")
        else:
            otext = f"{name(state, opp.key)}'s total"
        text += f" vs {otext} = {'?' if opp.hidden else opp.mt}"
    if joker:
        text += f" (joker: GM rules {verdict})"
    text += f" → {verdict.upper()}"
    if not actor.hidden and not (len(results) == 2 and results[1][0].hidden):
        text += f" ({chart['general'] or 'margin'} {signed(margin)})"
    if check.ranged and result.get("damage") is not None:
        text += f"; {result['ranged_text']}"
    events.append(Event("check_result", text, PUBLIC, {"success": success, "mt": None if actor.hidden else actor.mt,
                                                       "margin": None if actor.hidden else margin,
                                                       "card": actor.play.card, "chain": list(actor.play.chain)}))
    gm_text = f"GM: {name(state, actor.key)} MT {actor.mt}"
    if len(results) == 2:
        opp = results[1][0]
        gm_text += f" vs {name(state, opp.key)} MT {opp.mt} (cards {cards_text(opp.play.cards())}, hand " \
                   f"{cards_text(opp.hand)})"
    events.append(Event("check_result_gm", gm_text, GM, {"result": result}))
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
        raise IllegalAction("No reshuffle is offered right now.")
    if accept:
        deck.reshuffle(state.rng)
        events.append(Event("reshuffle", f"{name(state, key)} reshuffles the karma deck.", PUBLIC, {"who": key}))
    else:
        deck.decline()
        events.append(Event("reshuffle_declined", f"{name(state, key)} keeps the deck as it is.", PUBLIC,
                            {"who": key}))
    if state.mode == "check" and not any(c.deck is not None and c.deck.offer for c in state.characters.values()):
        state.phase = "done"
        state.over = True
