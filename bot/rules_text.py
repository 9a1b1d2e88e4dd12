"""The players' rules texts, one per registered game or variant (``bot/games/<game>/rules/<name>.md``): first line
``# Title``, then Discord markdown."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bot.errors import InvalidRules
from bot.games import registry


@dataclass(frozen=True)
class RulesText:
    game: str
    title: str
    body: str


_cache: dict[Path, RulesText] = {}


def rules_text(game: str) -> RulesText:
    """The rules text of a game; raise KeyError for a game with no text."""
    try:
        path = registry().entry(game).rules_path
    except InvalidRules:
        raise KeyError(game) from None
    if path not in _cache:
        if not path.exists():
            raise KeyError(game)
        lines = path.read_text(encoding="utf-8").strip().splitlines()
        if not lines or not lines[0].startswith("# "):
            raise ValueError(f"{path} must start with a '# Title' line")
        _cache[path] = RulesText(game, lines[0][2:].strip(), "\n".join(lines[1:]).strip())
    return _cache[path]

