"""Event Card windows (§3.11, §6.24): a card says when it is played. "any" cards are played at any moment
of the match -- the Initiative and Final Phases and while a free-attack target is being chosen included --
with the LIFO answer stack; "own_turn" cards only in your turn of the Action Phase."""

from rules.klash.actions import Activate, Assault, EndActivation, PassEvent, PlayEvent

from rules.klash import ENGINE

from .helpers import A, B, Q, choose, do, kinds, prompt, tskirmish, illegal


def _to_final(hand_a, hand_b):
    state = tskirmish([("plain", 30, 30)], [("plain", 90, 90)])
    state.hands = {A: list(hand_a), B: list(hand_b)}
    state, _ = do(state, Activate("m1"))
    state, _ = do(state, EndActivation("m1"))
    state, _ = do(state, Activate("m2"))
    state, _ = do(state, EndActivation("m2"))
    assert state.stage == "final" and prompt(state, "swap").player == A
    return state


def test_any_card_in_the_final_phase_then_the_swap_goes_on():
    state = _to_final(["roar", "sand"], ["water"])
    hand = prompt(state, "hand")
    assert hand.player == A and hand.private and [o.id for o in hand.options] == ["h1"]   # Sand; not the Roar
    with illegal("card_own_turn"):
        do(state, PlayEvent("roar"), who=A)                 # own-turn card: no turn in the Final Phase
    state, ev = do(state, PlayEvent("sand", "m2"), who=A)
    assert prompt(state, "resp").player == B and prompt(state, "swap") is None   # the answer comes first
    state, ev = do(state, PassEvent(), who=B)
    assert state.model("m2").hex == 1 and state.stage == "final"
    assert prompt(state, "swap").player == A and state.hands[A] == ["roar"]


def test_any_card_in_the_initiative_phase():
    state = tskirmish([("plain", 30, 30)], [("plain", 90, 90)])
    state.hands = {A: [], B: []}
    state, _ = do(state, Activate("m1"))
    state, _ = do(state, EndActivation("m1"))
    state, _ = do(state, Activate("m2"))
    state, _ = do(state, EndActivation("m2"))           # empty hands: no swap; Hourglass 2 begins
    assert state.hourglass == 2 and state.stage == "initiative"
    state.hands = {A: ["bless", "roar"], B: ["sand"]}
    init = prompt(state, "init")
    assert init is not None
    assert [o.id for o in prompt(state, "hand").options] == ["h0"]        # Blessing yes, Roar (own turn) no
    state, _ = do(state, PlayEvent("bless", "m1"), who=A)
    assert prompt(state, "init") is None and prompt(state, "resp").player == B
    state, _ = do(state, PlayEvent("sand", "m1"), who=B)               # B answers; LIFO: Sand first
    state, ev = do(state, PassEvent(), who=A)
    assert [e.data["card"] for e in kinds(ev, "event_resolves")] == ["sand", "bless"]
    assert state.model("m1").boost == 1 and state.model("m1").hex == 1 and state.stage == "initiative"
    assert prompt(state, "init").player == state.init_winner


def test_any_card_while_a_counterattack_target_is_chosen():
    state = tskirmish([("plain", 50, 30)], [(Q("counterattack"), 53, 30), ("plain", 90, 90)])
    state.hands = {A: [], B: ["sand", "roar"]}
    state, _ = do(state, Activate("m1"))
    state, _ = do(state, Assault("m1", "m2"), dice=[2, 5])
    assert prompt(state, "free").player == B
    assert [o.id for o in prompt(state, "hand").options] == ["h0"]        # Sand in the Eyes only
    state, _ = do(state, PlayEvent("sand", "m1"), who=B)
    state, _ = do(state, PassEvent(), who=A)
    assert state.model("m1").hex == 1 and prompt(state, "free").player == B   # the choice waited
    state, ev = choose(state, "free", "t:m1", dice=[4, 3, 6])
    roll = kinds(ev, "roll")[0].data
    assert roll["attacker"] == "m2" and roll["defence_die"] == "d4"      # the hex: d6 Decreased once


def test_the_hand_prompt_keeps_its_id_while_the_decision_stays():
    """'Play an Event Card?' is one decision until the hand or what is playable changes: the other
    player's draws (the deck count) do not make it a new prompt, so it is not DMed again."""
    state = tskirmish([("plain", 30, 30)], [("plain", 90, 90)], first=B)
    state.hands = {A: ["bless"], B: ["sand"]}
    state, _ = do(state, Activate("m2"))
    state, _ = do(state, EndActivation("m2"))
    hand = prompt(state, "hand")
    assert hand.player == A
    state, _ = do(state, Activate("m1"))
    state, _ = do(state, EndActivation("m1"))
    assert state.stage == "final" and prompt(state, "swap").player == B
    deck = len(state.event_deck.cards)
    state, ev = choose(state, "swap", "h0")                 # Bruno swaps his Sand: he draws, the deck shrinks
    assert len(state.event_deck.cards) == deck - 1 and kinds(ev, "event_swap")
    assert prompt(state, "swap").player == A
    mine = [p for p in ENGINE.pending(state) if p.kind == "hand" and p.player == A]
    assert [p.id for p in mine] == [hand.id] and [o.id for o in mine[0].options] == ["h0"]
    # the decision changes when the hand does: a new card, a new prompt
    state, _ = choose(state, "swap", "keep")
    assert state.hourglass == 2 and len(state.hands[A]) == 2
    assert all(p.id != hand.id for p in ENGINE.pending(state) if p.kind == "hand")


def test_the_hand_prompt_changes_when_what_is_playable_changes():
    """An own-turn card becomes playable in your turn: the same hand, another decision, another id."""
    state = tskirmish([("plain", 30, 30), ("plain", 30, 50)], [("plain", 90, 90), ("plain", 90, 70)])
    state.hands = {A: ["bless", "roar"], B: []}
    state, _ = do(state, Activate("m1"))
    mine = prompt(state, "hand")
    assert [o.id for o in mine.options] == ["h0", "h1"]
    state, _ = do(state, EndActivation("m1"))
    state, _ = choose(state, "ext", "no")                   # no extra activation: Bruno's turn
    theirs = prompt(state, "hand")
    assert state.turn_player == B and [o.id for o in theirs.options] == ["h0"] and theirs.id != mine.id
    state, _ = do(state, Activate("m3"))
    state, _ = do(state, EndActivation("m3"))
    state, _ = choose(state, "ext", "no")
    assert state.turn_player == A and prompt(state, "hand").id == mine.id    # the same decision again


def test_an_event_card_mid_activation_leaves_one_action_prompt_under_its_own_id():
    """While the card is answered the action prompt is not pending; afterwards the same decision comes
    back under the same id (one live action prompt, never a second one beside a stale copy)."""
    state = tskirmish([("plain", 30, 30)], [("plain", 90, 90)])
    state.hands = {A: ["bless"], B: ["sand"]}
    state, _ = do(state, Activate("m1"))
    act = prompt(state, "act")
    state, _ = do(state, PlayEvent("sand", "m1"), who=B)
    assert [p.kind for p in ENGINE.pending(state)] == ["respond"]
    state, _ = do(state, PassEvent(), who=A)
    again = [p for p in ENGINE.pending(state) if p.kind in ("act", "target", "activate")]
    assert [(p.id, [o.id for o in p.options]) for p in again] == [(act.id, [o.id for o in act.options])]
    # an answer is another decision: a new id
    state, _ = choose(state, "act", "mv")
    state, _ = choose(state, "tgt", "back")
    state, _ = do(state, EndActivation("m1"))
    assert all(p.id != act.id for p in ENGINE.pending(state))


def test_a_card_that_cannot_be_played_now_says_why():
    state = tskirmish([("plain", 30, 30), ("plain", 30, 50)], [("plain", 90, 90), ("plain", 90, 70)])
    state.hands = {A: ["omen", "roar", "bless"], B: ["sand", "drill"]}
    with illegal("card_answers_only"):
        do(state, PlayEvent("omen"), who=A)                  # nothing to cancel
    with illegal("card_own_turn"):
        do(state, PlayEvent("drill"), who=B)                 # Alice's turn
    state, _ = do(state, PlayEvent("bless", "m1"), who=A)
    with illegal("card_answer_waits", answer_player=B):
        do(state, PlayEvent("omen"), who=A)                  # Bruno answers first
    with illegal("card_own_turn_no_answer"):
        do(state, PlayEvent("drill"), who=B)                 # an own-turn card is no answer
    state, _ = do(state, PassEvent(), who=B)
    state.phase, state.stage = "deploy", ""
    with illegal("card_match_only"):
        do(state, PlayEvent("roar"), who=A)


def test_an_own_turn_card_waits_for_the_free_attack_being_chosen():
    state = tskirmish([("plain", 50, 30)], [(Q("counterattack"), 53, 30), ("plain", 90, 90)])
    state.hands = {A: ["roar"], B: []}
    state, _ = do(state, Activate("m1"))
    state, _ = do(state, Assault("m1", "m2"), dice=[2, 5])
    assert prompt(state, "free").player == B
    with illegal("card_after_free_attack"):
        do(state, PlayEvent("roar"), who=A)


def test_the_sample_event_cards_read_in_the_readers_language():
    from i18n.present import Presenter
    from .helpers import skirmish
    state = skirmish([("orc", 30, 30)], [("dwarf", 90, 90)])
    state.hands = {A: ["roar"], B: []}
    state, ev = do(state, PlayEvent("roar"), who=A)
    played = kinds(ev, "event_played")[0]
    assert "La Multitud Ruge" in Presenter("es", "klash", names={A: "Alice"}).event(played)
    assert "La Folla Ruggisce" in Presenter("it", "klash", names={A: "Alice"}).event(played)
    assert "The Crowd Roars" in Presenter("en", "klash", names={A: "Alice"}).event(played)
    state, ev = do(state, PassEvent(), who=B)
    vp = next(e for e in ev if e.kind == "vp_event")
    assert "Multitud" in Presenter("es", "klash").event(vp)
