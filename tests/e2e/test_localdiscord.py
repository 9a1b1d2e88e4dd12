"""The local Discord's own tests, driven through a small discord.py bot defined here (not the Air War bot)."""

from __future__ import annotations

import asyncio
import io
import json
import struct
import time
import zlib

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from discord.http import Route

from tests.localdiscord import (
    CommandNotPermitted,
    ComponentNotFound,
    Env,
    File,
    InvalidOptions,
    TestProblems,
    UnknownCommand,
)

pytestmark = pytest.mark.e2e


def png(width: int = 3, height: int = 2) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


# ------------------------------------------------------------------------------------------------ the probe bot
class FormModal(discord.ui.Modal, title="Match settings"):
    name = discord.ui.TextInput(label="Match name", custom_id="form:name")
    stake = discord.ui.TextInput(label="Stake", custom_id="form:stake", required=False)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"saved {self.name.value} / {self.stake.value or '-'}",
                                                ephemeral=True)


class FormView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.select(custom_id="form:pack", placeholder="Pack", options=[
        discord.SelectOption(label="52 cards", value="52"), discord.SelectOption(label="36 cards", value="36")])
    async def pack(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"pack {select.values[0]}", view=self)

    @discord.ui.button(label="Open form", custom_id="form:open")
    async def open(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_modal(FormModal())


class ConfirmView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.button(label="Accept", custom_id="dm:accept", style=discord.ButtonStyle.success)
    async def accept(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        where = "guild" if interaction.guild_id else "dm"
        await interaction.response.edit_message(content=f"accepted by {interaction.user.name} in {where}", view=None)


class ProbeBot(commands.Bot):
    """A small bot exercising the parts of discord.py the local Discord must serve."""

    def __init__(self, guild_id: int, **options) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05, **options)
        self.guild_id = guild_id
        self.gate = asyncio.Event()
        self.caught: list[BaseException] = []
        self.stash: dict[str, discord.Interaction] = {}
        self.seen: dict[str, object] = {}
        self.thread_events: list[int] = []
        self.heard: list[str] = []
        self.channel_events: list[str] = []

    async def on_thread_create(self, thread: discord.Thread) -> None:
        self.thread_events.append(thread.id)

    async def on_message(self, message: discord.Message) -> None:
        if message.author != self.user:
            self.heard.append(message.content)

    async def on_guild_channel_create(self, channel: discord.abc.GuildChannel) -> None:
        self.channel_events.append(channel.name)

    async def setup_hook(self) -> None:
        guild = discord.Object(self.guild_id)
        tree = self.tree

        @tree.command(name="ping", description="pong")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong")

        @tree.command(name="slow", description="answers when the test says so")
        async def slow(interaction: discord.Interaction) -> None:
            await self.gate.wait()
            try:
                await interaction.response.send_message("finally")
            except discord.HTTPException as exc:
                self.caught.append(exc)

        @tree.command(name="twice", description="answers twice")
        async def twice(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("once")
            route = Route("POST", "/interactions/{interaction_id}/{interaction_token}/callback",
                          interaction_id=interaction.id, interaction_token=interaction.token)
            try:  # discord.py refuses a second response itself, so go round it
                await self.http.request(route, json={"type": 4, "data": {"content": "twice"}})
            except discord.HTTPException as exc:
                self.caught.append(exc)

        @tree.command(name="later", description="defers and keeps the interaction")
        async def later(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            self.stash["later"] = interaction

        @tree.command(name="config", description="admins only")
        @app_commands.default_permissions(manage_guild=True)
        async def config(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("settings", ephemeral=True)

        @tree.command(name="boom", description="fails")
        async def boom(interaction: discord.Interaction) -> None:
            raise RuntimeError("kaboom")

        @tree.command(name="form", description="select + modal")
        async def form(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("choose", view=FormView())

        @tree.command(name="upload", description="answers with an image")
        async def upload(interaction: discord.Interaction, image: discord.Attachment | None = None) -> None:
            data = await image.read() if image else png()
            self.seen["upload"] = data
            await interaction.response.send_message("here", file=discord.File(io.BytesIO(data), "echo.png"))

        async def fruit_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            fruits = ["apple", "apricot", "banana", "cherry"]
            return [app_commands.Choice(name=f, value=f) for f in fruits if f.startswith(current)]

        @tree.command(name="pick", description="autocomplete")
        @app_commands.autocomplete(fruit=fruit_names)
        async def pick(interaction: discord.Interaction, fruit: str) -> None:
            await interaction.response.send_message(f"picked {fruit}")

        airwar = app_commands.Group(name="airwar", description="Air War")

        @airwar.command(name="challenge", description="challenge someone")
        @app_commands.describe(opponent="who", stake="how much")
        async def challenge(interaction: discord.Interaction, opponent: discord.Member, stake: int = 1) -> None:
            self.seen["opponent"] = opponent
            await interaction.response.send_message(
                f"{interaction.user.name} challenges {opponent.mention} for {stake}",
                allowed_mentions=discord.AllowedMentions.none())

        tree.add_command(airwar)
        for command in list(tree.get_commands()):
            tree.remove_command(command.name)
            tree.add_command(command, guild=guild)
        await tree.sync(guild=guild)


@pytest.fixture
async def probe(make_env):
    env = await make_env(lambda env: ProbeBot(env.guild.id))
    return env


def bot_of(env: Env) -> ProbeBot:
    assert isinstance(env.bot, ProbeBot)
    return env.bot


# ----------------------------------------------------------------------------------------------------- basics
async def test_the_bot_connects_syncs_and_answers(probe: Env):
    assert set(probe.guild_commands and probe.commands) >= {"ping", "slow", "twice", "airwar", "config"}
    session = probe.discord.hub.sessions[0]
    # discord.py asked for zstd-stream (the speed extra installs zstandard) and got it
    assert type(session.compress).__name__ == "_Zstd"
    alice = probe.user("alice")
    ix = await probe.slash(alice, "ping")
    response = await ix.wait_response()
    assert response.type == 4
    assert probe.messages() == [ix.message]
    assert ix.message.content == "pong"
    assert ix.message.interaction_metadata["user"]["id"] == str(alice.id)
    # nothing tolerated but the documented integer-snowflake case
    assert all("integer snowflake" in t.what for t in probe.discord.tolerated)


async def test_subcommands_and_user_options_are_resolved(probe: Env):
    alice, bob = probe.user("alice"), probe.user("bob")
    ix = await probe.slash(alice, "airwar challenge", opponent=bob, stake=3)
    await ix.wait_response()
    assert ix.message.content == f"alice challenges {bob.mention} for 3"
    [group] = ix.data["options"]
    assert group["name"] == "challenge" and group["type"] == 1
    assert ix.data["resolved"]["users"][str(bob.id)]["username"] == "bob"
    assert str(bob.id) in ix.data["resolved"]["members"]
    opponent = bot_of(probe).seen["opponent"]
    assert isinstance(opponent, discord.Member) and opponent.id == bob.id


async def test_the_driver_refuses_what_a_discord_client_would_not_send(probe: Env):
    alice = probe.user("alice")
    with pytest.raises(UnknownCommand):
        await probe.slash(alice, "nope")
    with pytest.raises(UnknownCommand, match="needs a subcommand"):
        await probe.slash(alice, "airwar")
    with pytest.raises(InvalidOptions, match="required"):
        await probe.slash(alice, "airwar challenge", stake=2)
    with pytest.raises(InvalidOptions, match="integer"):
        await probe.slash(alice, "airwar challenge", opponent=alice, stake="lots")
    assert probe.interactions == []


# ---------------------------------------------------------------------------------------------- spec checks
async def test_a_request_body_that_breaks_the_spec_is_answered_50035_and_fails_the_test(probe: Env):
    bot = bot_of(probe)
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=probe.channel().id)
    with pytest.raises(discord.HTTPException) as caught:
        await bot.http.request(route, json={"content": "hi", "tts": "yes please"})
    assert caught.value.status == 400 and caught.value.code == 50035
    assert "tts" in str(caught.value.text) or "tts" in str(caught.value)

    with pytest.raises(TestProblems, match="spec_request"):
        probe.check()
    [problem] = probe.take_problems("spec_request")
    assert "POST /channels/{channel_id}/messages" in problem.detail and "tts" in problem.detail
    assert probe.messages() == []


async def test_an_unknown_route_answers_404_and_is_listed(probe: Env):
    bot = bot_of(probe)
    with pytest.raises(discord.NotFound):
        await bot.http.request(Route("GET", "/channels/{channel_id}/nonsense", channel_id=probe.channel().id))
    with pytest.raises(discord.NotFound):  # a real Discord route the local Discord does not serve
        await bot.http.request(Route("GET", "/guilds/{guild_id}/bans", guild_id=probe.guild.id))

    assert any("/nonsense" in r for r in probe.discord.unknown_routes)
    assert "GET /guilds/{guild_id}/bans" in probe.discord.unknown_routes
    failures = probe.failures()
    assert len([f for f in failures if f.startswith("[unknown_route]")]) == 2
    with pytest.raises(TestProblems, match="unknown_route"):
        probe.check()
    assert len(probe.take_problems("unknown_route")) == 2


async def test_nothing_but_loopback_is_reachable(probe: Env):
    with pytest.raises(ConnectionRefusedError):
        await asyncio.open_connection("192.0.2.1", 443)  # TEST-NET-1: refused before any packet leaves
    with pytest.raises(OSError):
        await asyncio.open_connection("discord.com", 443)  # no name lookups either
    assert [p.kind for p in probe.take_problems("network")] == ["network", "network"]
    assert discord.http.Route.BASE.startswith("http://127.0.0.1:")
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY).startswith("ws://127.0.0.1:")


async def test_every_error_log_record_fails_the_test(probe: Env):
    alice = probe.user("alice")
    ix = await probe.slash(alice, "boom")
    await probe.wait_for(lambda: probe.log_guard.records)
    assert any("kaboom" in line or "boom" in line for line in probe.failures())
    with pytest.raises(TestProblems, match="error_log"):
        probe.check()
    assert probe.take_error_logs()
    probe.clock.advance(5)  # the failing command never answered: Discord shows "This interaction failed"
    assert [p.kind for p in probe.take_problems()] == ["unanswered_interaction"]
    assert not ix.responded


# -------------------------------------------------------------------------------------------- interactions
async def test_a_late_first_response_gets_10062_and_fails_the_test(probe: Env):
    bot = bot_of(probe)
    alice = probe.user("alice")
    ix = await probe.slash(alice, "slow")
    probe.clock.advance(3.5)  # the bot takes longer than Discord's 3 seconds
    bot.gate.set()
    await probe.wait_for(lambda: ix.errors)

    assert ix.errors == [(404, 10062, "Unknown interaction")]
    await probe.wait_for(lambda: bot.caught)
    [exc] = bot.caught
    assert isinstance(exc, discord.NotFound) and exc.code == 10062
    assert not ix.responded and probe.messages() == []
    with pytest.raises(TestProblems, match="late_interaction_response"):
        probe.check()
    [problem] = probe.take_problems("late_interaction_response")
    assert "3.5" in problem.detail


async def test_a_second_response_gets_40060(probe: Env):
    bot = bot_of(probe)
    alice = probe.user("alice")
    ix = await probe.slash(alice, "twice")
    await ix.wait_response()
    await probe.wait_for(lambda: bot.caught)
    [exc] = bot.caught
    assert isinstance(exc, discord.HTTPException) and exc.status == 400 and exc.code == 40060
    assert ix.errors == [(400, 40060, "Interaction has already been acknowledged.")]
    assert [m.content for m in probe.messages()] == ["once"]
    assert len(probe.take_problems("interaction_already_acknowledged")) == 1


async def test_deferred_responses_edit_the_original_and_an_expired_token_refuses_followups(probe: Env):
    bot = bot_of(probe)
    alice = probe.user("alice")
    ix = await probe.slash(alice, "later")
    response = await ix.wait_response()
    assert response.type == 5 and ix.message.loading and ix.message.ephemeral_to is alice
    interaction = await probe.wait_for(lambda: bot.stash.get("later"))

    await interaction.edit_original_response(content="done thinking")
    assert ix.message.content == "done thinking" and not ix.message.loading
    followup = await interaction.followup.send("and one more thing", ephemeral=True, wait=True)
    assert [m.content for m in ix.followups] == ["and one more thing"]
    assert followup.id == ix.followups[0].id
    assert probe.ephemerals(alice) == [ix.message, ix.followups[0]]

    probe.clock.advance(15 * 60 + 1)  # interaction tokens live 15 minutes
    with pytest.raises(discord.HTTPException) as caught:
        await interaction.followup.send("too late")
    assert caught.value.status == 401 and caught.value.code == 50027
    with pytest.raises(discord.HTTPException):
        await interaction.edit_original_response(content="also too late")
    assert ix.message.content == "done thinking"
    assert len(probe.take_problems("expired_interaction_token")) == 2


async def test_commands_with_default_member_permissions_are_refused_to_plain_members(probe: Env):
    plain = probe.user("plain")
    admin = probe.user("dana", admin=True)
    manager = probe.user("mona", roles=[probe.role("Manager", permissions=1 << 5)])  # MANAGE_GUILD

    with pytest.raises(CommandNotPermitted, match="default_member_permissions"):
        await probe.slash(plain, "config")
    assert probe.interactions == []  # never delivered

    for user in (admin, manager, probe.owner):
        ix = await probe.slash(user, "config")
        await ix.wait_response()
        assert ix.message.content == "settings"
    assert probe.commands["config"]["default_member_permissions"] == str(1 << 5)


async def test_buttons_selects_and_modals(probe: Env):
    alice, bob = probe.user("alice"), probe.user("bob")
    ix = await probe.slash(alice, "form")
    await ix.wait_response()
    message = ix.message

    picked = await probe.select(bob, message, ["36 cards"])  # by label; the value goes to the bot
    assert (await picked.wait_response()).type == 7
    assert picked.data["values"] == ["36"]
    assert message.content == "pack 36" and message.history[-1].content == "choose"

    opened = await probe.click(alice, message, "Open form")
    assert (await opened.wait_response()).type == 9
    assert opened.modal["title"] == "Match settings"
    submitted = await probe.submit_modal(alice, opened, {"form:name": "Friday final"})
    await submitted.wait_response()
    assert submitted.message.content == "saved Friday final / -"
    assert submitted.message.ephemeral_to is alice

    with pytest.raises(ComponentNotFound, match="no button"):
        await probe.click(alice, message, "Nope")
    with pytest.raises(ComponentNotFound, match="ephemeral"):
        await probe.click(bob, submitted.message, "anything")


async def test_a_button_in_a_dm_sends_an_interaction_with_user_and_no_guild(probe: Env):
    bot = bot_of(probe)
    alice = probe.user("alice")
    user = await bot.fetch_user(alice.id)
    sent = await user.send("Accept the challenge?", view=ConfirmView())

    [message] = probe.messages(alice)  # the DM between the bot and alice
    assert message.id == sent.id and message.channel.type == 1
    ix = await probe.click(alice, message, "Accept")
    await ix.wait_response()
    payload_has = probe._interaction_payload(ix)
    assert "guild_id" not in payload_has and "member" not in payload_has
    assert payload_has["user"]["id"] == str(alice.id) and payload_has["context"] == 1
    assert message.content == f"accepted by {alice.name} in dm"
    assert message.components == []


async def test_a_button_an_edit_removed_is_clicked_from_a_screen_that_still_shows_it(probe: Env):
    bot = bot_of(probe)
    alice = probe.user("alice")
    user = await bot.fetch_user(alice.id)
    await user.send("Accept the challenge?", view=ConfirmView())
    [message] = probe.messages(alice)
    await (await probe.click(alice, message, "Accept")).wait_response()
    assert message.components == []
    with pytest.raises(ComponentNotFound):
        await probe.click(alice, message, "Accept")
    # a client that has not caught up with the edit: Discord sends the click with the message as it is now
    ix = await probe.click_shown(alice, message, "dm:accept")
    payload = probe._interaction_payload(ix)
    assert payload["data"]["custom_id"] == "dm:accept" and payload["message"]["components"] == []
    await ix.wait_response()  # (the probe's view still listens for it)
    with pytest.raises(ComponentNotFound, match="never showed"):
        await probe.click_shown(alice, message, "dm:decline")


async def test_closed_dms_give_50007(probe: Env):
    bot = bot_of(probe)
    carol = probe.user("carol", dms_open=False)
    user = await bot.fetch_user(carol.id)
    with pytest.raises(discord.Forbidden) as caught:
        await user.send("hello?")
    assert caught.value.code == 50007 and caught.value.status == 403
    assert probe.dm(carol).messages == []  # the DM channel exists (POST /users/@me/channels worked), empty
    assert user.dm_channel is not None and user.dm_channel.id == probe.dm(carol).id


# ---------------------------------------------------------------------------------------------- rate limits
async def test_a_burst_meets_429s_that_discordpy_waits_out_in_order(probe: Env):
    bot = bot_of(probe)
    probe.rate_limit("messages", limit=5, per=1.0, hidden=True)  # a shared limit the headers don't announce
    channel = bot.get_channel(probe.channel().id)
    started = time.perf_counter()
    for i in range(12):
        await channel.send(f"message {i}")
    elapsed = time.perf_counter() - started

    assert probe.http_429 > 0
    assert [m.content for m in probe.messages()] == [f"message {i}" for i in range(12)]
    assert elapsed >= 1.9  # three windows of one second
    assert all("shared" in line for line in probe.discord.rate_limits.log_429)


async def test_announced_buckets_make_discordpy_pace_itself(probe: Env):
    bot = bot_of(probe)
    probe.rate_limit("messages", limit=5, per=0.5)
    channel = bot.get_channel(probe.channel().id)
    started = time.perf_counter()
    for i in range(12):
        await channel.send(f"message {i}")
    elapsed = time.perf_counter() - started

    assert probe.http_429 == 0  # X-RateLimit-Remaining / Reset-After told it when to wait
    assert elapsed >= 0.95
    assert [m.content for m in probe.messages()] == [f"message {i}" for i in range(12)]
    sends = [r for r in probe.requests if r.template == "/channels/{channel_id}/messages"]
    assert len(sends) == 12


# ------------------------------------------------------------------------------------- threads and files
async def test_threads_are_created_joined_and_posted_in(probe: Env):
    bot = bot_of(probe)
    alice = probe.user("alice")
    channel = bot.get_channel(probe.channel().id)

    thread = await channel.create_thread(name="match-1", type=discord.ChannelType.public_thread)
    await thread.join()
    await thread.send("round 1")
    await thread.add_user(discord.Object(alice.id))

    starter = await channel.send("Friday final")
    from_message = await starter.create_thread(name="final")
    await from_message.send("go")

    private = await channel.create_thread(name="secret", type=discord.ChannelType.private_thread)
    await private.send("psst")

    local = probe.thread("match-1")
    assert local is not None and local.parent is probe.channel() and local.type == 11
    assert [m.content for m in probe.messages(local)] == ["round 1"]
    assert alice.id in local.thread_members and bot.user.id in local.thread_members
    assert probe.thread("final").id == starter.id
    assert [m.content for m in probe.messages(probe.thread("final"))] == ["go"]
    assert probe.thread("secret").type == 12
    await probe.wait_for(lambda: len(bot.thread_events) == 3)  # THREAD_CREATE reached the bot
    assert set(bot.thread_events) == {thread.id, from_message.id, private.id}
    assert bot.get_channel(thread.id) is not None
    # public threads started without a message leave a "thread created" notice in the parent
    assert [m.type for m in probe.messages()] == [18, 0]
    assert not probe.world.can_see(alice, probe.thread("secret"))

    async with thread.typing():
        pass
    assert probe.world.typing[-1][0] is local
    await thread.edit(archived=True, locked=True)
    assert local.archived and local.locked
    with pytest.raises(discord.HTTPException) as caught:
        await thread.send("round 2")
    assert caught.value.code == 50083
    await private.delete()
    assert probe.thread("secret") is None


async def test_multipart_uploads_are_kept(probe: Env):
    bot = bot_of(probe)
    image = png(3, 2)
    channel = bot.get_channel(probe.channel().id)
    embed = discord.Embed(title="board").set_image(url="attachment://board.png")
    sent = await channel.send("the board", embed=embed, file=discord.File(io.BytesIO(image), filename="board.png"))

    [message] = probe.messages()
    [attachment] = message.attachments
    assert attachment.data == image and attachment.filename == "board.png"
    assert attachment.content_type == "image/png" and attachment.dimensions == (3, 2)
    assert message.embed["image"]["url"] == attachment.url
    assert await sent.attachments[0].read() == image  # served back by the local CDN

    alice = probe.user("alice")
    ix = await probe.slash(alice, "upload", image=File("mine.png", png(5, 4)))
    await ix.wait_response()
    assert bot.seen["upload"] == png(5, 4)
    [echo] = ix.message.attachments
    assert echo.data == png(5, 4) and echo.filename == "echo.png" and echo.dimensions == (5, 4)


async def test_unicode_emoji_on_buttons_come_back_as_discord_sends_them(probe: Env):
    bot = bot_of(probe)
    channel = bot.get_channel(probe.channel().id)
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Open", emoji="\N{PLAYING CARD BLACK JOKER}", custom_id="emoji:open"))
    sent = await channel.send("panel", view=view)
    [button] = probe.messages()[-1].buttons
    assert button["emoji"] == {"name": "\N{PLAYING CARD BLACK JOKER}"}  # no "id": null in a response
    assert str(sent.components[0].children[0].emoji) == "\N{PLAYING CARD BLACK JOKER}"


async def test_edits_and_deletes_keep_history(probe: Env):
    bot = bot_of(probe)
    channel = bot.get_channel(probe.channel().id)
    sent = await channel.send("v1")
    await channel.send("another")
    assert [m.content async for m in channel.history(limit=10)] == ["another", "v1"]
    await (await channel.fetch_message(sent.id)).edit(content="v2")
    await sent.delete()
    message, _ = probe.messages(include_deleted=True)
    assert message.deleted and message.content == "v2" and [v.content for v in message.history] == ["v1"]
    assert [m.content for m in probe.messages()] == ["another"]
    with pytest.raises(discord.NotFound) as caught:
        await channel.fetch_message(sent.id)
    assert caught.value.code == 10008
    with pytest.raises(discord.NotFound) as caught:
        await bot.http.send_message(1234, params=discord.http.handle_message_parameters(content="x"))
    assert caught.value.code == 10003


async def test_a_nonce_sent_again_returns_the_first_message_instead_of_a_second(probe: Env):
    probe.rate_limit("messages", limit=100, per=1.0)  # (more than 5 sends in 5 s here)
    bot = bot_of(probe)
    channel = bot.get_channel(probe.channel().id)
    first = await channel.send("the result", nonce="match-1-result")
    again = await channel.send("the result, once more", nonce="match-1-result")  # discord.py: enforce_nonce
    assert again.id == first.id and again.content == "the result"
    assert [m.content for m in probe.messages()] == ["the result"]
    assert probe.discord.rest.nonce_hits == 1
    # another nonce, or none (discord.py then makes a random one): new messages
    other = await channel.send("the link", nonce="match-1-link")
    plain = [await channel.send("hello"), await channel.send("hello")]
    assert len({first.id, other.id, *(m.id for m in plain)}) == 4
    # without enforce_nonce Discord does not look (the bare HTTP call)
    params = discord.http.handle_message_parameters(content="loose", nonce="match-1-result")
    params.payload["enforce_nonce"] = False
    loose = await bot.http.send_message(channel.id, params=params)
    assert int(loose["id"]) not in (first.id, other.id)
    # the nonce is remembered for a few minutes only
    probe.clock.advance(probe.discord.nonce_window + 1)
    later = await channel.send("the result, later", nonce="match-1-result")
    assert later.id != first.id
    # a nonce whose message was deleted: 404, nothing sent
    await later.delete()
    with pytest.raises(discord.NotFound):
        await channel.send("after the delete", nonce="match-1-result")
    assert [m.content for m in probe.messages()] == ["the result", "the link", "hello", "hello", "loose"]


async def test_a_held_request_is_applied_and_answered_when_released(probe: Env):
    bot = bot_of(probe)
    channel = bot.get_channel(probe.channel().id)
    hold = probe.hold(lambda r: r.method == "POST" and (r.body or {}).get("content") == "held", after=True)
    sending = asyncio.create_task(channel.send("held"))
    request = await hold.wait()
    assert request.template == "/channels/{channel_id}/messages"
    assert [m.content for m in probe.messages()] == ["held"]  # created on Discord ...
    await asyncio.sleep(0.05)
    assert not sending.done()  # ... the bot has not heard back
    hold.release()
    sent = await sending
    assert sent.id == probe.messages()[0].id
    # before: nothing applied until released
    hold = probe.hold(lambda r: r.method == "PATCH")
    editing = asyncio.create_task(sent.edit(content="edited"))
    await hold.wait()
    assert probe.messages()[0].content == "held"
    hold.release()
    await editing
    assert probe.messages()[0].content == "edited"


async def test_editing_where_the_bot_cannot_see_is_missing_access(probe: Env):
    from tests.localdiscord.state import VIEW_CHANNEL, Overwrite

    bot = bot_of(probe)
    general = probe.channel()
    sent = await bot.get_channel(general.id).send("v1")
    general.overwrites.append(Overwrite(target=probe.world.bot_role, deny=VIEW_CHANNEL))
    with pytest.raises(discord.Forbidden) as caught:
        await sent.edit(content="v2")
    assert caught.value.code == 50001
    assert probe.messages(general)[0].content == "v1"


async def test_user_messages_reach_the_bot_with_content_only_where_discord_shows_it(probe: Env):
    bot = bot_of(probe)
    alice = probe.user("alice")
    await probe.say(alice, "hello everyone")
    await probe.say(alice, f"{probe.bot_user.mention} hello bot")
    await probe.say(alice, "a DM", where=alice)
    await probe.wait_for(lambda: len(bot.heard) == 3)
    # no MESSAGE_CONTENT intent: content is blank unless the bot is mentioned or it is a DM
    assert bot.heard == ["", f"{probe.bot_user.mention} hello bot", "a DM"]
    assert [m.content for m in probe.messages()] == ["hello everyone", f"{probe.bot_user.mention} hello bot"]


async def test_autocomplete_and_new_channels(probe: Env):
    bot = bot_of(probe)
    alice = probe.user("alice")
    ix = await probe.autocomplete(alice, "pick", "fruit", "ap")
    assert (await ix.wait_response()).type == 8
    assert [c["value"] for c in ix.choices] == ["apple", "apricot"]

    games = probe.channel("games")
    await probe.wait_for(lambda: bot.channel_events)
    assert bot.channel_events == ["games"] and bot.get_channel(games.id) is not None
    ix = await probe.slash(alice, "pick", fruit="cherry", where=games)
    await ix.wait_response()
    assert probe.last_message(games).content == "picked cherry"


def _mutations(value, path=()):
    """Every body with one leaf or member replaced by a wrongly typed value (a small fuzz for the compiler)."""
    replacements = (12345, "x" * 4001, None, [], True, -1)
    if isinstance(value, dict):
        for key, inner in value.items():
            for replacement in replacements:
                yield (*path, key), replacement
            yield from _mutations(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value[:3]):
            for replacement in replacements:
                yield (*path, index), replacement
            yield from _mutations(inner, (*path, index))


def _replaced(body, path, replacement):
    import copy

    body = copy.deepcopy(body)
    target = body
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = replacement
    return body


async def test_the_compiled_validators_agree_with_jsonschema(make_env):
    from tests.localdiscord.spec import Checker

    Checker.crosscheck, Checker.disagreements = True, []
    try:
        env = await make_env(lambda env: ProbeBot(env.guild.id))
        bot = bot_of(env)
        alice, bob = env.user("alice"), env.user("bob")
        answered = {}
        for command, options in (("ping", {}), ("airwar challenge", {"opponent": bob}), ("form", {}),
                                 ("upload", {"image": File("a.png", png())})):
            answered[command] = ix = await env.slash(alice, command, **options)
            await ix.wait_response()
        form = answered["form"].message
        await (await env.select(alice, form, ["52"])).wait_response()
        opened = await env.click(alice, form, "Open form")
        await opened.wait_response()
        await (await env.submit_modal(alice, opened, {"form:name": "x", "form:stake": "3"})).wait_response()
        channel = bot.get_channel(env.channel().id)
        await channel.create_thread(name="t", type=discord.ChannelType.public_thread)
        sent = await channel.send("hi", embed=discord.Embed(title="t", description="d").add_field(name="a", value="b"))
        await sent.edit(content="edited")
        assert Checker.disagreements == []

        spec = env.discord.spec
        checked = 0
        seen = set()
        for record in env.requests:
            if not isinstance(record.body, dict | list) or record.template is None:
                continue
            if (record.method, record.template, json.dumps(record.body, sort_keys=True)[:60]) in seen:
                continue
            seen.add((record.method, record.template, json.dumps(record.body, sort_keys=True)[:60]))
            op = spec.match(record.method, record.path)[0]
            for content_type in op.request_content_types():
                pair = op._request_validator_pair(content_type)
                for checker in pair or ():
                    if checker.fast is None:
                        continue
                    for path, replacement in list(_mutations(record.body))[::5][:30]:
                        mutated = _replaced(record.body, path, replacement)
                        assert checker.fast(mutated) == checker.slow.is_valid(mutated), (op.name, path, replacement)
                        checked += 1
        assert checked > 300

        # and the response side: mutated copies of what the fake answers
        responses = [("POST", "/channels/1/messages", m.payload()) for m in env.messages()[-2:]]
        responses += [("POST", "/channels/1/messages", answered["form"].message.payload()),
                      ("GET", "/channels/1", env.channel().payload()),
                      ("GET", "/channels/1", env.threads[0].payload()),
                      ("GET", "/guilds/1/members/2", env.world.member(alice).payload())]
        for method, path, body in responses:
            checker = spec.match(method, path)[0].response_validator(200)
            assert checker.fast is not None and checker.fast(body) and checker.slow.is_valid(body)
            for mutation_path, replacement in list(_mutations(body))[::7][:40]:
                mutated = _replaced(body, mutation_path, replacement)
                assert checker.fast(mutated) == checker.slow.is_valid(mutated), (path, mutation_path, replacement)
    finally:
        Checker.crosscheck = False


async def test_privileged_intents_must_be_enabled_for_the_application(make_env):
    def members_bot(env: Env) -> commands.Bot:
        intents = discord.Intents.default()
        intents.members = True
        return commands.Bot(command_prefix="!", intents=intents, guild_ready_timeout=0.05)

    with pytest.raises(RuntimeError, match="PrivilegedIntentsRequired"):
        await make_env(members_bot)

    env = await make_env(members_bot, privileged_intents={"members": True})
    guild = env.bot.get_guild(env.guild.id)
    assert {m.id for m in guild.members} == {env.owner.id, env.bot_user.id}
    alice = env.user("alice")  # joins now: GUILD_MEMBER_ADD
    member = await env.wait_for(lambda: guild.get_member(alice.id))
    assert member.name == "alice"
