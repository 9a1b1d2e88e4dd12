"""What a language's catalogues must hold, every domain's together: every string of the templates, translated (not
fuzzy, not empty), with the same ``{placeholders}``; a string two domains hold, translated the same in both; a
command's name as Discord takes it (lower case, one word, at most 32 characters); a description or choice at most
100 characters; no game's name where its form would have to change (:func:`grammar_problems`). And every game's
rules text translated (``<name>.<language>.md``). ``python -m bot.i18n.check
[LANGUAGE ...]`` prints what is wrong."""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Iterable

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from bot.i18n import COMMAND_NAME, DEFAULT_LANGUAGE, LANGUAGES, SHARED, Domain, catalogue_path, placeholders

NAME_LIMIT = 32
TEXT_LIMIT = 100
#: the longest a rules text may be (/rules shows it in pages of at most 3,000 characters: cogs.rules)
RULES_LIMIT = 5800


def read_domain(domain: Domain, language: str | None = None) -> Catalog | None:
    """The domain's catalogue of the language as stored (``None``: its template); ``None`` when it has none."""
    if domain == SHARED:
        path = SHARED.template_path if language is None else catalogue_path(language)
    else:
        path = domain.template_path if language is None else domain.catalogue_path(language)
    if not path.exists():
        return None
    with path.open("rb") as file:
        return read_po(file, locale=language, domain=domain.name)


def domains() -> list[Domain]:
    """The shared domain, then every registered game's."""
    from bot.i18n.extract import sources

    return [source.domain for source in sources()]


def read(language: str | None = None) -> Catalog:
    """The language's catalogues as stored, every domain's in one (``None``: the templates); a string two domains
    hold is the shared domain's, or the first game's."""
    merged: Catalog | None = None
    for domain in domains():
        catalog = read_domain(domain, language)
        if catalog is None:
            continue
        if merged is None:
            merged = catalog
            continue
        for message in catalog:
            if message.id and merged.get(message.id, context=message.context) is None:
                merged[message.id] = message
    assert merged is not None, "no catalogue: run python -m bot.i18n extract"
    return merged


def differences(language: str) -> list[str]:
    """The strings two domains' templates hold that their catalogues translate differently into ``language``."""
    seen: dict[tuple[str | None, str], tuple[str, object]] = {}
    found = []
    for domain in domains():
        held = {(message.context, message.id) for message in read_domain(domain) or () if message.id}
        for message in read_domain(domain, language) or ():
            if not message.id or message.fuzzy or not message.string or (message.context, message.id) not in held:
                continue
            key = (message.context, message.id if isinstance(message.id, str) else message.id[0])
            string = message.string if isinstance(message.string, str) else tuple(message.string)
            first = seen.setdefault(key, (domain.name, string))
            if first[1] != string:
                found.append(f"{language}: {key[1]!r} is {first[1]!r} in {first[0]}'s catalogue, {string!r} in "
                             f"{domain.name}'s")
    return found


def is_command_name(text: str) -> bool:
    """A chat-input command's or option's name as Discord accepts it."""
    return (1 <= len(text) <= NAME_LIMIT and text == text.lower()
            and all(char in "-_'" or char.isalnum() or unicodedata.name(char, "").startswith(("DEVANAGARI ", "THAI "))
                    for char in text))


def _forms(message: Message) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the English forms, the translated forms) of a message."""
    ids = (message.id,) if isinstance(message.id, str) else tuple(message.id)
    strings = (message.string,) if isinstance(message.string, str) else tuple(message.string or ())
    return ids, strings


def problems(language: str) -> list[str]:
    """Everything wrong with the language's catalogue against the template (empty: nothing)."""
    template = read(None)
    catalog = read(language)
    found = []
    for source in template:
        if not source.id:
            continue
        key = source.id if isinstance(source.id, str) else source.id[0]
        message = catalog.get(source.id, context=source.context)
        where = f"{language}: {key!r}" + (f" ({source.context})" if source.context else "")
        if message is None:
            found.append(f"{where}: missing (run python -m bot.i18n extract)")
            continue
        ids, strings = _forms(message)
        if message.fuzzy or not strings or not all(strings):
            found.append(f"{where}: not translated")
            continue
        wanted = placeholders(ids[0]) | (placeholders(ids[1]) - {"count"} if len(ids) > 1 else frozenset())
        for text in strings:
            have = placeholders(text) - ({"count"} if len(ids) > 1 else frozenset())
            if have != wanted - ({"count"} if len(ids) > 1 else frozenset()):
                found.append(f"{where}: placeholders {sorted(have)} instead of {sorted(wanted)} in {text!r}")
            if source.context == COMMAND_NAME and not is_command_name(text):
                found.append(f"{where}: {text!r} is not a command name (lower case, one word, at most 32)")
            elif _is_command_text(source) and len(text) > TEXT_LIMIT:
                found.append(f"{where}: {len(text)} characters, more than Discord's {TEXT_LIMIT}: {text!r}")
        if len(ids) > 1 and len(strings) != catalog.num_plurals:
            found.append(f"{where}: {len(strings)} plural forms, the language has {catalog.num_plurals}")
    known = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in template if m.id}
    found += [f"{language}: {message.id!r} is not in the template (run python -m bot.i18n extract)"
              for message in catalog if message.id and ((message.id if isinstance(message.id, str)
                                                         else message.id[0]), message.context) not in known]
    return found


#: where a game's name (``{game}``) would have to change its form, per language: right after a preposition (Russian,
#: Polish; in Romanian those that want an article or a genitive), where the name stays in the form the catalogue
#: gives it, so a sentence puts it after a noun ("в игре «{game}»", "w grze {game}", "în jocul {game}"); and French
#: "de {game}" (d' before a vowel) or "à {game}" (no article). Each language's style guide
#: (``bot/i18n/style/<language>.md``) says how its sentences name a game.
GAME_AFTER_PREPOSITION = {
    "ru": re.compile(r"(?<!\w)(?:в|во|на|о|об|обо|к|ко|с|со|из|изо|от|до|по|для|без|про|за|над|под|при|у|через)"
                     r"\s+[«\"„]?\{game\}", re.IGNORECASE),
    "pl": re.compile(r"(?<!\w)(?:w|we|na|do|z|ze|o|od|po|przy|dla|bez|u|za|przez|nad|pod|przed)\s+[„\"«]?\{game\}",
                     re.IGNORECASE),
    # (Romanian: "în"/"la" would want the name with its article, "contra"/"împotriva"/"asupra" its genitive; after
    # "de", "pentru", "cu" a bare name stands as it is: "meci de {game}", "lobby pentru {game}")
    "ro": re.compile(r"(?<!\w)(?:în|la|contra|împotriva|asupra|deasupra)\s+[„\"«]?\{game\}", re.IGNORECASE),
    "fr": re.compile(r"(?<!\w)(?:de|à)\s+[«\"]?\s?\{game\}", re.IGNORECASE),
}


def grammar_problems(language: str) -> list[str]:
    """Every translation of ``language`` that puts a game's name where its form would have to change
    (:data:`GAME_AFTER_PREPOSITION`)."""
    pattern = GAME_AFTER_PREPOSITION.get(language)
    if pattern is None:
        return []
    found = []
    for message in read(language):
        if not message.id:
            continue
        _, strings = _forms(message)
        key = message.id if isinstance(message.id, str) else message.id[0]
        for text in strings:
            if text and pattern.search(text):
                found.append(f"{language}: {key!r}: the game's name after a preposition, where its form would have "
                             f"to change: {text!r}")
    return found


def rules_problems(language: str) -> list[str]:
    """Every game's rules text must have its translation into ``language``, starting with its ``# Title``."""
    from bot.registry import game_names, registry
    from bot.rules_text import translated_path

    found = []
    for game in game_names():
        path = translated_path(registry().entry(game).rules_path, language)
        if not path.exists():
            found.append(f"{language}: no rules text for {game} ({path.name})")
        elif not path.read_text(encoding="utf-8").startswith("# "):
            found.append(f"{language}: {path.name} must start with a '# Title' line")
        elif len(path.read_text(encoding="utf-8")) > RULES_LIMIT:
            found.append(f"{language}: {path.name} is longer than {RULES_LIMIT} characters")
    return found


def _is_command_text(message: Message) -> bool:
    return any(path.startswith("/") for path, _ in message.locations)


def every_problem(languages: Iterable[str] = LANGUAGES) -> list[str]:
    return [problem for language in languages if language != DEFAULT_LANGUAGE
            for problem in [*problems(language), *differences(language), *rules_problems(language),
                            *grammar_problems(language)]]


def main() -> None:
    found = every_problem(sys.argv[1:] or LANGUAGES)
    print("\n".join(found) or "every catalogue is complete")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
