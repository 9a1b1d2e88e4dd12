"""The card emoji set on the local Discord: uploaded once as the application's own emoji when the bot first starts,
only listed on a restart, made once when two processes of a cluster start together; and the local Discord refuses
what Discord refuses of application emoji (bad names, a name taken, an image too big, an unknown emoji on a
button); a panel's card buttons show the cards' emoji."""

from __future__ import annotations

import asyncio
import base64

import discord
import pytest

from bot.cards import card_label
from bot.emoji import CardEmoji
from bot.render.card_emoji import CARDS, NAMES, card_of, emoji_png
from tests.e2e.test_airwar import accept, challenge, dm_panel, fast_bot, stack_of, start
from tests.localdiscord import Env

pytestmark = pytest.mark.e2e


def uploaded(env: Env) -> dict[str, bytes]:
    return {emoji.name: emoji.image for emoji in env.world.app_emojis.values()}


async def test_the_set_is_uploaded_once_and_only_listed_after_a_restart(make_env, tmp_path):
    database = tmp_path / "airwar.db"
    env = await make_env(fast_bot(database, card_emoji_uploaded=False))
    assert uploaded(env) == {name: emoji_png(card_of(name)) for name in NAMES}  # every card, and the back
    assert len(NAMES) == len(CARDS) == env.world.app_emoji_creates
    assert env.bot.card_emoji.ready
    queen = next(e for e in env.world.app_emojis.values() if e.name == "c_QS")
    assert env.bot.card_emoji.markup("QS") == f"<:c_QS:{queen.id}>"
    assert env.bot.card_emoji.partial("QS") == discord.PartialEmoji(name="c_QS", id=queen.id)
    assert env.bot.card_emoji.markup(None).startswith("<:c_back:")

    await env.bot.close()
    await env.start_bot(fast_bot(database)(env))
    assert env.world.app_emoji_creates == len(NAMES)  # nothing made again
    assert env.bot.card_emoji.markup("QS") == f"<:c_QS:{queen.id}>"


async def test_two_processes_starting_together_make_each_emoji_once(make_env):
    env = await make_env()
    env.rate_limit("default", limit=10_000, per=1.0)
    clients = [discord.Client(intents=discord.Intents.none()) for _ in range(2)]
    sets = [CardEmoji(), CardEmoji()]
    try:
        for client in clients:
            await client.login(env.token)
        created = await asyncio.gather(*(emoji.sync(client) for emoji, client in zip(sets, clients, strict=True)))
    finally:
        for client in clients:
            await client.close()
    assert sum(created) == env.world.app_emoji_creates == len(NAMES)
    assert sorted(uploaded(env)) == sorted(NAMES)  # each name once
    assert all(emoji.ready for emoji in sets)
    assert [sets[0].markup(card) for card in ("QS", "RJ", None)] == [sets[1].markup(c) for c in ("QS", "RJ", None)]


async def test_the_local_discord_refuses_what_discord_refuses(make_env):
    env = await make_env()
    client = discord.Client(intents=discord.Intents.none())
    png = emoji_png("QS")
    try:
        await client.login(env.token)
        made = await client.create_application_emoji(name="c_QS", image=png)
        for name, image, why in (("c QS", png, "STRING_TYPE_REGEX"), ("c-QS", png, "STRING_TYPE_REGEX"),
                                 ("c_QS", png, "already exists"), ("c_big", png + b"\0" * 256 * 1024, "256.0 kb"),
                                 ("c_text", b"\x89PNG\r\n\x1a\n"[:4] + b"not a picture", "Invalid image")):
            uri = "data:image/png;base64," + base64.b64encode(image).decode()
            with pytest.raises(discord.HTTPException) as refused:
                await client.http.create_application_emoji(client.application_id, name, uri)
            assert refused.value.status == 400, why
        channel = await client.fetch_channel(env.channel().id)
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="Q", custom_id="q", emoji=discord.PartialEmoji(name="c_QS", id=made.id)))
        sent = await channel.send("ok", view=view)  # its own emoji: fine
        assert int(env.world.messages[sent.id].buttons[0]["emoji"]["id"]) == made.id
        unknown = discord.ui.View()
        unknown.add_item(discord.ui.Button(label="Q", custom_id="q", emoji=discord.PartialEmoji(name="c_QS", id=1)))
        with pytest.raises(discord.HTTPException) as refused:
            await channel.send("no", view=unknown)
        assert refused.value.code == 50035 and "Invalid emoji" in str(refused.value)
        await made.delete()
        assert not env.world.app_emojis
    finally:
        await client.close()


async def test_a_panels_card_buttons_show_the_cards_emoji(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    await accept(env, bob, await challenge(env, alice, bob))
    panel = await env.wait_for(lambda: dm_panel(env, alice, 1), message="no panel")
    ids = {emoji.name: str(emoji.id) for emoji in env.world.app_emojis.values()}
    cards = stack_of(panel)
    shown = [button.get("emoji") for button in panel.buttons if ":card:" in button["custom_id"]]
    assert shown == [{"id": ids[f"c_{card}"], "name": f"c_{card}"} for card in cards]
    assert [b["label"] for b in panel.buttons][:len(cards)] == [card_label(card) for card in cards]  # and the card
    assert not any(b.get("emoji") for b in panel.buttons if ":card:" not in b["custom_id"])
