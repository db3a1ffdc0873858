-- Each message an action's publish sent, by its slot: the destination and its order there within
-- that publish ("c<channel>#0", "u<user>#1"). A publish interrupted by a crash is published again
-- by the outbox sweep, which skips the slots already sent, so no message goes out twice. (Numbered
-- 007: 006 is taken by the idle-seat option on another branch.) Rows go once the action's publish
-- has finished (`mark_published`): after that nothing re-publishes it.
CREATE TABLE outbox_sent (
    guild_id   INTEGER NOT NULL,
    game_id    INTEGER NOT NULL,
    seq        INTEGER NOT NULL,
    slot       TEXT    NOT NULL,
    message_id INTEGER,                 -- the message Discord made, when it said
    sent_at    TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq, slot)
);
-- The process that claimed a pending message (a random key; on PostgreSQL it holds an advisory
-- lock on that key while it lives): a claim of a process that died is taken over at once.
ALTER TABLE outbox ADD COLUMN claimed_by INTEGER
