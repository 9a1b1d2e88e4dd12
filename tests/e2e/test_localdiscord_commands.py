"""The local Discord refuses the application commands Discord refuses, and accepts the Air War bot's tree.

The requests are sent as raw HTTP: discord.py checks names itself, and these tests are about the server.
"""

from __future__ import annotations

import math

import aiohttp
import pytest

from tests.localdiscord import Env, command_characters
from tests.localdiscord.command_limits import MAX_COMMAND_CHARACTERS

pytestmark = pytest.mark.e2e

USER_COMMAND = 2


async def call(env: Env, method: str, path: str, body: object | None = None) -> tuple[int, dict | list | None]:
    url = f"{env.discord.api_base}/applications/{env.application_id}{path}"
    async with aiohttp.ClientSession() as session, session.request(
            method, url, json=body, headers={"Authorization": f"Bot {env.token}"}) as response:
        return response.status, (await response.json() if response.status != 204 else None)


def refused_at(status: int, body: object, *path: str) -> bool:
    """A 50035 whose ``errors`` name the field at ``path``."""
    if status != 400 or not isinstance(body, dict) or body.get("code") != 50035:
        return False
    node = body.get("errors", {})
    for part in path:
        node = node.get(part, {})
    return bool(node.get("_errors"))


def slash(name: str, *options: dict, description: str = "a command") -> dict:
    return {"type": 1, "name": name, "description": description, "options": list(options),
            "integration_types": [0, 1], "contexts": [0, 1, 2]}


def option(name: str, *, required: bool = False, kind: int = 3, options: list[dict] | None = None) -> dict:
    data: dict = {"type": kind, "name": name, "description": f"the {name}"}
    if kind in (1, 2):
        data["options"] = options or []
    else:
        data["required"] = required
    return data


def command_of_size(size: int) -> dict:
    """A chat-input command counting exactly ``size`` characters (one string option whose choices fill it)."""
    choices: list[dict] = []
    command = slash("big", {**option("pick"), "choices": choices})
    missing = size - command_characters(command)
    count = math.ceil(missing / 200)
    for index in range(count):
        length = missing // count + (index < missing % count)
        name = f"{index:02d}".ljust(length // 2, "n")
        choices.append({"name": name, "value": "v" * (length - len(name))})
    assert command_characters(command) == size
    return command


# ------------------------------------------------------------------------------------------------- counting
def test_the_counted_size_takes_every_name_description_and_choice_and_the_longest_localization():
    command = {
        "name": "game", "description": "play",  # 8
        "description_localizations": {"fr": "jouer une partie", "de": "spielen"},  # 16 instead of 4: 20
        "options": [{
            "type": 2, "name": "war", "description": "War",  # 6
            "options": [{
                "type": 1, "name": "start", "description": "begin",  # 10
                "options": [{"type": 4, "name": "stake", "description": "how much",  # 13
                             "choices": [{"name": "one", "value": 1}, {"name": "ten", "value": 10,  # 4 + 5
                                                                       "name_localizations": {"fr": "dix"}}]}],
            }],
        }],
    }
    assert command_characters(command) == 20 + 6 + 10 + 13 + 4 + 5


# ---------------------------------------------------------------------------------------------------- names
async def test_names_must_be_discord_names_in_lowercase(make_env):
    env = await make_env()
    for path in ("/commands", f"/guilds/{env.guild.id}/commands"):
        status, body = await call(env, "PUT", path, [slash("ok"), slash("Challenge")])
        assert refused_at(status, body, "1", "name"), body
        assert body["message"] == "Invalid Form Body"
        status, body = await call(env, "POST", path, slash("play", option("two words")))
        assert refused_at(status, body, "options", "0", "name"), body
        status, body = await call(env, "POST", path, slash("play", option("Stake")))
        assert refused_at(status, body, "options", "0", "name"), body
        status, body = await call(env, "POST", path, slash("play!"))
        assert refused_at(status, body, "name"), body
        status, body = await call(env, "POST", path, {**slash("play"), "name_localizations": {"fr": "Jouer"}})
        assert refused_at(status, body, "name_localizations", "fr"), body
    assert env.global_commands == [] and env.guild_commands == []

    accepted = [slash("défi", option("ставка")), slash("war-stats_2"), slash("who's"), slash("नमस्ते"),
                {"type": USER_COMMAND, "name": "Challenge Them", "integration_types": [0], "contexts": [0]}]
    status, body = await call(env, "PUT", "/commands", accepted)
    assert status == 200, body
    assert [c["name"] for c in env.global_commands] == ["défi", "war-stats_2", "who's", "नमस्ते", "Challenge Them"]


async def test_an_edit_is_held_to_the_same_rules(make_env):
    env = await make_env()
    status, created = await call(env, "POST", "/commands", slash("play", option("stake")))
    assert status == 201, created
    status, body = await call(env, "PATCH", f"/commands/{created['id']}", {"name": "Play"})
    assert refused_at(status, body, "name"), body
    assert env.global_commands[0]["name"] == "play"


# ----------------------------------------------------------------------------------------------------- size
async def test_a_command_counts_at_most_4000_characters(make_env):
    env = await make_env()
    status, body = await call(env, "POST", "/commands", command_of_size(MAX_COMMAND_CHARACTERS + 1))
    assert refused_at(status, body), body
    status, body = await call(env, "PUT", "/commands", [slash("ok"), command_of_size(MAX_COMMAND_CHARACTERS + 1)])
    assert refused_at(status, body, "1"), body
    assert env.global_commands == []

    largest = command_of_size(MAX_COMMAND_CHARACTERS)
    status, body = await call(env, "PUT", "/commands", [largest])
    assert status == 200, body

    localized = command_of_size(MAX_COMMAND_CHARACTERS - 50)
    localized["description_localizations"] = {"fr": "une très longue description " + "x" * 60}
    status, body = await call(env, "POST", "/commands", localized)
    assert refused_at(status, body), body


# ---------------------------------------------------------------------------------------------------- count
async def test_a_scope_holds_at_most_100_chat_input_commands(make_env):
    env = await make_env()
    guild_path = f"/guilds/{env.guild.id}/commands"
    hundred = [slash(f"c{n}") for n in range(100)]
    status, body = await call(env, "PUT", guild_path, [*hundred, slash("c100")])
    assert refused_at(status, body), body
    assert env.guild_commands == []

    user_commands = [{"type": USER_COMMAND, "name": f"User {n}"} for n in range(3)]
    status, body = await call(env, "PUT", guild_path, hundred + user_commands)
    assert status == 200, body
    status, body = await call(env, "POST", guild_path, slash("c100"))
    assert (status, body["code"]) == (400, 30032), body
    status, body = await call(env, "POST", guild_path, slash("c7", description="replaced"))
    assert status == 200, body
    assert len(env.guild_commands) == 103

    # each guild, and the global scope, counts on its own
    status, body = await call(env, "PUT", "/commands", hundred)
    assert status == 200, body


# -------------------------------------------------------------------------------------------------- options
async def test_required_options_come_before_optional_ones_at_each_level(make_env):
    env = await make_env()
    status, body = await call(env, "POST", "/commands", slash("play", option("rounds"), option("who", required=True)))
    assert refused_at(status, body, "options", "1", "required"), body

    nested = slash("game", option("war", kind=2, options=[
        option("start", kind=1, options=[option("who", required=True), option("rounds"), option("pack",
                                                                                               required=True)])]))
    status, body = await call(env, "PUT", "/commands", [nested])
    assert refused_at(status, body, "0", "options", "0", "options", "0", "options", "2", "required"), body
    assert env.global_commands == []

    ordered = slash("play", option("who", required=True), option("pack", required=True), option("rounds"))
    status, body = await call(env, "POST", "/commands", ordered)
    assert status == 201, body


async def test_option_names_are_unique_at_each_level(make_env):
    env = await make_env()
    status, body = await call(env, "POST", "/commands", slash("play", option("who"), option("who")))
    assert refused_at(status, body, "options", "1", "name"), body
    twice = slash("game", option("war", kind=1, options=[option("who")]), option("war", kind=1))
    status, body = await call(env, "POST", "/commands", twice)
    assert refused_at(status, body, "options", "1", "name"), body
    assert env.global_commands == []

    # the same name on different levels or in sibling subcommands is fine
    status, body = await call(env, "POST", "/commands", slash("war", option("war", kind=1, options=[option("war")]),
                                                              option("army", kind=1, options=[option("war")])))
    assert status == 201, body


# -------------------------------------------------------------------------------------------------- the bot
#: the share of Discord's size a command of the bot may use: room for the options still to come
HEADROOM = 0.75


async def test_the_bots_own_tree_is_accepted_with_every_command_under_75_percent_of_the_limit(env: Env):
    synced = env.guild_commands
    assert {"war", "airwar"} <= {c["name"] for c in synced}
    sizes = {command["name"]: command_characters(command) for command in synced}
    too_big = {name: size for name, size in sizes.items() if size > HEADROOM * MAX_COMMAND_CHARACTERS}
    assert not too_big, f"over {HEADROOM:.0%} of {MAX_COMMAND_CHARACTERS} characters: {too_big}"
    assert not env.discord.problems


async def test_war_takes_its_rules_as_text_offered_as_they_are_typed(env: Env):
    war = next(command for command in env.guild_commands if command["name"] == "war")
    challenge = next(option for option in war["options"] if option["name"] == "challenge")
    rules = next(option for option in challenge["options"] if option["name"] == "rules")
    assert rules["type"] == 3 and rules.get("autocomplete") and not rules.get("required")
    alice = env.user("alice")
    ix = await env.autocomplete(alice, "war challenge", "rules", "face_down=3 pa", opponent=env.user("bob"))
    await ix.wait_response()
    offered = {choice["value"]: choice["name"] for choice in ix.choices}
    assert ix.choices[0]["value"] == "face_down=3 pa" and offered["face_down=3 pa"].startswith("⚠️")
    assert {"face_down=3 pack=36", "face_down=3 pack=32"} <= set(offered)
    assert "face_down=3 pack=52" not in offered  # the default changes nothing: offered once the key is typed whole
    assert all(len(name) <= 100 and len(value) <= 100 for value, name in offered.items())
    ix = await env.autocomplete(alice, "war lobby", "rules", "pack=", variant="todundleben")
    await ix.wait_response()
    assert [choice["value"] for choice in ix.choices][1:] == ["pack=52", "pack=32"]  # Tod und Leben's packs
