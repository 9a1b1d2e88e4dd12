"""`/settings` end to end: hidden from a member without Manage Server, refused if they reach it anyway (nothing
changes), every setting validated
(a clear message, nothing changed), stored (read back by the settings service, shown by `/settings show`), and
used by Air War: a challenge refused in a channel not listed, a match without a thread when threads are off, the
server's default rules when the challenge gives none.

The last three need the Air War cog to read the settings service (``SettingsService.check_start``,
``thread_per_match``, ``rules_for`` / ``default_rules``); until it does they are skipped, saying so."""

from __future__ import annotations

import pytest

from bot.services.settings import SettingsService
from tests.e2e.test_airwar import accept, board, challenge, click, lift_rate_limits, match_id_of, results, slash, start
from tests.localdiscord import CommandNotPermitted, Env, InvalidOptions

pytestmark = pytest.mark.e2e

def stored(env: Env) -> SettingsService:
    """A separate settings service on the bot's database: what is stored, not what some cog remembers."""
    return SettingsService(env.bot.db)


MANAGE_SERVER = str(1 << 5)
CHANGES = (("settings timer", {"seconds": 60}), ("settings pace", {"seconds": 2.0}),
           ("settings warpace", {"pace": "auto"}), ("settings threads", {"enabled": False}),
           ("settings rules", {"game": "war", "rules": "pack=36"}),
           ("settings channels", {"action": "add", "channel": "games"}), ("settings channels", {"action": "clear"}),
           ("settings newseason", {"name": "Spring"}))


def synced_permissions(env: Env) -> dict[str, str | None]:
    return {name: command["default_member_permissions"] for name, command in env.commands.items()}


async def test_discord_shows_settings_only_to_members_who_manage_the_server(env: Env):
    permissions = synced_permissions(env)
    assert permissions["settings"] == MANAGE_SERVER  # every subcommand, show and newseason included
    assert permissions["season"] is None  # /season list is for everyone
    assert {name for name, value in permissions.items() if value is not None} == {"settings"}
    assert [o["name"] for o in env.commands["season"]["options"]] == ["list"]

    alice = env.user("alice")
    before = await stored(env).get(env.guild.id)
    for command, options in (*CHANGES, ("settings show", {})):
        with pytest.raises(CommandNotPermitted, match="default_member_permissions=32"):
            await env.slash(alice, command, **{k: env.channel(v) if k == "channel" else v for k, v in options.items()})
    assert env.interactions == []  # never delivered
    ix = await slash(env, alice, "season list")
    assert ix.response.ephemeral and "(current)" in ix.message.text
    mo = env.user("mo", roles=[env.role("Mod", permissions=1 << 5)])
    ix = await slash(env, mo, "settings show")
    assert ix.response.ephemeral and "Air War arrangement timer: 120 s" in ix.message.text
    assert await stored(env).get(env.guild.id) == before


async def test_a_member_without_manage_server_who_reaches_settings_is_refused_and_nothing_changes(env: Env):
    env.commands["settings"]["default_member_permissions"] = None  # as if the server let everyone use /settings
    alice = env.user("alice")
    before = await stored(env).get(env.guild.id)
    seasons = await env.bot.stats_service.seasons(env.guild.id)
    for command, options in CHANGES:
        ix = await slash(env, alice, command, **{k: env.channel(v) if k == "channel" else v
                                                   for k, v in options.items()})
        assert ix.response.ephemeral, command
        assert ix.message.text.endswith("needs the Manage Server permission."), command
    assert await stored(env).get(env.guild.id) == before
    assert await env.bot.stats_service.seasons(env.guild.id) == seasons
    assert env.messages() == []


async def test_every_setting_is_validated_stored_and_shown(env: Env):
    mo = env.user("mo", roles=[env.role("Mod", permissions=1 << 5)])  # Manage Server, nothing else
    games = env.channel("games")
    guild = env.guild.id
    refusals = [
        ("settings rules", {"game": "war", "rules": "pack=35"},
         "Bad rules for War: rule 'pack' takes one of 52, 36, 32, not 35. Nothing was changed."),
        ("settings rules", {"game": "airwar", "rules": "stack"},
         "Rules are key=value pairs separated by spaces; 'stack' isn't one. Nothing was changed."),
        ("settings channels", {"action": "remove", "channel": games},
         f"<#{games.id}> isn't one of the channels where matches may start. Nothing was changed."),
        ("settings channels", {"action": "add"}, "Name the channel to add. Nothing was changed."),
    ]
    before = await stored(env).get(guild)
    for command, options, message in refusals:
        ix = await slash(env, mo, command, **options)
        assert ix.response.ephemeral and ix.message.text == message
    assert await stored(env).get(guild) == before

    for command, options in (("settings timer", {"seconds": 45}), ("settings pace", {"seconds": 2.5}),
                             ("settings warpace", {"pace": "instant"}), ("settings threads", {"enabled": False}),
                             ("settings rules", {"game": "war", "rules": "pack=36 aces=low"}),
                             ("settings rules", {"game": "airwar", "rules": "stack=3"}),
                             ("settings channels", {"action": "add", "channel": games})):
        ix = await slash(env, mo, command, **options)
        assert ix.response.ephemeral and ix.message.text.startswith("Saved.\n**Server settings**"), command
    current = await stored(env).get(guild)
    assert (current.arrange_seconds, current.flip_pace_ms, current.war_pace, current.thread_per_match,
            current.start_channels) == (45, 2500, "instant", False, (games.id,))
    assert current.default_rules == {"airwar": {"stack": 3}, "war": {"aces": "low", "pack": 36}}
    assert (await env.bot.matches.get_settings(guild)).arrange_seconds == 45  # one setting, every reader

    ix = await slash(env, mo, "settings show")
    text = ix.message.text
    for line in ("Air War arrangement timer: 45 s", "Air War flip pace: 2.5 s between flips",
                 "War's default pace: instant", "Thread per match: off (matches play in the channel)",
                 f"Matches may start in: <#{games.id}>", "• Air War: stack=3", "• War: aces=low pack=36",
                 "• Army: the game’s defaults"):
        assert line in text, line

    ix = await slash(env, mo, "settings rules", game="war", rules="reset")
    assert "• War: the game’s defaults" in ix.message.text
    ix = await slash(env, mo, "settings channels", action="clear")
    assert "Matches may start in: any channel" in ix.message.text
    assert (await stored(env).get(guild)).start_channels == ()
    assert env.messages() == []


def option(env: Env, path: str, name: str) -> dict:
    """An option of a subcommand as synced to Discord (``path``: ``"settings pace"``)."""
    command, sub = path.split()
    [subcommand] = [o for o in env.commands[command]["options"] if o["name"] == sub]
    [found] = [o for o in subcommand["options"] if o["name"] == name]
    return found


async def test_the_timer_and_the_pace_take_seconds_and_refuse_in_seconds(env: Env):
    mo = env.user("mo", roles=[env.role("Mod", permissions=1 << 5)])
    pace, timer = option(env, "settings pace", "seconds"), option(env, "settings timer", "seconds")
    assert (pace["type"], pace["min_value"], pace["max_value"], pace["description"]) == \
        (10, 1, 5, "1 to 5 seconds (default 1.5)")
    assert (timer["type"], timer["min_value"], timer["max_value"], timer["description"]) == \
        (4, 30, 600, "30 to 600 seconds (default 120)")
    before = await stored(env).get(env.guild.id)
    for command, value in (("settings pace", 0.5), ("settings pace", 6), ("settings timer", 5)):
        with pytest.raises(InvalidOptions, match="outside"):  # Discord itself keeps to the range
            await env.slash(mo, command, seconds=value)

    for definition in (pace, timer):  # a client that sends a value out of range anyway
        del definition["min_value"], definition["max_value"]
    for command, value, message in (
            ("settings pace", 0.5, "The flip pace must be from 1 to 5 seconds, not 0.5. Nothing was changed."),
            ("settings pace", 5.25, "The flip pace must be from 1 to 5 seconds, not 5.25. Nothing was changed."),
            ("settings timer", 5,
             "The arrangement timer must be a whole number from 30 to 600 seconds, not 5. Nothing was changed.")):
        ix = await slash(env, mo, command, seconds=value)
        assert ix.response.ephemeral and ix.message.text == message
    assert await stored(env).get(env.guild.id) == before

    ix = await slash(env, mo, "settings pace", seconds=2.0004)  # to the millisecond
    assert "Air War flip pace: 2 s between flips" in ix.message.text
    assert (await stored(env).get(env.guild.id)).flip_pace_ms == 2000


async def test_war_paces_are_described_as_they_play(env: Env):
    pace = option(env, "settings warpace", "pace")
    assert [(c["value"], c["name"]) for c in pace["choices"]] == [
        ("flip", "flip: every player presses Flip for each round"),
        ("auto", "auto: the bot plays the rounds by itself"),
        ("instant", "instant: played out at once, the result shown")]
    assert pace["description"] == "How new War games play their rounds (a game's players may still vote to speed up)"


async def test_every_description_and_choice_of_every_command_is_whole(env: Env):
    """Discord takes 100 characters at most: a text that long was cut. Each is whole, under the limit."""

    def texts(node: dict):
        yield node["description"]
        yield from (choice["name"] for choice in node.get("choices") or ())
        for child in node.get("options") or ():
            yield from texts(child)

    assert {"settings", "war", "airwar", "army", "tournament", "preferences"} <= set(env.commands)
    for name, command in env.commands.items():
        for text in texts(command):
            assert 0 < len(text) < 100, (name, text)


async def test_a_challenge_outside_the_listed_channels_is_refused(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    games = env.channel("games")
    ix = await slash(env, env.owner, "settings channels", action="add", channel=games)
    assert ix.message.text.startswith("Saved.")

    ix = await slash(env, alice, "airwar challenge", opponent=bob)  # in #general
    assert ix.response.ephemeral
    assert ix.message.text == (f"Matches can't be started in <#{env.channel().id}> on this server; "
                                  f"start one in <#{games.id}>.")
    assert env.messages() == [] and await env.bot.matches.find_match(alice.id) is None
    message = await challenge(env, alice, bob, where=games)
    assert message.channel is games


async def test_with_threads_off_the_match_plays_in_the_channel(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    lift_rate_limits(env)
    alice, bob = env.user("alice"), env.user("bob")
    channel = env.channel()
    ix = await slash(env, env.owner, "settings threads", enabled=False)
    assert ix.message.text.startswith("Saved.")
    message = await challenge(env, alice, bob)
    match_id = match_id_of(message)
    await click(env, bob, message, label="Accept")
    first = await env.wait_for(lambda: board(env, channel, 1))
    assert first.channel is channel and not env.threads
    assert (await env.bot.matches.get_match(match_id)).thread_id is None
    ix = await slash(env, alice, "airwar forfeit")
    await click(env, alice, ix.message, label="Forfeit")
    assert len(await env.wait_for(lambda: results(env, channel))) == 1


async def test_the_servers_default_rules_apply_when_the_challenge_gives_none(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob, carol = env.user("alice"), env.user("bob"), env.user("carol")
    ix = await slash(env, env.owner, "settings rules", game="airwar", rules="stack=3 aces=low")
    assert ix.message.text.startswith("Saved.")

    message = await challenge(env, alice, bob)
    match = await env.bot.matches.get_match(match_id_of(message))
    assert (match.rules["stack"], match.rules["aces"]) == (3, "low")
    thread = await accept(env, bob, message)
    first = await env.wait_for(lambda: board(env, thread, 1))
    assert first is not None

    # the challenge's own option wins over the server's default; the other default still applies
    other = await challenge(env, carol, env.user("dave"), stack=5)
    match = await env.bot.matches.get_match(match_id_of(other))
    assert (match.rules["stack"], match.rules["aces"]) == (5, "low")
