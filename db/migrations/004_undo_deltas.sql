-- Undo without a whole state per action: new log rows keep state_before empty and store in
-- undo_data a compressed reverse delta (or, every few actions, a compressed snapshot) of the
-- state before them; see db/delta.py. Rows written before this migration keep their state_before.
ALTER TABLE game_actions ADD COLUMN undo_data BLOB
