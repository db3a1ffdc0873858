from rules.common import GM, PUBLIC
from rules.karmic import ENGINE
from rules.karmic.actions import Declare
from rules.common import Actor

from renderers.karmic import hand_image, register_track

DEVON = {"name": "Devon", "skills": {"sword": 3, "combat_training": 1},
         "weapons": [{"name": "Sword", "skill": "sword", "range": 1, "force": 1, "max_maneuvers": 3}],
         "wielding": ["Sword"]}
SOLDIER = {"name": "Soldier", "npc": True, "skills": {"sword": 2},
           "weapons": [{"name": "Sword", "skill": "sword", "range": 1, "force": 1, "max_maneuvers": 3}],
           "wielding": ["Sword"]}


def _state(hand):
    out = ENGINE.start(["u1"], {"mode": "combat", "combatants": [{"character": DEVON, "player": "u1"},
                                                                 {"character": SOLDIER, "player": GM}],
                                "stack": {"c1": ["2S"] + hand, "c2": ["4H", "QH", "5S"]}}, 1)
    return ENGINE.apply(out.state, Declare("atk", hand[0]), Actor("u1")).state


def test_register_track_and_hand_are_pngs_and_face_down_cards_do_not_show():
    a, b = _state(["KS", "2H", "10S"]), _state(["3S", "2H", "10S"])
    img_a = register_track(ENGINE.view_for(a, PUBLIC))
    img_b = register_track(ENGINE.view_for(b, PUBLIC))
    assert img_a[:8] == b"\x89PNG\r\n\x1a\n"
    assert img_a == img_b            # the face-down card is a card back, whatever it is
    hand = hand_image(ENGINE.view_for(a, "u1"))
    assert hand[:8] == b"\x89PNG\r\n\x1a\n" and hand != hand_image(ENGINE.view_for(a, PUBLIC))
