-- The outbox: the messages an action causes, written in the action's own transaction, marked
-- sent once Discord took them. After a crash between the commit and the messages, a sweep
-- delivers what is still pending (each process the guilds of its own shards).
CREATE TABLE outbox (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    game_id       INTEGER NOT NULL,
    seq           INTEGER NOT NULL,                  -- the action (game version) that caused it
    position      INTEGER NOT NULL,                  -- its order among that action's messages
    payload       TEXT    NOT NULL,                  -- JSON, opaque to the store
    status        TEXT    NOT NULL DEFAULT 'pending', -- pending | sent | dropped (its action was undone)
    claimed_until TEXT,                              -- a process delivering it holds it until then
    created_at    TEXT    NOT NULL,
    sent_at       TEXT,
    UNIQUE (game_id, seq, position)
);
CREATE INDEX outbox_pending ON outbox (guild_id, id) WHERE status = 'pending'
