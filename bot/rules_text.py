"""The players' rules texts in `data/rules/<game>.md`: first line `# Title`, then Discord markdown."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bot.config import DATA_DIR

RULES_DIR = DATA_DIR / "rules"
#: The games players can read about, in the order menus show them.
GAMES = ("airwar", "war", "army", "drunkard", "todundleben")


@dataclass(frozen=True)
class RulesText:
    game: str
    title: str
    body: str


@cache
def rules_text(game: str, directory: Path = RULES_DIR) -> RulesText:
    """The rules text of a game; raise KeyError for a game with no text."""
    if game not in GAMES:
        raise KeyError(game)
    lines = (directory / f"{game}.md").read_text(encoding="utf-8").strip().splitlines()
    if not lines or not lines[0].startswith("# "):
        raise ValueError(f"data/rules/{game}.md must start with a '# Title' line")
    return RulesText(game, lines[0][2:].strip(), "\n".join(lines[1:]).strip())
