import pytest

from bot.cluster import Cluster
from bot.config import DEFAULT_DATABASE, Settings, SettingsError


@pytest.fixture
def clean_env(monkeypatch):
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL", "DEV_GUILD_ID", "OWNER_IDS", "LOG_LEVEL",
                 "SHARD_COUNT", "SHARD_IDS", "CLUSTER_COUNT", "CLUSTER_INDEX", "WEB_URL"):
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


def test_one_process_owns_every_server_unless_shards_are_set(clean_env):
    clean_env.setenv("DISCORD_TOKEN", "t")
    assert Settings.from_env(env_file=None).cluster == Cluster()
    clean_env.setenv("SHARD_COUNT", "4")  # every shard in this process: SQLite will do
    assert Settings.from_env(env_file=None).cluster == Cluster(4, (0, 1, 2, 3))


@pytest.mark.parametrize(
    ("env", "expected"),
    [({"SHARD_COUNT": "4", "SHARD_IDS": "2,3"}, Cluster(4, (2, 3))),
     ({"SHARD_COUNT": "8", "SHARD_IDS": "0-3"}, Cluster(8, (0, 1, 2, 3))),
     ({"CLUSTER_COUNT": "2", "CLUSTER_INDEX": "1", "SHARD_COUNT": "4"}, Cluster(4, (2, 3))),
     ({"CLUSTER_COUNT": "3", "CLUSTER_INDEX": "0"}, Cluster(3, (0,)))],
)
def test_a_process_of_a_cluster_runs_its_range_of_shards(clean_env, env, expected):
    clean_env.setenv("DISCORD_TOKEN", "t")
    clean_env.setenv("DATABASE_URL", "postgresql://airwar@127.0.0.1/airwar")
    for name, value in env.items():
        clean_env.setenv(name, value)
    assert Settings.from_env(env_file=None).cluster == expected


@pytest.mark.parametrize(
    ("env", "fragment"),
    [({"SHARD_COUNT": "4", "SHARD_IDS": "0,1"}, "needs one database they all use: set DATABASE_URL"),
     ({"SHARD_IDS": "0", "DATABASE_URL": "postgresql://x@127.0.0.1/y"}, "SHARD_IDS needs SHARD_COUNT"),
     ({"SHARD_COUNT": "4", "SHARD_IDS": "4", "DATABASE_URL": "postgresql://x@127.0.0.1/y"}, "from 0 to 3"),
     ({"SHARD_COUNT": "4", "SHARD_IDS": "a", "DATABASE_URL": "postgresql://x@127.0.0.1/y"}, "shard numbers"),
     ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number of at least 1"),
     ({"CLUSTER_COUNT": "2"}, "CLUSTER_COUNT and CLUSTER_INDEX go together"),
     ({"CLUSTER_COUNT": "4", "CLUSTER_INDEX": "0", "SHARD_COUNT": "2"}, "fewer shards than processes"),
     ({"CLUSTER_COUNT": "2", "CLUSTER_INDEX": "2"}, "index must be from 0 to 1")],
)
def test_shard_settings_that_do_not_fit_are_refused_with_the_reason(clean_env, env, fragment):
    clean_env.setenv("DISCORD_TOKEN", "t")
    for name, value in env.items():
        clean_env.setenv(name, value)
    with pytest.raises(SettingsError, match=fragment):
        Settings.from_env(env_file=None)


def test_web_url_turns_the_links_on_and_must_be_an_address(clean_env):
    clean_env.setenv("DISCORD_TOKEN", "abc")
    assert Settings.from_env(env_file=None).web_url is None
    clean_env.setenv("WEB_URL", " https://cards.example.org/ ")
    assert Settings.from_env(env_file=None).web_url == "https://cards.example.org"
    clean_env.setenv("WEB_URL", "cards.example.org")
    with pytest.raises(SettingsError, match="WEB_URL must be"):
        Settings.from_env(env_file=None)
