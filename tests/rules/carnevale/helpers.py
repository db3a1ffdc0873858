"""Test helpers: a scripted Rng (to fix the faces a roll shows) and game builders."""
from __future__ import annotations

from dataclasses import dataclass, field

from rules.carnevale import ENGINE
from rules.carnevale.squad import Squad, SquadMember
from rules.common import Actor, Rng

P1, P2 = "111", "222"
GM_ACTOR = Actor("gm-user", gm=True)


@dataclass
class FixedRng(Rng):
    """Hands out the scripted d10 faces first, then falls back to the seeded generator."""

    faces: list = field(default_factory=list)

    def die(self, sides: int) -> int:
        if sides == 10 and self.faces:
            return self.faces.pop(0)
        return super().die(sides)


def script(state, *faces):
    state.rng = FixedRng(state=state.rng.state, faces=list(faces))
    return state


def squad(faction, *members, points=300, events=0, campaign=False, name="Test squad"):
    out = []
    for m in members:
        if isinstance(m, SquadMember):
            out.append(m)
        elif isinstance(m, tuple):
            out.append(SquadMember(m[0], **m[1]))
        else:
            out.append(SquadMember(m))
    return Squad(name=name, faction=faction, points_limit=points, members=out, events=events, campaign=campaign)


def game(sq1, sq2, seed=1, pack=None, **opts):
    options = {"squads": {P1: sq1.to_dict(), P2: sq2.to_dict()}, "deploy_all": True, "names": {P1: "Ann", P2: "Bob"}}
    if pack is not None:
        options["pack"] = pack
    options.update(opts)
    return ENGINE.new_game([P1, P2], options, seed=seed)


def apply(state, action, actor):
    out = ENGINE.apply(state, action, actor if isinstance(actor, Actor) else Actor(actor))
    return out.state, out.events


def start(state, first=P1):
    """Answer the order prompt so that `first` activates first."""
    from rules.common import Choose
    winner = state.initiative["winner"]
    choice = "me" if winner == first else "opponent"
    state, _ = apply(state, Choose(f"order-r{state.round}", (choice,)), winner)
    return state


def kinds(events):
    return [e.kind for e in events]


def rolls(events):
    return [e.data for e in events if e.kind == "roll"]


def rolls_of(events, label):
    """The rolls tagged `label` (the key of the term a player reads: roll_combat, roll_morale…)."""
    return [r for r in rolls(events) if r["label"] == label]


def tag(roll):
    """A roll's tag as data: its label and the parameters of what it is for (roll_combat, {difficulty: 5})."""
    what = roll["what"]
    return roll["label"], ({k: v for k, v in what.items() if k != "term"} if isinstance(what, dict) else what)


def said(value) -> str:
    """An event, a refusal, or a term in its data (a roll's pool, a squad's reason), as an
    English-reading player reads it."""
    from i18n.present import Presenter
    from rules.common import BautaError, Event
    say = Presenter("en", "carnevale")
    if isinstance(value, Event):
        return say.event(value)
    if isinstance(value, BautaError):
        return say.error(value)
    return str(say._value("", value, True))


def fighting_game(seed: int):
    """Two squads with spells and reactions (a Bodyguard on each side), two rounds: the seeded
    games random play goes through to meet rerolls, annulments, bodyguards and every reaction."""
    doctors = squad("Doctors of the Ospedale", SquadMember("Plague Doctor", leader=True,
                                                           spells=["Blessing", "Curse", "Infernal Images"]),
                    "Warden", "Nurse", "The Duke", points=250)
    rashaar = squad("The Rashaar", SquadMember("Magi-Rashaar", leader=True,
                                               spells=["Naach-Tith Annulment", "Mother Hidra's Claws"]),
                    "Ugdru-Rashaar", "Hybrid", points=250)
    state = ENGINE.new_game([P1, P2], {"squads": {P1: doctors.to_dict(), P2: rashaar.to_dict()}, "rounds": 2},
                            seed=seed)
    state.models["a2"].abilities.append({"name": "Bodyguard"})
    state.models["b3"].abilities.append({"name": "Bodyguard"})
    return state
