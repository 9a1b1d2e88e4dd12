-- foreign_keys: off
-- One word for a match's step: matches.engagement, match_actions.engagement and match_events.engagement are called
-- step (Air War's engagement, Army's arrangement and rounds, War's rounds played). And a game brings its own
-- deadline kinds (its flow names them), so matches.deadline_kind is no longer held to a fixed list. SQLite can
-- neither drop a CHECK nor rename a column inside a rebuilt table's definition, so matches is rebuilt (the runner
-- turns foreign keys off around this migration and checks them before commit).

CREATE TABLE matches_new (
    id                     INTEGER PRIMARY KEY,
    guild_id               INTEGER NOT NULL,
    channel_id             INTEGER NOT NULL,
    thread_id              INTEGER,           -- the match's public thread (NULL: not made yet, or in the channel)
    challenge_message_id   INTEGER,
    game                   TEXT    NOT NULL,
    rules                  TEXT    NOT NULL,  -- JSON object, resolved (every rule key)
    options                TEXT    NOT NULL DEFAULT '{}',  -- JSON object: the flow's and the kernel's options
    arrange_seconds        INTEGER,           -- the challenge's timer option; from accept on, the timer in force
    seed                   INTEGER,           -- set on accept
    status                 TEXT    NOT NULL CHECK (status IN ('challenge', 'active', 'finished', 'cancelled')),
    reason                 TEXT,              -- cancelled: declined|withdrawn|expired; finished: the outcome's reason
    state                  TEXT,              -- the engine's JSON (from accept on)
    step                   INTEGER NOT NULL DEFAULT 0,  -- the step the game is at (its flow says what a step is)
    deadline_at            REAL,
    deadline_kind          TEXT CHECK (length(deadline_kind) > 0),  -- challenge, or one of the flow's kinds
    result                 TEXT,              -- JSON once finished
    created_at             REAL    NOT NULL,
    updated_at             REAL    NOT NULL,
    started_at             REAL,
    finished_at            REAL,
    version                INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    deadline_claimed_by    TEXT,
    deadline_claimed_until REAL,
    events_claimed_by      TEXT,
    events_claimed_until   REAL,
    CHECK ((deadline_at IS NULL) = (deadline_kind IS NULL)),
    CHECK (status IN ('challenge', 'active') OR deadline_at IS NULL),
    CHECK ((status = 'finished') = (result IS NOT NULL)),
    CHECK (status = 'challenge' OR status = 'cancelled' OR (seed IS NOT NULL AND state IS NOT NULL)),
    CHECK (json_valid(options) AND json_type(options) = 'object')
);
INSERT INTO matches_new (
    id, guild_id, channel_id, thread_id, challenge_message_id, game, rules, options, arrange_seconds, seed, status,
    reason, state, step, deadline_at, deadline_kind, result, created_at, updated_at, started_at, finished_at, version,
    deadline_claimed_by, deadline_claimed_until, events_claimed_by, events_claimed_until
)
SELECT id, guild_id, channel_id, thread_id, challenge_message_id, game, rules, options, arrange_seconds, seed, status,
       reason, state, engagement, deadline_at, deadline_kind, result, created_at, updated_at, started_at, finished_at,
       version, deadline_claimed_by, deadline_claimed_until, events_claimed_by, events_claimed_until
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

ALTER TABLE match_actions RENAME COLUMN engagement TO step;
ALTER TABLE match_events RENAME COLUMN engagement TO step;
