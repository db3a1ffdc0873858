"""Event Card windows (§3.11, §6.24): a card says when it is played. "any" cards are played at any moment
of the match -- the Initiative and Final Phases and while a free-attack target is being chosen included --
with the LIFO answer stack; "own_turn" cards only in your turn of the Action Phase."""

from rules.klash.actions import Activate, Assault, EndActivation, PassEvent, PlayEvent

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
