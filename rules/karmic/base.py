"""Helpers shared by the check and combat parts of the engine."""
from __future__ import annotations

import copy

from rules.common import GM, PUBLIC, Event, IllegalAction, Option, Prompt, Rng

from .cards import SUIT_SYMBOL, KarmaDeck, is_face, is_joker, rank, suit, value
from .character import Character, character_from_sheet
from .state import KarmicState
from .tables import skill_word


def load_character(obj, pack: dict | None, owner: str, rng: Rng, where: str) -> Character:
    """A Character from a Character, its to_dict(), a sheet dict, or the name of a pack entry."""
    if isinstance(obj, Character):
        return copy.deepcopy(obj)
    if isinstance(obj, str):
        for group in ("characters", "npcs"):
            for entry in (pack or {}).get(group, []):
                if entry["name"].lower() == obj.lower():
                    return character_from_sheet(entry, pack, owner, rng, where)
        raise IllegalAction("no_pack_character", name=obj[:60])
    if isinstance(obj, dict):
        if "deck" in obj and "hp_marked" in obj and isinstance(obj.get("wielding", []), list) \
                and all(isinstance(i, int) for i in obj.get("wielding", [])):
            return Character.from_dict(obj)
        return character_from_sheet(obj, pack, owner, rng, where)
    raise IllegalAction("not_a_character", where=where)


def deck_of(state: KarmicState, key: str) -> KarmaDeck:
    char = state.characters[key]
    return char.deck if char.deck is not None else state.world


def uses_world(state: KarmicState, key: str) -> bool:
    return state.characters[key].deck is None


def name(state: KarmicState, key: str):
    """A character's name as event data (its forms per language when its pack gives several)."""
    return state.characters[key].shown


def owner_audience(state: KarmicState, key: str) -> str:
    """Who may see this character's secret cards: its player, or the GM for NPCs."""
    ctl = state.controllers.get(key, GM)
    return ctl if ctl != GM else GM


def discard(state: KarmicState, key: str, cards: list[str]) -> None:
    deck = deck_of(state, key)
    deck.discard(list(cards), bool(state.house_rules.get("card_rules_enabled", True)))
    if not state.house_rules.get("card_rules_enabled", True) and not deck.world:
        deck.reshuffle(state.rng)


def draw(state: KarmicState, key: str, n: int, events: list[Event]) -> list[str]:
    deck = deck_of(state, key)
    before = len(deck.discards)
    forced = len(deck.cards) < n and before > 0
    cards = deck.draw(state.rng, n)
    if forced:
        events.append(Event("deck_ran_out", {"name": name(state, key), "who": key, "forced": True},
                            PUBLIC if not deck.world else GM))
    return cards


def card_term(card: str) -> dict:
    """A card as data for the presenter: rank and suit, its value, whether it is a hit card; a
    joker is its own word (the GM rules it)."""
    if is_joker(card):
        return {"term": "card_joker"}
    return {"term": "card_hit" if is_face(card) else "card", "card": f"{rank(card)}{SUIT_SYMBOL[suit(card)]}",
            "value": value(card)}


def cards_term(cards: list[str]) -> list[dict]:
    return [card_term(c) for c in cards]


def skill_term(skill: str, attribute: str = "") -> str | dict:
    """What a check is of: the sheet's own skill name, else the attribute (a word of the game)."""
    if skill:
        return skill_word(skill)
    if attribute:
        return {"term": f"attribute.{attribute}"}
    return {"term": "no_skill"}


def cards_text(cards: list[str]) -> list[dict] | dict:
    """A hand as data: its cards, or the word for none."""
    return cards_term(cards) if cards else {"term": "no_cards"}


def chain(parts: list, joint: str = "then") -> dict:
    """Parts read one after the other (the presenter joins a plain list with commas): `joint` is the
    term that puts two together, `then` with a space, `seq` with nothing (each part brings its own
    punctuation), `plus` with " + "."""
    if not parts:
        return {"term": "nothing"}
    out = parts[-1]
    for part in reversed(parts[:-1]):
        out = {"term": joint, "first": part, "rest": out}
    return out


def next_id(state: KarmicState, prefix: str) -> str:
    return f"{prefix}{state.seq}"


def signed(n: int) -> str:
    return f"{n:+d}"


def offer_prompt(state: KarmicState, key: str, pid: str) -> Prompt:
    deck = state.characters[key].deck
    since = deck.since_shuffle if deck is not None else 0      # offered only for a deck of its own
    return Prompt.ask("offer", {"name": name(state, key), "n": since}, state.controllers.get(key, GM),
                      [Option.of("yes", "reshuffle"), Option.of("no", "not_now")], key=(pid,), private=True)
