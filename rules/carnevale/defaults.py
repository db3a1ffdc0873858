"""Carnevale for games played over days: the rulebook's default answer to each decision (digest
``carnevale.md``), the events that open a chapter and those that are turning points, and the standing.

A reaction the rules grant is declined; an activation ends; a Turn is passed or held where the rules
allow it. A kind not in ``DEFAULTS`` has no default, because the choice is the game itself or a fact
of the physical table:
- ``deploy`` (§5.2), ``order`` (§5.1 the Initiative winner's choice), ``reinforce`` (§5.2);
- ``target``, ``spell``, ``spell_target``, ``attribute``, ``heal``, ``disengage_from`` (§2.4, §2.11,
  §3.1, §3.2): whom to attack, which spell on whom;
- ``shot_distance``, ``melee_contact``, ``cover``, ``geyser``, ``morale_near`` (§3.1, §3.4, §5.4,
  §2.10): distances, contacts and cover measured on the table (§8.2), which only the player can tell;
- ``evil_eye_fumble`` (§5.4): which Stun the fumble removes.
"""
from __future__ import annotations

from rules.common.defaults import Rule, offered
from rules.common.engine import Standing

from .state import GameState

DEFAULTS: dict[str, Rule] = {
    # §3.2 an Attack of Opportunity is a reaction the model may make: declined
    "opportunity": offered("decline"),
    # §1.9 the enemy leader "may" spend a Command point to cancel a chain activation: allowed
    "chain": offered("allow"),
    # §1.5 rerolls are optional (Karma): the dice stand
    "reroll_own": offered("keep"),
    "reroll_foe": offered("keep"),
    # §2.11 Annulment, §3.2 At the Ready, §3.1 Defensive Combat (Karma), §2.12 Bodyguard: optional
    # reactions, none taken
    "annul": offered("no"),
    "ready_shot": offered("no"),
    "ready_cover": offered("no"),
    "defensive": offered("0"),
    "bodyguard": offered("no"),
    # §3.2 an abandoned enemy chooses its reaction to a disengage: none
    "disengage_reaction": offered("none"),
    # §5.1 a player with fewer unactivated models may pass; with nothing to activate, the Turn is held
    # (a player who must activate a model has no default)
    "turn": offered("pass", "hold"),
    # §2.3 the AP are the model's to spend: the activation ends
    "action": offered("end"),
    # §5.4 Mad Minute, §5.1 End of Round: the one answer, done, go on
    "mad_minute": offered("done"),
    "end_round": offered("go"),
}

# §5.1 a Round opens with its Initiative roll (or a fixed first player)
CHAPTER_KINDS = frozenset({"initiative", "initiative_fixed"})
# §2.6 a model falls, §2.10 it flees, §2.11 a spell's Critical, §5.3 the main objective, §5.9 the
# Fragment taken, a concession
TURNING_KINDS = frozenset({"fallen", "flee", "spell_critical", "objective", "fragment_taken", "concede"})


def standing(state: GameState) -> Standing:
    """§5.3: each player's VP (2 per enemy killed, 1 per own model alive, 5 for the main objective,
    the Agenda's); the higher total wins, equal totals are a draw; a concession loses."""
    scores = {p: int(state.players[p].vp) for p in state.seats if p in state.players}
    if not state.over:
        return Standing(scores=scores, result="unfinished", data={"round": state.round})
    if state.winner:
        return Standing(winners=(state.winner,), scores=scores, result="won", data=dict(state.result))
    return Standing(scores=scores, result="draw", data=dict(state.result))
