import pytest

from bot.config import DEFAULT_DATABASE, Settings, SettingsError


@pytest.fixture
def clean_env(monkeypatch):
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "OWNER_IDS", "LOG_LEVEL"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_missing_token_names_the_setting_and_how_to_get_one(clean_env):
    with pytest.raises(SettingsError) as raised:
        Settings.from_env(env_file=None)
    message = str(raised.value)
    assert "DISCORD_TOKEN" in message and "Reset Token" in message and ".env" in message


def test_settings_are_read_from_the_env_file(clean_env, tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=abc\nDEV_GUILD_ID=123\nOWNER_IDS=1, 2\nLOG_LEVEL=debug\n")
    settings = Settings.from_env(env_file=env_file)
    assert settings.token == "abc"
    assert settings.dev_guild_id == 123
    assert settings.owner_ids == {1, 2}
    assert settings.log_level == "DEBUG"
    assert settings.database_path == DEFAULT_DATABASE


@pytest.mark.parametrize(
    ("name", "value", "fragment"),
    [("DEV_GUILD_ID", "abc", "DEV_GUILD_ID"), ("OWNER_IDS", "1,x", "OWNER_IDS"), ("LOG_LEVEL", "loud", "LOG_LEVEL")],
)
def test_malformed_settings_are_refused_by_name(clean_env, name, value, fragment):
    clean_env.setenv("DISCORD_TOKEN", "t")
    clean_env.setenv(name, value)
    with pytest.raises(SettingsError, match=fragment):
        Settings.from_env(env_file=None)
