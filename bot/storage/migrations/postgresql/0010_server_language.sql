-- A server's language for its public messages (/settings language): a catalogue's code (bot/i18n); NULL: English.
ALTER TABLE guild_settings ADD COLUMN language TEXT;
