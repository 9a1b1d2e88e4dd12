-- A server's settings of a game, as the game declares them (bot.registry.GameSetting): one row per setting a server
-- changed, its value one of the setting's choices (checked by the settings service); a setting with no row has its
-- default. A game's setting needs no column and no migration of its own.
CREATE TABLE guild_game_settings (
    guild_id   BIGINT           NOT NULL,
    game       TEXT             NOT NULL,
    setting    TEXT             NOT NULL,
    value      TEXT             NOT NULL CHECK (value <> ''),
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, game, setting)
);
