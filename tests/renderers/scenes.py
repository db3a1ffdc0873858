"""Every picture family of every game, drawn from game states the rules tests already build (their
helpers and policies, seeded), in several phases and at the end, in a reader's language: what the
scale and text-overlap tests draw. `pictures(language)` is a list of (name, draw) pairs; `draw()`
returns the PNG bytes at the scale of the moment (`renderers.common.scaled`)."""
from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

from i18n.present import Presenter
from rules.common import GM, PUBLIC, Actor, Choose
from rules.common.packs import in_language

LANGUAGES = ("en", "it", "es")
Draw = Callable[[], bytes]


# ------------------------------------------------------------------------------ Klash!
@cache
def _klash_states() -> tuple:
    """The golden cases (a melee cluster, a game won on the Hourglass) and, from two seeded random
    games, the first state of every phase and stage met (the auction three picks in, the end)."""
    from tests.renderers.klash.test_golden import _cluster, _over
    from tests.rules.klash.helpers import random_game
    states = [("cluster", _cluster()), ("won", _over())]
    for seed in (3, 6, 8):      # 6 ends with a Stunned model in base contact with another
        _, _, log = random_game(seed, keep_events=True)       # its last state is the game over
        seen: dict[str, object] = {}
        for state, _events in log:
            key = f"{state.phase}-{state.stage}" if state.stage else state.phase
            if state.phase == "draft" and len(state.draft_log) == 3:
                key = "draft-3"           # picks under way: both players' tiles
            seen.setdefault(key, state)
        states += [(f"{seed}-{key}", state) for key, state in seen.items()]
    return tuple(states)


def _klash(language: str) -> list[tuple[str, Draw]]:
    from renderers import klash as R
    from rules.klash import ENGINE
    from tests.renderers.klash.test_golden import NAMES
    from tests.rules.klash.helpers import A
    out: list[tuple[str, Draw]] = []
    for name, state in _klash_states():
        names = NAMES if name in ("cluster", "won") or name.startswith("8") else {A: "Ann", "bob": "Bob"}
        say = Presenter(language, game="klash", names=names)
        view = {**ENGINE.view_for(state, PUBLIC), "names": names}
        own = {**ENGINE.view_for(state, A), "names": names}
        if state.phase in ("draft", "team"):
            out.append((f"klash draft {name}", lambda v=view, s=say: R.draft_png(v, s)))
        else:
            out.append((f"klash arena {name}", lambda v=view, s=say: R.arena_png(v, say=s)))
        out.append((f"klash hand {name}", lambda v=own, s=say: R.hand_png(v, s)))
    return out


# ------------------------------------------------------------------------------ Carnival Zombie
@cache
def _carnival_views() -> tuple:
    """The golden Day and Night, and from campaigns the sensible policy plays (seed 2 is won, the others
    lost; 5, 8 and 9 bring Bosses onto the Rings): the first Group Movement, every Night's first
    Hour with cubes on the map, a Dawn and the end."""
    from rules.carnival_zombie import ENGINE
    from tests.renderers.carnival_zombie.test_golden import _day_view, _night_view
    from tests.rules.carnival_zombie.policies import sensible_policy
    views = [("golden-day", _day_view()), ("golden-night", _night_view())]
    for seed in (2, 0, 5, 8, 9):
        rng = random.Random(seed)
        s = ENGINE.new_game([f"p{i}" for i in range(rng.randint(1, 6))],
                            {"difficulty": rng.choice(["easy", "medium", "difficult"]), "scenario": "campaign"}, seed)
        pick = sensible_policy(rng)
        seen: dict[str, dict] = {}
        while not ENGINE.is_over(s):
            p = ENGINE.pending(s)[0]
            if p.kind == "move":
                seen.setdefault("move", ENGINE.view_for(s, PUBLIC))
            elif s.night and any(s.night.rings.values()):
                view = ENGINE.view_for(s, PUBLIC)
                seen.setdefault(f"night{s.ticket}", view)
                if view["night"]["hour"] > view["clock"]["night_hours"]:
                    seen.setdefault("dawn", view)
            ENGINE.step(s, Choose(p.id, (pick(s, p),)), Actor(p.player))
        seen["over"] = ENGINE.view_for(s, PUBLIC)
        views += [(f"{seed}-{key}", view) for key, view in seen.items()]
    return tuple(views)


def _carnival_zombie(language: str) -> list[tuple[str, Draw]]:
    from cogs.carnival_zombie.board import NAME, image_words
    from renderers import carnival_zombie as R
    say = Presenter(language, NAME)
    out: list[tuple[str, Draw]] = []
    for name, raw in _carnival_views():
        view = {**in_language(raw, language), "words": image_words(say, raw)}
        out.append((f"cz board {name}", lambda v=view: R.board(v)))
        out.append((f"cz strip {name}", lambda v=view: R.strip(v)))
        if view.get("night"):
            out.append((f"cz tactical {name}", lambda v=view: R.tactical_map(v)))
        else:
            out.append((f"cz venice {name}", lambda v=view: R.venice_map(v)))
    return out


# ------------------------------------------------------------------------------ Carnevale
@cache
def _carnevale_states() -> tuple:
    """The golden game (a model badly wounded) and the same game a Round on, a model fallen."""
    from rules.carnevale import ENGINE
    from rules.carnevale import actions as A
    from tests.renderers.carnevale.test_render import _state
    wounded = _state()
    fallen = ENGINE.apply(wounded, A.Damage("b2", 30, ignore_protection=True), Actor("gm", gm=True)).state
    return ("wounded", wounded), ("fallen", fallen)


def _carnevale(language: str) -> list[tuple[str, Draw]]:
    from renderers import carnevale as R
    from rules.carnevale import ENGINE, explained_pool, roll_pool
    from rules.carnevale.dice import result_from_dice
    from rules.common import Rng
    say = Presenter(language, "carnevale")
    words = R.presenter_words(say)
    out: list[tuple[str, Draw]] = []
    for name, state in _carnevale_states():
        public, owner = ENGINE.view_for(state, PUBLIC), ENGINE.view_for(state, "1")
        out += [(f"carnevale sheet owner {name}", lambda v=owner: R.squad_sheet(v, "1", words)),
                (f"carnevale sheet public {name}", lambda v=public: R.squad_sheet(v, "2", words)),
                (f"carnevale game {name}", lambda v=public: R.game_sheet(v, words))]
    for name, dice in (("plain", [10, 7, 2, 1, 8]), ("critical", [10, 10, 9, 8]), ("fumble", [1, 1, 3]),
                       ("none", [])):
        roll = result_from_dice(dice, 7).to_public()
        out.append((f"carnevale roll {name}", lambda r=roll: R.roll_image(r, words)))
    pool = roll_pool(Rng.from_seed(5), 6, 8, 2)        # as /carnevale roll draws it: the pool explained above
    explained = str(say.value(explained_pool(pool, ""), plain=True))
    out.append(("carnevale roll explained", lambda: R.roll_image({**pool.to_public(), "pool": explained}, words,
                                                                 explained)))
    return out


# ------------------------------------------------------------------------------ Karmic
@cache
def _karmic_states() -> tuple:
    """The rules tests' T4 combat (Devon against a Soldier), answered through its prompts: each
    register declared face-down, then revealed, then the hits stood."""
    from tests.rules.karmic.helpers import DEVON, SOLDIER, answer, fight
    state, _ = fight(DEVON, SOLDIER, stack={"c1": ["2S", "KS", "2H", "10S"], "c2": ["4H", "QH", "5S"]})
    states = [("start", state)]
    script = [("u1", "atk.0"), ("u1", "KS"), (GM, "par.0"), (GM, "5S"), ("u1", "atk.0"), ("u1", "2H"),
              (GM, "par.0"), (GM, "QH"), ("u1", "darm.0"), ("u1", "10S"), ("u1", "stand"), (GM, "stand")]
    for k, (_who, option) in enumerate(script):
        state, _ = answer(state, option)
        if k % 2:
            states.append((f"step{k}", state))
    return tuple(states)


def _karmic(language: str) -> list[tuple[str, Draw]]:
    from renderers import karmic as R
    from rules.karmic import ENGINE
    say = Presenter(language, "karmic")
    out: list[tuple[str, Draw]] = []
    for name, state in _karmic_states():
        if state.combat is None:
            continue
        public, own = ENGINE.view_for(state, PUBLIC), ENGINE.view_for(state, "u1")
        out += [(f"karmic track {name}", lambda v=public: R.register_track(v, say)),
                (f"karmic hand {name}", lambda v=own: R.hand_image(v, say))]
    return out


def pictures(language: str) -> list[tuple[str, Draw]]:
    return [*_klash(language), *_carnival_zombie(language), *_carnevale(language), *_karmic(language)]
