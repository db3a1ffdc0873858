-- Optional stand-in: the bot answers an idle player's decision once a reminder went unanswered for
-- another reminder period. The level it plays at (easy, normal, hard); NULL: off (the default).
ALTER TABLE guild_settings ADD COLUMN idle_bot TEXT;
