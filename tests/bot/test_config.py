import pytest

from bot.config import DEFAULT_DATABASE, Settings, SettingsError


@pytest.fixture
def clean_env(monkeypatch):
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL", "DEV_GUILD_ID", "OWNER_IDS", "LOG_LEVEL"):
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
    assert settings.database_url is None  # SQLite unless a PostgreSQL URL is given


def test_a_postgresql_url_is_taken_and_anything_else_refused(clean_env):
    clean_env.setenv("DISCORD_TOKEN", "t")
    clean_env.setenv("DATABASE_URL", "postgresql://airwar@127.0.0.1/airwar")
    assert Settings.from_env(env_file=None).database_url == "postgresql://airwar@127.0.0.1/airwar"
    clean_env.setenv("DATABASE_URL", "sqlite:///data/airwar.db")
    with pytest.raises(SettingsError, match="DATABASE_URL must be a postgresql://"):
        Settings.from_env(env_file=None)


@pytest.mark.parametrize(
    ("name", "value", "fragment"),
    [("DEV_GUILD_ID", "abc", "DEV_GUILD_ID"), ("OWNER_IDS", "1,x", "OWNER_IDS"), ("LOG_LEVEL", "loud", "LOG_LEVEL"),
     ("DATABASE_URL", "mysql://x", "DATABASE_URL")],
)
def test_malformed_settings_are_refused_by_name(clean_env, name, value, fragment):
    clean_env.setenv("DISCORD_TOKEN", "t")
    clean_env.setenv(name, value)
    with pytest.raises(SettingsError, match=fragment):
        Settings.from_env(env_file=None)
