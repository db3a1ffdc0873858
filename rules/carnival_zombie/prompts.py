"""Turn the engine's single pending decision (`state.ask`) into a `Prompt` with its legal options.

Prompt ids are `<kind><seq>` (seq = number of answered prompts), so a stale button never matches.
Nothing in Carnival Zombie is secret (rulebook: no hidden information), so prompts are public;
the one exception is the traitor of "Just a Matter of Time", who never gets a prompt of their own.
"""
from __future__ import annotations

from rules.common import Option, Prompt

from .state import CAVES, CLOCKWISE, PITS

DIR_NAME = {"N": "North", "E": "East", "S": "South", "W": "West"}


def _t(text: str, n: int = 80) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def build_prompt(eng, s, c, ask: dict) -> Prompt:
    kind = ask["kind"]
    pid = f"{kind}-{s.seq}"
    first = eng.first_player(s)
    def cname(cid):
        return (c.characters[cid]["name"])
    who = first
    text = ""
    opts: list[Option] = []
    multi = (1, 1)
    if kind == "setup":
        who = s.seats[0]
        order = ", ".join(f"{ch.order}. {cname(ch.id)} ({'<@' + ch.controller + '>' if ch.controller else 'Group'})"
                          for ch in s.characters)
        text = _t(f"Ready? Activation Order: {order}", 1000)
        opts = [Option("start", "Start the game"), Option("order", "Change the Activation Order")]
        if len(s.seats) > 1 or any(not ch.controller for ch in s.characters):
            opts.append(Option("swap", "Give a Character to another player"))
    elif kind == "order_pick":
        who = s.seats[0]
        placed = s.ctx.get("placed", [])
        text = f"Who takes Terror Track box {len(placed) + 1}?"
        opts = [Option(ch.id, cname(ch.id)) for ch in s.characters if ch.id not in placed]
    elif kind == "swap_char":
        who = s.seats[0]
        text = "Which Character changes hands?"
        opts = [Option(ch.id, cname(ch.id)) for ch in s.characters]
    elif kind == "swap_to":
        who = s.seats[0]
        text = f"Who plays {cname(ask['char'])}?"
        opts = [Option(f"p{k}", f"<@{p}>") for k, p in enumerate(s.seats)] + [Option("group", "The Group")]
    elif kind == "story":
        who = eng.owner(s, ask["char"])
        step = "III (a Boss card)" if ask["step"] == 2 else "II"
        text = f"The Story so far: {cname(ask['char'])} (Stress {eng._ch(s, ask['char']).stress}). Hide, or keep looking?"
        opts = [Option("hide", "Hide"), Option("keep", f"Keep looking (Step {step})")]
    elif kind == "story_boss":
        who = eng.owner(s, ask["char"])
        text = f"{cname(ask['char'])}: draw an Item, or 1 Barricade to Storage?"
        opts = [Option("item", "Draw an Item"), Option("barr", "+1 Barricade to Storage")]
    elif kind == "move":
        used = s.ctx.get("used", 0)
        text = (f"Day {s.ticket}: the Group is at {s.group_at} {c.locations[s.group_at]['name']} with "
                f"{4 - used} Hour(s) left. Move or stop?")
        for d, dest, cost in eng.move_options(s):
            warn = " - SUNKEN" if dest in s.sunken else ""
            opts.append(Option(f"go.{d}", _t(f"{DIR_NAME[d]} to {dest} {c.locations[dest]['name']} "
                                             f"({cost}h){warn}")))
        if not eng._must_move(s):
            warn = " - Sunken: defeat at Sunset!" if s.group_at in s.sunken else ""
            opts.append(Option("stop", _t(f"Stop here and act{warn}")))
    elif kind == "dayact":
        cid = ask["char"]
        who = eng.owner(s, cid)
        ch = eng._ch(s, cid)
        text = f"Day {s.ticket}, Hour {s.hour}: {cname(cid)}'s Action (Stress {ch.stress})."
        opts = eng.day_action_options(s, cid)
    elif kind == "search_inf":
        who = eng.owner(s, ask["char"])
        text = f"{cname(ask['char'])} escaped the Infected: take an Item or a Survivor?"
        opts = [Option("item", "An Item from the deck")]
        if s.supply.get("S", 0) > 0:
            opts.append(Option("surv", "A Survivor (into the Abyss)"))
    elif kind == "scavenge":
        who = eng.owner(s, ask["char"])
        text = f"{cname(ask['char'])} scavenges: keep which result?"
        opts = [Option(f"r.{r}", r.capitalize()) for r in dict.fromkeys(ask["results"])]
    elif kind == "target":
        who = eng.owner(s, ask["char"])
        purpose = ask["purpose"]
        if purpose == "arsenal":
            text = "Arsenal Search: which Character's Item deck?"
            pool = [ch for ch in s.characters if not ch.incapacitated and s.item_decks.get(ch.id)]
        elif purpose == "barter":
            text = "Barter: who gets the Item?"
            pool = [ch for ch in s.characters if not ch.incapacitated]
        else:
            text = "Treatment: who recovers 3 Stress?"
            pool = [ch for ch in s.characters if not ch.incapacitated and ch.id != ask["char"]]
        opts = [Option(f"c.{ch.id}", f"{cname(ch.id)} (Stress {ch.stress})") for ch in pool]
        if not opts:
            opts = [Option(f"c.{ask['char']}", cname(ask["char"]))]
    elif kind == "finale":
        text = "The Group stands where a Finale can begin. Engage it tonight?"
        opts = [Option(f"fin.{f}", _t(f"Engage the {c.finales[f]['name']} Finale (provisional rules)"))
                for f in eng.finale_options(s)] + [Option("no", "Not tonight")]
    elif kind == "explore":
        n = ask["n"]
        text = f"Exploration: which {n} Obstacle(s) will the Group avoid tonight?"
        opts = [Option(f"b{nb}", f"{nb} black, {n - nb} blue") for nb in eng.explore_choices(s)]
    elif kind == "terrain_cave":
        text = f"The Nightmare card says 'choice': in which Cave does the {c.terrains[ask['terrain']]['name']} go?"
        ring = c.terrains[ask["terrain"]].get("ring", 1)
        opts = [Option(cv, cv) for cv in CLOCKWISE if f"{cv}.{ring}" not in s.night.obstacles] or \
               [Option(cv, cv) for cv in CLOCKWISE]
    elif kind == "terrain_pit":
        text = f"Choose the Refuge space for the {c.terrains[ask['terrain']]['name']}."
        opts = [Option(p, DIR_NAME[p]) for p in PITS if p not in s.night.forts] or \
               [Option(p, DIR_NAME[p]) for p in PITS]
    elif kind == "barricades":
        text = f"Place the {s.storage['#']} Barricades from Storage (at most 1 per box, 3 per Cave)."
        opts = [Option("even", "Spread them evenly around the Refuge"),
                Option("custom", "Choose a count for each Cave")]
        opts += [Option(f"pit.{p}", f"Fill the {DIR_NAME[p]} Pit first") for p in PITS]
    elif kind == "barr_cave":
        left = s.storage["#"]
        text = f"Barricades for Cave {ask['cave']} ({left} left in Storage)?"
        opts = [Option(f"n{k}", str(k)) for k in range(0, min(3, left) + 1)]
    elif kind == "enter":
        who = eng.owner(s, ask["char"])
        text = f"Where does {cname(ask['char'])} stand tonight?"
        forts = s.night.forts
        opts = [Option(p, _t(f"{DIR_NAME[p]}" + (f" ({c.terrains[forts[p]]['name']})" if p in forts else "")))
                for p in PITS]
    elif kind == "boss_cave":
        b = s.boss_area[ask["slot"]]
        text = f"'Choice': in which Cave does the {c.bosses[b.boss]['name']} enter?"
        opts = [Option(cv, cv) for cv in CAVES]
    elif kind == "item_use":
        cid = ask["char"]
        who = eng.owner(s, cid)
        ch = eng._ch(s, cid)
        text = f"Night Hour {s.night.hour}: {cname(cid)} may use Items now."
        opts = [Option(f"use.{k}", _t(f"Use {c.items[ch.items[k]]['name']}")) for k in eng._usable_night_items(s, ch)]
        opts = opts[:24] + [Option("done", "Done")]
    elif kind == "paranoia":
        text = f"A Paranoia cube rises in the {DIR_NAME[ask['pit']]} Pit: who takes it?"
        opts = [Option(ch.id, f"{cname(ch.id)} (Stress {ch.stress})") for ch in eng.paranoia_targets(s, ask["pit"])]
    elif kind == "act":
        cid = ask["char"]
        who = eng.owner(s, cid)
        ch = eng._ch(s, cid)
        n = s.ctx.get("acts", 0)
        text = (f"Night Hour {s.night.hour}: {cname(cid)} in the {DIR_NAME.get(ch.refuge, '?')} space "
                f"(Stress {ch.stress}{', Paranoia' if ch.paranoia else ''}). "
                + ("Choose an Action." if n == 0 else "A second Action?"))
        opts = eng.act_options(s, cid)
    elif kind == "hit":
        cid = ask["char"]
        who = eng.owner(s, cid)
        h = s.ctx["hit"]
        w = h["hits"][0]
        text = (f"{cname(cid)}: {len(h['hits'])} Hit(s) left - target for this Hit of {w} Wound"
                f"{'s' if w > 1 else ''}{' (explosive)' if h['explosive'] else ''}?")
        opts = eng.hit_options(s)
    elif kind == "pile_honour":
        who = eng.owner(s, ask["char"])
        text = f"Drop the {ask['n']} cube(s) on your Pile of Corpses. What happened?"
        total = sum(s.pile.values())
        opts = [Option("clean", "Clean drop")] + [Option(f"f{k}", f"{k} cube(s) fell") for k in range(1, min(total, 24) + 1)]
    elif kind == "pile_react":
        who = eng.owner(s, ask["char"])
        if ask.get("timing"):
            text = f"Dropping {ask['n']} cube(s) on the Pile of Corpses... (timing the hand)"
            opts = [Option("untimed", "Drop! (untimed)")]
        else:
            text = (f"Steady... drop the {ask['n']} cube(s) on the Pile of Corpses NOW! "
                    "(the quicker the hand, the steadier the Pile)")
            opts = [Option("drop", "Drop!")]
    elif kind == "spill_split":
        sp = s.ctx["spill"]
        a, b = sp["pit"] + "1", sp["pit"] + "2"
        n = sum(sp["cubes"].values())
        who = eng.owner(s, sp["char"])
        text = f"{n} fallen cube(s) return to Ring III: how many go to {a} (the rest to {b})?"
        opts = [Option(f"k{k}", f"{k} to {a}, {n - k} to {b}") for k in eng.spill_choices(s)]
    elif kind == "reward":
        text = "A Boss is destroyed! Choose the reward."
        opts = [Option(f"heal.{ch.id}", _t(f"{cname(ch.id)} recovers 2 Stress and loses Paranoia"))
                for ch in s.characters if not ch.incapacitated]
        opts = opts[:24] + [Option("item", "An Item for a random Character")]
    elif kind == "attack":
        a = s.ctx["list"][s.ctx["k"]]
        if a["boss"]:
            b = s.boss_area[int(a["code"][1:])]
            aname = c.bosses[b.boss]["name"]
        else:
            aname = c.infected[a["code"]]["name"]
        where = "a box of " if a["box"] else ""
        text = f"The {aname} in {where}{a['cave']} attacks for {a['atk']} Stress: who takes it?"
        targets = eng.attack_targets(s, a)
        opts = [Option(f"t.{ch.id}", f"{cname(ch.id)} takes +{a['atk']} (Stress {ch.stress})") for ch in targets]
        opts += [Option(f"x.{ch.id}", _t(f"{cname(ch.id)} discards an Item to cancel it"))
                 for ch in targets if ch.items]
        if s.storage.get("S", 0) > 0:
            opts.append(Option("surv", f"Sacrifice a Survivor from Storage ({s.storage['S']})"))
        opts = opts[:24] + [Option("auto", "Auto-assign the remaining attacks")]
    elif kind == "discard":
        cid = ask["char"]
        who = eng.owner(s, cid)
        ch = eng._ch(s, cid)
        text = f"Which Item does {cname(cid)} discard?"
        opts = [Option(f"i{k}", _t(c.items[it]["name"])) for k, it in enumerate(ch.items)][:24]
        opts.append(Option("back", "Back"))
    elif kind == "dawn_exit":
        text = f"Dawn: through which Pit does the Group break out of {s.group_at} {c.locations[s.group_at]['name']}?"
        opts = [Option(d, _t(f"{DIR_NAME[d]} (towards {dest} {c.locations[dest]['name']})"))
                for d, (dest, _x) in sorted(c.alleys[s.group_at].items())]
    elif kind == "dawn_asl":
        cid = ask["char"]
        who = eng.owner(s, cid)
        ch = eng._ch(s, cid)
        text = f"Dawn: {cname(cid)}'s Assault in the {DIR_NAME[s.night.dawn_pit]} Pit."
        opts = [Option(f"asl.{w}", _t(f"Assault: {wd['name']} {'/'.join(map(str, wd['assault']))}"))
                for w, wd in eng._weapons(s, ch, "assault")][:24] + [Option("pass", "Hold back")]
    if not opts:
        opts = [Option("ok", "OK")]
    # the Pile's reaction mode times the click itself: it is never answered for the player
    return Prompt(id=pid, player=who, text=_t(text, 1000), options=tuple(opts), private=False, confirm=kind == "pile_react",
                  min_choices=multi[0], max_choices=multi[1])
