"""The messages a Karmic combat costs (issue 12): per round at most 6 public messages and at most
2 DMs per fighter; no DM without a decision in it (the round's hand comes with the fighter's first
decision, not on its own).

A fighter's decisions of one round share their DMs (`Prompt.thread`, rules/karmic/combat/prompts.py
`dm_thread`): one DM from the round's first decision (with the hand) until the round's first
reveal, edited for each declaration in between; one more for what the revealed cards ask (hits,
the Rule-of-Fives offer). Before the threads, this game (seed 5) cost up to 4 DMs per fighter per
round; `python3 -m bench.messages --games karmic` (seed 7) went from 3 to 2, and from 16 DMs in
all to 7."""
from __future__ import annotations

import re
from collections import Counter, defaultdict

from rules.karmic import ENGINE
from tests.cogs.test_karmic import answer_prompt, choose_option

PROMPT_ID = re.compile(r"bauta:[bs]:\d+:([^:]+)")


async def test_a_combat_round_keeps_within_its_message_budget(bot, world, seed):
    alice, bruno = world.users[2], world.users[3]
    cog = bot.get_cog("KarmicCog")
    await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), opponents="Soldier",
                                    ally=bruno, character="Devon", ally_character="Mara", bot_plays_npcs=True)
    game = await bot.store.active_game(1, 10)
    users = {"2": alice, "3": bruno}
    public: Counter = Counter()          # round → public messages
    dms: Counter = Counter()             # (round, DM channel) → DMs carrying an engine decision
    decisions: Counter = Counter()       # (round, DM channel) → decisions answered
    kinds: dict = defaultdict(set)       # (round, DM channel) → the kinds of decision answered
    seen = 0
    rounds = set()
    for _ in range(300):
        state = ENGINE.load_state((await bot.store.game(game.id)).state)
        rounds.add(state.combat.round)
        for message in world.sent[seen:]:
            if message.public:
                public[state.combat.round] += 1
            elif message.where.startswith("dm:"):
                assert message.custom_ids(), f"a DM without a decision: {message.content!r}"
                if any(PROMPT_ID.match(cid) for cid in message.custom_ids()):
                    dms[(state.combat.round, message.where)] += 1
        seen = len(world.sent)
        if state.over or state.combat.round > 3:
            break
        prompt = ENGINE.pending(state)[0]
        user = users[prompt.player]
        decisions[(state.combat.round, f"dm:{user.id}")] += 1
        kinds[(state.combat.round, f"dm:{user.id}")].add(prompt.kind)
        await answer_prompt(world, world.last(f"dm:{user.id}", with_view=True), user, prompt,
                            choose_option(prompt, False))
    assert rounds >= {1, 2, 3}, rounds                              # whole rounds were played
    assert max(public.values()) <= 6, public
    # six to eight decisions per fighter a round, in one or two DMs (three before the threads). The
    # counts are this seeded game's: the bot's NPCs seed their choices from what the GM side sees,
    # its prompts' DM-thread keys included, so renaming those keys replays another game.
    assert dms == {(0, "dm:3"): 1, (1, "dm:2"): 1, (1, "dm:3"): 1, (2, "dm:2"): 2, (2, "dm:3"): 1,
                   (3, "dm:2"): 2, (3, "dm:3"): 2}, dms
    assert {k: n for k, n in decisions.items() if k[0]} == {
        (1, "dm:2"): 6, (1, "dm:3"): 6, (2, "dm:2"): 8, (2, "dm:3"): 6, (3, "dm:2"): 8, (3, "dm:3"): 7}
    # the rounds with a second DM are those where the revealed cards asked something: a hit or the
    # Rule-of-Fives offer
    assert all(kinds[k] & {"combat_hit", "offer"} for k, n in dms.items() if n == 2), dict(kinds)
    assert any("offer" in kinds[k] for k in dms), dict(kinds)
