"""Settings from the environment and `.env` (python-dotenv)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import load_dotenv

from bot.cluster import Cluster

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = PROJECT_ROOT / "data"
DEFAULT_DATABASE = DATA_DIR / "airwar.db"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

MISSING_TOKEN_HELP = """\
DISCORD_TOKEN is not set, so the bot cannot log in to Discord.

Get a token: open https://discord.com/developers/applications, pick (or create) your application,
go to "Bot" and press "Reset Token", then copy it.
Put it in a file named .env next to README.md (copy .env.example to start):

    DISCORD_TOKEN=your-token-here

or set it in the environment (on a host that uses the Procfile: as a config variable)."""


class SettingsError(Exception):
    """A setting is missing or malformed; the message says which and how to fix it."""


@dataclass(frozen=True)
class Settings:
    token: str
    database_path: Path = DEFAULT_DATABASE
    dev_guild_id: int | None = None
    owner_ids: frozenset[int] = field(default_factory=frozenset)
    log_level: str = "INFO"
    #: ``postgresql://...``: the database is PostgreSQL there instead of the SQLite file
    database_url: str | None = None
    #: the shards this process runs (see :mod:`bot.cluster`); the default: one process, every server
    cluster: Cluster = field(default_factory=Cluster)
    #: where ``python -m bot web`` is reached from outside (``https://cards.example.org``): the bot's result and
    #: tournament messages link there; ``None``: no links
    web_url: str | None = None

    @classmethod
    def from_env(cls, env_file: Path | None = PROJECT_ROOT / ".env") -> Settings:
        """Read the settings; values already in the environment win over the `.env` file."""
        if env_file is not None:
            load_dotenv(env_file, override=False)
        token = os.environ.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise SettingsError(MISSING_TOKEN_HELP)
        database = os.environ.get("DATABASE_PATH", "").strip()
        url = os.environ.get("DATABASE_URL", "").strip() or None
        if url is not None and not url.startswith(("postgresql://", "postgres://")):
            raise SettingsError(f"DATABASE_URL must be a postgresql://user@host/database URL, not {url!r} (leave it "
                                "empty for the SQLite file at DATABASE_PATH)")
        log_level = os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if log_level not in LOG_LEVELS:
            raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}")
        cluster = _cluster()
        web_url = os.environ.get("WEB_URL", "").strip().rstrip("/") or None
        if web_url is not None and not web_url.startswith(("http://", "https://")):
            raise SettingsError(f"WEB_URL must be the web pages' address, http://... or https://..., not {web_url!r} "
                                "(leave it empty for no links)")
        if cluster.partial and url is None:
            raise SettingsError("a bot split over several processes (SHARD_IDS or CLUSTER_INDEX) needs one database "
                                "they all use: set DATABASE_URL to a PostgreSQL database")
        return cls(
            token=token,
            database_path=Path(database) if database else DEFAULT_DATABASE,
            dev_guild_id=_optional_id("DEV_GUILD_ID"),
            owner_ids=frozenset(_id_list("OWNER_IDS")),
            log_level=log_level,
            database_url=url,
            cluster=cluster,
            web_url=web_url,
        )


def _cluster() -> Cluster:
    """``SHARD_COUNT`` [+ ``SHARD_IDS``], or ``CLUSTER_COUNT`` + ``CLUSTER_INDEX`` [+ ``SHARD_COUNT``]."""
    shard_count = _optional_number("SHARD_COUNT")
    cluster_count = _optional_number("CLUSTER_COUNT")
    cluster_index = _optional_number("CLUSTER_INDEX", minimum=0)
    shard_ids = os.environ.get("SHARD_IDS", "").replace(" ", "")
    try:
        if cluster_count is not None or cluster_index is not None:
            if cluster_count is None or cluster_index is None:
                raise SettingsError("CLUSTER_COUNT and CLUSTER_INDEX go together: how many processes, and which "
                                    "one this is (from 0)")
            if shard_ids:
                raise SettingsError("set SHARD_IDS or CLUSTER_INDEX, not both")
            return Cluster.member(cluster_index, cluster_count, shard_count)
        if shard_ids and shard_count is None:
            raise SettingsError("SHARD_IDS needs SHARD_COUNT: how many shards the whole bot has")
        if shard_count is None:
            return Cluster()
        return Cluster(shard_count, tuple(_shard_ids(shard_ids)))
    except ValueError as error:
        raise SettingsError(f"the shard settings do not fit: {error}") from None


def _shard_ids(text: str) -> list[int]:
    """``0,1,2`` or ``0-3`` (or both mixed)."""
    ids: list[int] = []
    for part in filter(None, text.split(",")):
        first, _, last = part.partition("-")
        if not first.isdigit() or (last and not last.isdigit()):
            raise SettingsError(f"SHARD_IDS must be shard numbers like 0,1 or 0-3, not {part!r}")
        ids.extend(range(int(first), int(last or first) + 1))
    return ids


def _optional_number(name: str, *, minimum: int = 1) -> int | None:
    text = os.environ.get(name, "").strip()
    if not text:
        return None
    if not text.isdigit() or int(text) < minimum:
        raise SettingsError(f"{name} must be a whole number of at least {minimum}, not {text!r}")
    return int(text)


def _optional_id(name: str) -> int | None:
    text = os.environ.get(name, "").strip()
    if not text:
        return None
    if not text.isdigit():
        raise SettingsError(f"{name} must be a Discord id (digits only), not {text!r}")
    return int(text)


def _id_list(name: str) -> list[int]:
    ids = []
    for part in os.environ.get(name, "").replace(" ", "").split(","):
        if not part:
            continue
        if not part.isdigit():
            raise SettingsError(f"{name} must be Discord ids separated by commas, not {part!r}")
        ids.append(int(part))
    return ids
