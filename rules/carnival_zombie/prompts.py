"""Turn the engine's single pending decision (`state.ask`) into a `Prompt` with its legal options.

Prompts speak data: `kind` + `args` (names as the pack spells them, players as ids), options with
label kinds; the presenter words them (`prompts.<kind>`, `options.<kind>` in
`i18n/<lang>.carnival_zombie.yaml`). Prompt ids are `prompt_id(kind, seq)` (seq = number of answered
prompts), so a stale button never matches. Nothing in Carnival Zombie is secret (rulebook: no hidden
information), so prompts are public; the one exception is the traitor of "Just a Matter of Time",
who never gets a prompt of their own.
"""
from __future__ import annotations

from collections.abc import Callable

from rules.common import Option, Prompt, term

from .state import CAVES, CLOCKWISE, PITS

ROMAN = {1: "I", 2: "II", 3: "III"}


def _dir(d: str) -> dict:
    return term(f"dir_{d}")


def build_prompt(eng, s, c, ask: dict) -> Prompt:
    kind = ask["kind"]
    who = eng.first_player(s)
    if "char" in ask and kind not in ("paranoia",):
        who = eng.owner(s, ask["char"])
    if kind in ("setup", "order_pick", "swap_char", "swap_to"):
        who = s.seats[0]
    args, opts = BUILDERS[kind](eng, s, c, ask)
    if "char" in ask and "name" not in args:
        args["name"] = c.characters[ask["char"]]["name"]
    if not opts:
        opts = [Option.of("ok", "ok")]
    # the attacks of a step are one multi-choice; the Pile's reaction mode times the click itself
    # (it is never answered for the player)
    return Prompt.ask(kind, args, who, opts, key=(s.seq,), max_choices=len(opts) if kind == "attack" else 1,
                      confirm=kind == "pile_react")


def _cname(c, cid: str) -> str:
    return c.characters[cid]["name"]


def _setup(eng, s, c, ask):
    opts = [Option.of("start", "start"), Option.of("order", "change_order")]
    if len(s.seats) > 1 or any(not ch.controller for ch in s.characters):
        opts.append(Option.of("swap", "swap"))
    return {"order": [{"term": "order_entry", "n": ch.order, "name": _cname(c, ch.id)} for ch in s.characters]}, opts


def _order_pick(eng, s, c, ask):
    placed = s.ctx.get("placed", [])
    return ({"box": len(placed) + 1},
            [Option.of(ch.id, "character", name=_cname(c, ch.id)) for ch in s.characters if ch.id not in placed])


def _swap_char(eng, s, c, ask):
    return {}, [Option.of(ch.id, "character", name=_cname(c, ch.id)) for ch in s.characters]


def _swap_to(eng, s, c, ask):
    return ({}, [Option.of(f"p{k}", "player", player=p) for k, p in enumerate(s.seats)]
            + [Option.of("group", "the_group")])


def _story(eng, s, c, ask):
    return ({"stress": eng._ch(s, ask["char"]).stress},
            [Option.of("hide", "hide"), Option.of("keep", "keep_looking_boss" if ask["step"] == 2 else "keep_looking")])


def _story_boss(eng, s, c, ask):
    return {}, [Option.of("item", "draw_item"), Option.of("barr", "barricade_to_storage")]


def _move(eng, s, c, ask):
    used = s.ctx.get("used", 0)
    opts = [Option.of(f"go.{d}", "go_sunken" if dest in s.sunken else "go", dir=_dir(d), loc=dest,
                      loc_name=c.locations[dest]["name"], cost=cost)
            for d, dest, cost in eng.move_options(s)]
    if not eng._must_move(s):
        opts.append(Option.of("stop", "stop_sunken" if s.group_at in s.sunken else "stop"))
    return {"day": s.ticket, "loc": s.group_at, "loc_name": c.locations[s.group_at]["name"], "hours": 4 - used}, opts


def _dayact(eng, s, c, ask):
    return ({"day": s.ticket, "hour": s.hour, "stress": eng._ch(s, ask["char"]).stress},
            eng.day_action_options(s, ask["char"]))


def _search_inf(eng, s, c, ask):
    opts = [Option.of("item", "item_from_deck")]
    if s.supply.get("S", 0) > 0:
        opts.append(Option.of("surv", "survivor_to_abyss"))
    return {}, opts


def _scavenge(eng, s, c, ask):
    return {}, [Option.of(f"r.{r}", f"found_{r}") for r in dict.fromkeys(ask["results"])]


def _target(eng, s, c, ask):
    purpose = ask["purpose"]
    if purpose == "arsenal":
        pool = [ch for ch in s.characters if not ch.incapacitated and s.item_decks.get(ch.id)]
    elif purpose == "barter":
        pool = [ch for ch in s.characters if not ch.incapacitated]
    else:
        pool = [ch for ch in s.characters if not ch.incapacitated and ch.id != ask["char"]]
    opts = [Option.of(f"c.{ch.id}", "character_stress", name=_cname(c, ch.id), stress=ch.stress) for ch in pool]
    if not opts:
        opts = [Option.of(f"c.{ask['char']}", "character", name=_cname(c, ask["char"]))]
    return {"purpose": term(f"purpose_{purpose}")}, opts


def _finale(eng, s, c, ask):
    return {}, ([Option.of(f"fin.{f}", "engage_finale", finale_name=c.finales[f]["name"])
                 for f in eng.finale_options(s)] + [Option.of("no", "not_tonight")])


def _explore(eng, s, c, ask):
    n = ask["n"]
    return {"n": n}, [Option.of(f"b{nb}", "black_blue", black=nb, blue=n - nb) for nb in eng.explore_choices(s)]


def _terrain_cave(eng, s, c, ask):
    ring = c.terrains[ask["terrain"]].get("ring", 1)
    caves = [cv for cv in CLOCKWISE if f"{cv}.{ring}" not in s.night.obstacles] or list(CLOCKWISE)
    return {"terrain_name": c.terrains[ask["terrain"]]["name"]}, [Option.of(cv, "cave", cave=cv) for cv in caves]


def _terrain_pit(eng, s, c, ask):
    pits = [p for p in PITS if p not in s.night.forts] or list(PITS)
    return {"terrain_name": c.terrains[ask["terrain"]]["name"]}, [Option.of(p, "dir", dir=_dir(p)) for p in pits]


def _barricades(eng, s, c, ask):
    opts = [Option.of("even", "spread_evenly"), Option.of("custom", "count_per_cave")]
    opts += [Option.of(f"pit.{p}", "fill_pit_first", dir=_dir(p)) for p in PITS]
    return {"n": s.storage["#"]}, opts


def _barr_cave(eng, s, c, ask):
    left = s.storage["#"]
    return {"cave": ask["cave"], "left": left}, [Option.of(f"n{k}", "number", n=k) for k in range(0, min(3, left) + 1)]


def _enter(eng, s, c, ask):
    forts = s.night.forts
    return {}, [Option.of(p, "dir_fort", dir=_dir(p), terrain_name=c.terrains[forts[p]]["name"]) if p in forts
                else Option.of(p, "dir", dir=_dir(p)) for p in PITS]


def _boss_cave(eng, s, c, ask):
    b = s.boss_area[ask["slot"]]
    return {"boss_name": c.bosses[b.boss]["name"]}, [Option.of(cv, "cave", cave=cv) for cv in CAVES]


def _item_use(eng, s, c, ask):
    ch = eng._ch(s, ask["char"])
    opts = [Option.of(f"use.{k}", "use_item", item_name=c.items[ch.items[k]]["name"])
            for k in eng._usable_night_items(s, ch)]
    return {"hour": s.night.hour}, opts[:24] + [Option.of("done", "done")]


def _paranoia(eng, s, c, ask):
    return ({"dir": _dir(ask["pit"])},
            [Option.of(ch.id, "character_stress", name=_cname(c, ch.id), stress=ch.stress)
             for ch in eng.paranoia_targets(s, ask["pit"])])


def _act(eng, s, c, ask):
    ch = eng._ch(s, ask["char"])
    first = s.ctx.get("acts", 0) == 0
    state = ("act_first" if first else "act_second") + ("_paranoia" if ch.paranoia else "")
    return ({"hour": s.night.hour, "dir": _dir(ch.refuge) if ch.refuge else "?", "stress": ch.stress,
             "which": term(state)}, eng.act_options(s, ask["char"]))


def _hit(eng, s, c, ask):
    h = s.ctx["hit"]
    return ({"left": len(h["hits"]), "wounds": h["hits"][0],
             "how": term("hit_explosive" if h["explosive"] else "hit_plain")}, eng.hit_options(s))


def _pile_honour(eng, s, c, ask):
    total = sum(s.pile.values())
    return ({"n": ask["n"]}, [Option.of("clean", "clean_drop")]
            + [Option.of(f"f{k}", "fell", n=k) for k in range(1, min(total, 24) + 1)])


def _pile_react(eng, s, c, ask):
    if ask.get("timing"):
        return {"n": ask["n"], "when": term("drop_timing")}, [Option.of("untimed", "drop_untimed")]
    return {"n": ask["n"], "when": term("drop_now")}, [Option.of("drop", "drop")]


def _spill_split(eng, s, c, ask):
    sp = s.ctx["spill"]
    a, b = sp["pit"] + "1", sp["pit"] + "2"
    n = sum(sp["cubes"].values())
    return ({"n": n, "a": a, "b": b},
            [Option.of(f"k{k}", "split", to_a=k, to_b=n - k, a=a, b=b) for k in eng.spill_choices(s)])


def _reward(eng, s, c, ask):
    opts = [Option.of(f"heal.{ch.id}", "reward_heal", name=_cname(c, ch.id))
            for ch in s.characters if not ch.incapacitated]
    return {}, opts[:24] + [Option.of("item", "reward_item")]


def _attack(eng, s, c, ask):
    """Every attack of the step that has a choice, in one select: for each, who takes it, or how it is
    cancelled; the attacks left out are spread over the least stressed ("auto" alone: all of them)."""
    survivors = s.storage.get("S", 0)
    listed, opts = [], []
    for n, (k, a, targets) in enumerate(eng.attack_rows(s), 1):
        if a["boss"]:
            attacker = c.bosses[s.boss_area[int(a["code"][1:])].boss]["name"]
        else:
            attacker = c.infected[a["code"]]["name"]
        row = {"n": n, "attacker": attacker, "cave": a["cave"], "attack": a["atk"]}
        listed.append({"term": "attack_row", **row, "where": term("in_box" if a["box"] else "in_ring")})
        opts += [Option.of(f"{k}.t.{ch.id}", "attack_takes", **row, name=_cname(c, ch.id), stress=ch.stress)
                 for ch in targets]
        opts += [Option.of(f"{k}.x.{ch.id}", "attack_discard", **row, name=_cname(c, ch.id))
                 for ch in targets if ch.items]
        if survivors:
            opts.append(Option.of(f"{k}.surv", "attack_survivor", **row, survivors=survivors))
    return {"attacks": listed, "n": len(listed)}, opts + [Option.of("auto", "auto_assign")]


def _discard(eng, s, c, ask):
    ch = eng._ch(s, ask["char"])
    opts = [Option.of(f"i{k}", "item", item_name=c.items[it]["name"]) for k, it in enumerate(ch.items)][:24]
    return {}, opts + [Option.of("back", "back")]


def _dawn_exit(eng, s, c, ask):
    return ({"loc": s.group_at, "loc_name": c.locations[s.group_at]["name"]},
            [Option.of(d, "towards", dir=_dir(d), loc=dest, loc_name=c.locations[dest]["name"])
             for d, (dest, _x) in sorted(c.alleys[s.group_at].items())])


def _dawn_asl(eng, s, c, ask):
    ch = eng._ch(s, ask["char"])
    opts = [Option.of(f"asl.{w}", "assault_first", weapon=wd["name"] or term("bare_hands"),
                      hits="/".join(map(str, wd["assault"])))
            for w, wd in eng._weapons(s, ch, "assault")][:24]
    return {"dir": _dir(s.night.dawn_pit)}, opts + [Option.of("pass", "hold_back")]


BUILDERS: dict[str, Callable] = {
    "setup": _setup, "order_pick": _order_pick, "swap_char": _swap_char, "swap_to": _swap_to,
    "story": _story, "story_boss": _story_boss, "move": _move, "dayact": _dayact, "search_inf": _search_inf,
    "scavenge": _scavenge, "target": _target, "finale": _finale, "explore": _explore,
    "terrain_cave": _terrain_cave, "terrain_pit": _terrain_pit, "barricades": _barricades, "barr_cave": _barr_cave,
    "enter": _enter, "boss_cave": _boss_cave, "item_use": _item_use, "paranoia": _paranoia, "act": _act,
    "hit": _hit, "pile_honour": _pile_honour, "pile_react": _pile_react, "spill_split": _spill_split,
    "reward": _reward, "attack": _attack, "discard": _discard, "dawn_exit": _dawn_exit, "dawn_asl": _dawn_asl,
}

__all__ = ["BUILDERS", "ROMAN", "build_prompt"]
