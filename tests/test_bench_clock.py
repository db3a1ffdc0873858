"""The turn clock's benchmark keeps working: its quick simulation (20 four-player games over three
simulated days, with quiet hours, absences, deadlines, stand-ins and restarts) gives its four figures."""
from bench.clock import report, simulate


async def test_the_quick_turn_clock_simulation_sends_each_reminder_once_and_never_in_quiet_hours():
    figures = await simulate(20, 3, 7)
    assert figures.decisions >= 100 and figures.answers > 0 and figures.defaulted > 0 and figures.restarts > 0
    assert figures.max_reminders <= 2
    assert figures.quiet_pings == []
    assert figures.doubled == [] and figures.lost == []
    assert figures.late == []
    assert figures.hot == 0                 # no clock left due in the past after a tick
    assert any(line.startswith("reminders per decision") for line in report(figures))
