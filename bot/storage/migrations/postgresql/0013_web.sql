-- The web face (python -m bot web): a server's options by name (/settings web on: name 'web', value 'on'; a server
-- without a row has every option off) and each finished Air War match's review (every order against the hard
-- level's equilibrium, as JSON), computed once after the match ended.
CREATE TABLE guild_options (
    guild_id   BIGINT NOT NULL,
    name       TEXT   NOT NULL CHECK (length(name) BETWEEN 1 AND 32),
    value      TEXT   NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, name)
);

CREATE TABLE match_reviews (
    match_id   BIGINT PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    review     TEXT   NOT NULL,
    created_at DOUBLE PRECISION NOT NULL
);

-- a server's finished matches of a game, newest first (a board's recent matches)
CREATE INDEX matches_finished_by_guild ON matches (guild_id, game, finished_at) WHERE status = 'finished';
