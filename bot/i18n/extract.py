"""Gathering the strings to translate, per domain (see :mod:`bot.i18n`): every string marked in the code (``_("...")``,
``N_``, ``ngettext``, ``pgettext``) and every name, description and choice of the slash commands, into the template
of the domain that holds the code (a game's package and its cog package: the game's; the rest of ``bot/`` and
``cogs/``: the shared one), and each template's new strings into the domain's catalogue of every language
(``python -m bot.i18n extract``). A string the shared code marks is the shared domain's alone (a game's code finds
it there); one that two games mark is in both, translated the same."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import tempfile
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import import_module
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.pofile import read_po, write_po
from discord import app_commands

from bot.i18n import DEFAULT_LANGUAGE, GAME_LOCALES, LANGUAGES, SHARED, Domain, placeholders
from bot.i18n.commands import CommandString, command_strings

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SOURCE_DIRS = ("bot", "cogs")
#: the shared domain's template
TEMPLATE = SHARED.template_path
#: the marking functions and where their strings are (Babel's keyword spec)
KEYWORDS: dict[str, Any] = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
_METHODS = [("**.py", "python")]
#: catalogues are written with their lines as they are (no folding), so a change is one line of a diff
PO_WIDTH = 0
#: the dates in the catalogues' headers stay put: a new extraction changes only the strings
CATALOGUE_DATE = datetime(2026, 11, 26, tzinfo=UTC)
VERSION = "0.1.0"
ISSUES = "the project's issues"
HEADER = "# Air War's words. Written by `python -m bot.i18n extract`; translate the empty msgstr entries."
GAME_HEADER = ("# The words of the game {name}. Written by `python -m bot.i18n extract`; translate the empty msgstr"
               " entries.")


@dataclass(frozen=True)
class Marked:
    """A string marked in the code: ``message`` (a pair for plurals), ``context``, where it stands."""

    message: str | tuple[str, str]
    context: str | None
    where: tuple[str, int]


@dataclass(frozen=True)
class Source:
    """A domain and the code whose words it holds: its folders or files (``paths``) and the module of the cog whose
    slash commands are its (``cog``; ``None``: the shared domain, every other cog's)."""

    domain: Domain
    paths: tuple[Path, ...]
    cog: str | None = None

    def holds(self, path: Path) -> bool:
        return any(path == mine or mine in path.parents for mine in self.paths)


def sources() -> tuple[Source, ...]:
    """The shared domain, then each registered game's: its package and its cog (a package, or one module)."""
    from bot.registry import registry

    games = []
    for plugin in registry().plugins:
        cog_file = import_module(plugin.cog_extension).__file__
        assert cog_file is not None
        cog = Path(cog_file).resolve()
        cog = cog.parent if cog.name == "__init__.py" else cog
        paths = (plugin.folder,) if plugin.folder in cog.parents else (plugin.folder, cog)
        games.append(Source(Domain(plugin.name, plugin.folder / GAME_LOCALES), paths, plugin.cog_extension))
    return (Source(SHARED, tuple(PROJECT_ROOT / directory for directory in SOURCE_DIRS)), *games)


def _where(path: Path) -> str:
    return path.relative_to(PROJECT_ROOT).as_posix() if path.is_relative_to(PROJECT_ROOT) else path.as_posix()


def marked_by_domain(every: Sequence[Source] | None = None) -> dict[Domain, list[Marked]]:
    """Every string the code marks, in the domain whose code it is in."""
    every = sources() if every is None else every
    shared, games = every[0], every[1:]
    found: dict[Domain, list[Marked]] = {source.domain: [] for source in every}
    roots = [*shared.paths, *(path for game in games for path in game.paths if not shared.holds(path))]
    for root in roots:
        if root.is_dir():
            strings = ((root / filename, line, message, context) for filename, line, message, _comments, context
                       in extract_from_dir(root, method_map=_METHODS, keywords=KEYWORDS, strip_comment_tags=True))
        else:
            strings = ((root, line, message, context) for line, message, _comments, context
                       in extract_from_file("python", root, keywords=KEYWORDS, strip_comment_tags=True))
        for path, line, message, context in strings:
            if isinstance(message, tuple) and None in message:
                continue  # (a call with a name, not a string: the string is marked where it is written)
            owner = next((game for game in games if game.holds(path)), shared)
            found[owner.domain].append(Marked(message, context, (_where(path), line)))
    return found


def marked_strings() -> list[Marked]:
    """Every string the code marks, in ``bot/``, ``cogs/`` and every registered game's folders."""
    return [marked for strings in marked_by_domain().values() for marked in strings]


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


def commands_by_domain(commands: Iterable[CommandString],
                       every: Sequence[Source]) -> dict[Domain, list[CommandString]]:
    """The slash commands' strings in the domain of the cog that defines the command."""
    found: dict[Domain, list[CommandString]] = {source.domain: [] for source in every}
    for string in commands:
        owner = next((source for source in every[1:] if source.cog is not None and string.module is not None and
                      (string.module == source.cog or string.module.startswith(source.cog + "."))), every[0])
        found[owner.domain].append(string)
    return found


def _string_key(string: Marked | CommandString) -> tuple[str | None, str]:
    return string.context, string.message if isinstance(string.message, str) else string.message[0]


def owned(marked: dict[Domain, list[Marked]],
          commands: dict[Domain, list[CommandString]]) -> dict[Domain, list[Marked | CommandString]]:
    """Each domain's strings. A string the shared code marks is the shared domain's alone (a game's code finds it
    there: its own domain first, then the shared one). A string of a shared command that a game marks (its title,
    a choice naming it) is that game's: adding a game changes no catalogue but its own. A string two games mark is
    in both, translated the same."""
    held = {_string_key(string) for string in marked[SHARED]}
    games = [domain for domain in marked if domain != SHARED]
    by_game = {domain: {_string_key(string) for string in marked[domain]} - held for domain in games}
    found: dict[Domain, list[Marked | CommandString]] = {SHARED: [*marked[SHARED]]}
    for string in commands[SHARED]:
        key = _string_key(string)
        owners = [domain for domain in games if key in by_game[domain]]
        for domain in owners or [SHARED]:
            found.setdefault(domain, []).append(string)
    for domain in games:
        found[domain] = [*found.get(domain, []), *(string for string in [*commands[domain], *marked[domain]]
                                                    if _string_key(string) not in held)]
    return found


def new_catalogue(language: str | None, domain: Domain = SHARED) -> Catalog:
    """An empty catalogue (``None``: the template) of the domain, with the project's header; a game's counts in
    the plural forms of the language's shared catalogue (every domain of a language says a count alike)."""
    team = LANGUAGES.get(language or "", "")
    header = HEADER if domain == SHARED else GAME_HEADER.format(name=domain.name)
    catalog = Catalog(locale=language, domain=domain.name, project="Air War", version=VERSION,
                      copyright_holder="Air War", msgid_bugs_address=ISSUES,
                      last_translator=f"Air War {team} translators".replace("  ", " "),
                      language_team=team or "every language", charset="utf-8", fuzzy=False,
                      creation_date=CATALOGUE_DATE, revision_date=CATALOGUE_DATE, header_comment=header)
    shared = read_catalogue(SHARED, language) if language is not None and domain != SHARED else None
    if shared is not None:
        catalog.mime_headers = [("Plural-Forms", shared.plural_forms)]
    return catalog


def template(marked: Sequence[Marked | CommandString], commands: Sequence[CommandString] = (),
             domain: Domain = SHARED) -> Catalog:
    """The domain's template: every string once, with every place it stands (a slash command's first)."""
    catalog = new_catalogue(None, domain)
    strings = [*commands, *marked]
    for string in [s for s in strings if isinstance(s, CommandString)]:
        catalog.add(string.message, context=string.context, locations=[(string.where, 0)],
                    auto_comments=[f"Discord: at most {string.limit} characters"
                                   + (", lower case, one word" if string.context else "")])
    for item in [s for s in strings if isinstance(s, Marked)]:
        catalog.add(item.message, context=item.context, locations=[item.where])
    return catalog


def _key(message: Any) -> tuple[str | None, str]:
    return message.context, message.id if isinstance(message.id, str) else message.id[0]


def _translated(message: Any) -> bool:
    return bool(message.id) and not message.fuzzy and bool(message.string) and (
        isinstance(message.string, str) or all(message.string))


def read_catalogue(domain: Domain, language: str | None) -> Catalog | None:
    """The domain's catalogue of ``language`` as stored (``None``: its template); ``None`` when it has none yet."""
    path = domain.template_path if language is None else domain.catalogue_path(language)
    if not path.exists():
        return None
    with path.open("rb") as file:
        return read_po(file, locale=language, domain=domain.name)


def known_translations(domains: Iterable[Domain], language: str) -> dict[tuple[str | None, str], Any]:
    """Every translation of ``language`` some domain's catalogue holds: what a string new in a domain (moved from
    another, or shared by two) starts with."""
    found: dict[tuple[str | None, str], Any] = {}
    for domain in domains:
        catalog = read_catalogue(domain, language)
        for message in catalog or ():
            if _translated(message):
                found.setdefault(_key(message), message.string)
    return found


def updated(language: str, source: Catalog, domain: Domain = SHARED,
            known: Mapping[tuple[str | None, str], Any] | None = None) -> Catalog:
    """The domain's catalogue of the language with every string of ``source``: its translations kept, a new string
    with its translation from another domain (``known``) or empty, strings no longer used dropped."""
    catalog = read_catalogue(domain, language) or new_catalogue(language, domain)
    # (a copy: Babel adds a template's new messages themselves, which the next language would find translated)
    catalog.update(copy.deepcopy(source), no_fuzzy_matching=True, update_header_comment=False)
    catalog.obsolete.clear()
    for message in catalog:
        if message.id and not _translated(message) and _key(message) in (known or {}):
            message.string = known[_key(message)]  # type: ignore[index]
            message.flags.discard("fuzzy")
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


def templates() -> dict[Domain, Catalog]:
    """Every domain's template, from the code and the commands as they are now."""
    every = sources()
    found = owned(marked_by_domain(every), commands_by_domain(asyncio.run(bot_command_strings()), every))
    return {source.domain: template(found.get(source.domain, []), domain=source.domain) for source in every}


def extract() -> dict[str, int]:
    """Write every domain's template and update its catalogues; returns each language's count of strings still in
    English (a string of two domains counts twice)."""
    made = templates()
    known = {language: known_translations(made, language) for language in LANGUAGES
             if language != DEFAULT_LANGUAGE}
    missing = dict.fromkeys(known, 0)
    for domain, source in made.items():
        domain.folder.mkdir(exist_ok=True)
        write(source, domain.template_path)
        for language in known:
            catalog = updated(language, source, domain, known[language])
            write(catalog, domain.catalogue_path(language))
            missing[language] += sum(1 for _ in untranslated(catalog))
    return missing


def fill(translations: Mapping[str, Mapping[str, str | Sequence[str]]]) -> dict[str, int]:
    """Put translations into the catalogues: ``{key: {language: text}}``, where a key is the English message (of a
    plural: its singular), ``context`` + ``\\x04`` + message for one with a context, and a plural's text is the list
    of its forms. Each goes into every domain whose template holds it. A key no template holds is refused (run
    :func:`extract` first), and so is a text whose placeholders differ from the English. Returns how many entries
    each language got (once per string, whichever domains hold it)."""
    domains = [source.domain for source in sources()]
    templates = {domain: {_key(message): message for message in read_catalogue(domain, None) or () if message.id}
                 for domain in domains}
    wanted: dict[tuple[str | None, str], Mapping[str, str | Sequence[str]]] = {}
    for key, texts_by_language in translations.items():
        context, _, message = key.rpartition("\x04")
        found = next((held[(context or None, message)] for held in templates.values()
                      if (context or None, message) in held), None)
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
        filled = set()
        for domain in domains:
            held = {key: texts_by_language for key, texts_by_language in wanted.items()
                    if key in templates[domain] and language in texts_by_language}
            if not held:
                continue
            catalog = read_catalogue(domain, language) or new_catalogue(language, domain)
            for (context, message), texts_by_language in held.items():
                entry = templates[domain][(context, message)]
                text = texts_by_language[language]
                existing = catalog.get(entry.id, context=context)
                string: str | tuple[str, ...] = text if isinstance(text, str) else tuple(text)
                if existing is None:
                    catalog.add(entry.id, string, context=context, locations=entry.locations,
                                auto_comments=entry.auto_comments)
                else:
                    existing.string = string
                    existing.flags.discard("fuzzy")
                filled.add((context, message))
            write(catalog, domain.catalogue_path(language))
        counts[language] = len(filled)
    return counts

