"""Gathering the strings to translate: every string marked in the code (``_("...")``, ``N_``, ``ngettext``,
``pgettext``) and every name, description and choice of the slash commands, into the template
(``locales/airwar.pot``), and the template's new strings into each language's catalogue (``python -m bot.i18n
extract``)."""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po
from discord import app_commands

from bot.i18n import DEFAULT_LANGUAGE, DOMAIN, LANGUAGES, LOCALES_DIR, catalogue_path, placeholders
from bot.i18n.commands import CommandString, command_strings

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SOURCE_DIRS = ("bot", "cogs")
TEMPLATE = LOCALES_DIR / f"{DOMAIN}.pot"
#: the marking functions and where their strings are (Babel's keyword spec)
KEYWORDS: dict[str, Any] = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
#: catalogues are written with their lines as they are (no folding), so a change is one line of a diff
PO_WIDTH = 0
#: the dates in the catalogues' headers stay put: a new extraction changes only the strings
CATALOGUE_DATE = datetime(2026, 11, 26, tzinfo=UTC)
VERSION = "0.1.0"
ISSUES = "the project's issues"
HEADER = "# Air War's words. Written by `python -m bot.i18n extract`; translate the empty msgstr entries."


@dataclass(frozen=True)
class Marked:
    """A string marked in the code: ``message`` (a pair for plurals), ``context``, where it stands."""

    message: str | tuple[str, str]
    context: str | None
    where: tuple[str, int]


def marked_strings(root: Path = PROJECT_ROOT) -> list[Marked]:
    """Every string the code marks, in ``bot/`` and ``cogs/``."""
    found = []
    for directory in SOURCE_DIRS:
        for filename, line, message, _comments, context in extract_from_dir(
                root / directory, method_map=[("**.py", "python")], keywords=KEYWORDS, strip_comment_tags=True):
            if isinstance(message, tuple) and None in message:
                continue  # (a call with a name, not a string: the string is marked where it is written)
            found.append(Marked(message, context, (f"{directory}/{filename}", line)))
    return found


@contextlib.asynccontextmanager
async def bot_command_tree() -> AsyncIterator[app_commands.CommandTree[Any]]:
    """The bot's own slash commands: every cog loaded, as the bot does at its start, on a database of its own
    (nothing is sent anywhere)."""
    from bot.client import cog_extensions, create_bot
    from bot.config import Settings
    from bot.storage import Database

    with tempfile.TemporaryDirectory(prefix="airwar-i18n-") as directory:
        database = await Database.open(Path(directory) / "airwar.db")
        bot = create_bot(Settings(token="", database_path=Path(directory) / "airwar.db"))
        try:
            bot.database = database
            bot.build_services(database)
            for extension in cog_extensions():
                await bot.load_extension(extension)
            yield bot.tree
        finally:
            bot.database = None
            with contextlib.suppress(Exception):
                await bot.close()
            await database.close()


async def bot_command_strings() -> list[CommandString]:
    """The strings of the bot's own slash commands."""
    async with bot_command_tree() as tree:
        return await command_strings(tree)


def new_catalogue(language: str | None) -> Catalog:
    """An empty catalogue (``None``: the template) with the project's header."""
    team = LANGUAGES.get(language or "", "")
    return Catalog(locale=language, domain=DOMAIN, project="Air War", version=VERSION, copyright_holder="Air War",
                   msgid_bugs_address=ISSUES, last_translator=f"Air War {team} translators".replace("  ", " "),
                   language_team=team or "every language", charset="utf-8", fuzzy=False,
                   creation_date=CATALOGUE_DATE, revision_date=CATALOGUE_DATE, header_comment=HEADER)


def template(marked: list[Marked], commands: list[CommandString]) -> Catalog:
    """The template: every string once, with every place it stands."""
    catalog = new_catalogue(None)
    for string in commands:
        catalog.add(string.message, context=string.context, locations=[(string.where, 0)],
                    auto_comments=[f"Discord: at most {string.limit} characters"
                                   + (", lower case, one word" if string.context else "")])
    for item in marked:
        catalog.add(item.message, context=item.context, locations=[item.where])
    return catalog


def updated(language: str, source: Catalog) -> Catalog:
    """The language's catalogue with every string of ``source``: its translations kept, new strings empty, strings
    no longer used dropped."""
    path = catalogue_path(language)
    if path.exists():
        with path.open("rb") as file:
            catalog = read_po(file, locale=language, domain=DOMAIN)
    else:
        catalog = new_catalogue(language)
    catalog.update(source, no_fuzzy_matching=True, update_header_comment=False)
    catalog.obsolete.clear()
    return catalog


def write(catalog: Catalog, path: Path) -> None:
    with path.open("wb") as file:
        write_po(file, catalog, width=PO_WIDTH, omit_header=False, sort_output=False, include_previous=False,
                 ignore_obsolete=True)


def untranslated(catalog: Catalog) -> Iterator[str]:
    for message in catalog:
        if message.id and (message.fuzzy or not message.string or (isinstance(message.string, tuple)
                                                                   and not all(message.string))):
            yield message.id if isinstance(message.id, str) else message.id[0]


def extract() -> dict[str, int]:
    """Write the template and update every catalogue; returns each language's count of strings still in English."""
    source = template(marked_strings(), asyncio.run(bot_command_strings()))
    LOCALES_DIR.mkdir(exist_ok=True)
    write(source, TEMPLATE)
    missing = {}
    for language in LANGUAGES:
        if language == DEFAULT_LANGUAGE:
            continue
        catalog = updated(language, source)
        write(catalog, catalogue_path(language))
        missing[language] = sum(1 for _ in untranslated(catalog))
    return missing


def fill(translations: Mapping[str, Mapping[str, str | Sequence[str]]]) -> dict[str, int]:
    """Put translations into the catalogues: ``{key: {language: text}}``, where a key is the English message (of a
    plural: its singular), ``context`` + ``\\x04`` + message for one with a context, and a plural's text is the list
    of its forms. A key the template lacks is refused (run :func:`extract` first), and so is a text whose
    placeholders differ from the English. Returns how many entries each language got."""
    template = {(message.context, message.id if isinstance(message.id, str) else message.id[0]): message
                for message in read_template() if message.id}
    wanted: dict[tuple[str | None, str], Mapping[str, str | Sequence[str]]] = {}
    for key, texts_by_language in translations.items():
        context, _, message = key.rpartition("\x04")
        found = template.get((context or None, message))
        if found is None:
            raise ValueError(f"{key!r} is not in the template: mark it and run python -m bot.i18n extract first")
        for language, text in texts_by_language.items():
            if language not in LANGUAGES or language == DEFAULT_LANGUAGE:
                raise ValueError(f"{key!r}: no catalogue {language!r}")
            english = (found.id,) if isinstance(found.id, str) else tuple(found.id)
            given = (text,) if isinstance(text, str) else tuple(text)
            if isinstance(found.id, str) != isinstance(text, str) or not all(isinstance(f, str) for f in given):
                raise ValueError(f"{key!r} in {language}: a plural takes a list of forms, any other string one text")
            for form in given:
                if placeholders(form) != placeholders(english[0]) and placeholders(form) != placeholders(english[-1]):
                    raise ValueError(f"{key!r} in {language}: placeholders {sorted(placeholders(form))} differ")
        wanted[(context or None, message)] = texts_by_language
    counts = {}
    for language in LANGUAGES:
        if language == DEFAULT_LANGUAGE:
            continue
        path = catalogue_path(language)
        with path.open("rb") as file:
            catalog = read_po(file, locale=language, domain=DOMAIN)
        counts[language] = 0
        for (context, message), texts_by_language in wanted.items():
            if language not in texts_by_language:
                continue
            entry = template[(context, message)]
            text = texts_by_language[language]
            entry_id = entry.id
            existing = catalog.get(entry_id, context=context)
            string: str | tuple[str, ...] = text if isinstance(text, str) else tuple(text)
            if existing is None:
                catalog.add(entry_id, string, context=context, locations=entry.locations,
                            auto_comments=entry.auto_comments)
            else:
                existing.string = string
                existing.flags.discard("fuzzy")
            counts[language] += 1
        write(catalog, path)
    return counts


def read_template() -> Catalog:
    with TEMPLATE.open("rb") as file:
        return read_po(file, domain=DOMAIN)
