-- Air War's storage: server settings, players, matches with their seats, action log, event queue, results
-- and ratings. Times are Unix seconds (REAL) from the match service's clock; ids are Discord snowflakes.

-- Per-server settings; a server without a row uses the defaults.
CREATE TABLE guild_settings (
    guild_id        INTEGER PRIMARY KEY,
    arrange_seconds INTEGER NOT NULL DEFAULT 120 CHECK (arrange_seconds BETWEEN 30 AND 600),
    flip_pace_ms    INTEGER NOT NULL DEFAULT 1500 CHECK (flip_pace_ms BETWEEN 500 AND 5000),
    updated_at      REAL    NOT NULL
);

-- Names to show on the leaderboard (Discord names change; the newest one seen is kept).
CREATE TABLE players (
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    display_name TEXT,
    created_at   REAL    NOT NULL,
    updated_at   REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE matches (
    id                   INTEGER PRIMARY KEY,
    guild_id             INTEGER NOT NULL,
    channel_id           INTEGER NOT NULL,
    thread_id            INTEGER,           -- the match's public thread (NULL: not made yet, or play in the channel)
    challenge_message_id INTEGER,
    game                 TEXT    NOT NULL,
    rules                TEXT    NOT NULL,  -- JSON object, resolved (every rule key)
    arrange_seconds      INTEGER,           -- the challenge's timer option; from accept on, the timer in force
    seed                 INTEGER,           -- set on accept
    status               TEXT    NOT NULL CHECK (status IN ('challenge', 'active', 'finished', 'cancelled')),
    reason               TEXT,              -- cancelled: declined|withdrawn|expired; finished: the outcome's reason
    state                TEXT,              -- the engine's JSON (from accept on)
    engagement           INTEGER NOT NULL DEFAULT 0,  -- the engagement being arranged (0 before accept)
    deadline_at          REAL,
    deadline_kind        TEXT CHECK (deadline_kind IN ('challenge', 'arrange')),
    result               TEXT,              -- JSON once finished
    created_at           REAL    NOT NULL,
    updated_at           REAL    NOT NULL,
    started_at           REAL,
    finished_at          REAL,
    CHECK ((deadline_at IS NULL) = (deadline_kind IS NULL)),
    CHECK (status IN ('challenge', 'active') OR deadline_at IS NULL),
    CHECK ((status = 'finished') = (result IS NOT NULL)),
    CHECK (status = 'challenge' OR status = 'cancelled' OR (seed IS NOT NULL AND state IS NOT NULL))
);
CREATE INDEX matches_open ON matches (status, deadline_at) WHERE status IN ('challenge', 'active');

-- A finished or cancelled match stays so.
CREATE TRIGGER matches_final_status BEFORE UPDATE OF status ON matches
WHEN OLD.status IN ('finished', 'cancelled') AND NEW.status IS NOT OLD.status
BEGIN
    SELECT RAISE(ABORT, 'a finished or cancelled match cannot change its status');
END;

-- Seat 0 is the challenger, seat 1 the opponent.
CREATE TABLE match_seats (
    match_id      INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL CHECK (seat >= 0),
    user_id       INTEGER NOT NULL,
    game          TEXT    NOT NULL,  -- the match's game, for the one-open-match index
    open          INTEGER CHECK (open = 1),  -- 1 while the match is a challenge or active, NULL after
    dm_channel_id INTEGER,
    dm_message_id INTEGER,
    draft         TEXT    NOT NULL DEFAULT '[]',  -- JSON list: the battle order being built this engagement
    misses        INTEGER NOT NULL DEFAULT 0 CHECK (misses >= 0),  -- arrangement deadlines missed in a row
    PRIMARY KEY (match_id, seat),
    UNIQUE (match_id, user_id)
);
-- A player is in at most one open (challenge or active) match of a game, in all servers together.
CREATE UNIQUE INDEX match_seats_one_open ON match_seats (game, user_id) WHERE open = 1;

CREATE TRIGGER matches_close_seats AFTER UPDATE OF status ON matches
WHEN NEW.status IN ('finished', 'cancelled')
BEGIN
    UPDATE match_seats SET open = NULL WHERE match_id = NEW.id;
END;

-- Messages the Discord side edits after a restart, by name ("board:3" = engagement 3's board, "result", ...).
CREATE TABLE match_messages (
    match_id   INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    name       TEXT    NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (match_id, name)
);

-- Every action applied to the game, in order: the match file's moves are rebuilt from it.
CREATE TABLE match_actions (
    match_id   INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    seat       INTEGER NOT NULL,
    engagement INTEGER NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('order', 'as_drawn', 'forfeit', 'timeout')),
    action     TEXT    NOT NULL,  -- JSON: the engine action ({"type": "order", "cards": [...]}) or {"type": ...}
    created_at REAL    NOT NULL,
    PRIMARY KEY (match_id, seq)
);

-- What the Discord side still has to show: every event, in order; shown = 1 once it was shown.
CREATE TABLE match_events (
    match_id   INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    engagement INTEGER,
    type       TEXT    NOT NULL,
    event      TEXT    NOT NULL,  -- JSON
    shown      INTEGER NOT NULL DEFAULT 0 CHECK (shown IN (0, 1)),
    created_at REAL    NOT NULL,
    PRIMARY KEY (match_id, seq)
);
CREATE INDEX match_events_unshown ON match_events (match_id, seq) WHERE shown = 0;

-- One row per seat of a finished match, written once.
CREATE TABLE results (
    match_id      INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL,
    guild_id      INTEGER NOT NULL,
    game          TEXT    NOT NULL,
    user_id       INTEGER NOT NULL,
    outcome       TEXT    NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')),
    rating_before REAL    NOT NULL,  -- the openskill ordinal before and after this match
    rating_after  REAL    NOT NULL,
    created_at    REAL    NOT NULL,
    PRIMARY KEY (match_id, seat),
    UNIQUE (match_id, user_id)
);
CREATE INDEX results_by_player ON results (guild_id, game, user_id);

CREATE TRIGGER results_only_finished BEFORE INSERT ON results
WHEN (SELECT status FROM matches WHERE id = NEW.match_id) IS NOT 'finished'
BEGIN
    SELECT RAISE(ABORT, 'results are recorded only for finished matches');
END;

-- Per server and game: openskill rating (mu, sigma; rating = the ordinal, for sorting) and the counts.
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    rating     REAL    NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0 CHECK (games >= 0),
    wins       INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),
    losses     INTEGER NOT NULL DEFAULT 0 CHECK (losses >= 0),
    draws      INTEGER NOT NULL DEFAULT 0 CHECK (draws >= 0),
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, game, user_id),
    CHECK (games = wins + losses + draws)
);
CREATE INDEX ratings_board ON ratings (guild_id, game, rating DESC);
