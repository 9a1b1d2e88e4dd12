"""Settings from the environment and `.env` (python-dotenv)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import load_dotenv

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
        return cls(
            token=token,
            database_path=Path(database) if database else DEFAULT_DATABASE,
            dev_guild_id=_optional_id("DEV_GUILD_ID"),
            owner_ids=frozenset(_id_list("OWNER_IDS")),
            log_level=log_level,
            database_url=url,
        )


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
