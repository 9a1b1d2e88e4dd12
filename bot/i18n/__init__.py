"""The bot's languages: gettext catalogues read with Babel, English the source. The catalogues are in domains: the
shared one (``bot/i18n/locales/<language>.po``: the kit, the services, every word not a game's own) and one per
game (``bot/games/<game>/locales/<language>.po``: the words of its package and its cog package), so a game brings
its words with it. A language's words are every domain's (:func:`catalogue`): a game's domain first, then the
shared one, which alone holds a word both the shared code and a game's say; a word two games say is in both
games' domains, translated the same (``python -m bot.i18n.check`` says when not), so whose domain a word is found
in never changes it.

Text is written in English and marked where it is made: ``_ = texts(language)`` then ``_("You won {count}.",
count=3)`` (placeholders in ``str.format`` style, filled after the lookup), ``_.ngettext(singular, plural, n)`` for
counts, ``_.pgettext(context, text)`` where one English word means two things. Text made before anyone's language is
known (an error's message, a button's label in a table) is marked with :func:`N_` and looked up when shown:
``_(ERROR_TEXT)``. ``python -m bot.i18n extract`` gathers every marked string, and the slash commands' names and
descriptions, into each domain's template (``locales/<domain>.pot``) and adds the new ones to each catalogue of
the domain; a string no catalogue has shows in English.

Whose language: a private answer speaks the user's (Discord's ``interaction.locale``, never shown to anyone else);
a public message the server's (``/settings language``; English until it is set, since Discord's server locale is
rarely what its members speak).
"""

from __future__ import annotations

import functools
import gettext
import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po
from babel.numbers import format_decimal

LOCALES_DIR = Path(__file__).resolve().parent / "locales"
#: the shared domain (the bot's own name): every word that is no game's own
DOMAIN = "airwar"
#: the folder of the project's game packages: read, not imported (the games sit far above the words)
GAMES_FOLDER = Path(__file__).resolve().parent.parent / "games"
#: a game package's folder of catalogues
GAME_LOCALES = "locales"
DEFAULT_LANGUAGE = "en"

#: every language the bot speaks, by its catalogue's code, with its own name for itself
LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
    "pt_BR": "Português (Brasil)",
    "ru": "Русский",
    "ro": "Română",
    "pl": "Polski",
}

#: Discord's locales (``discord.Locale`` values) that differ from the language's code
_DISCORD_LOCALES = {"en-US": "en", "en-GB": "en", "es-ES": "es", "es-419": "es", "pt-BR": "pt_BR"}

#: the msgctxt of a slash command's, group's or option's name (lower case, one word, at most 32 characters)
COMMAND_NAME = "command name"


def language_of(locale: object) -> str:
    """The bot's language for a Discord locale (``discord.Locale`` or its value), a language code, or ``None``:
    English for what it does not speak."""
    value = str(getattr(locale, "value", locale or ""))
    value = _DISCORD_LOCALES.get(value, value.replace("-", "_"))
    if value in LANGUAGES:
        return value
    return value.split("_")[0] if value.split("_")[0] in LANGUAGES else DEFAULT_LANGUAGE


def discord_locales(language: str) -> list[str]:
    """The Discord locales a language serves (``pt_BR`` -> ``["pt-BR"]``, ``es`` -> ``["es-ES", "es-419"]``)."""
    found = [locale for locale, code in _DISCORD_LOCALES.items() if code == language]
    return found or [language.replace("_", "-")]


def N_(message: str) -> str:
    """Marks ``message`` for the catalogues; it is looked up where it is shown (``texts(language)(message)``)."""
    return message


class Phrase:
    """A message marked with :func:`N_` and its params, said later in a language not known where it is made (an
    error's message, an event's line): ``Phrase(N_("{player} timed out."), player=mention).said(texts("de"))``. A
    param that is a :class:`Phrase` itself is said in the same language; ``str()`` is the English."""

    __slots__ = ("params", "template")

    def __init__(self, template: str, /, **params: Any) -> None:
        self.template = template
        self.params = params

    def said(self, say: Texts) -> str:
        params = {key: value.said(say) if isinstance(value, Phrase) else value for key, value in self.params.items()}
        return say(self.template, **params) if params else say(self.template)

    def __str__(self) -> str:
        return self.said(texts(DEFAULT_LANGUAGE))

    def __repr__(self) -> str:
        return f"Phrase({self.template!r}, **{self.params!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Phrase) and (self.template, self.params) == (other.template, other.params)

    def __hash__(self) -> int:
        return hash(self.template)


def placeholders(message: str) -> frozenset[str]:
    """The ``{name}`` fields of a message (what a translation must keep, no more and no fewer)."""
    return frozenset(name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(message)
                     if name is not None)


@dataclass(frozen=True)
class Catalogue:
    """One language's translations: ``(context, message)`` -> text; plurals ``(context, singular)`` -> forms."""

    language: str
    singular: Mapping[tuple[str | None, str], str] = field(default_factory=dict)
    plural: Mapping[tuple[str | None, str], tuple[str, ...]] = field(default_factory=dict)
    #: which plural form a count takes, as the catalogue's header writes it (C syntax)
    plural_expr: str = "(n != 1)"

    def plural_index(self, count: int) -> int:
        return _plural_function(self.plural_expr)(count)


@functools.cache
def _plural_function(expression: str) -> Callable[[int], int]:
    return gettext.c2py(expression)


@dataclass(frozen=True)
class Domain:
    """One gettext domain: its ``name`` and the ``folder`` of its template (``<name>.pot``) and catalogues
    (``<language>.po``)."""

    name: str
    folder: Path

    @property
    def template_path(self) -> Path:
        return self.folder / f"{self.name}.pot"

    def catalogue_path(self, language: str) -> Path:
        return self.folder / f"{language}.po"


#: the shared domain: the kit's, the services', the bot's own words
SHARED = Domain(DOMAIN, LOCALES_DIR)
#: the domains of games from elsewhere (``GAME_PACKAGES``, a test's toy game), added when the registry finds them
_added: dict[str, Domain] = {}


def catalogue_path(language: str) -> Path:
    """The shared domain's catalogue of ``language``."""
    return SHARED.catalogue_path(language)


def game_domains() -> tuple[Domain, ...]:
    """Every game's domain this process knows: each folder of ``bot/games/`` with catalogues (named by the
    folder, as the registry names the game), then the games from elsewhere (:func:`add_domain`)."""
    return tuple({**{domain.name: domain for domain in _project_game_domains()}, **_added}.values())


@functools.cache
def _project_game_domains() -> tuple[Domain, ...]:
    if not GAMES_FOLDER.is_dir():
        return ()
    return tuple(Domain(folder.name, folder / GAME_LOCALES) for folder in sorted(GAMES_FOLDER.iterdir())
                 if (folder / GAME_LOCALES).is_dir())


def add_domain(name: str, folder: Path) -> None:
    """A game from elsewhere brings its catalogues in ``folder``: its words are the language's from now on."""
    domain = Domain(name, folder)
    if _added.get(name) != domain and folder.is_dir():
        _added[name] = domain
        _read_catalogues.cache_clear()
        texts.cache_clear()


def catalogue(language: str) -> Catalogue:
    """The language's words as stored, every domain's (English and missing files: empty). Fuzzy and empty entries
    are left out: they show in English."""
    return _read_catalogues(language, (*game_domains(), SHARED))


@functools.cache
def _read_catalogues(language: str, domains: tuple[Domain, ...]) -> Catalogue:
    singular: dict[tuple[str | None, str], str] = {}
    plural: dict[tuple[str | None, str], tuple[str, ...]] = {}
    plural_expr = "(n != 1)"
    if language == DEFAULT_LANGUAGE:
        return Catalogue(language)
    for domain in domains:
        path = domain.catalogue_path(language)
        if not path.exists():
            continue
        with path.open("rb") as file:
            po = read_po(file, locale=language, domain=domain.name)
        plural_expr = po.plural_expr
        for message in po:
            if not message.id or message.fuzzy:
                continue
            if isinstance(message.id, tuple | list):
                forms = tuple(message.string or ())
                if forms and all(forms):
                    plural.setdefault((message.context, message.id[0]), forms)
            elif message.string:
                singular.setdefault((message.context, message.id), message.string)
    return Catalogue(language, singular, plural, plural_expr)


#: the catalogues as stored (what a language's words are unless a test swaps :func:`catalogue`)
_ON_DISK = catalogue


class Texts:
    """The bot's words in one language (see the module's docstring): ``_(message, **params)``."""

    def __init__(self, language: str, words: Catalogue | None = None) -> None:
        self.language = language
        self._catalogue = catalogue(language) if words is None else words

    def __reduce__(self) -> tuple[Any, ...]:
        """Pictures are drawn in a process of their own: a language's words travel there as the language's code
        (the process reads the catalogue itself, once), or whole when they are not the catalogue on disk."""
        if self._catalogue is _ON_DISK(self.language):
            return (texts, (self.language,))
        return (Texts, (self.language, self._catalogue))

    def __call__(self, message: str, /, **params: Any) -> str:
        text = self._catalogue.singular.get((None, message), message)
        return text.format(**params) if params else text

    def pgettext(self, context: str, message: str, /, **params: Any) -> str:
        text = self._catalogue.singular.get((context, message), message)
        return text.format(**params) if params else text

    def ngettext(self, singular: str, plural: str, count: int, /, **params: Any) -> str:
        """The form for ``count`` (also given to the text as ``{count}``, written in the language's way)."""
        forms = self._catalogue.plural.get((None, singular))
        if forms is None:
            text = singular if count == 1 else plural
        else:
            text = forms[min(self._catalogue.plural_index(count), len(forms) - 1)]
        return text.format(**{"count": self.number(count), **params})

    def number(self, value: float, *, digits: int | None = None) -> str:
        """A number in the language's form (``1,500.5`` in English, ``1.500,5`` in German)."""
        if digits is None and type(value) is int and 0 <= value < 1000:
            return str(value)  # (every language here writes these with the same digits, no separator)
        return _formatted(value, digits, self.language)

    def has(self, message: str, context: str | None = None) -> bool:
        """The catalogue translates ``message`` (English always does)."""
        return self.language == DEFAULT_LANGUAGE or (context, message) in self._catalogue.singular


@functools.lru_cache(maxsize=4096)
def _formatted(value: float, digits: int | None, language: str) -> str:
    if digits is not None:
        return format_decimal(value, format=f"#,##0.{'0' * digits}" if digits else "#,##0", locale=language)
    return format_decimal(value, locale=language)


@functools.cache
def texts(locale: object) -> Texts:
    """The words of the language for ``locale`` (see :func:`language_of`)."""
    return Texts(language_of(locale))

