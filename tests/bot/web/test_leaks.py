"""The leak scan over the served HTML: an Air War match being played through the local Discord, one order locked
in and not flipped yet -- its review page says the match is not over and names no card of it, in any form (card
code, notation, words, picture), nor any card of either stack."""

from __future__ import annotations

import aiohttp
import pytest

from bot.cards import card_label, describe
from bot.i18n import texts
from bot.services.settings import SettingsService
from tests.bot.web.browser import served
from tests.e2e.test_airwar import accept, challenge, dm_panel, lock_in, match_id_of, reverse, stack_of, start

pytestmark = pytest.mark.e2e


def forms(card: str) -> list[str]:
    """Every way a page could show the card."""
    return [f'"{card}"', f"/c/{card}.png", card_label(card), describe(card, texts("en"))]


async def test_an_unfinished_match_s_page_reveals_no_locked_order(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    message = await challenge(env, alice, bob, stack=5)
    match_id = match_id_of(message)
    thread = await accept(env, bob, message)
    assert thread is not None
    panel = await env.wait_for(lambda: dm_panel(env, alice, 1))
    stack = stack_of(panel)
    order = reverse(stack)
    await lock_in(env, alice, panel, order)  # alice's order is locked; bob has not chosen
    await env.wait_for(lambda: (env.bot.matches is not None))
    db = env.bot.database
    await SettingsService(db).set_web_public(env.guild.id, True)
    bob_stack = stack_of(await env.wait_for(lambda: dm_panel(env, bob, 1)))
    async with served(db) as base, aiohttp.ClientSession() as session, session.get(f"{base}/m/{match_id}") as page:
        assert page.status == 200
        html = await page.text()
    assert 'id="unfinished"' in html and "not over yet" in html
    for card in [*order, *bob_stack]:
        for shown in forms(card):
            assert shown not in html, f"{shown} is in the unfinished match's page"
