-- Stats, seasons and the server settings of every game.
--
-- Settings: besides Air War's timer and flip pace, a server chooses War's default pace, whether a match gets a
-- thread of its own, default rules per game (only the keys it set, as JSON) and the channels where matches may
-- start (none listed: anywhere).
ALTER TABLE guild_settings ADD COLUMN war_pace TEXT NOT NULL DEFAULT 'auto'
    CHECK (war_pace IN ('flip', 'auto', 'instant'));
ALTER TABLE guild_settings ADD COLUMN thread_per_match INTEGER NOT NULL DEFAULT 1 CHECK (thread_per_match IN (0, 1));

CREATE TABLE guild_default_rules (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    rules      TEXT    NOT NULL CHECK (json_valid(rules) AND json_type(rules) = 'object'),
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, game)
);

CREATE TABLE guild_start_channels (
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
);

-- Seasons. A server without a row is in season 1; starting a season closes the current one (ended_at), copies its
-- boards into season_ratings and empties the live ones (ratings, combined_ratings). Results are never touched.
CREATE TABLE seasons (
    guild_id   INTEGER NOT NULL,
    number     INTEGER NOT NULL CHECK (number >= 1),
    name       TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    started_at REAL,             -- NULL: season 1 of a server that had no season before (it began with its first match)
    ended_at   REAL,             -- NULL: the current season
    PRIMARY KEY (guild_id, number)
);
CREATE UNIQUE INDEX seasons_one_current ON seasons (guild_id) WHERE ended_at IS NULL;

-- A closed season's boards as they stood when it ended; game 'all' is the combined board.
CREATE TABLE season_ratings (
    guild_id INTEGER NOT NULL,
    season   INTEGER NOT NULL,
    game     TEXT    NOT NULL,
    user_id  INTEGER NOT NULL,
    mu       REAL    NOT NULL,
    sigma    REAL    NOT NULL,
    rating   REAL    NOT NULL,
    games    INTEGER NOT NULL CHECK (games >= 0),
    wins     INTEGER NOT NULL CHECK (wins >= 0),
    losses   INTEGER NOT NULL CHECK (losses >= 0),
    draws    INTEGER NOT NULL CHECK (draws >= 0),
    PRIMARY KEY (guild_id, season, game, user_id),
    FOREIGN KEY (guild_id, season) REFERENCES seasons (guild_id, number) ON DELETE CASCADE,
    CHECK (games = wins + losses + draws)
);
CREATE INDEX season_ratings_board ON season_ratings (guild_id, season, game, rating DESC);
CREATE INDEX season_ratings_by_player ON season_ratings (guild_id, user_id);

-- The combined board: one openskill rating per player and server over every finished match of any game, applied
-- in the order the matches finished (the same model as the per-game ratings). It is brought up to date from the
-- results before it is read: combined_applied lists the matches already counted, combined_results keeps each
-- seat's rating before and after (the combined rating's history).
CREATE TABLE combined_ratings (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    rating     REAL    NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0 CHECK (games >= 0),
    wins       INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),
    losses     INTEGER NOT NULL DEFAULT 0 CHECK (losses >= 0),
    draws      INTEGER NOT NULL DEFAULT 0 CHECK (draws >= 0),
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id),
    CHECK (games = wins + losses + draws)
);
CREATE INDEX combined_ratings_board ON combined_ratings (guild_id, rating DESC);

CREATE TABLE combined_applied (
    match_id INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    guild_id INTEGER NOT NULL
);

CREATE TABLE combined_results (
    match_id      INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL,
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    rating_before REAL    NOT NULL,
    rating_after  REAL    NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX combined_results_by_player ON combined_results (guild_id, user_id);

-- A player's history in a server, every game.
CREATE INDEX results_by_guild_player ON results (guild_id, user_id, match_id);

-- The season a result belongs to (the server's current season when it was written; 1 before any season started).
ALTER TABLE results ADD COLUMN season INTEGER NOT NULL DEFAULT 1 CHECK (season >= 1);
CREATE TRIGGER results_season AFTER INSERT ON results
BEGIN
    UPDATE results SET season = COALESCE(
        (SELECT number FROM seasons WHERE guild_id = NEW.guild_id AND ended_at IS NULL), 1)
    WHERE match_id = NEW.match_id AND seat = NEW.seat;
END;
