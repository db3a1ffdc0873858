-- Members seen holding the GM role. Without the privileged members intent Discord lists nobody's
-- roles but an interaction's author, so secret rolls reach the GMs the bot has seen (each one
-- checked again with a member fetch before a DM).
CREATE TABLE known_gms (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    seen_at  TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
