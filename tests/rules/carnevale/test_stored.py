"""Games and campaigns stored by an older main load as today's and play on (rules/carnevale/stored.py).

The files in `data/` were written by main at 83f1ea9 (`ENGINE.dump_state`, `CampaignRecord.to_dict`),
before the rules stopped formatting words: a Fear test's Morale reason was "Fear (-1)", a sample
squad was named "The Guild (sample)" and the bot's "The Rashaar (Bauta)", and an adventure recorded
without a name was kept as "Adventure 1".

- `fear-due-main-83f1ea9.json`: house rule fear_timing after_attack; the Capodecime (a1, given Fear
  −1) attacked the bot's Citizen of Venice (b8) and fumbled: its Fear test waits in `morale_due`
  behind the Citizen's Attack of Opportunity. P1 "111" fields a sample squad, P2 "222" the bot's.
- `fear-reroll-main-83f1ea9.json`: the same squads; the Magi-Rashaar's (b1) Fear test has opened its
  reroll window (the test's context in `sub`).
- `campaign-main-83f1ea9.json`: a schema-1 record (two adventures, the first unnamed) that took one
  ledger entry (a spend) under today's main, so it is schema 2 and its entry's copy is schema 1.
"""
import json
from pathlib import Path

import pytest

from i18n.present import Presenter
from renderers import carnevale as R
from rules.carnevale import ENGINE, CampaignRecord, ledger
from rules.carnevale.state import GameState
from rules.common import PUBLIC, Actor, Choose

from .helpers import kinds, rolls

DATA = Path(__file__).parent / "data"
P1, P2 = "111", "222"
NAMES = {P1: "Ann", P2: "Bauta"}


def stored(name: str) -> dict:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def decline(state):
    prompt = ENGINE.pending(state)[0]
    assert (prompt.kind, prompt.player, prompt.args) == ("opportunity", P2, {"model": "Citizen of Venice",
                                                                           "target": "Capodecime"})
    return ENGINE.apply(state, Choose(prompt.id, ("decline",)), Actor(P2))


def test_a_state_stored_mid_fear_loads_as_today_and_leaves_the_stored_dict_as_it_was():
    data = stored("fear-due-main-83f1ea9.json")
    assert data["schema"] == 1 and data["morale_due"][0]["reason"] == "Fear (-1)"
    kept = json.dumps(data, sort_keys=True)
    state = ENGINE.load_state(data)
    assert json.dumps(data, sort_keys=True) == kept           # the store diffs against what it read
    assert state.schema == 2
    assert state.morale_due == [{"kind": "single", "models": ["b8"], "modifier": -1, "reason": "fear"}]
    assert [(p.squad, p.faction, p.squad_built_by) for p in state.players.values()] == [
        ("", "The Guild", "sample"), ("", "The Rashaar", "bauta")]
    again = ENGINE.dump_state(state)
    assert "Fear (" not in json.dumps(again) and "(sample)" not in json.dumps(again)
    assert ENGINE.dump_state(ENGINE.load_state(again)) == again          # today's schema: read as it is


@pytest.mark.parametrize("lang, said", [
    ("en", "Citizen of Venice: Morale (Fear (-1)) — 3 −1 modifier = 2d10 → [3] 9 vs 7: 1 Ace"),
    ("it", "Citizen of Venice: tiro di Morale (Paura (-1)) — 3 −1 modificatore = 2d10 → [3] 9 contro 7: 1 Successo"),
    ("es", "Citizen of Venice: Moral (Miedo (-1)) — 3 −1 modificador = 2d10 → [3] 9 contra 7: 1 Éxito")])
def test_a_state_stored_mid_fear_plays_on_its_fear_test_as_main_did(lang, said):
    """Declining the Attack of Opportunity lets the waiting Fear test roll: the same dice, worded as
    main worded them, with no fallback."""
    out = decline(ENGINE.load_state(stored("fear-due-main-83f1ea9.json")))
    assert kinds(out.events) == ["opportunity_declined", "roll", "morale_pass"]
    roll = rolls(out.events)[0]
    assert roll["what"] == {"term": "roll_morale", "why": {"term": "morale_fear", "x": -1}}
    assert (roll["model"], roll["dice"], roll["aces"]) == ("b8", [3, 9], 1)
    say = Presenter(lang, "carnevale", names=NAMES)
    assert say.event(out.events[1], plain=True) == said
    assert say.fallbacks == 0, say.counts
    assert [(p.kind, p.args) for p in ENGINE.pending(out.state)] == [("action", {"model": "Capodecime", "ap": 2})]
    assert out.state.morale_due == [] and out.state.schema == 2


def test_a_state_stored_in_a_fear_tests_reroll_window_plays_on():
    data = stored("fear-reroll-main-83f1ea9.json")
    assert data["sub"]["ctx"]["reason"] == "Fear (-1)"
    state = ENGINE.load_state(data)
    assert (state.sub["ctx"]["reason"], state.sub["ctx"]["modifier"]) == ("fear", -1)
    prompt = ENGINE.pending(state)[0]
    assert (prompt.kind, prompt.player, [o.id for o in prompt.options]) == ("reroll_own", P2, ["keep", "dice"])
    out = ENGINE.apply(state, Choose(prompt.id, ("dice",)), Actor(P2))
    # the reroll stands, the Magi-Rashaar holds, and the attack Fear held goes on (as on main)
    assert kinds(out.events) == ["roll", "morale_pass", "roll", "reroll_window"]
    assert [(r["label"], r["dice"]) for r in rolls(out.events)] == [("roll_reroll_dice", [8, 10, 5, 3, 7]),
                                                                    ("roll_combat", [6, 2, 5, 3])]


def test_a_fear_test_made_today_keeps_its_reason_as_data():
    """Its reason is the tag, its X the test's modifier: no words in the state, read back as stored."""
    from rules.carnevale import actions as A

    from .helpers import script
    from .test_reactions import base, give
    s = base(P1, "Citizen of Venice")
    give(s, "a2", "Fear", -1)
    give(s, "b2", "Reroll Dice", 1)
    s = ENGINE.apply(s, A.Activate("a2"), Actor(P1)).state
    script(s, 5, 3, 2)                                  # the Fear test: no Ace, a reroll window
    s = ENGINE.apply(s, A.Attack("a2", "b2"), Actor(P1)).state
    ctx = s.sub["ctx"]
    assert (ctx["type"], ctx["reason"], ctx["modifier"]) == ("morale", "fear", -1)
    assert GameState.from_dict(ENGINE.dump_state(s)).sub["ctx"] == ctx


# ------------------------------------------------------------------ the squads the rules built
@pytest.mark.parametrize("lang, sample, bot", [("en", "Ann — sample squad (The Guild)", "Bauta — Bauta's squad (The Rashaar)"),
                                               ("it", "Ann — squadra d'esempio (The Guild)",
                                                "Bauta — squadra di Bauta (The Rashaar)"),
                                               ("es", "Ann — banda de ejemplo (The Guild)",
                                                "Bauta — banda de Bauta (The Rashaar)")])
def test_the_squads_the_rules_built_are_named_in_the_readers_language(lang, sample, bot):
    view = ENGINE.view_for(ENGINE.load_state(stored("fear-due-main-83f1ea9.json")), PUBLIC)
    assert [view["players"][p]["squad"] for p in (P1, P2)] == [{"term": "sample_squad"}, {"term": "bauta_squad"}]
    say = Presenter(lang, "carnevale", names=NAMES)
    words = R.presenter_words(say)
    view["players"][P1]["name"], view["players"][P2]["name"] = NAMES[P1], NAMES[P2]
    assert [R._column(view, p, words)[0] for p in (P1, P2)] == [sample, bot]
    worded = say.counts["catalogue"]
    assert R._column(view, P1, words)[0] == sample and say.counts["catalogue"] == worded     # cached
    assert say.fallbacks == 0, say.counts


def test_a_new_games_sample_and_bot_squads_are_built_not_named():
    from rules.carnevale import build_squad, load_sample_pack
    from rules.common import Rng
    bot = build_squad(load_sample_pack(), 200, "The Rashaar", Rng.from_seed(1))
    assert (bot.name, bot.faction, bot.built_by) == ("", "The Rashaar", "bauta")
    state = ENGINE.new_game([P1, P2], {"factions": {P1: "The Guild"}, "squads": {P2: bot.to_dict()},
                                       "deploy_all": True, "names": NAMES}, seed=1)
    assert [(p.squad, p.squad_built_by) for p in state.players.values()] == [("", "sample"), ("", "bauta")]
    assert R.english("title", name="Ann", squad=ENGINE.view_for(state, PUBLIC)["players"][P1]["squad"],
                     faction="The Guild") == "Ann — sample squad (The Guild)"


def test_a_squad_its_player_named_keeps_its_name_verbatim():
    from rules.carnevale.squad import Squad, SquadMember
    named = Squad("The Guild (sample)", "The Guild", 200, [SquadMember("Capodecime", leader=True)])
    state = ENGINE.new_game([P1, P2], {"factions": {P2: "The Rashaar"}, "squads": {P1: named.to_dict()},
                                       "deploy_all": True}, seed=1)
    view = ENGINE.view_for(state, PUBLIC)
    assert view["players"][P1]["squad"] == "The Guild (sample)" and view["players"][P2]["squad"] == {"term": "sample_squad"}
    # and a stored state of today's schema is never renamed
    assert ENGINE.load_state(ENGINE.dump_state(state)).players[P1].squad == "The Guild (sample)"


# ------------------------------------------------------------------ a campaign record
def test_a_campaign_record_stored_by_main_loads_with_its_unnamed_adventure_unnamed_and_round_trips():
    data = stored("campaign-main-83f1ea9.json")
    assert data["schema"] == 2 and data["adventures"][0]["name"] == "Adventure 1"
    assert data["ledger"][0]["before"]["schema"] == 1
    rec = CampaignRecord.from_dict(data)
    assert rec.schema == 3 and [a.name for a in rec.adventures] == ["", "Unexpected Clash"]
    assert rec.ledger[0].before is not None and [a["name"] for a in rec.ledger[0].before["adventures"]] == [
        "", "Unexpected Clash"]
    again = rec.to_dict()
    assert CampaignRecord.from_dict(again).to_dict() == again
    assert data["adventures"][0]["name"] == "Adventure 1"             # the caller's dict is left as it was
    # the spend taken back: the record as it was, unnamed adventure included
    ledger.undo(rec)
    assert rec.bank == 15 and [a.name for a in rec.adventures] == ["", "Unexpected Clash"] and rec.ledger == []


def test_an_adventure_a_player_named_like_a_number_is_kept_when_it_is_not_its_own():
    data = stored("campaign-main-83f1ea9.json")
    data["adventures"][1]["name"] = "Adventure 1"          # adventure 2, named so by its player
    assert [a.name for a in CampaignRecord.from_dict(data).adventures] == ["", "Adventure 1"]
