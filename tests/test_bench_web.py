"""The web companion's benchmark keeps working: its quick run (8 viewers on one game, then over
four games, their live streams in another process) gives every figure, every viewer sees every
move, and no page is refused. Timings are noisy on a shared machine: none is asserted."""
from bench.web import arguments, bench, report


async def test_the_quick_web_bench_gives_its_figures_and_every_viewer_sees_every_move():
    args = arguments(["--quick"])
    figures = await bench(args)
    assert figures.bad_pages == 0
    assert set(figures.opened.values()) == {args.viewers}
    assert figures.missed == {"one game": 0, "4 games": 0, "paced": 0}
    assert {len(moves) for layout, moves in figures.moves.items() if layout != "paced"} == {args.moves}
    assert len(figures.moves["paced"]) == args.clicks
    for moves in figures.moves.values():
        # the line is read before the fragment is fetched, the fragment before its picture
        assert all(0 < line <= fragment <= picture < 10 for line, fragment, picture in moves)
    assert all(traced > 0 for traced, _ in figures.memory.values())
    assert {name: len(samples) for name, samples in figures.pages.items()} == {
        f"{layout} {kind}": args.requests for layout in ("one game", "4 games") for kind in ("page", "table")}
    assert all(len(samples) >= args.moves for samples in figures.clicks.values())
    lines = report(figures)
    assert any(line.startswith("memory per live connection") for line in lines)
    assert any(line.startswith("move → last viewer (one game") for line in lines)
