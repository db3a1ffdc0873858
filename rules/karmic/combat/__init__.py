"""Compound-action melee combat (digest §2–§4), one module per section of the digest:

- `common`: range words, hand sizes and maneuver caps, engagements, registers, weapons, reach;
- `initiative`: the draws and totals of initiative, and who holds it;
- `resolve`: reveals, hit chains, jokers, totals, damage and effects, the end of the fight;
- `rounds`: the flow: new hands, the declaring order, from one register to the next, resolving them,
  the end of a round and the next one's initiative, and the answers that move it on;
- `setup`: fighters, engagements, a charge or a surprise;
- `legality`: which maneuver may be declared now, and the options offered;
- `declaration`: a maneuver face down in a register, or a hesitation;
- `prompts`: who decides what now, and the answers.

What the engine, the views and the bot player use is named here.
"""
from .common import caps, engagement, hand_size, init_engagement, rng_text
from .declaration import declaration_text, declare
from .legality import options_for, why_illegal
from .prompts import choose, combat_prompts, declare_action
from .resolve import damage_of, decl_mt, end_combat, gm_modifier, hidden_total, maneuver_mod, return_cards
from .rounds import answer_offer
from .setup import setup_combat

__all__ = ["answer_offer", "caps", "choose", "combat_prompts", "damage_of", "decl_mt", "declaration_text", "declare",
           "declare_action", "end_combat", "engagement", "gm_modifier", "hand_size", "hidden_total",
           "init_engagement", "maneuver_mod", "options_for", "return_cards", "rng_text", "setup_combat",
           "why_illegal"]
