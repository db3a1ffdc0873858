"""Time for everything that waits: the one injectable clock (`source`), and the pure arithmetic
of a campaign's turn clock (`hours`: quiet hours, away periods, deadlines and their reminders).

Nothing here does I/O or reads the wall clock but `source.SystemClock`: the store stamps its rows
and the scheduler judges what is due by `source.now()`, so a test swaps in a `FakeClock` and runs
weeks in milliseconds."""
