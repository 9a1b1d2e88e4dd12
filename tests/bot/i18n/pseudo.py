"""A pseudo-language for tests that finds English the catalogues never see: every string of the template is
"translated" by swapping each ASCII letter for an accented one (``Your turn`` -> ``Ýóúŕ ŧúŕñ``), placeholders kept.
A surface made in it shows plain ASCII words only where a string was never marked (or never extracted), or where a
name, a mention or a card stands: :func:`english_left` finds the rest.

It borrows Discord's ``ja`` locale (a real one, which the local Discord accepts and the bot does not otherwise
speak): ``with pseudo_language():`` makes ``texts("ja")`` and a member with ``locale="ja"`` speak it, and a server
whose language is set to ``ja`` (``PSEUDO``) show its public messages in it.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Iterator

import bot.i18n as i18n
from bot.cards import _card_words
from bot.i18n import Catalogue

PSEUDO = "ja"
_LETTERS = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
            "áƀçđéƒĝĥíĵķĺḿñóṕʠŕšŧúṽŵẋýžÁƁÇĐÉƑĜĤÍĴĶĹḾÑÓṔɊŔŠŦÚṼŴẊÝŽ")
_SWAP = str.maketrans(*_LETTERS)
#: what a player's text may show in plain ASCII letters: mentions, channels, timestamps, custom emoji, links
_MARKUP = re.compile(r"<(?:@[!&]?|#)\d+>|<t:\d+(?::[tTdDfFR])?>|<a?:\w+:\d+>|https?://\S+|\{[^{}]*\}")
_WORD = re.compile(r"[A-Za-z]{2,}")


def pseudo(text: str) -> str:
    """``text`` with its letters swapped, its ``{placeholders}`` (and Discord markup) kept as they are."""
    kept = [match.span() for match in _MARKUP.finditer(text)]
    out, at = [], 0
    for start, end in kept:
        out.append(text[at:start].translate(_SWAP))
        out.append(text[start:end])
        at = end
    out.append(text[at:].translate(_SWAP))
    return "".join(out)


def pseudo_catalogue() -> Catalogue:
    """Every string of the templates (every domain's), in the pseudo-language (one plural form per English one)."""
    from bot.i18n.check import read

    template = read(None)
    singular, plural = {}, {}
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            plural[(message.context, message.id[0])] = (pseudo(message.id[0]), pseudo(message.id[1]))
        else:
            singular[(message.context, message.id)] = pseudo(message.id)
    return Catalogue(PSEUDO, singular, plural)


@contextlib.contextmanager
def pseudo_language() -> Iterator[None]:
    """While inside: ``ja`` is a language the bot speaks, the pseudo-language."""
    real = i18n.catalogue
    made = pseudo_catalogue()

    def catalogue(language: str) -> Catalogue:
        return made if language == PSEUDO else real(language)

    i18n.catalogue = catalogue  # type: ignore[assignment]
    i18n.LANGUAGES[PSEUDO] = "Pseudo"
    i18n.texts.cache_clear()
    _card_words.cache_clear()
    try:
        yield
    finally:
        i18n.catalogue = real
        del i18n.LANGUAGES[PSEUDO]
        i18n.texts.cache_clear()
        _card_words.cache_clear()


def english_left(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The plain ASCII words of ``text`` (two letters or more) that are no name in ``allowed``, no mention,
    timestamp or link: English that did not go through a catalogue."""
    for word in sorted(allowed, key=len, reverse=True):
        text = text.replace(word, " ")
    text = _MARKUP.sub(" ", text)
    return _WORD.findall(text)


def shown_texts(message) -> Iterator[tuple[str, str]]:
    """``(where, text)`` of everything a person sees of a local Discord message, in each version it had: content,
    embeds, buttons and selects, attachments' alt text."""
    versions = [*message.history, message]
    for version in versions:
        yield "content", version.content or ""
        for embed in version.embeds:
            for key in ("title", "description"):
                yield f"embed {key}", embed.get(key) or ""
            for field in embed.get("fields") or ():
                yield "embed field", f"{field.get('name', '')}\n{field.get('value', '')}"
            for key in ("footer", "author"):
                yield f"embed {key}", (embed.get(key) or {}).get("text") or (embed.get(key) or {}).get("name") or ""
        for row in version.components:
            for item in row.get("components", ()):
                yield "component", " ".join(str(item.get(key) or "") for key in ("label", "placeholder"))
                for option in item.get("options") or ():
                    yield "select option", f"{option.get('label', '')} {option.get('description') or ''}"
        for attachment in version.attachments:
            yield "alt text", attachment.description or ""


def english_in_messages(messages, allowed: Iterable[str] = ()) -> list[str]:
    """Every place where ``messages`` (local Discord messages) show English words (see :func:`english_left`),
    as ``"message <id> <where>: <words> in <text>"``."""
    allowed = list(allowed)
    found, seen = [], set()
    for message in messages:
        for where, text in shown_texts(message):
            words = english_left(text, allowed)
            if words and (where, text) not in seen:
                seen.add((where, text))
                found.append(f"message {message.id} {where}: {words} in {text!r}")
    return found
