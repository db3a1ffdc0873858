"""cogs/outbox.PublishOrder: a channel's publishes go in the order of its actions."""
import asyncio

from cogs.host.outbox import PublishOrder

CHANNEL = 10


async def test_a_later_action_is_published_after_the_earlier_one_however_they_start():
    order, told = PublishOrder(), []
    order.owe(CHANNEL, 1, 1)
    order.owe(CHANNEL, 1, 2)

    async def publish(seq, delay):
        await asyncio.sleep(delay)
        async with order.turn(CHANNEL, 1, seq):
            await asyncio.sleep(0.01)
            told.append(seq)

    await asyncio.gather(publish(2, 0.0), publish(1, 0.02))     # the later one starts first
    assert told == [1, 2] and order.unfinished(CHANNEL) == set()


async def test_the_next_game_of_a_channel_waits_for_the_last_action_of_the_one_before():
    order, told = PublishOrder(), []
    order.owe(CHANNEL, 4, 9)           # game 4's last action, owed (a sweep after a restart)
    order.owe(CHANNEL, 5, 0)           # game 5's opening

    async def publish(game, seq, delay, channel=CHANNEL):
        await asyncio.sleep(delay)
        async with order.turn(channel, game, seq):
            told.append((game, seq))

    await asyncio.gather(publish(5, 0, 0.0), publish(4, 9, 0.02), publish(6, 1, 0.0, channel=11))
    assert told == [(6, 1), (4, 9), (5, 0)]         # (a game in another channel is not held up)


async def test_a_publish_nested_in_the_same_channel_does_not_wait_for_its_outer_one():
    order = PublishOrder()
    order.owe(CHANNEL, 1, 1)
    order.owe(CHANNEL, 1, 2)
    async with order.turn(CHANNEL, 1, 1):
        assert order.overtaken(CHANNEL, 1, 1)       # the bot's answer, committed inside, comes next
        async with order.turn(CHANNEL, 1, 2):       # (it would wait for ever for its outer one)
            pass
    assert order.unfinished(CHANNEL) == set() and not order.overtaken(CHANNEL, 1, 1)


async def test_an_earlier_publish_that_never_comes_is_waited_for_a_moment_then_forgotten():
    order = PublishOrder()
    order.WAIT = 0.05
    order.owe(CHANNEL, 1, 1)            # committed, and its task failed before publishing
    order.owe(CHANNEL, 1, 2)
    started = asyncio.get_running_loop().time()
    async with order.turn(CHANNEL, 1, 2):
        waited = asyncio.get_running_loop().time() - started
    assert 0.05 <= waited < 1.0 and order.unfinished(CHANNEL) == set()
    async with order.turn(CHANNEL, 1, 3):           # and the next one does not wait again
        assert asyncio.get_running_loop().time() - started - waited < 0.05


async def test_a_publish_with_nothing_unfinished_before_it_goes_in_at_once():
    """The usual case costs no wait (before: a wait_for, its task and a turn of the loop, on every
    publish): the turn is entered in the publish's own step."""
    order, entered = PublishOrder(), []
    order.owe(CHANNEL, 1, 1)
    order.owe(CHANNEL + 1, 2, 1)            # another channel's action does not hold it up

    async def publish():
        async with order.turn(CHANNEL, 1, 1):
            entered.append(1)

    task = asyncio.ensure_future(publish())
    await asyncio.sleep(0)                  # the publish's first step
    assert entered == [1]
    await task
