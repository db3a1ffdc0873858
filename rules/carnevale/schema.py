"""What a stored Carnevale record is checked and converted against: today's schema numbers, and the
tags the rules store where schema 1 stored English words.

Kept apart, below `state`, `campaign`, `mechanics` and `squad`, so that `stored` (which those load
through) can convert an older record without importing any of them back.
"""

# GameState.schema. 2: a Fear test's Morale reason is the tag FEAR (its X the test's modifier), a
# squad the rules built has no name but who built it (`PlayerState.squad_built_by`);
# `stored.game_state` reads schema 1.
SCHEMA_VERSION = 2
# CampaignRecord.schema, see there.
RECORD_SCHEMA = 3

# The Morale reason of a Fear test (digest §2.10); its X is the test's modifier, kept beside it.
FEAR = "fear"
# who built a squad nobody named: the sample builder, the bot (its name is `terms.<built_by>_squad`)
SAMPLE, BAUTA = "sample", "bauta"
