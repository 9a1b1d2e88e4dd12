"""``/help``'s pages in every language: each reads on a phone (no page over 3,000 characters), its menu within
Discord's limits, War's line naming every variant."""

from __future__ import annotations

import pytest

from bot.i18n import LANGUAGES, texts
from bot.registry import registry
from cogs.rules import OVERVIEW, help_embed, help_pages, help_view

#: the longest a /help page may be (Discord's limit is 4,096: a page must read on a phone)
PAGE_LIMIT = 3000


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_help_page_is_short_and_in_the_readers_language(language: str):
    say = texts(language)
    for page in help_pages():
        embed = help_embed(page, language)
        assert len(embed.title or "") + len(embed.description or "") <= PAGE_LIMIT, page
    overview = help_embed(OVERVIEW, language).description or ""
    assert len(overview.splitlines()) <= 20
    for plugin in registry().plugins:
        assert f"**{say(plugin.title)}**" in overview
    for name in registry().family("war"):
        assert say(registry().entry(name).title) in overview


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_help_menu_offers_every_page_once_within_discords_limits(language: str):
    [menu] = help_view("army", language).children
    options = menu.item.options
    assert [option.value for option in options] == list(help_pages())
    assert len(options) <= 25 and all(1 <= len(option.label) <= 100 for option in options)
    assert [option.value for option in options if option.default] == ["army"]
