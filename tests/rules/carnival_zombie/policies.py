"""Policies that play Carnival Zombie through `pending()` only: a random legal one and a simple sensible one."""
from __future__ import annotations

import random
from collections import deque

from rules.carnival_zombie import content_for

FINALE_LOCS = {1, 10, 15}


def random_policy(rng: random.Random):
    def pick(s, prompt):
        return rng.choice(prompt.options).id
    return pick


def _hours_to(s, c, start: int, goals: set[int]) -> dict[int, int]:
    """Hours from every Location to the nearest goal (Dijkstra on a tiny graph, ignoring sinking)."""
    dist = {g: 0 for g in goals}
    todo = deque(goals)
    while todo:
        a = todo.popleft()
        for _d, (b, extra) in c.alleys[a].items():
            cost = dist[a] + 1 + extra
            if cost < dist.get(b, 99):
                dist[b] = cost
                todo.append(b)
    return dist


def sensible_policy(rng: random.Random):
    def pick(s, prompt):
        c = content_for(s.pack)
        kind = prompt.kind
        ids = [o.id for o in prompt.options]

        def first(*prefixes):
            for pre in prefixes:
                for i in ids:
                    if i == pre or i.startswith(pre):
                        return i
            return None

        chars = {ch.id: ch for ch in s.characters}
        if kind == "setup":
            return "start"
        if kind == "story":
            ch = chars[s.ask["char"]]
            return "hide" if ch.stress >= 2 else "keep"
        if kind == "story_boss":
            return "barr"
        if kind in ("move", "dawn_exit"):
            goals = FINALE_LOCS - set(s.sunken) or FINALE_LOCS
            dist = _hours_to(s, c, s.group_at, goals)
            here = dist.get(s.group_at, 99)
            best, best_d = None, here
            for d, (dest, _x) in c.alleys[s.group_at].items():
                opt = ("go." + d) if kind == "move" else d
                if opt in ids and dest not in s.sunken and dist.get(dest, 99) < best_d:
                    best, best_d = opt, dist.get(dest, 99)
            if kind == "move":
                if s.group_at in s.sunken:
                    return best or first("go.") or "stop"
                if best and (s.ticket >= 2 or here > 4):
                    return best
                return "stop" if "stop" in ids else (best or ids[0])
            return best or rng.choice(ids)
        if kind == "dayact":
            ch = chars[s.ask["char"]]
            if ch.stress >= 4:
                return "rest"
            return first("rean.", "use.") or ("abil" if "abil" in ids and ch.id in ("medico", "brighella", "capitan")
                                              else ("barr" if s.supply.get("#", 0) >= 3 else "rest"))
        if kind == "target":
            best = max(ids, key=lambda i: chars[i[2:]].stress)
            return best
        if kind == "finale":
            return first("fin.") or "no"
        if kind == "barricades":
            return "even"
        if kind == "enter":
            ch = chars[s.ask["char"]]
            return "NESW"[(ch.order - 1) % 4]
        if kind == "act":
            ch = chars[s.ask["char"]]
            if s.ctx.get("acts", 0) >= 1 and ch.stress >= 4 and not ch.order_token:
                return first("heal.", "order.") or "end"
            return first("heal.", "order.", "asl.", "fireJ.", "fire.") or "end"
        if kind == "hit":
            non = [i for i in ids if i != "waste"]
            return "auto" if "auto" in ids else (non[0] if non else "waste")
        if kind == "attack":
            return "auto"
        if kind == "reward":
            heal = [i for i in ids if i.startswith("heal.")]
            return max(heal, key=lambda i: chars[i[5:]].stress) if heal else "item"
        if kind == "dawn_asl":
            return first("asl.") or "pass"
        if kind == "item_use":
            return first("use.") or "done"
        if kind == "search_inf":
            return "item"
        return rng.choice(ids)
    return pick
