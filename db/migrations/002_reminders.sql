-- Optional reminder: ping whoever a game waits on after this many hours (NULL or 0: off).
ALTER TABLE guild_settings ADD COLUMN reminder_hours REAL;
