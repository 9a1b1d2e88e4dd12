"""Every message a game shows, as a Components V2 layout (:func:`as_layout`), with the cards as the app's emoji.

The games' faces are written as Discord's classic parts (``content``, an ``embed`` per surface with its picture,
a ``view`` of buttons): :func:`as_layout` turns them, as a message goes out, into one :class:`LiveLayout`
(Discord's components, written out as dicts): the content as a text display, each embed as a container (its colour
the accent, its title a heading, its fields and footer as lines, its picture a media gallery with the picture's alt
text) and the buttons as action rows inside the last container (``below``: text shown under the buttons, in that
container: a live message's history under its current step). Cards written in notation (``Q♠``, ``10♦``, ``21★``)
become the app's card emoji (:data:`bot.emoji.CARD_EMOJI`) where the set is known and the text stays within
Discord's 4,000 characters; the notation stays otherwise.

A message once sent with the V2 flag keeps it: every edit of a game's message goes through :func:`as_layout` too
(an edit also clears the classic ``content`` and ``embeds`` a message from before V2 may have). A plain new text
message (a note in a thread) stays a plain message, its cards as emoji too.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

import discord

from bot.cards import card_label, is_joker
from bot.emoji import CARD_EMOJI
from bot.render.card_emoji import BACK, CARDS

#: Discord's limits on a V2 message: components in all, characters of text in all
MAX_COMPONENTS = 40
MAX_TEXT = 4000
MAX_CONTENT = 2000  #: a plain message's content
ROW_WIDTH = 5

#: a card in notation (:func:`bot.cards.card_label`): a rank and a suit symbol, a tarot trump's number and a star
CARD_NOTATION = re.compile(r"(?<![0-9A-Za-z])(?:(10|[2-9JQKAPN])([♣♦♥♠])|(2[01]|1[0-9]|[0-9])★)")


class ButtonRows(Protocol):
    """A message's buttons as the layout reads them: a :class:`cogs.kit.items.RoutedView` (the match buttons) or a
    discord.py view, each child with its Discord component (``to_component_dict``) and, if it names one, its row."""

    @property
    def children(self) -> Sequence[Any]: ...


class LiveLayout(discord.ui.LayoutView):
    """A V2 layout given as Discord's components (dicts), whose buttons the bot routes itself by their custom ids
    (:class:`cogs.kit.items.RoutedView`): no discord.py item is built for it, and discord.py keeps no copy of it per
    message sent."""

    def __init__(self, components: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self.components = components

    def to_components(self) -> list[dict[str, Any]]:
        return self.components

    def has_components_v2(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False

    def is_finished(self) -> bool:
        return True


def with_card_emoji(text: str) -> str:
    """``text`` with each card in notation shown as the app's emoji of it (the notation where there is none)."""
    if not CARD_EMOJI.ready:
        return text
    if len(text) <= SHORT_TEXT:
        return _short_emoji_text(text, CARD_EMOJI.version)
    shown = _markup_by_notation()
    return CARD_NOTATION.sub(lambda match: shown.get(match[0], match[0]), text)


#: a text this short (a button's label, a line of cards) is made with emoji once and remembered: a panel's come back
#: at every click; a longer one (a whole panel, different at each tap) is made each time
SHORT_TEXT = 80


@functools.lru_cache(maxsize=4096)
def _short_emoji_text(text: str, version: int) -> str:
    """:func:`with_card_emoji` of a short text, for the set at ``version``."""
    shown = _markup_by_notation()
    return CARD_NOTATION.sub(lambda match: shown.get(match[0], match[0]), text)


_markups: tuple[int, dict[str, str]] = (-1, {})


def _markup_by_notation() -> dict[str, str]:
    """Card notation (``Q♠``) -> its emoji's markup, for the set as it is known now (made again when it changes)."""
    global _markups
    version, markups = _markups
    if version != CARD_EMOJI.version:
        markups = {card_label(card): markup for card in CARDS if card != BACK and not is_joker(card)
                   and (markup := CARD_EMOJI.markup(card)) is not None}
        _markups = (CARD_EMOJI.version, markups)
    return markups


def _texts_with_emoji(texts: list[str]) -> list[str]:
    """The texts with card emoji, unless that would pass Discord's limit for a message's text (then as written)."""
    converted = [with_card_emoji(text) for text in texts]
    return converted if sum(map(len, converted)) <= MAX_TEXT else texts


def _rows(view: Any) -> list[dict[str, Any]]:
    """The view's buttons (a :class:`~cogs.kit.items.RoutedView`'s, or any discord.py view's items) as action rows:
    on the rows they name (five at most each), in order."""
    if view is None:
        return []
    rows: list[list[dict[str, Any]]] = []
    last_row: int | None = None
    for item in view.children:
        row = getattr(item, "row", None)
        if getattr(item, "item", None) is not None and row is None:  # (a DynamicItem: its button's row)
            row = item.item.row
        if not rows or len(rows[-1]) == ROW_WIDTH or (row is not None and row != last_row):
            rows.append([])
        rows[-1].append(item.to_component_dict())
        last_row = row
    return [{"type": 1, "components": buttons} for buttons in rows]


def _alt_texts(files: Sequence[Any]) -> dict[str, str]:
    return {file.filename: file.description for file in files
            if isinstance(file, discord.File) and file.description}


def layout(*, content: str | None = None, embeds: Sequence[discord.Embed] = (),
           view: ButtonRows | None = None, files: Sequence[Any] = (),
           gallery: Sequence[str] = (), below: str = "") -> LiveLayout:
    """The V2 layout of a message written as ``content``, ``embeds`` and ``view`` (``files``: its uploads, for their
    alt text), and ``below`` (a text display after the buttons). The pictures no embed shows (an upload, or
    ``gallery``: the names of those the message keeps from before) are a media gallery after the text, as a classic
    message shows its attachments."""
    heads: list[str] = []
    if content:
        heads.append(content)
    for embed in embeds:
        parts = [f"### {embed.title}" if embed.title else "", embed.description or ""]
        parts += [f"**{field.name}**\n{field.value}" for field in embed.fields]
        parts.append(f"-# {embed.footer.text}" if embed.footer.text else "")
        heads.append("\n".join(part for part in parts if part))
    texts = _texts_with_emoji([*heads, below] if below else heads)
    shown_below = texts.pop() if below else ""
    alt = _alt_texts(files)
    out: list[dict[str, Any]] = []
    at = 0
    if content:
        out.append({"type": 10, "content": texts[0]})
        at = 1
    container: list[dict[str, Any]] | None = None
    for embed, text in zip(embeds, texts[at:], strict=True):
        container = []
        if text:
            container.append({"type": 10, "content": text})
        url = embed.image.url
        if url:
            filename = url.removeprefix("attachment://").split("?")[0].rsplit("/", 1)[-1]
            container.append(_gallery([(url, alt.get(filename))]))
        colour = embed.colour
        out.append({"type": 17, "components": container,
                    **({"accent_color": colour.value} if colour is not None else {})})
    shown = {embed.image.url.removeprefix("attachment://") for embed in embeds if embed.image.url}
    loose = [name for name in dict.fromkeys([*(f.filename for f in files if isinstance(f, discord.File)), *gallery])
             if name not in shown]
    if loose:
        (out if container is None else container).append(
            _gallery([(f"attachment://{name}", alt.get(name)) for name in loose[:10]]))
    (out if container is None else container).extend(_rows(view))
    if shown_below:
        (out if container is None else container).append({"type": 10, "content": shown_below})
    if _count(out) > MAX_COMPONENTS:  # (a render's bug: Discord would refuse the message)
        raise ValueError(f"{_count(out)} components; a V2 message holds {MAX_COMPONENTS}")
    return LiveLayout(out)


def _count(components: Sequence[dict[str, Any]]) -> int:
    """How many components Discord counts in ``components``: each, and those nested in it."""
    return sum(1 + _count(component.get("components") or ()) for component in components)


def _gallery(pictures: Sequence[tuple[str, str | None]]) -> dict[str, Any]:
    """A media gallery of (address, alt text) pictures."""
    return {"type": 12, "items": [{"media": {"url": url}, **({"description": alt} if alt else {})}
                                  for url, alt in pictures]}


def as_layout(kwargs: dict[str, Any], *, edit: bool) -> dict[str, Any]:
    """``send``/``edit`` keyword arguments written the classic way, as a V2 message's. A new message with text alone
    stays as it is; an edit always becomes V2 (``view=None`` on an edit: the buttons go, the text stays). ``below``:
    text under the buttons (:func:`layout`)."""
    kwargs = {key: value for key, value in kwargs.items() if value is not discord.utils.MISSING}
    below = kwargs.pop("below", "")
    has_view = kwargs.get("view") is not None
    has_embeds = kwargs.get("embed") is not None or bool(kwargs.get("embeds"))
    if not edit and not has_view and not has_embeds:
        content = kwargs.get("content")
        if content:  # (a plain note shows its cards as emoji too, within a plain message's 2,000 characters)
            shown = with_card_emoji(content)
            if len(shown) <= MAX_CONTENT:
                return {**kwargs, "content": shown}
        return kwargs
    if isinstance(kwargs.get("view"), discord.ui.LayoutView):
        return kwargs
    out = dict(kwargs)
    content = out.pop("content", None)
    embed = out.pop("embed", None)
    embeds = list(out.pop("embeds", None) or ([] if embed is None else [embed]))
    view = out.pop("view", None)
    files = [*(out.get("files") or ()), *(out.get("attachments") or ())]
    if edit and content is None and not embeds and "content" not in kwargs and "embed" not in kwargs \
            and "embeds" not in kwargs:
        # an edit of the buttons alone: the caller does not say the text; it cannot be kept without knowing it
        raise ValueError("a V2 edit needs the message's text (content or embed)")
    out["view"] = layout(content=content, embeds=embeds, view=view, files=files, below=below)
    if edit:
        out["content"] = None
        out["embeds"] = []
    return out


def walk_components(components: Sequence[Any]) -> Iterator[Any]:
    """Every component of a received message (discord.py's), nested ones included (a V2 container's rows)."""
    for component in components:
        yield component
        yield from walk_components(getattr(component, "children", ()) or getattr(component, "components", ()) or ())
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield accessory


def shows_buttons(message: discord.Message) -> bool:
    """Whether a received message (its components as Discord sent them with a click) shows any button."""
    return any(isinstance(component, discord.Button) for component in walk_components(message.components))


LINK_STYLE = 5  #: a link button's style (Discord sends no click for it)


def without_buttons(message: discord.Message) -> LiveLayout:
    """The V2 layout ``message`` shows, without its buttons but its links (a result's Review link outlives its
    Rematch button); its text and pictures as they are."""

    def kept(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = []
        for component in components:
            if component.get("type") == 1:
                links = [item for item in component.get("components", ()) if item.get("style") == LINK_STYLE]
                if links:
                    out.append({**component, "components": links})
                continue
            if "components" in component:
                component = {**component, "components": kept(component["components"])}
            out.append(component)
        return out

    return LiveLayout(kept([component.to_dict() for component in message.components]))  # type: ignore[misc]
