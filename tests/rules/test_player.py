"""The generic bot player: legal choices, exact replay, and it never peeks.

The never-peeks property: at many decision points of random games, the state is changed in everything
the deciding seat cannot see (the other hand, deck orders, the dice to come) while its view stays the
same; with the same seed the bot must choose exactly the same answer.
"""
from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from rules.carnevale import ENGINE as CARNEVALE
from rules.carnevale import load_sample_pack
from rules.carnevale.ai import AI as CARNEVALE_AI
from rules.carnevale.content import as_ability_list
from rules.carnevale.squad import sample_squad
from rules.carnival_zombie import ENGINE as ZOMBIE
from rules.carnival_zombie.ai import AI as ZOMBIE_AI
from rules.common.engine import GM, Actor, Choose
from rules.common.errors import IllegalAction
from rules.common.player import Level, decide, level, mover, moves, seed_for
from rules.common.rng import Rng
from rules.karmic import ENGINE as KARMIC
from rules.karmic import AI as KARMIC_AI
from rules.klash import ENGINE as KLASH
from rules.klash.ai import AI as KLASH_AI
from content import sample_pack
from tests.rules.klash.helpers import SAMPLE as KLASH_SAMPLE

TINY = Level("tiny", "ismcts", iterations=2, rollout=1)
# normal and hard with a tiny search budget: a game's own ``GameAI.choose`` keys on the level's name
# (Klash!'s look through its own run of decisions), so these run it, and its search, cheaply
LOOKING = [replace(level(name), iterations=4) for name in ("normal", "hard")]


# ---------------------------------------------------------------- what each game hides
def klash_rehide(state, seat: str, rng: Rng):
    """Deal the other hand, the Event deck and discards anew, shuffle the auction deck, new dice."""
    s = copy.deepcopy(state)
    other = s.other(seat)
    deck = s.event_deck
    n, d = len(s.hands[other]), len(deck.discards)
    pool = s.hands[other] + deck.cards + deck.discards
    rng.shuffle(pool)
    s.hands[other], deck.discards, deck.cards = pool[:n], pool[n:n + d], pool[n + d:]
    rng.shuffle(s.char_deck)
    s.rng = Rng(rng.next_u64())
    return s


ITEMS = ("Pope Clement XIII's Ring", "Mother Hidra's Tiara")     # two magical items of the same cost


def carnevale_game(seed: int):
    """Two sample squads whose Leaders carry a magical item (secret from the other side)."""
    pack = load_sample_pack()
    squads = {}
    for i, pid in enumerate(["1", "2"]):
        squad = sample_squad(pack, pack.factions[i], 150)
        squad.points_limit = 200
        squad.members[0].equipment = [ITEMS[(seed + i) % 2]]
        squads[pid] = squad.to_dict()
    return CARNEVALE.new_game(["1", "2"], {"squads": squads, "rounds": 2}, seed=seed)


def carnevale_rehide(state, seat: str, rng: Rng):
    """Another Agenda and another (unused) magical item for the other side, new dice."""
    s = copy.deepcopy(state)
    other = s.opponent(seat)
    s.players[other].agenda = 1 + (s.players[other].agenda + rng.below(9)) % 10
    s.players[other].agenda_claimed = not s.players[other].agenda_claimed
    pack = load_sample_pack()
    for m in s.models.values():
        if m.owner == other and m.magic_item and not m.used_once:
            swap = ITEMS[1 - ITEMS.index(m.magic_item)] if m.magic_item in ITEMS else ITEMS[0]
            m.items = [swap if i == m.magic_item else i for i in m.items]
            m.magic_item = swap
            m.magic_abilities = as_ability_list(pack.item(swap).get("abilities"))
    s.rng = Rng(rng.next_u64())
    return s


def karmic_game(seed: int):
    """A duel (Devon, a player, against the GM's Soldier) or two players and a Bandit."""
    combatants = [[{"character": "Devon", "player": "1"}, {"character": "Soldier", "player": GM}],
                  [{"character": "Devon", "player": "1"}, {"character": "Enris", "player": "2"},
                   {"character": "Bandit", "player": GM}]][seed % 2]
    seats = sorted({c["player"] for c in combatants} - {GM})
    return KARMIC.start(seats, {"mode": "combat", "combatants": combatants, "pack": sample_pack("karmic")},
                        seed).state


def karmic_rehide(state, seat: str, rng: Rng):
    """Deal every card the seat cannot see anew from its own deck (hands, face-down registers,
    initiative draws, decks, discards, the world deck): the same re-dealing a bot's sampling does, from
    another seed, so it is the real hidden part that changes."""
    return KARMIC_AI.determinize(state, seat, rng)


def zombie_game(seed: int):
    scenario = ("campaign", "jmot")[seed % 2]     # Just a Matter of Time: one hidden traitor
    return ZOMBIE.new_game(["1", "2", "3"], {"auto_start": True, "quick": True, "scenario": scenario}, seed)


def zombie_rehide(state, seat: str, rng: Rng):
    """Other pile orders, no scripted bag, new dice, and another hidden traitor."""
    s = copy.deepcopy(state)
    for pile in (s.nightmare, s.boss_deck, s.tiles, s.fort_tiles, *s.item_decks.values()):
        rng.shuffle(pile)
    if s.traitor and s.traitor != seat and not s.unmasked:
        s.traitor = rng.choice([p for p in s.seats if p != seat])
    s.rng = Rng(rng.next_u64())
    return s


GAMES = {
    "karmic": (KARMIC, KARMIC_AI, karmic_rehide, karmic_game),
    "carnival_zombie": (ZOMBIE, ZOMBIE_AI, zombie_rehide, zombie_game),
    "klash": (KLASH, KLASH_AI, klash_rehide, lambda seed: KLASH.new_game(["1", "2"], KLASH_SAMPLE, seed=seed)),
    "carnevale": (CARNEVALE, CARNEVALE_AI, carnevale_rehide, carnevale_game),
}


def random_walk(ai, state, rng: Rng, steps: int):
    """Advance a game by random legal moves (the other seats' optional prompts ignored)."""
    for _ in range(steps):
        if ai.engine.is_over(state):
            break
        player = mover(ai, state)
        if player is None:
            break
        options = moves(ai, state, player, rng)
        while options:
            move = options.pop(rng.below(len(options)))
            try:
                state = ai.engine.apply(state, Choose(*move), Actor(player)).state
                break
            except IllegalAction:      # a multi-choice candidate the rules refuse (e.g. a team)
                continue
    return state


def decision_points(ai, make, n: int, seed: int = 1):
    """``n`` (state, seat) pairs where the seat must choose between at least two answers."""
    rng = Rng.from_seed(seed)
    found = []
    game = 0
    while len(found) < n:
        state = make(game)
        game += 1
        while not ai.engine.is_over(state) and len(found) < n:
            state = random_walk(ai, state, rng, 1 + rng.below(6))
            player = mover(ai, state)
            if player is not None and len(moves(ai, state, player, Rng(0))) >= 2:
                found.append((state, player))
    return found


# ---------------------------------------------------------------- tests
@pytest.mark.parametrize("name", sorted(GAMES))
def test_never_peeks(name):
    engine, ai, rehide, make = GAMES[name]
    points = decision_points(ai, make, 1000)
    changed = 0
    for i, (state, seat) in enumerate(points):
        other = rehide(state, seat, Rng.from_seed(f"hide{i}"))
        assert ai.information(other, seat) == ai.information(state, seat)
        # every point: the sampled world is the same whatever was hidden (so no search can tell);
        # a quarter of them (and a tiny tree search on some): the bot's answer itself is the same
        assert engine.dump_state(ai.determinize(other, seat, Rng(i))) == \
            engine.dump_state(ai.determinize(state, seat, Rng(i)))
        if i % 4 == 0:
            lvl = TINY if i % 20 == 0 else LOOKING[i % 40 // 20] if i % 20 == 8 else "easy"
            first = decide(ai, state, seat, lvl, Rng.from_seed(i))
            second = decide(ai, other, seat, lvl, Rng.from_seed(i))
            assert first == second, (i, seat, first, second)
        changed += engine.dump_state(other) != engine.dump_state(state)
    assert changed >= 900   # the hidden part really differed almost everywhere


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("strategy", ["random", "greedy", "tiny"])
def test_strategies_choose_legal_options(name, strategy):
    engine, ai, _rehide, make = GAMES[name]
    lvl = TINY if strategy == "tiny" else strategy
    for state, seat in decision_points(ai, make, 40, seed=9):
        choice = decide(ai, state, seat, lvl, Rng.from_seed(3))
        prompt = engine.check_choice(state, choice, Actor(seat))   # live, the seat's, well-formed
        assert prompt.player == seat
        engine.apply(state, choice, Actor(seat))                   # and the rules accept it


def test_klash_seeded_game_replays_exactly():
    def play():
        state = KLASH.new_game(["1", "2"], KLASH_SAMPLE, seed=4)
        log = []
        for _ in range(120):
            seat = mover(KLASH_AI, state)
            choice = decide(KLASH_AI, state, seat, TINY, seed_for(KLASH_AI, state, seat, "replay"))
            log.append(choice)
            state = KLASH.apply(state, choice, Actor(seat)).state
        return log, KLASH.dump_state(state)
    assert play() == play()


def test_no_decision_when_it_is_not_the_seats_turn():
    state = KLASH.new_game(["1", "2"], KLASH_SAMPLE, seed=2)
    picker = KLASH.picker(state)
    waiting = state.other(picker)
    assert decide(KLASH_AI, state, waiting, "normal", Rng(1)) is None
    assert isinstance(decide(KLASH_AI, state, picker, "random", Rng(1)), Choose)


def test_deadline_stops_the_search():
    state = KLASH.new_game(["1", "2"], KLASH_SAMPLE, seed=2)
    calls = []

    def deadline():
        calls.append(1)
        return len(calls) > 2
    choice = decide(KLASH_AI, state, KLASH.picker(state), Level("big", "ismcts", iterations=10_000, rollout=2),
                    Rng(5), deadline=deadline)
    assert choice.options[0] in {f"c{i}" for i in range(5)}
    assert len(calls) == 3     # two iterations ran, the third check stopped it


def test_karmic_bot_npcs_use_the_player_and_the_gm_takes_one_back():
    from rules.karmic.actions import NpcControl
    state = KARMIC.start(["1"], {"mode": "combat", "bot_plays_npcs": True, "pack": sample_pack("karmic"),
                                 "combatants": [{"character": "Devon", "player": "1"},
                                                {"character": "Soldier", "player": GM}]}, 6).state
    gm = Actor(GM, gm=True)

    def walk(state, steps, allow_gm):
        rng = Rng(8)
        for _ in range(steps):
            prompts = KARMIC.pending(state)
            if state.over or not prompts:
                break
            if not allow_gm:
                assert all(p.player == "1" for p in prompts)     # the bot answered every NPC decision
            p = prompts[0]
            ids = [o.id for o in p.options if o.id not in ("more", "back", "hes")] or [p.options[0].id]
            state = KARMIC.apply(state, Choose(p.id, (ids[rng.below(len(ids))],)), Actor(p.player, gm=p.player == GM)).state
        return state
    state = walk(state, 3, allow_gm=False)
    assert not state.over
    with pytest.raises(IllegalAction):
        KARMIC.apply(state, NpcControl("Soldier"), Actor("1"))           # only the GM
    out = KARMIC.apply(state, NpcControl("Soldier"), gm)
    assert out.events[-1].kind == "npc_control" and out.state.options["gm_plays"] == ["c2"]
    state = out.state
    for _ in range(60):
        if state.over or any(p.player == GM for p in KARMIC.pending(state)):
            break
        state = walk(state, 1, allow_gm=True)
    assert any(p.player == GM for p in KARMIC.pending(state))   # the Soldier's decisions now wait on the GM
    state = KARMIC.apply(state, NpcControl("c2", bot=True), gm).state
    assert state.options["gm_plays"] == []
    assert state.over or all(p.player == "1" for p in KARMIC.pending(state))


def test_an_unknown_level_is_refused_as_a_code_the_presenter_words():
    from i18n.present import Presenter
    from rules.common import IllegalAction
    from rules.common.player import LEVELS, level
    with pytest.raises(IllegalAction) as refused:
        level("godlike")
    assert (refused.value.code, refused.value.params) == ("unknown_bot_level",
                                                          {"level": "godlike", "known": list(LEVELS)})
    assert Presenter("it", None).error(refused.value).startswith("Non esiste il livello 'godlike' per il bot")


def test_a_game_may_choose_its_own_way_and_none_leaves_it_to_the_level():
    """GameAI.choose: a game can take a level's pick over (it gets only the seat's options); None is the
    default and leaves the level's strategy to pick."""
    state = KLASH.new_game(["1", "2"], KLASH_SAMPLE, seed=2)
    seat = KLASH.picker(state)
    seen = []

    class Last(type(KLASH_AI)):
        def choose(self, state, seat, options, rng, lvl, deadline):
            seen.append((seat, lvl.name, len(options)))
            return options[-1] if lvl.name == "greedy" else None
    last = Last(KLASH)
    options = moves(last, state, seat, Rng(0))
    assert len(options) == 5
    assert decide(last, state, seat, "greedy", Rng(1)) == Choose(*options[-1])
    assert decide(last, state, seat, "random", Rng(1)) == decide(KLASH_AI, state, seat, "random", Rng(1))
    assert seen == [(seat, "greedy", 5), (seat, "random", 5)]
