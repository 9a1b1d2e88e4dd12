-- Server settings, players and matches.
CREATE TABLE guild_settings (
    guild_id        INTEGER PRIMARY KEY,
    arrange_seconds INTEGER NOT NULL DEFAULT 120,
    flip_pace_ms    INTEGER NOT NULL DEFAULT 1500,
    updated_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE players (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE matches (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    thread_id   INTEGER,
    game        TEXT    NOT NULL,
    seats       TEXT    NOT NULL,  -- JSON list of user ids, by seat
    rules       TEXT    NOT NULL,  -- JSON object
    seed        INTEGER NOT NULL,
    moves       TEXT    NOT NULL DEFAULT '[]',  -- JSON list, the match file's moves
    status      TEXT    NOT NULL CHECK (status IN ('challenge', 'active', 'finished', 'cancelled')),
    deadline_at TEXT,
    result      TEXT,  -- JSON outcome once finished
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX matches_by_guild_status ON matches (guild_id, status);
