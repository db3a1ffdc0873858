"""The messages a Karmic combat costs (issue 12): per round at most 6 public messages; no DM
without a decision in it (the round's hand comes with the fighter's first decision, not on its
own); at most one DM per private decision.

Measured with `python3 -m bench.messages --games karmic` (seed 7): DMs per fighter per round 4 → 3
(two register answers and, when a window opens, the Rule-of-Fives offer); the budget of 2 is not
met while each register's answer and each hit decision waits on other players' moves (see the
report of issue 12)."""
from __future__ import annotations

import re
from collections import Counter

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
        await answer_prompt(world, world.last(f"dm:{user.id}", with_view=True), user, prompt,
                            choose_option(prompt, False))
    assert rounds >= {1, 2, 3}, rounds                              # whole rounds were played
    assert max(public.values()) <= 6, public
    over = {k: (n, decisions[k]) for k, n in dms.items() if n > decisions[k]}
    assert over == {}, over
    assert sum(dms.values()) < sum(decisions.values())     # consecutive decisions share one DM
