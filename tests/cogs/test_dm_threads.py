"""Decisions of one thread share a DM (`Prompt.thread`, cogs/publish.py `_dm`): a private decision
that follows a wait is edited into its player's newest DM when that DM is of the same thread and
asks nothing any more; a decision of another thread is a new DM (it notifies). Played on Relay, a
tiny engine of this file: two players alternate private picks, two each per round."""
from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from cogs.host import systems
from rules.common import Choose, Engine, Event, Option, Prompt, Serial
from tests.support.fakes import click


@dataclass
class RelayState(Serial):
    seats: list[str]
    threads: bool = False
    picks: int = 0                   # picks made so far; a round is four (A, B, A, B)
    notes: list[int] = field(default_factory=list)   # after these picks, the picker gets private news only
    over: bool = False
    schema: int = 1

    @property
    def round(self) -> int:
        return self.picks // 4 + 1


class Relay(Engine[RelayState]):
    system = "relay"
    state_type = RelayState
    actions = {"choose": Choose}

    def setup(self, seats, options, seed):
        return RelayState(seats=list(seats), threads=bool(options.get("threads")), notes=list(options.get("notes", [])))

    def pending(self, state):
        if state.over:
            return []
        player = state.seats[state.picks % 2]
        thread = f"round {state.round}" if state.threads else ""
        return [Prompt.ask("pick", {"n": state.picks}, player, [Option.of("a", "a"), Option.of("b", "b")],
                           key=(state.picks,), private=True, thread=thread)]

    def step(self, state, action, actor):
        prompt = self.check_choice(state, action, actor)
        state.picks += 1
        events = [Event("picked", {"player": prompt.player})]
        if state.picks in state.notes:
            events.append(Event("note", {"n": state.picks}, prompt.player))
        state.over = state.picks >= 8
        return events

    def view_for(self, state, viewer):
        return {"picks": state.picks}


def picture(view, prompt):
    """The round's first pick of each player comes with a picture; the second has none."""
    return ("pick.png", b"\x89PNG a pick") if prompt.args["n"] % 4 < 2 else None


@pytest.fixture(autouse=True)
def registered():
    systems.register(systems.System(name="relay", title="Relay (test game)", engine=Relay(), listed=False,
                                    prompt_image=picture))
    yield
    systems.SYSTEMS.pop("relay", None)


async def relay(bot, world, **options):
    alice, bruno = world.users[2], world.users[3]
    interaction = world.interaction(alice, world.channels[10])
    await interaction.response.defer(thinking=True)
    return await bot.host.start(interaction, "relay", [str(alice.id), str(bruno.id)], seed=1, options=options)


async def pick(world, user):
    await click(world, world.last(f"dm:{user.id}", with_view=True), user, index=0)


async def test_a_decision_after_a_wait_is_edited_into_the_newest_dm_of_its_thread(bot, world):
    alice, bruno = world.users[2], world.users[3]
    await relay(bot, world, threads=True)
    first = world.last("dm:2", with_view=True)
    assert first.file is not None and first.file.filename == "pick.png"
    await pick(world, alice)
    await pick(world, bruno)              # Alice's second pick of round 1 follows Bruno's: same DM
    assert world.last("dm:2", with_view=True) is first and len(world.dms(alice)) == 1
    assert first.file is None             # the first pick's picture does not stay on the second
    await pick(world, alice)
    await pick(world, bruno)              # round 2 begins: a new DM, which notifies her
    second = world.last("dm:2", with_view=True)
    assert second is not first and first.view is None and len(world.dms(alice)) == 2
    for _ in range(2):
        await pick(world, alice)
        await pick(world, bruno)
    # eight picks: two DMs each, one a round; every DM keeps no live button once the game is over
    assert (len(world.dms(alice)), len(world.dms(bruno))) == (2, 2)
    assert [m for m in world.dms(alice) + world.dms(bruno) if m.view is not None] == []


async def test_without_a_thread_each_decision_after_a_wait_is_a_dm_of_its_own(bot, world):
    alice, bruno = world.users[2], world.users[3]
    await relay(bot, world)
    for _ in range(4):
        await pick(world, alice)
        await pick(world, bruno)
    assert (len(world.dms(alice)), len(world.dms(bruno))) == (4, 4)


async def test_a_dm_with_news_only_ends_the_thread(bot, world):
    """Private news without a decision is a DM of its own: the thread's DM is no longer the newest,
    so the next decision comes as a new DM below the news rather than edited into a message above."""
    alice, bruno = world.users[2], world.users[3]
    await relay(bot, world, threads=True, notes=[1])
    first = world.last("dm:2", with_view=True)
    await pick(world, alice)              # pick 1: Alice also gets private news, alone in a DM
    news = world.dms(alice)[-1]
    assert news is not first and news.view is None
    await pick(world, bruno)
    third = world.last("dm:2", with_view=True)
    assert third is not first and third is not news and len(world.dms(alice)) == 3
