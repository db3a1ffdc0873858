"""The round_end event carries a PUBLIC snapshot of the finished round (for the cog's register track)."""
import json

from rules.common import PUBLIC

from .helpers import DEVON, SOLDIER, declare, fight


def test_round_end_carries_the_public_track_of_the_round():
    state, _ = fight(DEVON, SOLDIER, stack={"c1": ["2S", "9S", "3S", "4S"], "c2": ["AH", "5H", "6H"]})
    hands = {k: list(f.hand) for k, f in state.combat.fighters.items()}
    state, ev = declare(state, "atk", hands["c1"][0])
    state, ev2 = declare(state, "pass")
    state, ev3 = declare(state, "stop")
    events = ev + ev2 + ev3
    end = next(e for e in events if e.kind == "round_end")
    assert end.audience == PUBLIC
    track = end.data["track"]
    assert track["round"] == 1
    decls = [d for r in track["registers"] for d in r["decls"]]
    assert decls and all(d["revealed"] and "card" in d for d in decls)
    assert all("hand" not in f for f in track["fighters"])
    # the snapshot is JSON-safe (it is stored with the event) and holds nothing a hand still hides
    text = json.dumps(track)
    for card in state.combat.fighters["c2"].hand + state.combat.fighters["c1"].hand:
        assert f'"{card}"' not in text
