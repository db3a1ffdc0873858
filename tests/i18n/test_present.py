"""The protocol (events, prompts, options, errors as data) and the presenter that words them."""
import re

import pytest

import i18n
from i18n import present
from i18n.present import CATALOGUE, ENGLISH, LEGACY, MISSING, NO_NAME, UNRESOLVED, Presenter
from rules.common import (ANYONE, GM, PUBLIC, Actor, Choose, Event, IllegalAction, NotYourTurn, Option, Prompt,
                          StalePrompt, prompt_id, term)
from rules.common.engine import PROMPT_ID_MAX
from tests.support.duel import Duel, register

register()          # Duel's catalogues (tests/support/i18n) join the presenter's search path

ALICE, BRUNO = "2", "3"
NAMES = {ALICE: "Alice", BRUNO: "Bruno"}


def duel(locale="en", names=NAMES):
    return Presenter(locale, "duel", names=names, seats=[ALICE, BRUNO])


# ---------------------------------------------------------------------------- the protocol
def test_an_event_is_kind_data_and_audience():
    event = Event("play", {"player": ALICE, "card": "7"}, BRUNO)
    assert (event.kind, event.data, event.audience, event.text) == ("play", {"player": "2", "card": "7"}, "3", "")
    assert not event.legacy and not event.public
    assert Event.from_dict(event.to_dict()) == event
    assert Event("x", data={"n": 1}, audience=GM) == Event("x", {"n": 1}, GM)


def test_legacy_events_still_build_every_old_way():
    positional = Event("move", "Orc moves.", BRUNO, {"to": 3})
    assert (positional.text, positional.audience, positional.data) == ("Orc moves.", "3", {"to": 3})
    keywords = Event(kind="move", text="Orc moves.", audience=PUBLIC, data={"to": 3})
    assert keywords.legacy and keywords.public and keywords.data == {"to": 3}
    assert Event("move", "Orc moves.", data={"to": 3}).data == {"to": 3}
    # an event stored before the protocol (kind, text, audience, data) reads back as it was
    assert Event.from_dict({"kind": "move", "text": "Orc moves.", "audience": "public", "data": {}}).text == "Orc moves."
    with pytest.raises(TypeError):
        Event("move", "Orc moves.", text="twice")
    with pytest.raises(TypeError):
        Event("move", {"a": 1}, PUBLIC, {"b": 2})


def test_prompt_ids_are_made_by_the_rules_and_fit_a_custom_id():
    asked = Prompt.ask("play", {"round": 2}, ALICE, [Option.of("7", "card", card="7")], key=(ALICE, 1), private=True)
    assert (asked.id, asked.kind, asked.args, asked.player, asked.private) == ("play.2.1", "play", {"round": 2}, "2", True)
    assert asked.options[0] == Option(id="7", kind="card", args={"card": "7"})
    long = prompt_id("declare_maneuver", "123456789012345678", "register", 3, "page", 2)
    assert re.fullmatch(r"declare_maneuver\.[0-9a-f]{12}", long) and len(long) <= PROMPT_ID_MAX
    assert long == prompt_id("declare_maneuver", "123456789012345678", "register", 3, "page", 2)
    assert long != prompt_id("declare_maneuver", "123456789012345678", "register", 3, "page", 3)
    assert Prompt.from_dict(asked.to_dict()) == asked


def test_legacy_prompts_and_options_keep_their_old_constructors():
    old = Prompt("p-1", ALICE, "Attack or flee?", (Option("a", "Attack"), Option("f", "Flee", "run away")))
    assert old.legacy and old.options[0].legacy and old.options[1].description == "run away"
    assert Option.of("join").kind == "join" and not Option.of("join").legacy


def test_errors_carry_a_code_and_parameters_or_a_legacy_sentence():
    coded = IllegalAction("choose_exactly", n=2)
    assert (coded.code, coded.params, coded.text) == ("choose_exactly", {"n": 2}, "")
    assert str(coded) == "choose_exactly(n=2)"
    legacy = IllegalAction("You cannot do that.")
    assert (legacy.code, legacy.text, str(legacy)) == ("", "You cannot do that.", "You cannot do that.")
    assert IllegalAction("no_card_left").code == "no_card_left"


def test_the_engine_contract_raises_codes_named_after_its_game():
    engine = Duel()
    state = engine.new_game([ALICE, BRUNO], seed=3)
    with pytest.raises(NotYourTurn) as refused:
        engine.apply(state, Choose("start", ("me",)), Actor(BRUNO))
    assert (refused.value.code, refused.value.system) == ("not_your_choice", "duel")
    with pytest.raises(IllegalAction) as two:
        engine.apply(state, Choose("start", ("me", "you")), Actor(ALICE))
    assert (two.value.code, two.value.params) == ("choose_exactly", {"n": 1})
    with pytest.raises(IllegalAction) as nope:
        engine.apply(state, Choose("start", ("later",)), Actor(ALICE))
    assert (nope.value.code, nope.value.params) == ("not_a_choice", {"option": "later"})
    with pytest.raises(StalePrompt) as stale:
        engine.prompt(state, "play.2.0")
    assert (stale.value.code, stale.value.system) == ("stale_prompt", "duel")
    with pytest.raises(IllegalAction) as seats:
        engine.new_game([ALICE])
    assert (seats.value.code, seats.value.params, seats.value.system) == ("two_players", {"seats": 1}, "duel")


def test_the_engine_contract_keeps_its_english_words():
    say = Presenter("en-US", "duel")
    assert say.error(StalePrompt("stale_prompt")) == "That choice has already been made, or the game has moved on."
    assert say.error(NotYourTurn("not_your_choice")) == "That choice is not yours to make."
    assert say.error(IllegalAction("choose_exactly", n=1)) == "Choose exactly 1."
    assert say.error(IllegalAction("choose_between", min=1, max=3)) == "Choose between 1 and 3."
    assert say.error(IllegalAction("same_choice_twice")) == "The same choice was given twice."
    assert say.error(IllegalAction("game_over")) == "This game is over."
    assert say.error(IllegalAction("unknown_action", action="fly")) == "Unknown action 'fly'."
    assert say.fallbacks == 0 and say.counts[CATALOGUE] == 7


# ---------------------------------------------------------------------------- the presenter
@pytest.mark.parametrize("locale, expected", [
    ("en-US", "en"), ("en-GB", "en"), ("it", "it"), ("es-ES", "es"), ("es-419", "es"), ("fr", "en"), (None, "en"),
])
def test_discord_locales_map_to_the_three_languages(locale, expected):
    assert present.language(locale) == expected


@pytest.mark.parametrize("locale, first, play, draw, label, question", [
    ("en-US", "<@2> plays first.", "<@3> plays 11.", "You draw the 4.", "Card 12", "Who plays first?"),
    ("it", "Inizia <@2>.", "<@3> gioca il 11.", "Peschi il 4.", "Carta 12", "Chi gioca per primo?"),
    ("es-419", "Empieza <@2>.", "<@3> juega el 11.", "Robas el 4.", "Carta 12", "¿Quién juega primero?"),
])
def test_duel_in_three_languages(locale, first, play, draw, label, question):
    say = duel(locale)
    assert say.event(Event("first", {"player": ALICE})) == first
    assert say.event(Event("play", {"player": BRUNO, "card": "11"})) == play
    assert say.event(Event("draw", {"card": "4"}, BRUNO)) == draw
    assert say.option(Option.of("12", "card", card="12")) == label
    assert say.prompt(Prompt.ask("start", {}, ALICE, [])) == question
    assert say.fallbacks == 0 and say.counts[CATALOGUE] == 5


def test_messages_mention_players_and_labels_name_them():
    say = duel("en")
    event = Event("concede", {"player": BRUNO, "winner_player": ALICE})
    assert say.event(event) == "<@3> concedes."
    assert say.event(event, plain=True) == "Bruno concedes."
    assert say.text("events.peek", player=ALICE, cards=["3", "9"]) == "(GM) <@2> holds 3, 9."
    assert say.text("events.peek", plain=True, player=GM, cards=[]) == "(GM) GM holds nobody."
    assert say.player(ANYONE) == "anyone at the table"


def test_a_player_without_a_display_name_is_never_shown_as_an_id():
    say = duel("en", names={})
    assert say.text("options.card", plain=True, card="x") == "Card x"
    assert say.event(Event("first", {"player": BRUNO}), plain=True) == "Player 2 plays first."
    assert say.player("999", plain=True) == "a player"
    assert say.counts[NO_NAME] == 2


def test_gaps_are_visible_and_counted():
    say = duel("en")
    with present.watch() as notes:
        assert say.event(Event("teleport", {"player": ALICE})) == "events.teleport"
        assert say.text("events.play", player=ALICE) == "<@2> plays {card}."
        assert say.event(Event("move", "Orc moves.")) == "Orc moves."
        assert say.option(Option("a", "Attack")) == "Attack"
        assert say.error(IllegalAction("You cannot.")) == "You cannot."
    assert [(n.source, n.key) for n in notes if n.fallback] == [
        (MISSING, "events.teleport"), (UNRESOLVED, "events.play.{card}"), (LEGACY, "events.move"),
        (LEGACY, "options.a"), (LEGACY, "errors.IllegalAction")]
    assert say.counts[MISSING] == 1 and say.counts[UNRESOLVED] == 1 and say.counts[LEGACY] == 3
    assert present.HOOKS == []


@pytest.fixture
def probe(tmp_path):
    """A game catalogue complete in English, partial in Italian."""
    (tmp_path / "en.probe.yaml").write_text(
        'events:\n  found: "{player} finds the {thing}."\n  lost: "{player} loses it."\n'
        'terms:\n  mask: "Bauta mask"\n  key: "key"\n', encoding="utf-8")
    (tmp_path / "it.probe.yaml").write_text(
        'events:\n  found: "{player} trova la {thing}."\nterms:\n  mask: "maschera Bauta"\n', encoding="utf-8")
    present.add_catalogues(tmp_path)
    return "probe"


def test_a_key_missing_in_the_readers_language_falls_back_to_english_and_says_so(probe):
    say = Presenter("it", probe)
    with present.watch() as notes:
        assert say.event(Event("lost", {"player": ALICE})) == "<@2> loses it."
    assert [(n.source, n.key, n.language) for n in notes] == [(ENGLISH, "events.lost", "en")]
    assert say.fallbacks == 1


def test_terms_are_words_of_the_game_in_the_readers_language(probe):
    found = Event("found", {"player": ALICE, "thing": term("mask")})
    assert Presenter("it", probe).event(found) == "<@2> trova la maschera Bauta."
    assert Presenter("en", probe).event(found) == "<@2> finds the Bauta mask."
    say = Presenter("it", probe)
    assert say.event(Event("found", {"player": ALICE, "thing": term("key")})) == "<@2> trova la key."
    assert say.counts[ENGLISH] == 1


def test_game_catalogue_sections_stay_out_of_t():
    assert "events.play" not in i18n.catalogue("en")
    assert i18n.t("game.done") == "✓ Done."


def test_a_whole_duel_in_italian_comes_from_the_catalogue():
    engine, say = Duel(), duel("it")
    state = engine.new_game([ALICE, BRUNO], seed=11)
    texts = []
    with present.watch() as notes:
        while not engine.is_over(state):
            prompt = engine.pending(state)[0]
            texts.append(say.prompt(prompt))
            texts += [say.option(o) for o in prompt.options]
            outcome = engine.apply(state, Choose(prompt.id, (prompt.options[0].id,)), Actor(prompt.player))
            texts += say.events(outcome.events)
            state = outcome.state
    assert notes and all(n.source == CATALOGUE and n.language == "it" for n in notes)
    assert "Chi gioca per primo?" in texts and any(t.startswith("Punteggio finale ") for t in texts)
    assert not any("{" in t or t.startswith(("events.", "prompts.", "options.")) for t in texts)


@pytest.mark.parametrize("language", ["it", "es"])
def test_the_common_catalogue_is_complete_in_every_language(language):
    import string

    import yaml

    def flat(name):
        return i18n._flatten(yaml.safe_load((present.HERE / name).read_text(encoding="utf-8")))

    def fields(text):
        return {f for _, f, _, _ in string.Formatter().parse(text) if f}

    english, other = flat("en.common.yaml"), flat(f"{language}.common.yaml")
    assert sorted(set(english) ^ set(other)) == []
    assert {k: fields(v) for k, v in english.items()} == {k: fields(v) for k, v in other.items()}


def test_t_reports_where_its_words_came_from():
    with present.watch() as notes:
        assert i18n.t("game.done", "en-GB") == "✓ Done."
        assert i18n.t("no.such.key", "it") == "no.such.key"
        assert i18n.t("common.errors.game_over", "it") == "Questa partita è finita."
    assert [(n.source, n.key, n.language) for n in notes] == [
        (CATALOGUE, "game.done", "en"), (MISSING, "no.such.key", "it"), (CATALOGUE, "common.errors.game_over", "it")]


@pytest.mark.parametrize("lang, count, expected", [
    ("en", 0, "Alice has no card left."), ("en", 1, "Alice has one card left."), ("en", 3, "Alice has 3 cards left."),
    ("it", 0, "Alice non ha più carte."), ("it", 1, "A Alice resta una carta."), ("it", 2, "A Alice restano 2 carte."),
    # Spanish words "none" as its plural: no zero form, and no fall back to the English one
    ("es", 0, "A Alice le quedan 0 cartas."), ("es", 1, "A Alice le queda una carta."),
])
def test_plural_forms_are_chosen_by_the_count_in_each_language(lang, count, expected):
    say = Presenter(lang, "duel", names={ALICE: "Alice"}, seats=[ALICE, BRUNO])
    with present.watch() as notes:
        assert say.text("events.cards_left", player=ALICE, count=count, plain=True) == expected
    assert {n.source for n in notes} == {"catalogue"}
