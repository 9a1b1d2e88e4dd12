-- A match's version: every write of its row through bot.storage.matches.update_match adds one, and a write may be
-- made conditional on the version its writer read (optimistic concurrency: a second process, or a second
-- database server, cannot overwrite a step it has not seen).
ALTER TABLE matches ADD COLUMN version INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0);
