-- Everything a guild owns carries guild_id, so purge_guild is one DELETE per table.
CREATE TABLE guild_settings (
    guild_id      INTEGER PRIMARY KEY,
    gm_role_id    INTEGER,
    gm_channel_id INTEGER,
    locale        TEXT,
    updated_at    TEXT NOT NULL
);

CREATE TABLE house_rules (
    guild_id INTEGER NOT NULL,
    system   TEXT    NOT NULL,
    key      TEXT    NOT NULL,
    value    TEXT    NOT NULL,            -- JSON
    PRIMARY KEY (guild_id, system, key)
);

CREATE TABLE games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    system      TEXT    NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'active',   -- active | ended
    seats       TEXT    NOT NULL,                    -- JSON list of player ids
    state       TEXT    NOT NULL,                    -- JSON
    version     INTEGER NOT NULL DEFAULT 0,
    meta        TEXT    NOT NULL DEFAULT '{}',        -- JSON: end votes, board message id, ...
    created_by  INTEGER NOT NULL,
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
);
-- One live game per channel: "/game status" and buttons always know which game is meant.
CREATE UNIQUE INDEX games_one_active_per_channel ON games (guild_id, channel_id) WHERE status = 'active';
CREATE INDEX games_by_guild ON games (guild_id, status);

CREATE TABLE game_actions (
    game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq            INTEGER NOT NULL,
    actor          TEXT    NOT NULL,
    action         TEXT    NOT NULL,                 -- JSON
    events         TEXT    NOT NULL DEFAULT '[]',    -- JSON, with audiences: /hand replays private ones
    state_before   TEXT    NOT NULL,                 -- JSON, for exact undo
    version_before INTEGER NOT NULL,
    undone         INTEGER NOT NULL DEFAULT 0,
    created_at     TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE characters (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER NOT NULL,
    owner_id   INTEGER NOT NULL,
    system     TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    data       TEXT    NOT NULL,                     -- JSON
    created_at TEXT    NOT NULL,
    updated_at TEXT    NOT NULL,
    UNIQUE (guild_id, owner_id, system, name)
);

CREATE TABLE packs (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    system      TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    content     TEXT    NOT NULL,                    -- the YAML as imported
    imported_by INTEGER NOT NULL,
    created_at  TEXT    NOT NULL,
    UNIQUE (guild_id, system, name)
);

CREATE TABLE roll_log (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER,
    user_id    INTEGER NOT NULL,
    expression TEXT    NOT NULL,
    label      TEXT,
    total      REAL    NOT NULL,
    expected   REAL,                                 -- mean for plain dice, else NULL
    variance   REAL,
    secret     INTEGER NOT NULL DEFAULT 0,
    created_at TEXT    NOT NULL
);
CREATE INDEX roll_log_by_user ON roll_log (guild_id, user_id);

-- Discord's "Allow direct messages from server members" is a per-server choice.
CREATE TABLE closed_dms (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    since    TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
