"""The message benchmark keeps working: a Karmic combat (the quickest of its games) through the cogs,
every decision reachable by clicking a message."""
from bench.messages import report, run_one


async def test_the_message_benchmark_plays_a_karmic_combat_by_clicks():
    tally, world = await run_one("karmic", 7)
    assert tally.decisions >= 20 and tally.unreachable == 0
    assert set(tally.phases) >= {"round 1", "round 2", "round 3"}
    assert "public=" in report(tally, world)
