"""The real Air War bot against the local Discord: it connects, syncs its commands, answers /rules and /help."""

from __future__ import annotations

import re
import time

import pytest

from bot.registry import game_names
from tests.localdiscord import Env
from tests.localdiscord.airwar import airwar_bot_factory

pytestmark = pytest.mark.e2e

#: the games of the first wave, in menu order; every registered game is offered (the registry's order)
FIRST_GAMES = ("airwar", "war", "army", "drunkard", "todundleben")
GAMES = game_names()


def rules_of(game: str):
    from bot.rules_text import rules_text

    return rules_text(game)


async def test_the_bot_syncs_its_commands_to_the_guild(env: Env):
    commands = env.commands
    assert {"rules", "help"} <= set(commands)
    assert all(c.get("guild_id") == str(env.guild.id) for c in env.guild_commands)

    rules = commands["rules"]
    assert rules["type"] == 1
    [game] = rules["options"]
    assert game["name"] == "game"
    assert game["type"] == 3  # string
    assert game.get("required") is True
    assert [c["value"] for c in game["choices"]] == list(GAMES)
    assert [name for name in GAMES if name in FIRST_GAMES] == list(FIRST_GAMES)
    assert [c["name"] for c in game["choices"]] == [rules_of(g).title for g in GAMES]


async def test_rules_answers_ephemerally_with_that_games_rules(env: Env):
    alice = env.user("alice")
    bob = env.user("bob")

    ix = await env.slash(alice, "rules", game="war")
    response = await ix.wait_response()

    assert response.type == 4  # CHANNEL_MESSAGE_WITH_SOURCE
    assert response.ephemeral
    message = ix.message
    assert message.ephemeral and message.ephemeral_to is alice
    assert message.title == rules_of("war").title
    assert message.body.startswith("**Start:** `/war challenge`")
    # too long for a phone's screen in one go: pages of at most 3,000 characters, between paragraphs
    assert len(message.text) <= 3000 and "Page 1 of 2" in message.text
    pages = [message.embeds[0]["description"]]
    previous, following = message.buttons[:2]
    assert (previous["label"], previous.get("disabled")) == ("◀ Previous page", True)
    assert following["label"] == "Next page ▶" and not following.get("disabled")
    assert (await (await env.click(alice, message, custom_id=following["custom_id"])).wait_response()).type == 7
    assert len(message.text) <= 3000 and "Page 2 of 2" in message.text
    pages.append(message.embeds[0]["description"])
    assert "\n\n".join(pages) == rules_of("war").body  # nothing left out
    assert message.buttons[1].get("disabled") is True  # no page after the last
    await (await env.click(alice, message, custom_id=message.buttons[0]["custom_id"])).wait_response()
    assert message.embeds[0]["description"] == pages[0]

    # one button per game, the shown game's disabled
    labels = {b["label"]: b for b in message.buttons[2:]}
    assert list(labels) == [rules_of(g).title for g in GAMES]
    assert [b["custom_id"] for b in message.buttons[2:]] == [f"rules:{g}" for g in GAMES]
    assert labels[rules_of("war").title].get("disabled") is True

    # only alice sees it: nothing public in the channel, nothing for bob
    assert env.ephemerals(alice) == [message]
    assert env.ephemerals(bob) == []
    assert env.messages() == []


async def test_a_rules_button_switches_the_message_to_the_other_game(env: Env):
    alice = env.user("alice")
    ix = await env.slash(alice, "rules", game="airwar")
    await ix.wait_response()
    message = ix.message

    click = await env.click(alice, message, rules_of("army").title)
    response = await click.wait_response()

    assert response.type == 7  # UPDATE_MESSAGE: the same ephemeral message, edited in place
    assert click.message is message
    assert message.title == rules_of("army").title
    assert rules_of("army").body.startswith(message.embeds[0]["description"])  # its first page
    assert message.history[-1].embeds[0]["title"] == rules_of("airwar").title
    disabled = [b["label"] for b in message.buttons if b.get("disabled")]
    assert disabled == ["◀ Previous page", rules_of("army").title]
    assert env.ephemerals(alice) == [message]  # no new message


async def test_the_rules_buttons_keep_working_by_custom_id(env: Env):
    alice = env.user("alice")
    ix = await env.slash(alice, "rules", game="army")
    await ix.wait_response()

    click = await env.click(alice, ix.message, custom_id="rules:todundleben")
    await click.wait_response()
    assert ix.message.title == rules_of("todundleben").title


async def test_help_is_a_short_private_overview_whose_menu_shows_how_each_game_is_played(env: Env):
    from bot.howto import how_to, start_command
    from bot.registry import ACCURACY, registry
    from cogs.rules import help_pages

    alice, bob = env.user("alice"), env.user("bob")
    ix = await env.slash(alice, "help")
    response = await ix.wait_response()

    assert response.type == 4 and response.ephemeral
    message = ix.message
    assert message.ephemeral_to is alice and env.ephemerals(bob) == [] and env.messages() == []
    assert message.title == "Air War"
    assert len(message.text) <= 3000
    for plugin in registry().plugins:  # every game in a line, with the command that starts it
        [line] = [line for line in message.body.splitlines() if f"**{plugin.title}**" in line]
        assert line.endswith(f" · {start_command(plugin.name)}")
    assert "`/airwar challenge`" in message.body and "**Accept**" in message.body
    assert "Double War" in message.body  # War's variants, from the registry
    [menu] = message.selects
    assert [option["value"] for option in menu["options"]] == list(help_pages())
    assert [option["label"] for option in menu["options"]][1:1 + len(registry().plugins)] == [
        plugin.title for plugin in registry().plugins]

    click = await env.select(alice, message, ["airwar"])
    response = await click.wait_response()
    assert response.type == 7  # UPDATE_MESSAGE: the same private message, edited in place
    assert click.message is message and env.ephemerals(alice) == [message]
    assert message.title == "Air War" and how_to("airwar") in message.body
    assert "**Arrange**" in message.body and "**Lock in**" in message.body
    assert ACCURACY in message.body.splitlines()
    assert len(message.text) <= 3000
    [menu] = message.selects
    assert [option["value"] for option in menu["options"] if option.get("default")] == ["airwar"]

    await (await env.select(alice, message, ["Army"])).wait_response()
    assert message.title == "Army" and ACCURACY in message.body.splitlines()
    await (await env.select(alice, message, ["war"])).wait_response()
    assert message.title == "War" and ACCURACY not in message.body and "Double War" in message.body
    assert env.ephemerals(bob) == [] and env.messages() == []


async def test_help_speaks_the_readers_language_through_its_menu(env: Env):
    from bot.howto import how_to, start_command
    from bot.i18n import texts
    from bot.registry import ACCURACY

    german = texts("de")
    anna = env.user("anna", locale="de")
    ix = await env.slash(anna, "help")
    await ix.wait_response()
    message = ix.message
    assert message.ephemeral_to is anna
    assert start_command("airwar", german) == "`/luftkrieg herausfordern`"
    assert start_command("airwar", german) in message.body and "/airwar" not in message.body
    assert message.selects[0]["options"][0]["label"] == german("Overview")

    await (await env.select(anna, message, ["airwar"])).wait_response()
    assert message.title == german("Air War") and how_to("airwar", german) in message.body
    assert german(ACCURACY) in message.body and f"**{german('Lock in')}**" in message.body


async def test_help_pages_together_explain_every_command(env: Env):
    from cogs.rules import help_pages

    alice = env.user("alice")
    ix = await env.slash(alice, "help")
    await ix.wait_response()
    advertised: set[str] = set()
    for page in help_pages():
        await (await env.select(alice, ix.message, [page])).wait_response()
        assert len(ix.message.text) <= 3000
        advertised |= set(re.findall(r"`(/[a-z0-9_]+(?: [a-z0-9_]+)?)`", ix.message.body))
    registered = {f"/{name}" for name, command in env.commands.items() if not any(
        option["type"] == 1 for option in command.get("options", []))}
    registered |= {f"/{name} {option['name']}" for name, command in env.commands.items()
                   for option in command.get("options", []) if option["type"] == 1}
    assert advertised == registered - {"/help"}  # every command is explained, and only commands that exist


async def test_start_ready_and_one_rules_round_trip_take_under_a_second(make_env, tmp_path):
    started = time.perf_counter()
    env = await make_env(airwar_bot_factory(tmp_path / "timing.db"))
    ready = time.perf_counter() - started
    alice = env.user("alice")
    ix = await env.slash(alice, "rules", game="war")
    await ix.wait_response()
    total = time.perf_counter() - started
    print(f"\nlocal Discord + Air War bot ready in {ready * 1000:.0f} ms; with one /rules round trip "
          f"{total * 1000:.0f} ms")
    assert env.ephemerals(alice)[0].title == rules_of("war").title
    assert total < 1.0
