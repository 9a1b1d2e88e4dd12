-- One outbox for everything the Discord side has to show: match_events now holds a tournament's channel events
-- too (tournament_id set, match_id NULL) beside a match's (match_id set), each numbered from 1 per owner; the
-- tournament_events table goes, its rows moved. A tournament's showing is claimed like a match's
-- (tournaments.events_claimed_by / events_claimed_until).
CREATE TABLE match_events_new (
    match_id      INTEGER REFERENCES matches (id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL CHECK (seq >= 1),
    step          INTEGER,
    type          TEXT    NOT NULL,
    event         TEXT    NOT NULL,  -- JSON
    shown         INTEGER NOT NULL DEFAULT 0 CHECK (shown IN (0, 1)),
    created_at    REAL    NOT NULL,
    tournament_id INTEGER REFERENCES tournaments (id) ON DELETE CASCADE,
    CHECK ((match_id IS NULL) != (tournament_id IS NULL)),
    UNIQUE (match_id, seq),
    UNIQUE (tournament_id, seq)
);
INSERT INTO match_events_new (match_id, seq, step, type, event, shown, created_at)
    SELECT match_id, seq, step, type, event, shown, created_at FROM match_events;
INSERT INTO match_events_new (tournament_id, seq, type, event, shown, created_at)
    SELECT tournament_id, seq, type, event, shown, created_at FROM tournament_events;
DROP TABLE match_events;
ALTER TABLE match_events_new RENAME TO match_events;
CREATE INDEX match_events_unshown ON match_events (match_id, seq) WHERE shown = 0;
CREATE INDEX match_events_unshown_of_tournaments ON match_events (tournament_id, seq) WHERE shown = 0;
DROP TABLE tournament_events;

ALTER TABLE tournaments ADD COLUMN events_claimed_by TEXT;
ALTER TABLE tournaments ADD COLUMN events_claimed_until REAL;
