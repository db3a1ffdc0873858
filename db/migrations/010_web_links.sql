-- The web companion's links (web/links.py): each `/game web` mints one, signed with the
-- deployment's secret (kept in `meta` under 'web_secret' unless BAUTA_WEB_SECRET is set). The
-- row is what makes a link revocable: a signed link whose row is revoked or gone is refused.
CREATE TABLE web_links (
    id         TEXT    PRIMARY KEY,     -- random, in the signed token
    guild_id   INTEGER NOT NULL,
    game_id    INTEGER NOT NULL,        -- 0: the server's list of games
    user_id    INTEGER NOT NULL,
    role       TEXT    NOT NULL,        -- player | gm | spectator | member
    expires_at INTEGER NOT NULL,        -- unix seconds
    revoked    INTEGER NOT NULL DEFAULT 0,
    created_at TEXT    NOT NULL
);
CREATE INDEX web_links_by_member ON web_links (guild_id, user_id, game_id);
