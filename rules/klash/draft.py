"""The Gladiator Auction and the team (digest §2.1, §2.2): 8 rounds of 5 revealed cards, picks 1 then 2
alternating, and a team of at most 8 that meets every fielded Champion's Requirements.

A mixin of ``KlashEngine`` (``engine.py``): its methods call the other sections' through ``self``
(typed ``Any``: mypy checks mixins' cross-calls only through a Protocol, which would repeat every signature).
"""
from __future__ import annotations

from typing import Any

from rules.common.engine import PUBLIC, term
from rules.common.errors import IllegalAction

from . import core
from .core import check, require, say
from .rules_numbers import REVEAL, ROUNDS, TEAM_MAX
from .state import KlashState, Model


class Auction:
    def _start_round(self: Any, state: KlashState, out: list) -> None:
        state.draft_round += 1
        state.revealed = [state.char_deck.pop() for _ in range(REVEAL)]
        state.round_picks = 0
        say(out, "draft_round", round=state.draft_round, revealed=list(state.revealed),
            card_names=[core.words(state.cards[c], "name") for c in state.revealed])

    def picker(self: Any, state: KlashState) -> str:
        """Odd rounds: A takes 1, then B takes 2. Even rounds: B takes 1, then A takes 2 (L19)."""
        single = state.player_a if state.draft_round % 2 == 1 else state.player_b
        return single if state.round_picks == 0 else state.other(single)

    def _pick(self: Any, state: KlashState, out: list, player: str, index: int) -> None:
        require(state.phase == "draft", "auction_over")
        require(player == self.picker(state), "not_your_pick")
        require(0 <= index < len(state.revealed), "no_card_there")
        card = state.revealed.pop(index)
        state.picks[player].append(card)
        state.draft_log.append([state.draft_round, player, card])
        state.round_picks += 1
        say(out, "pick", player=player, card=card, card_name=core.words(state.cards[card], "name"), round=state.draft_round)
        if state.round_picks == 3:
            state.discarded.extend(state.revealed)
            say(out, "draft_discard", cards=list(state.revealed),
                card_names=[core.words(state.cards[c], "name") for c in state.revealed])
            state.revealed = []
            if state.draft_round == ROUNDS:
                state.phase = "team"
                say(out, "phase", phase="team", most=TEAM_MAX)
            else:
                self._start_round(state, out)

    def team_problem(self: Any, state: KlashState, player: str, indices: list[int]) -> IllegalAction | None:
        picks = state.picks[player]
        if not 1 <= len(indices) <= TEAM_MAX:
            return IllegalAction("team_size", most=TEAM_MAX)
        if len(set(indices)) != len(indices) or any(not 0 <= i < len(picks) for i in indices):
            return IllegalAction("team_distinct")
        team = [picks[i] for i in indices]
        for cid in team:
            card = state.cards[cid]
            if card["type"] == "campione" and team.count(cid) > 1:
                return IllegalAction("champion_unique", card_name=core.words(card, "name"))
            for req in card.get("requirements") or []:
                if req["kind"] == "min_type":
                    n = sum(1 for t in team if state.cards[t]["type"] == req["type"])
                    if n < req.get("count", 1):
                        return IllegalAction("requires_type", card_name=core.words(card, "name"), count=req.get("count", 1),
                                             type=req["type"], kind=term(f"type_{req['type']}"))
                elif req["kind"] == "with_card":
                    if req["card"] not in team:
                        return IllegalAction("requires_card", card_name=core.words(card, "name"), card=req["card"],
                                             other_name=core.words(state.cards[req["card"]], "name"))
                elif req["kind"] == "max_models":
                    if len(team) > req.get("count", TEAM_MAX):
                        return IllegalAction("requires_small_team", card_name=core.words(card, "name"),
                                             count=req.get("count", TEAM_MAX))
        return None

    def _select_team(self: Any, state: KlashState, out: list, player: str, indices: list[int]) -> None:
        require(state.phase == "team", "not_team_time")
        require(player in state.seats and player not in state.team_choice, "team_already_chosen")
        problem = self.team_problem(state, player, indices)
        check(problem, state)
        state.team_choice[player] = sorted(indices)
        vp = sum(state.cards[state.picks[player][i]]["vp"] for i in indices)
        secret = state.house_rules.get("secret_team")
        say(out, "team_chosen", player if secret else PUBLIC, player=player, vp=vp, n=len(indices),
            indices=sorted(indices))
        if secret:
            say(out, "team_locked", player=player)
        if len(state.team_choice) == 2:
            n = 0
            for p in (state.player_a, state.player_b):
                for i in state.team_choice[p]:
                    n += 1
                    cid = state.picks[p][i]
                    # numbered across both teams, so every model's name is unique in the match
                    # ("Raging Orc 1" and "Raging Orc 2" even when each team holds one); a Champion
                    # both teams drafted is told apart the same way
                    copies = sum(1 for m in state.models if m.card == cid)
                    number = copies + 1 if state.cards[cid]["type"] != "campione" or copies else 0
                    state.models.append(Model(id=f"m{n}", card=cid, owner=p, n=number))
                state.team_vp[p] = sum(state.cards[m.card]["vp"] for m in state.models if m.owner == p)
            a, b = state.player_a, state.player_b
            say(out, "teams", a_player=a, a_vp=state.team_vp[a], b_player=b, b_vp=state.team_vp[b],
                team_vp=dict(state.team_vp),
                teams={p: [m.card for m in state.models if m.owner == p] for p in state.seats})
            state.gates = {state.player_a: 0, state.player_b: 1}
            state.phase = "deploy"
            state.deploy_turn = state.player_a
