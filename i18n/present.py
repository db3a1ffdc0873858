"""The presenter: the words of one game, for one reader, in one language.

Engines speak data (`rules/common/engine.py`): an `Event` is a kind and its data, a `Prompt` a
kind and its args, an `Option` an id with the kind and args of its label, a `BautaError` a code
and its parameters. A `Presenter` turns each into text from YAML catalogues:

- `i18n/<lang>.<game>.yaml`, sections `events.*`, `prompts.*`, `options.*`, `errors.*`,
  `terms.*` (the game's vocabulary) and `words.*`, for the game's own keys;
- `i18n/<lang>.common.yaml`, section `common.*` (same sub-sections), for what every game shares:
  the engine contract's errors, the lobby, the framework's own events, the words for GM or "anyone".

A key is looked up in the game's catalogue, then as `common.<key>`, then as the key itself in
`i18n.t()`'s catalogue (the framework's own `errors.*`), first in the reader's language, then in
English. Players in the data (keys `player`, `players`, `*_player`, `*_players`) become
mentions (`<@id>`) in messages, and display names in plain text (button labels, select options,
images), since Discord does not render mentions there; `term(key)` values become `terms.<key>`.

Agreement: Italian and Spanish adjectives and participles agree with their subject's grammatical
gender. A template writes the masculine and the feminine form after the subject's parameter,
`"{name} è {name:Stordito|Stordita}."`: the feminine one when `name` is feminine, else the
masculine one (the default, also for a player or a name nobody gendered). A list parameter is
feminine only when every item is, so a mixed group takes the masculine plural
(`"{names} sono {names:Storditi|Stordite}"`), and a count still picks the plural form of the key.
A word's gender is a fact of the language, so it lives in each language's game catalogue,
`genders: {Harlot: f, Guardia: f}`, keyed by the name as that reader reads it (a pack's name as it
is, a translated term or pack word as translated). A table adds its own names, which come before
the catalogues: `Presenter(genders={"Lucia": "f", "Guardia": {"it": "f", "es": "m"}})`, a gender
for every language or one per language (a language it does not name asks the catalogues); the
framework passes the game's `meta["genders"]` (a Karmic sheet's `gender`; a Carnevale model a
player named, which agrees as its profile does). A cog's own sentence (`t()`) agrees with such a
name through `say.agreeing(name, like=profile)`. A term inside a sentence reads the sentence's
parameters too, so its words can agree with the sentence's subject.

Every string made is reported to `i18n.HOOKS` (`watch()`), as `i18n.t()` reports its own, with
where it came from: `catalogue`, `english` (the reader's language lacks the key), `legacy` (an
unconverted engine's English text), `missing` (no catalogue has the key: the key itself is shown),
`unresolved` (a placeholder the data did not fill: shown as `{name}`) and `no_name` (a player with
no display name known). Everything but `catalogue` is a fallback, counted in `Presenter.counts` too,
so a test can demand zero of them.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any


from rules.common import ANYONE, GM, BautaError, Event, Option, PackError, Prompt

from . import (CATALOGUE, DEFAULT, ENGLISH, FALLBACKS, HERE, HOOKS, LEGACY, MISSING, NO_NAME, PROTOCOL_SECTIONS,
               SUPPORTED, UNRESOLVED, Agreeing, Note, _flatten, catalogue, genders, read_yaml, report, t, watch)
from . import problems
from . import supported as language

__all__ = ["CATALOGUE", "ENGLISH", "FALLBACKS", "HOOKS", "LEGACY", "MISSING", "NO_NAME", "SUPPORTED", "UNRESOLVED",
           "Note", "Presenter", "add_catalogues", "is_player_key", "language", "watch"]

_PLAIN = frozenset({str, int, float, bool, type(None)})
# a sentence's parameters a term inside it does not take: text()'s own arguments
_NOT_INHERITED = frozenset({"key", "plain", "game"})

# The presenter of whoever will read the picture being drawn now: the framework sets it around a
# system's `prompt_image(view, prompt)` (whose signature predates languages), so the words inside a
# prompt's image are in its reader's language. None: draw in English.
READER: ContextVar[Presenter | None] = ContextVar("bauta_reader", default=None)


def is_player_key(key: str) -> bool:
    return key in ("player", "players") or key.endswith(("_player", "_players"))


# ---------------------------------------------------------------------------- catalogues
_DIRECTORIES: list[Path] = [HERE]


def add_catalogues(directory: Path | str) -> None:
    """Also read game catalogues from `directory` (a test engine keeps its own beside it)."""
    path = Path(directory)
    if path not in _DIRECTORIES:
        _DIRECTORIES.append(path)
        game_words.cache_clear()


@cache
def game_words(lang: str, game: str) -> dict[str, str]:
    """One game's protocol words (events, prompts, options, errors, terms, words) in one language,
    flattened to dotted keys; read once. For a cog that must match what a player typed against them."""
    flat: dict[str, str] = {}
    for directory in _DIRECTORIES:
        path = directory / f"{lang}.{game}.yaml"
        if path.is_file():
            tree = read_yaml(path)
            flat.update(_flatten({k: v for k, v in tree.items() if k in PROTOCOL_SECTIONS}))
    return flat


def preload() -> None:
    """Read every catalogue now (at start-up), not on the first message a player waits for."""
    for lang in SUPPORTED:
        catalogue(lang)
        for directory in _DIRECTORIES:
            for path in directory.glob(f"{lang}.*.yaml"):
                game_words(lang, path.name.split(".")[1])


class _Params:
    """Format parameters, each rendered when the template asks for it (so an unused player costs
    nothing and reports nothing); a missing one shows as `{name}` instead of raising."""

    def __init__(self, values: Mapping[str, Any], render: Callable[[str, Any], Any], missing: list[str],
                 feminine: Callable[[str, Any, str], bool] | None = None):
        self.values, self.render, self.missing, self.feminine = values, render, missing, feminine

    def __getitem__(self, key: str) -> Any:
        if key in self.values:
            value = self.values[key]
            text = self.render(key, value)
            if self.feminine is not None and isinstance(text, str):
                feminine = self.feminine
                return Agreeing(text, lambda: feminine(key, value, text))
            return text
        self.missing.append(key)
        return _Placeholder(key)


class _Placeholder:
    def __init__(self, name: str):
        self.name = name

    def __format__(self, spec: str) -> str:
        return "{" + self.name + "}"


# ---------------------------------------------------------------------------- the presenter
class Presenter:
    """Text for one reader in one language. `names` maps player ids to display names (for plain
    text); `seats` lets a player without a known name still be told apart ("Player 2")."""

    def __init__(self, locale: Any = None, game: str | None = None, names: Mapping[str, str] | None = None,
                 seats: Iterable[str] = (), genders: Mapping[str, str | Mapping[str, str]] | None = None,
                 clocks: Mapping[str, Mapping[str, Any]] | None = None):
        self.language = language(locale)
        # the turn clock's deadlines, by prompt id ({"d": epoch, "a": away until}: cogs/host/clock.py)
        self.clocks = clocks or {}
        self.game = game
        self.names = dict(names or {})
        self.seats = list(seats)
        # a table's own names, before the catalogues: {"Lucia": "f"}, or per language {"Guardia": {"it": "f"}}
        self.genders = dict(genders or {})
        self.counts: Counter[str] = Counter()

    @property
    def fallbacks(self) -> int:
        return sum(n for source, n in self.counts.items() if source in FALLBACKS)

    # ---- the protocol's values
    def event(self, event: Event | Mapping[str, Any], *, plain: bool = False) -> str:
        """An event as a sentence; a stored event (a dict from the game log) works too."""
        if isinstance(event, Mapping):
            event = Event.from_dict(dict(event))
        if event.legacy:
            return self._legacy(f"events.{event.kind}", event.text)
        return self.text(f"events.{event.kind}", plain=plain, **event.data)

    def events(self, events: Iterable[Event | Mapping[str, Any]], *, plain: bool = False) -> list[str]:
        return [text for text in (self.event(e, plain=plain) for e in events) if text]

    def prompt(self, prompt: Prompt, *, plain: bool = False) -> str:
        """A decision's question; with its deadline under it when it has one (not in `plain` text):
        Discord timestamps, which every reader's client shows in their own zone and language."""
        if prompt.legacy:
            asked = self._legacy(f"prompts.{prompt.id}", prompt.text)
        else:
            asked = self.text(f"prompts.{prompt.kind}", plain=plain, **prompt.args)
        clock = self.clocks.get(prompt.id)
        if plain or not clock:
            return asked
        lines = [asked]
        if clock.get("a"):
            lines.append(self.common("clock.away", player=self.player(str(clock.get("u", ""))),
                                     when=f"<t:{clock['a']}:f>"))
        if clock.get("d") and clock.get("p"):
            lines.append(self.common("clock.stopped"))
        elif clock.get("d"):
            lines.append(self.common("clock.due", relative=f"<t:{clock['d']}:R>", when=f"<t:{clock['d']}:f>"))
        return "\n".join(lines)

    def common(self, key: str, **params: Any) -> str:
        """A sentence of the common catalogue (not a game's), in this reader's language."""
        return t(key, self.language, **params)

    def option(self, option: Option) -> str:
        """A button label or select option: plain text, players by display name."""
        if option.legacy:
            return self._legacy(f"options.{option.id}", option.label)
        return self.text(f"options.{option.kind}", plain=True, **option.args)

    def option_detail(self, option: Option) -> str:
        if option.legacy:
            return self._legacy(f"options.{option.id}", option.description) if option.description else ""
        return self.text(f"options.{option.detail}", plain=True, **option.args) if option.detail else ""

    def error(self, error: BaseException) -> str:
        """The sentence for an error the rules (or a cog) raised."""
        if not isinstance(error, BautaError):
            return str(error)
        if isinstance(error, PackError) and error.problems:      # a refused file: its list of problems
            return problems.refusal(self, error)
        if not error.code:
            return self._legacy(f"errors.{type(error).__name__}", error.text)
        return self.text(f"errors.{error.code}", game=error.system or self.game, **error.params)

    def value(self, data: Any, *, plain: bool = False) -> Any:
        """One piece of data worded as it would be as an event's parameter (a term with its own
        parameters, a content pack's words): for a cog that shows a rule's value outside an event."""
        return self._value("", data, plain)

    def player(self, player: str, *, plain: bool = False) -> str:
        """A mention in a message; a display name in plain text."""
        if player == GM:
            return self.text("words.gm")
        if player == ANYONE:
            return self.text("words.anyone")
        if not plain and player.isdigit():
            return f"<@{player}>"
        if self.names.get(player):
            return self.names[player]
        if not player.isdigit():
            return player                      # a name already (an NPC, a test seat)
        self._note(NO_NAME, f"names.{player}", "")
        if player in self.seats:
            return self.text("words.seat", n=self.seats.index(player) + 1)
        return self.text("words.someone")

    # ---- any catalogue key
    def for_game(self, game: str | None) -> Presenter:
        """This reader, in the words of `game` (itself when it is this presenter's game)."""
        return self if game == self.game else Presenter(self.language, game, self.names, self.seats)

    def text(self, key: str, *, plain: bool = False, game: str | None = None, **params: Any) -> str:
        """`key` from the catalogues, filled with `params` (players, terms and lists rendered)."""
        game = game or self.game
        template, source, lang = self._lookup(key, game)
        if template is None and ("count" in params or "n" in params):
            template, source, lang = self._plural(key, game, params.get("count", params.get("n")))
        if template is None:
            self._note(MISSING, key, key, game)
            return key
        missing: list[str] = []
        # only a template with a `masculine|feminine` choice asks its parameters' genders
        agree = (lambda name, value, text: self._feminine(name, value, text, game)) if "|" in template else None
        values = _Params(params, lambda name, value: self._value(name, value, plain, params), missing, agree)
        try:
            text = template.format_map(values)
        except (AttributeError, IndexError, KeyError, TypeError, ValueError):
            missing.append("?")
            text = template
        self._note(source, key, text, game, lang)
        for name in missing:
            self._note(UNRESOLVED, f"{key}.{{{name}}}", text, game, lang)
        return text

    def gender(self, word: str, game: str | None = None) -> str:
        """`f` or `m`: the grammatical gender of a name or word as this reader reads it (masculine
        unless the table or the language's catalogue says otherwise)."""
        own = self.genders.get(word)
        if isinstance(own, Mapping):           # a name whose gender is not the same in every language
            own = own.get(self.language)
        if own:
            return str(own)
        game = game or self.game
        found = game_words(self.language, game).get(f"genders.{word}") if game else None
        return found or genders(self.language).get(word) or "m"

    def agreeing(self, text: str, like: str | None = None) -> Agreeing:
        """`text` as a parameter of `i18n.t()` agreeing in the gender `like` (default: `text`
        itself) has for this reader, the table's own names included (`t()` alone knows only the
        catalogues'): `say.agreeing("Lucrezia", like="Harlot")`, a model a player named."""
        word = text if like is None else like
        return Agreeing(text, lambda: self.gender(word) == "f")

    # ---- inside
    def _feminine(self, name: str, value: Any, text: str, game: str | None) -> bool:
        """Whether a parameter's words agree in the feminine: a list only when all its items do."""
        if isinstance(value, (list, tuple)):
            return bool(value) and all(self._feminine(name, item, str(self._value("", item, True)), game)
                                       for item in value)
        if is_player_key(name):            # a mention's gender is its display name's
            text = self.player(str(value), plain=True)
        return self.gender(text, game) == "f"

    def _plural(self, key: str, game: str | None, count: Any) -> tuple[str | None, str, str]:
        """A catalogue entry with plural forms (`key.zero`, `key.one`, `key.other`), chosen by the
        `count` (or `n`) parameter as English, Italian and Spanish count: `one` for 1, `other` for
        the rest; `zero`, where a language words "none" apart, for 0. Only `other` falls back to
        English: a language without the `zero` or `one` form uses its own `other`."""
        forms = ["zero", "other"] if count == 0 else ["one", "other"] if count == 1 else ["other"]
        for form in forms[:-1]:
            found, source, lang = self._lookup(f"{key}.{form}", game)
            if found is not None and source == CATALOGUE:
                return found, CATALOGUE, lang
        return self._lookup(f"{key}.{forms[-1]}", game)

    def _lookup(self, key: str, game: str | None) -> tuple[str | None, str, str]:
        languages = [(self.language, CATALOGUE)] + ([(DEFAULT, ENGLISH)] if self.language != DEFAULT else [])
        for lang, source in languages:
            if game:
                found = game_words(lang, game).get(key)
                if found is not None:
                    return found, source, lang
            # common.<key>, then the key itself: the framework's errors are t()'s `errors.*`
            found = catalogue(lang).get(f"common.{key}") or catalogue(lang).get(key)
            if found is not None:
                return found, source, lang
        return None, MISSING, self.language

    def _value(self, name: str, value: Any, plain: bool, outer: Mapping[str, Any] | None = None) -> Any:
        if is_player_key(name):
            if isinstance(value, (list, tuple)):
                return self._join([self.player(str(p), plain=plain) for p in value])
            return self.player(str(value), plain=plain) if value is not None else self.text("words.nobody")
        if type(value) in _PLAIN:        # most parameters: a number or a name, as they are
            return value
        if isinstance(value, Mapping) and "term" in value:
            # a term may carry its own parameters ({"term": "card", "card": "5♠", "value": 5}); it also
            # reads its sentence's, so its words can agree with the sentence's subject ("conta come
            # {name:Caduto|Caduta}" inside "{name} {how}.")
            inherited = {k: v for k, v in (outer or {}).items() if k not in _NOT_INHERITED}
            return self.text(f"terms.{value['term']}", plain=plain,
                             **{**inherited, **{k: v for k, v in value.items() if k != "term"}})
        if isinstance(value, Mapping) and "prompt" in value:      # a question, as its reader reads it
            return self.prompt(Prompt.from_dict(value["prompt"]), plain=True)
        if isinstance(value, Mapping) and "option" in value:      # an answer, as its button said it
            return self.option(Option.from_dict(value["option"]))
        if isinstance(value, Mapping) and isinstance(value.get("text"), Mapping):
            # a content pack's own words in several languages (a card's name): the reader's, else English,
            # which counts as a fallback like a catalogue key the reader's language lacks
            texts = value["text"]
            if texts.get(self.language):
                return texts[self.language]
            text = texts.get(DEFAULT) or next(iter(texts.values()), "")
            self._note(ENGLISH, "pack.words", text)
            return text
        if isinstance(value, (list, tuple)):
            return self._join([str(self._value("", v, plain, outer)) for v in value])
        return value

    def _join(self, items: list[str]) -> str:
        # ", " reads right in all three languages; a catalogue word would cost a lookup per list.
        return ", ".join(items) if items else self.text("words.nobody")

    def _legacy(self, key: str, text: str) -> str:
        self._note(LEGACY, key, text)
        return text

    def _note(self, source: str, key: str, text: str, game: str | None = None, lang: str | None = None) -> None:
        self.counts[source] += 1
        report(source, key, lang or self.language, text, game or self.game)
