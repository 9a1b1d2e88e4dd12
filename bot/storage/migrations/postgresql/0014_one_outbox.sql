-- One outbox for everything the Discord side has to show: match_events now holds a tournament's channel events
-- too (tournament_id set, match_id NULL) beside a match's (match_id set), each numbered from 1 per owner; the
-- tournament_events table goes, its rows moved. A tournament's showing is claimed like a match's
-- (tournaments.events_claimed_by / events_claimed_until).
ALTER TABLE match_events DROP CONSTRAINT match_events_pkey;
ALTER TABLE match_events ALTER COLUMN match_id DROP NOT NULL;
ALTER TABLE match_events ADD COLUMN tournament_id BIGINT REFERENCES tournaments (id) ON DELETE CASCADE;
ALTER TABLE match_events ADD CONSTRAINT match_events_one_owner CHECK ((match_id IS NULL) != (tournament_id IS NULL));
ALTER TABLE match_events ADD CONSTRAINT match_events_match_seq UNIQUE (match_id, seq);
ALTER TABLE match_events ADD CONSTRAINT match_events_tournament_seq UNIQUE (tournament_id, seq);
INSERT INTO match_events (tournament_id, seq, type, event, shown, created_at)
    SELECT tournament_id, seq, type, event, shown, created_at FROM tournament_events;
CREATE INDEX match_events_unshown_of_tournaments ON match_events (tournament_id, seq) WHERE shown = 0;
DROP TABLE tournament_events;

ALTER TABLE tournaments ADD COLUMN events_claimed_by TEXT;
ALTER TABLE tournaments ADD COLUMN events_claimed_until DOUBLE PRECISION;
