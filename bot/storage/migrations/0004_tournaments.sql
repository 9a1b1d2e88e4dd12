-- Tournaments: one row per tournament with its whole bracket state (bot.tournaments.Tournament as JSON), the
-- players who signed up, one row per bracket match (its series of real games, the ready check, the winner), the
-- games of each series (real matches of the game) and a queue of what the channel still has to be told.

CREATE TABLE tournaments (
    id                 INTEGER PRIMARY KEY,
    guild_id           INTEGER NOT NULL,
    channel_id         INTEGER NOT NULL,
    name               TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    game               TEXT    NOT NULL,
    format             TEXT    NOT NULL,
    rules              TEXT    NOT NULL CHECK (json_valid(rules) AND json_type(rules) = 'object'),
    options            TEXT    NOT NULL CHECK (json_valid(options) AND json_type(options) = 'object'),
    organiser_id       INTEGER NOT NULL,
    status             TEXT    NOT NULL
        CHECK (status IN ('signup', 'check_in', 'running', 'paused', 'finished', 'cancelled')),
    seed               INTEGER NOT NULL,
    signup_closes_at   REAL,              -- signup closes by itself then (NULL: when the organiser starts)
    check_in_ends_at   REAL,              -- set while checking in
    state              TEXT,              -- the Tournament's JSON, from the start on
    champion_id        INTEGER,
    signup_message_id  INTEGER,
    bracket_message_id INTEGER,
    created_at         REAL    NOT NULL,
    updated_at         REAL    NOT NULL,
    started_at         REAL,
    finished_at        REAL,
    CHECK (status IN ('signup', 'check_in', 'cancelled') OR state IS NOT NULL)
);
CREATE INDEX tournaments_by_channel ON tournaments (guild_id, channel_id, status);

CREATE TABLE tournament_players (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    name          TEXT,
    joined_at     REAL    NOT NULL,
    checked_in    INTEGER NOT NULL DEFAULT 0 CHECK (checked_in IN (0, 1)),
    PRIMARY KEY (tournament_id, user_id)
);

-- A bracket match of the tournament: called (waiting for both players' Ready until deadline_at), playing (a game
-- of its series is on: match_id), waiting (a player is busy in another match of the game: retried), decided.
CREATE TABLE tournament_matches (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    key             TEXT    NOT NULL,
    round           TEXT    NOT NULL,
    player_a        INTEGER NOT NULL,
    player_b        INTEGER NOT NULL,
    status          TEXT    NOT NULL CHECK (status IN ('called', 'waiting', 'playing', 'decided')),
    ready_a         INTEGER NOT NULL DEFAULT 0 CHECK (ready_a IN (0, 1)),
    ready_b         INTEGER NOT NULL DEFAULT 0 CHECK (ready_b IN (0, 1)),
    deadline_at     REAL,              -- the no-show deadline while called
    match_id        INTEGER REFERENCES matches (id),  -- the game being played
    wins_a          INTEGER NOT NULL DEFAULT 0,
    wins_b          INTEGER NOT NULL DEFAULT 0,
    draws           INTEGER NOT NULL DEFAULT 0,
    winner_id       INTEGER,
    outcome         TEXT,              -- series, no_show, double_no_show, disqualified, cancelled
    call_message_id INTEGER,
    called_at       REAL    NOT NULL,
    decided_at      REAL,
    PRIMARY KEY (tournament_id, key)
);
CREATE INDEX tournament_matches_open ON tournament_matches (status) WHERE status != 'decided';

-- Every game of a series: a real match of the game.
CREATE TABLE tournament_games (
    tournament_id INTEGER NOT NULL,
    key           TEXT    NOT NULL,
    number        INTEGER NOT NULL CHECK (number >= 1),
    match_id      INTEGER NOT NULL UNIQUE REFERENCES matches (id),
    winner_id     INTEGER,           -- NULL: not over yet, or a draw (counted once it is over)
    counted       INTEGER NOT NULL DEFAULT 0 CHECK (counted IN (0, 1)),
    PRIMARY KEY (tournament_id, key, number),
    FOREIGN KEY (tournament_id, key) REFERENCES tournament_matches (tournament_id, key) ON DELETE CASCADE
);

-- What the channel still has to be told, in order (shown = 1 once it was posted).
CREATE TABLE tournament_events (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL CHECK (seq >= 1),
    type          TEXT    NOT NULL,
    event         TEXT    NOT NULL CHECK (json_valid(event)),
    shown         INTEGER NOT NULL DEFAULT 0 CHECK (shown IN (0, 1)),
    created_at    REAL    NOT NULL,
    PRIMARY KEY (tournament_id, seq)
);
CREATE INDEX tournament_events_unshown ON tournament_events (tournament_id, seq) WHERE shown = 0;
