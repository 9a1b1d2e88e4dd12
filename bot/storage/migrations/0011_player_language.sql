-- A player's Discord language, as their client last showed it to the bot (a catalogue's code, bot/i18n): the
-- language of what the bot sends them outside an interaction (their DM panels). NULL: not seen yet.
ALTER TABLE player_preferences ADD COLUMN language TEXT;
