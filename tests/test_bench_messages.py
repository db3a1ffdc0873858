"""The message benchmark keeps working: a Karmic combat (the quickest of its games) through the cogs,
every decision reachable by clicking a message."""
from bench.messages import report, run_one


async def test_the_message_benchmark_plays_a_karmic_combat_by_clicks():
    tally, world = await run_one("karmic", 7)
    assert tally.decisions >= 20 and tally.unreachable == 0
    assert set(tally.phases) >= {"round 1", "round 2", "round 3"}
    assert "public=" in report(tally, world)


async def test_a_klash_match_costs_at_most_one_dm_per_event_card_decision(monkeypatch):
    """Issue 10's budget for Klash!: every Event Card decision (a hand, an answer, a Final Phase swap,
    a card's target) is carried by one DM at most, edited in place -- also when the decision pauses
    (a re-roll window, the other player's turn) and comes back. The whole match stays ≤ 150 public."""
    from collections import Counter

    from tests.support import fakes
    record = fakes.World.record

    def noting(self, where, content=None, **kwargs):     # the prompts a message carried when it was sent
        message = record(self, where, content, **kwargs)
        message.carried = {cid.split(":")[3] for cid in message.custom_ids() if cid.startswith("bauta:")} \
            if message.view is not None else set()
        return message
    monkeypatch.setattr(fakes.World, "record", noting)
    tally, world = await run_one("klash", 7)
    dms = [m for m in world.sent if m.where.startswith("dm:")]
    decisions = Counter(pid for m in dms for pid in m.carried)
    assert {pid.split(".")[0] for pid in decisions} >= {"hand", "swap"}
    assert sorted(pid for pid, n in decisions.items() if n > 1) == []
    assert tally.unreachable == 0 and sum(1 for m in world.sent if m.public) <= 150
