"""The players' rules texts, one per registered game or variant (``bot/games/<game>/rules/<name>.md``): first line
``# Title``, then Discord markdown. Each language the bot speaks has its own (``<name>.<language>.md`` beside it,
``<name>.de.md``); English is the one without a language."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bot.errors import InvalidRules
from bot.games import registry
from bot.i18n import DEFAULT_LANGUAGE


@dataclass(frozen=True)
class RulesText:
    game: str
    title: str
    body: str


_cache: dict[Path, RulesText] = {}


def translated_path(path: Path, language: str) -> Path:
    """Where a rules text's translation into ``language`` is (the English text's own path for English)."""
    return path if language == DEFAULT_LANGUAGE else path.with_name(f"{path.stem}.{language}.md")


def rules_text(game: str, language: str = DEFAULT_LANGUAGE) -> RulesText:
    """The rules text of a game in ``language`` (in English where it has none); raise KeyError for a game with no
    text."""
    try:
        english = registry().entry(game).rules_path
    except InvalidRules:
        raise KeyError(game) from None
    path = translated_path(english, language)
    if not path.exists():
        path = english
    if path not in _cache:
        if not path.exists():
            raise KeyError(game)
        lines = path.read_text(encoding="utf-8").strip().splitlines()
        if not lines or not lines[0].startswith("# "):
            raise ValueError(f"{path} must start with a '# Title' line")
        _cache[path] = RulesText(game, lines[0][2:].strip(), "\n".join(lines[1:]).strip())
    return _cache[path]

