"""Carnevale's tables as pure functions (digest §2.7, §3.4, §5.2, §5.4, §5.5, §5.7, ES rowing).

Tables are data; the functions only look things up, so the seeded rolls in the engine and the
tests read the same rows.
"""
from __future__ import annotations

from .dice import PoolResult, refused

# ------------------------------------------------------------------ falling (§2.7)
FALL_TABLE = (  # category, label, damage, penetration (None damage = Fallen in Combat)
    (0, "under 1''", 0, 0),
    (1, "1-4''", 1, 0),
    (2, "over 4 up to 6''", 2, 1),
    (3, "over 6 up to 8''", 4, 2),
    (4, "over 8 up to 10''", 8, 5),
    (5, "over 10''", None, 0),
)


def fall_category(height: float) -> int:
    if height < 1:
        return 0
    if height <= 4:
        return 1
    if height <= 6:
        return 2
    if height <= 8:
        return 3
    if height <= 10:
        return 4
    return 5


def fall_row(category: int) -> tuple[int, str, int | None, int]:
    return FALL_TABLE[max(0, min(5, category))]


# ------------------------------------------------------------------ shooting (§3.4)
COVER_SIZE = {"": 0, "none": 0, "medium": 1, "big": 2}
COVER_HARDNESS = {"": 0, "none": 0, "light": 1, "blunt": 2, "heavy": 3, "heavy+": 4}
HARDNESS_STEPS = ("none", "light", "blunt", "heavy", "heavy+")


def range_penalty(weapon_range: int, distance: float) -> int | None:
    """Dice lost for range: 0 within range, −1 per started 5'' beyond; None beyond 2× range."""
    if weapon_range <= 0:
        return 0
    if distance > 2 * weapon_range:
        return None
    over = distance - weapon_range
    if over <= 0:
        return 0
    return -(int(over // 5) + 1)


def cover_penalty(size: str, hardness: str) -> int:
    """Size and hardness penalties stack (−1/−2 and −1/−2/−3)."""
    try:
        return -(COVER_SIZE[size.lower()] + COVER_HARDNESS[hardness.lower()])
    except KeyError:
        raise refused("cover_kind") from None


def better_hardness(hardness: str, steps: int = 1) -> str:
    h = hardness.lower() or "none"
    i = HARDNESS_STEPS.index(h) if h in HARDNESS_STEPS else 0
    return HARDNESS_STEPS[min(len(HARDNESS_STEPS) - 1, i + steps)]


def shooting_fumble(d10: int, firearm_or_magic: bool = True) -> str:
    """'jam', 'backfire' or 'explosion'. Non-firearms read a 1 as a Backfire."""
    if d10 >= 6:
        return "jam"
    if d10 >= 2:
        return "backfire"
    return "explosion" if firearm_or_magic else "backfire"


# ------------------------------------------------------------------ reinforcements (§5.2)
REINFORCEMENT = {"assault": 0, "flanking": 7, "sneak": 9}


def reinforcement_needed(method: str) -> int:
    try:
        return REINFORCEMENT[method]
    except KeyError:
        raise refused("reinforcement_method") from None


# ------------------------------------------------------------------ rowing (ES)
def row_distance(result: PoolResult) -> int | None:
    """Inches the gondola moves on a Row; None on a Fumble (riders end 1'' in the water)."""
    if result.fumble:
        return None
    if result.critical:
        return 4 + result.aces
    if result.aces > 0:
        return 2 + result.aces
    return 2


# ------------------------------------------------------------------ events (§5.4)
# The digest's tables in its English, as a reference and for the tests: players read the catalogues'
# terms (terms.event_<total>, terms.agenda_<n>, …_text/_condition), never these strings.
EVENTS = {
    2: ("Aqua Alta", "every model −1 MOV on the ground; it ends on a 7+ rolled at an End of Round"),
    3: ("Bad Coordination", "an unactivated enemy model is marked as activated"),
    4: ("Combat Stress", "an enemy model that is not Stunned becomes Stunned"),
    5: ("Adrenaline Boost", "one of your activated models may act again this Round"),
    6: ("Wake Up!", "one of your models loses its Stun"),
    7: ("Reload Weapons!", "one of your firearms is reloaded for free"),
    8: ("Good Cover", "one piece of cover becomes one hardness step better"),
    9: ("Anxiety", "the enemy squad makes a group Morale roll"),
    10: ("Battle Shock", "an enemy model that is no leader or independent makes a Morale roll"),
    11: ("The Geyser", "a marker scatters and attacks everything within 5'' now and at every End of Round"),
    12: ("Miraculous Recovery", "one of your models makes a Healing (6) roll"),
    13: ("Evil Eye", "a Shooting (4) attack on one enemy: 1 LP per Ace"),
    14: ("A Matter of Honor", "one of your models rolls Mind and regains Karma per Ace"),
    15: ("We Will Never Beat Them", "an enemy rolls Mind; with no Ace it loses half its Karma"),
    16: ("Mad Minute", "every loaded firearm of yours fires now"),
    17: ("He's Alive!", "one of your fallen models rolls Healing (4) and may return"),
    18: ("Blend with Shadows", "one of your models far from enemies leaves as a reinforcement"),
    19: ("Charismatic Leader", "your leader regains 1 Command point"),
    20: ("Prestige Loss", "the enemy leader loses 1 Command point"),
}


# ------------------------------------------------------------------ agendas (§5.5)
AGENDAS = {
    1: ("Something Between You and Me", 4, "your Leader personally kills an enemy Leader"),
    2: ("No One Survives", 4, "every enemy model destroyed"),
    3: ("A Beating They'll Never Forget", 3, "half the enemy squad has fallen"),
    4: ("Protect the Position", 3, "a noted piece of scenery held, no enemy within 5''"),
    5: ("Recon Deployment", 3, "a model in each table quadrant"),
    6: ("Bring War to the Land", 3, "two models in the enemy deployment zone"),
    7: ("Make it to the End of the Day", 2, "your Leader is alive"),
    8: ("Overcome at All Costs", 2, "at least half your models alive"),
    9: ("Don't Look Weak", 1, "more living models than the opponent"),
    10: ("They Can't Beat Us!", 4, "all your models alive"),
}
AGENDAS_NEEDING_THE_TABLE = {4, 5, 6}


# ------------------------------------------------------------------ experience (§5.7)
BASIC_TABLE = {
    1: ("attr", "COM", 1), 2: ("attr", "DEX", 1), 3: ("attr", "MIN", 1), 4: ("attr", "MOV", 1),
    5: ("attr", "PRO", 1), 6: ("ability", "Command", 3), 7: ("ability", "Penetration", 1),
    8: ("ability", "Spiritual Protection", 1), 9: ("ability", "Swift", None), 10: ("power", "", None),
}
LEADER_TABLE = {
    1: ("attr", "COM", 2), 2: ("attr", "DEX", 2), 3: ("attr", "MIN", 2), 4: ("attr", "MOV", 2),
    5: ("attr", "PRO", 2), 6: ("command", "Command", 2), 7: ("ability", "Penetration", 2),
    8: ("ability", "Elusive", None), 9: ("ability", "Mighty Blow", 2), 10: ("power", "", None),
}
POWERS = {
    1: ("Fly", None), 2: ("Vampiric Attack", 1), 3: ("Fire Breath", None), 4: ("Spiritual Protection", 3),
    5: ("Spiritual Damage", None), 6: ("Healing", 3), 7: ("Mighty Blow", 2), 8: ("Lightning Bolt", None),
    9: ("Stun", None), 10: ("roll twice", None),
}
FALLEN_TABLE = {
    1: ("dies", None), 2: ("attr", "COM"), 3: ("attr", "DEX"), 4: ("attr", "MIN"), 5: ("attr", "MOV"),
    6: ("attr", "PRO"), 7: ("lose_ability", None), 8: ("lose_item", None), 9: ("maintenance", 10),
    10: ("maintenance", 15),
}


def inches(text: str | float | int) -> float:
    """'4''' or '4"' or 4 → 4.0 (distances are in inches)."""
    if isinstance(text, (int, float)):
        return float(text)
    t = str(text).strip().replace('"', "").replace("''", "").replace("in", "").strip()
    return float(t)


# ------------------------------------------------------------------ the engine's own tables
HOUSE_RULE_CHOICES = {
    "pool_order": ("net_then_clamp", "cap_bonuses_first"),
    "terrain": ("en", "es_ttcombat"),
    "pass_rule": ("fewer_unactivated", "fewer_activated", "none"),
    "second_stun_same_turn": ("ignored", "damage"),
    "fall_protection": ("base_only", "none"),
    "template_damage_roll": ("shared", "each"),
    "fragment_steal_tie": ("bearer_keeps", "reroll"),
    "fear_timing": ("before_attack_roll", "after_attack"),
}

# A reinforcement's first action must be one of these moves from the table edge (digest §5.2).
ENTRY_MOVES = {"walk", "walk_difficult", "run", "jump", "running_jump", "swim", "climb", "hide", "row"}

# House rules that no longer exist, still ignored when a server's stored settings carry them:
# hostage_freed_counts — Rescue of the Prisoner's objective is awarded by the GM (Objective), who
# applies whichever reading the table agreed; no engine rule consulted the key.
RETIRED_HOUSE_RULES = {"hostage_freed_counts"}

REACTIONS = ("reroll", "annul", "disengage", "bodyguard", "defensive", "ready_shot")

MOVE_ACTIONS = {  # action: (AP, needs a Dex roll)
    "walk": (1, False), "walk_difficult": (1, False), "run": (1, True), "jump": (1, False),
    "running_jump": (1, True), "swim": (1, False), "climb": (1, True), "hide": (1, False),
    "rappel": (1, True), "run_on_walls": (1, True), "clear_stun": (1, False), "interact": (1, False),
    "row": (1, True), "at_ready_melee": (1, False), "at_ready_shooting": (1, False), "fix_jam": (2, False),
    "fill_vial": (1, False), "pick_up_fragment": (1, False),
    "reload": (0, False), "drink_infusion": (1, False), "drink_elixir": (2, False), "other": (1, False),
}

MULTI_TARGET_SPELLS = {"kraken", "darkness", "claws", "rashaar_heal"}
