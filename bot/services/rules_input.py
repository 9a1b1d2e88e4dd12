"""Rules typed as text (``"face_down=3 pack=32"``), as a command's ``rules`` option takes them: completions offered
while the text is typed (:func:`suggestions`), from the game's own options, and the text read into rules
(:func:`read_rules`, with :func:`bot.services.settings.parse_rules_text`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.game import Option
from bot.i18n import N_, Texts, texts
from bot.registry import game_class
from bot.services.settings import InvalidSetting, parse_rules_text

#: Discord's most choices an autocomplete answers with, and the longest choice name and value
MAX_SUGGESTIONS = 25
MAX_CHOICE_LENGTH = 100


def show(value: Any) -> str:
    """A rule's value as it is typed."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else str(value)


def read_rules(game: str, text: str | None, *, left_out: Sequence[str] = ()) -> dict[str, Any]:
    """The rules a text gives (none: ``{}``); raises :class:`InvalidSetting` naming what is wrong, also for a rule
    the command sets itself (``left_out``)."""
    if text is None or not text.strip():
        return {}
    rules = parse_rules_text(game, text)
    refused = [key for key in rules if key in left_out]
    if refused:
        template = N_("The rule {key} can't be given here: the game sets it itself.")
        raise InvalidSetting(template.format(key=repr(refused[0])), template=template, key=repr(refused[0]))
    return rules


def _values(option: Option, typed: str, examples: Sequence[Any]) -> list[Any]:
    """The values worth offering for ``option`` (its choices, true/false, or ``examples``; a number being typed)."""
    if option.choices is not None:
        return list(option.choices)
    if isinstance(option.default, bool):
        return [False, True]
    values = list(examples)
    if typed.isdigit():
        values.insert(0, int(typed))
    return values


def _one_line(text: str) -> str:
    return text if len(text) <= MAX_CHOICE_LENGTH else text[:MAX_CHOICE_LENGTH - 1] + "…"


def suggestions(game: str, text: str, *, left_out: Sequence[str] = (),
                examples: Mapping[str, Sequence[Any]] | None = None, say: Texts | None = None,
                ) -> list[tuple[str, str]]:
    """What to offer while ``text`` is typed into a rules option: ``(name, value)`` pairs, the value the whole text
    with one rule completed, the name saying what it does. First the text as typed, marked as playable or with
    what is wrong with it; then the rules not given yet (``left_out`` never) with the values that change them, matching
    what is being typed (a rule's default too once its name is typed whole). ``examples``: values to offer for a
    rule that takes any number. The names are in ``say``'s language (the member's who types; English by
    default), the rules themselves as they are typed."""
    _ = say = say or texts("en")
    cls = game_class(game)
    options = {option.key: option for option in cls.options if option.key not in left_out}
    tokens = text.split()
    typing = "" if not tokens or text[-1:].isspace() else tokens[-1]
    done = tokens[:-1] if typing else tokens
    given = {token.partition("=")[0] for token in done}
    offered: list[tuple[str, str]] = []
    if tokens:
        whole = " ".join(tokens)
        try:
            read_rules(game, whole, left_out=left_out)
            offered.append((_one_line(f"✅ {whole}"), whole))
        except InvalidSetting as error:
            offered.append((_one_line(f"⚠️ {error.said(say)}"), whole))
    key_typed, equals, value_typed = typing.partition("=")
    for key, option in options.items():
        if key in given or not key.startswith(key_typed) or (equals and key != key_typed):
            continue
        named = key == key_typed
        for value in _values(option, value_typed if equals else "", (examples or {}).get(key, ())):
            default = value == option.default and type(value) is type(option.default)
            if (default and not named) or (equals and not show(value).lower().startswith(value_typed.lower())):
                continue
            whole = " ".join([*done, f"{key}={show(value)}"])
            if len(whole) <= MAX_CHOICE_LENGTH:
                shown = _("{rules} (default)", rules=whole) if default else whole
                offered.append((_one_line(f"{shown} — {_(option.help)}"), whole))
    unique = list(dict.fromkeys(offered))
    return unique[:MAX_SUGGESTIONS]
