-- The options a game was set up with (what its cog passed to the engine, without the server's
-- house rules), written once when it is created and read only by a rematch: kept out of the
-- game's meta, which every action reads and writes.
CREATE TABLE game_setup (
    game_id    INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    options    TEXT    NOT NULL,        -- JSON
    created_at TEXT    NOT NULL
);
