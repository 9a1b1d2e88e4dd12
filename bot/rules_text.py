"""The players' rules texts, one per registered game or variant (``bot/games/<game>/rules/<name>.md``): first line
``# Title``, then Discord markdown. Each language the bot speaks has its own (``<name>.<language>.md`` beside it,
``<name>.de.md``); English is the one without a language.

A text names a slash command, an option or a button as the reader's client shows it, so a text never writes one
out: ``{{/airwar lobby}}`` is the command, ``{{aces}}`` the option (``/luftkrieg lobby``, ``asse`` in German),
``{{button:Join}}`` the button labelled with that catalogue entry (``Beitreten``), ``{{aces=low}}`` a choice of
an option by the first words of its name in the client (``low``, ``niedrig``: the game's plugin declares them). Every
text starts with how to start and play the game (:func:`bot.howto.how_to`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from bot.errors import InvalidRules
from bot.howto import how_to, option_name
from bot.i18n import DEFAULT_LANGUAGE, Texts, texts
from bot.registry import registry
from bot.render.stats import command

#: a command (``{{/airwar lobby}}``), an option (``{{aces}}``), a button (``{{button:Join}}``) or a choice
#: (``{{aces=low}}``) in a rules text
NAME = re.compile(r"\{\{(/|button:)?([A-Za-z_ ]+)(?:=([a-z0-9_]+))?\}\}")
#: where a choice's short name ends: "low: the ace is below the 2", "standard, 52 cards (default)"
SHORT_END = re.compile(r"\s*[(:,]")


@dataclass(frozen=True)
class RulesText:
    """A game's rules in one language: ``body`` starts with how to start and play it; ``tagline`` is the text's
    own first line, a summary (without its italics)."""

    game: str
    title: str
    body: str
    tagline: str = ""


_cache: dict[tuple[Path, str], RulesText] = {}


def translated_path(path: Path, language: str) -> Path:
    """Where a rules text's translation into ``language`` is (the English text's own path for English)."""
    return path if language == DEFAULT_LANGUAGE else path.with_name(f"{path.stem}.{language}.md")


def choice_name(say: Texts, game: str, option: str, value: str) -> str:
    """A choice of ``game``'s ``option`` by the first words of its name in ``say``'s client (``low``)."""
    name = say(registry().entry(game).plugin.choice_names(option)[value])
    return SHORT_END.split(name, maxsplit=1)[0].strip()


def client_names(text: str, game: str, say: Texts) -> str:
    """``game``'s ``text`` with its commands, options, buttons and choices (``{{/airwar lobby}}``, ``{{aces}}``,
    ``{{button:Join}}``, ``{{aces=low}}``) as ``say``'s client shows them."""

    def named(found: re.Match[str]) -> str:
        kind, name, value = found[1], found[2], found[3]
        if kind == "/":
            return command(say, name)
        if kind == "button:":
            return say(name)
        return choice_name(say, game, name, value) if value else option_name(say, name)

    return NAME.sub(named, text)


def rules_text(game: str, language: str = DEFAULT_LANGUAGE) -> RulesText:
    """The rules text of a game in ``language`` (in English where it has none), starting with how to start and play
    it; raise KeyError for a game with no text."""
    try:
        english = registry().entry(game).rules_path
    except InvalidRules:
        raise KeyError(game) from None
    path = translated_path(english, language)
    if not path.exists():
        path = english
    if (path, language) not in _cache:
        if not path.exists():
            raise KeyError(game)
        lines = path.read_text(encoding="utf-8").strip().splitlines()
        if not lines or not lines[0].startswith("# "):
            raise ValueError(f"{path} must start with a '# Title' line")
        say = texts(language)
        body = client_names("\n".join(lines[1:]).strip(), game, say)
        first = body.splitlines()[0] if body else ""
        italic = first.startswith("*") and first.endswith("*") and not first.startswith("**")
        tagline = first[1:-1] if italic else first
        _cache[path, language] = RulesText(game, lines[0][2:].strip(), how_to(game, say) + "\n\n" + body,
                                           tagline)
    return _cache[path, language]

