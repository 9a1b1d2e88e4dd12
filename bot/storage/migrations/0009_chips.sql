-- Chips: a server's play money for the games played against the house (Casino War). No real money, no trading
-- between players: chips only move between a player and the house, through the ledger.
--
-- chip_balances: each player's chips in a server (never below zero). A player gets the starting stake the first
-- time they sit at a table; a daily top-up (once per UTC day, day number = unix time // 86400) raises a balance
-- below the stake towards it.
CREATE TABLE chip_balances (
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    balance      INTEGER NOT NULL CHECK (balance >= 0),
    topped_up_on INTEGER NOT NULL,  -- the day number of the last top-up (or of the first stake)
    updated_at   REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX chip_balances_board ON chip_balances (guild_id, balance DESC);

-- chip_ledger: every movement, written in the same transaction as the step of the match that causes it (a bet, a
-- payout) or the grant (stake, top-up). A match's movement is named once by (match, hand, seat, kind): a write
-- replayed after a crash inserts nothing and so moves nothing (the balance moves only by the trigger below, on an
-- inserted row). Grants have no match: (guild, user, kind, day) names them once.
CREATE TABLE chip_ledger (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    match_id   INTEGER REFERENCES matches (id) ON DELETE CASCADE,  -- NULL: a grant
    hand       INTEGER NOT NULL,  -- the match's hand, or a grant's day number
    seat       INTEGER NOT NULL,
    kind       TEXT    NOT NULL CHECK (length(kind) > 0),
    amount     INTEGER NOT NULL,  -- chips to the player (negative: to the house)
    created_at REAL    NOT NULL
);
CREATE UNIQUE INDEX chip_ledger_once ON chip_ledger (match_id, hand, seat, kind) WHERE match_id IS NOT NULL;
CREATE UNIQUE INDEX chip_ledger_grant_once ON chip_ledger (guild_id, user_id, kind, hand) WHERE match_id IS NULL;
CREATE INDEX chip_ledger_by_player ON chip_ledger (guild_id, user_id);

CREATE TRIGGER chip_ledger_moves AFTER INSERT ON chip_ledger
BEGIN
    UPDATE chip_balances SET balance = balance + NEW.amount, updated_at = NEW.created_at
     WHERE guild_id = NEW.guild_id AND user_id = NEW.user_id;
END;

-- A result that counts for no rating (a game against the house): it is in the player's history, not on a rating
-- board nor in the combined rating.
ALTER TABLE results ADD COLUMN rated INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));
