-- Claims: when several bot processes share the database, the one that runs a match's due deadline and the one that
-- shows its unshown events each hold a claim -- who (a name of the process's choosing) and until when. A claim
-- whose time has run out may be taken over (its holder died). See bot.storage.matches.claim_deadline and
-- claim_unshown. Neither is part of the match's record, nor moves its version.
ALTER TABLE matches ADD COLUMN deadline_claimed_by TEXT;
ALTER TABLE matches ADD COLUMN deadline_claimed_until REAL;
ALTER TABLE matches ADD COLUMN events_claimed_by TEXT;
ALTER TABLE matches ADD COLUMN events_claimed_until REAL;
