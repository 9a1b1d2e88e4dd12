"""The link buttons to the web pages (:mod:`bot.web`): **Review** on a match's result, **Bracket** on a
tournament's status message. Only when the bot knows its web address (``WEB_URL``) and the server made its pages
public (``/settings web on``): otherwise the link would answer "not found", so there is none."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import N_, Texts
from bot.web.links import review_url, tournament_url
from cogs.kit.items import LinkSpec, RoutedView
from cogs.kit.stats_ui import settings_service

REVIEW_LABEL = N_("Review")
BRACKET_LABEL = N_("Bracket")


async def web_base(bot: Any, guild_id: int) -> str | None:
    """The web pages' address when the server's pages are public there; ``None``: no links."""
    base = bot.settings.web_url
    if base is None or not await settings_service(bot).web_public(guild_id):
        return None
    return base


async def with_review(bot: Any, guild_id: int, match_id: int, view: RoutedView | None,
                      say: Texts) -> RoutedView | None:
    """``view`` (the result's buttons, or none) with the **Review** link after them, when the web is on."""
    base = await web_base(bot, guild_id)
    if base is None:
        return view
    link = LinkSpec(say(REVIEW_LABEL), review_url(base, match_id), {"name": "🔎"})
    return RoutedView([*(view.children if view is not None else ()), link])


async def with_bracket(bot: Any, guild_id: int, tournament_id: int, view: discord.ui.View | None,
                       say: Texts) -> discord.ui.View | None:
    """``view`` (the status message's buttons, or none) with the **Bracket** link after them, when the web is
    on."""
    base = await web_base(bot, guild_id)
    if base is None:
        return view
    view = view if view is not None else discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=say(BRACKET_LABEL), url=tournament_url(base, tournament_id), emoji="🏆"))
    return view
