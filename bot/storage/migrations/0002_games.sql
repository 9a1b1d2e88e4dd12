-- foreign_keys: off
-- Every game of the family shares the match tables: a match keeps per-match options (War's pace and lobby,
-- votes, ...) as JSON, deadlines gain the kinds 'turn' (a player's move is due) and 'round' (the bot plays the
-- next round), and the action log takes any kind of action. SQLite cannot change a CHECK in place, so both
-- tables are rebuilt (the runner turns foreign keys off around this migration and checks them before commit).

CREATE TABLE matches_new (
    id                   INTEGER PRIMARY KEY,
    guild_id             INTEGER NOT NULL,
    channel_id           INTEGER NOT NULL,
    thread_id            INTEGER,           -- the match's public thread (NULL: not made yet, or play in the channel)
    challenge_message_id INTEGER,
    game                 TEXT    NOT NULL,
    rules                TEXT    NOT NULL,  -- JSON object, resolved (every rule key)
    options              TEXT    NOT NULL DEFAULT '{}',  -- JSON object: the service's per-match options
    arrange_seconds      INTEGER,           -- the challenge's timer option; from accept on, the timer in force
    seed                 INTEGER,           -- set on accept
    status               TEXT    NOT NULL CHECK (status IN ('challenge', 'active', 'finished', 'cancelled')),
    reason               TEXT,              -- cancelled: declined|withdrawn|expired; finished: the outcome's reason
    state                TEXT,              -- the engine's JSON (from accept on)
    engagement           INTEGER NOT NULL DEFAULT 0,  -- the step being played (Air War's engagement; 0 before accept)
    deadline_at          REAL,
    deadline_kind        TEXT CHECK (deadline_kind IN ('challenge', 'arrange', 'turn', 'round')),
    result               TEXT,              -- JSON once finished
    created_at           REAL    NOT NULL,
    updated_at           REAL    NOT NULL,
    started_at           REAL,
    finished_at          REAL,
    CHECK ((deadline_at IS NULL) = (deadline_kind IS NULL)),
    CHECK (status IN ('challenge', 'active') OR deadline_at IS NULL),
    CHECK ((status = 'finished') = (result IS NOT NULL)),
    CHECK (status = 'challenge' OR status = 'cancelled' OR (seed IS NOT NULL AND state IS NOT NULL)),
    CHECK (json_valid(options) AND json_type(options) = 'object')
);
INSERT INTO matches_new (
    id, guild_id, channel_id, thread_id, challenge_message_id, game, rules, arrange_seconds, seed, status, reason,
    state, engagement, deadline_at, deadline_kind, result, created_at, updated_at, started_at, finished_at
)
SELECT id, guild_id, channel_id, thread_id, challenge_message_id, game, rules, arrange_seconds, seed, status, reason,
       state, engagement, deadline_at, deadline_kind, result, created_at, updated_at, started_at, finished_at
FROM matches;
DROP TRIGGER results_only_finished;  -- it names matches: recreated below, once matches exists again
DROP TABLE matches;
ALTER TABLE matches_new RENAME TO matches;
CREATE INDEX matches_open ON matches (status, deadline_at) WHERE status IN ('challenge', 'active');

CREATE TRIGGER matches_final_status BEFORE UPDATE OF status ON matches
WHEN OLD.status IN ('finished', 'cancelled') AND NEW.status IS NOT OLD.status
BEGIN
    SELECT RAISE(ABORT, 'a finished or cancelled match cannot change its status');
END;

CREATE TRIGGER matches_close_seats AFTER UPDATE OF status ON matches
WHEN NEW.status IN ('finished', 'cancelled')
BEGIN
    UPDATE match_seats SET open = NULL WHERE match_id = NEW.id;
END;

CREATE TRIGGER results_only_finished BEFORE INSERT ON results
WHEN (SELECT status FROM matches WHERE id = NEW.match_id) IS NOT 'finished'
BEGIN
    SELECT RAISE(ABORT, 'results are recorded only for finished matches');
END;

CREATE TABLE match_actions_new (
    match_id   INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    seat       INTEGER NOT NULL,
    engagement INTEGER NOT NULL,
    kind       TEXT    NOT NULL CHECK (length(kind) > 0),  -- order, as_drawn, forfeit, timeout, flip, play, ...
    action     TEXT    NOT NULL,  -- JSON: the engine action ({"type": "order", "cards": [...]}) or {"type": ...}
    created_at REAL    NOT NULL,
    PRIMARY KEY (match_id, seq)
);
INSERT INTO match_actions_new SELECT match_id, seq, seat, engagement, kind, action, created_at FROM match_actions;
DROP TABLE match_actions;
ALTER TABLE match_actions_new RENAME TO match_actions;
