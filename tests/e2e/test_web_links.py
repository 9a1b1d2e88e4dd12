"""The web pages' links through the local Discord: ``/settings web on|off`` (Manage Server), and the **Review** link on
a match's result and the **Bracket** link on a tournament's status message -- when the bot has ``WEB_URL`` and the
server's pages are public; none without ``WEB_URL``, none while the pages are off. A link outlives the Rematch
button."""

from __future__ import annotations

import dataclasses

import pytest

from bot.services.settings import SettingsService
from tests.e2e.test_tournament import create, open_calls
from tests.e2e.test_tournament import start as tournament_env
from tests.e2e.test_tournament import status_message as tournament_status
from tests.e2e.test_war import SMALL, assert_result, challenge, click, results, slash
from tests.e2e.test_war import start as war_env
from tests.localdiscord import CommandNotPermitted, Env

pytestmark = pytest.mark.e2e

WEB = "https://cards.example.org"


def with_web_url(env: Env, url: str | None) -> None:
    """The bot as started with ``WEB_URL`` (``None``: unset)."""
    env.bot.settings = dataclasses.replace(env.bot.settings, web_url=url)


def links(message) -> list[tuple[str, str]]:
    return [(button["label"], button["url"]) for button in message.buttons if button.get("style") == 5]


async def test_settings_web_is_for_managers_and_says_what_it_did(make_env, tmp_path):
    env = await war_env(make_env, tmp_path)
    with_web_url(env, WEB)
    owner, member = env.guild.owner, env.user("member")
    settings = SettingsService(env.bot.database)
    with pytest.raises(CommandNotPermitted, match="default_member_permissions=32"):  # hidden from them
        await env.slash(member, "settings web", state="on")
    env.commands["settings"]["default_member_permissions"] = None  # as if the server let everyone use /settings
    ix = await slash(env, member, "settings web", state="on")
    assert ix.response.ephemeral and ix.message.text.endswith("needs the Manage Server permission.")
    assert not await settings.web_public(env.guild.id)
    ix = await slash(env, owner, "settings web", state="on")
    assert ix.response.ephemeral and "public on the web" in ix.message.text
    assert f"{WEB}/s/{env.guild.id}/" in ix.message.text
    assert await settings.web_public(env.guild.id)
    ix = await slash(env, owner, "settings web", state="off")
    assert "not found" in ix.message.text and not await settings.web_public(env.guild.id)


@pytest.mark.parametrize(("url", "public", "linked"), [(WEB, True, True), (None, True, False), (WEB, False, False)])
async def test_a_result_carries_the_review_link_only_with_web_url_and_public_pages(make_env, tmp_path, url, public,
                                                                                     linked):
    env = await war_env(make_env, tmp_path)
    with_web_url(env, url)
    await SettingsService(env.bot.database).set_web_public(env.guild.id, public)
    alice, bob = env.user("alice"), env.user("bob")
    match_id, thread = await challenge(env, alice, bob, pace="instant", **SMALL)
    await assert_result(env, match_id, thread, [alice, bob], "war", {"pack": 32, "max_rounds": 12})
    [result] = results(env, env.channel())
    labels = [button["label"] for button in result.buttons]
    assert "Rematch" in labels
    if not linked:
        assert links(result) == []
        return
    assert links(result) == [("Review", f"{WEB}/m/{match_id}")]
    # a rematch takes the Rematch button away; the Review link stays
    rematch = next(button for button in result.buttons if button.get("custom_id", "").startswith("war:rm:"))
    await click(env, alice, result, rematch["custom_id"])
    await env.wait_for(lambda: not any(button.get("custom_id") for button in result.buttons))
    assert links(result) == [("Review", f"{WEB}/m/{match_id}")]


@pytest.mark.parametrize("url", [WEB, None])
async def test_a_tournament_status_message_carries_the_bracket_link_only_with_web_url(make_env, tmp_path, url):
    env = await tournament_env(make_env, tmp_path / "t.db")
    with_web_url(env, url)
    await SettingsService(env.bot.database).set_web_public(env.guild.id, True)
    organiser = env.user("org")
    players = [env.user(f"p{n}") for n in range(4)]
    tournament_id = await create(env, organiser, "single elimination", players)
    await (await env.slash(organiser, "tournament start")).wait_response()
    await env.wait_for(lambda: open_calls(env, players[0]) and tournament_status(env).attachments)
    expected = [("Bracket", f"{WEB}/t/{tournament_id}")] if url else []
    await env.wait_for(lambda: links(tournament_status(env)) == expected,
                       message=f"links: {links(tournament_status(env))}")
