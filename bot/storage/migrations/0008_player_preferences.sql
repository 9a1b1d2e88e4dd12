-- A player's own choices, the same on every server (they follow the person, not a server): where their private
-- panels open, 'dm' (one DM message per match, edited for each step; the default) or 'here' (an ephemeral message in
-- the match's thread, from its board's button). A player without a row has the defaults.
CREATE TABLE player_preferences (
    user_id    INTEGER PRIMARY KEY,
    panels     TEXT    NOT NULL DEFAULT 'dm' CHECK (panels IN ('dm', 'here')),
    updated_at REAL    NOT NULL
);
