-- The turn clock (clock/hours.py, cogs/host/clock.py).
-- A server's deadline for every pending decision, in minutes (NULL or 0: none), and the days a
-- game may sit idle before it is archived (NULL: 60).
ALTER TABLE guild_settings ADD COLUMN deadline_minutes REAL;
ALTER TABLE guild_settings ADD COLUMN archive_days INTEGER;
-- The old reminder moves onto the clock: "remind after H hours" was one reminder at H and the
-- stand-in after another H, which is a deadline of 2H with its half-time reminder at H.
UPDATE guild_settings SET deadline_minutes = reminder_hours * 120 WHERE reminder_hours > 0;
-- People, not just players: one row per user, across servers (`/profile`; `/profile forget`).
CREATE TABLE profiles (
    user_id       INTEGER PRIMARY KEY,
    timezone      TEXT,                 -- IANA zone
    quiet_from    INTEGER,              -- minutes after local midnight (both NULL: no quiet hours)
    quiet_to      INTEGER,
    away_until    TEXT,
    away_stand_in INTEGER NOT NULL DEFAULT 0,
    muted         TEXT    NOT NULL DEFAULT '[]',   -- game ids (text) whose public pings they mute, or "all"
    language      TEXT,
    updated_at    TEXT    NOT NULL
);
-- Every decision a game awaits from a member, with its clock: `/turns` reads it by user, the
-- scheduler by due time (both indexed). Rewritten by each publish for its game.
CREATE TABLE awaiting (
    game_id     INTEGER NOT NULL,
    prompt_id   TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    private     INTEGER NOT NULL DEFAULT 0,
    asked_at    TEXT    NOT NULL,       -- when it was asked (/turns: "since")
    asked_seq   INTEGER NOT NULL,       -- the action that asked it
    start_at    TEXT    NOT NULL,       -- when its clock began (moved by pauses and absences)
    deadline_at TEXT,                   -- NULL: no deadline
    pings       INTEGER NOT NULL DEFAULT 0,   -- reminders sent or skipped (at most 2)
    expired     INTEGER NOT NULL DEFAULT 0,   -- the deadline was handled
    due_at      TEXT,                   -- when the scheduler looks at it next (NULL: never)
    owed        INTEGER NOT NULL DEFAULT 0,   -- a private reminder their closed DMs could not carry
    PRIMARY KEY (game_id, prompt_id)
);
CREATE INDEX awaiting_by_user ON awaiting (user_id, asked_at);
CREATE INDEX awaiting_due ON awaiting (due_at) WHERE due_at IS NOT NULL;
-- Idle games, oldest first, for archiving: a range of this index, not a scan of every game.
CREATE INDEX games_idle ON games (status, updated_at)
