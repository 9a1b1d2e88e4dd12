"""Every click on a button the bot ever posted is answered, whatever became of the button, end to end: the real bot
against the local Discord, which fails a test at teardown for any interaction left without a response within 3 s
(Discord's "This interaction failed").

A double-click is two interactions (the second sent before the bot answers the first, or from a screen that still
shows the button: :meth:`~tests.localdiscord.driver.Env.click_shown`); a click from before a restart goes to a new
bot on the same database; a click on an old engagement's panel or board after its buttons went; a click whose
custom id the bot does not know. Each gets a private answer and changes nothing it shouldn't. Also: a challenge
not accepted yet (a Rematch's too) is withdrawn when its sender sends another, and a lobby's host-only buttons tell
someone else who may press them."""

from __future__ import annotations

import asyncio
import gc
import re

import discord
import pytest

from cogs.kit.items import RoutedButtons
from cogs.kit.messages import DEFER_AFTER
from tests.e2e import test_war as war
from tests.e2e.test_airwar import (
    accept,
    board,
    challenge,
    dm_panel,
    fast_bot,
    match_id_of,
    play,
    settled,
    slash,
)
from tests.e2e.test_airwar import start as start_air_war
from tests.e2e.test_airwar_restart import restart_in_process
from tests.localdiscord import Env, Message, User
from tests.localdiscord.state import Interaction, walk_components
from tests.records import match_results

pytestmark = pytest.mark.e2e

NO_LONGER_IN_USE = "That button is no longer in use; nothing was changed."
ANSWERED_ALREADY = "You answered this already; nothing more was changed."


def in_channel(env: Env, channel) -> list[Message]:
    """What the bot put in the channel for everyone (not its private answers)."""
    return [m for m in env.messages(channel) if m.author is env.bot_user and m.ephemeral_to is None]


def labels(message: Message) -> list[str]:
    return [b["label"] for b in message.buttons]


async def answered(*clicks: Interaction) -> list[Interaction]:
    """Every click answered (the local Discord would fail the test at teardown otherwise: this says which)."""
    for ix in clicks:
        await ix.wait_response()
    return list(clicks)


def private_text(ix: Interaction) -> str:
    """The words of a click's private answer: a new ephemeral message, or the ephemeral message it edited."""
    assert ix.response is not None
    if ix.response.type == 4:
        assert ix.response.ephemeral, f"{ix.describe()} was answered in public"
        return ix.message.text
    assert ix.response.type == 7 and ix.message.ephemeral, f"{ix.describe()} was not answered privately"
    return ix.message.text


async def finished_war(env: Env, alice: User, bob: User) -> tuple[Message, int]:
    """A War game between alice and bob that bob gave up: its channel message, now the result with Rematch."""
    channel = env.channel()
    opening = (await war.slash(env, alice, "war challenge", opponent=bob, pace="flip")).message
    match_id = war.match_id_of(opening)
    await war.stored(env, match_id)
    await war.click(env, bob, opening, f"war:c:{match_id}:accept")
    await env.wait_for(lambda: opening.thread, message="no thread for the game")
    question = (await war.slash(env, bob, "war forfeit")).message
    await war.click(env, bob, question, f"war:ff:{match_id}:yes")
    await env.wait_for(lambda: labels(opening) == ["Rematch"], message="no Rematch")
    await settled(env, match_id)
    assert in_channel(env, channel) == [opening]
    return opening, match_id


# --- double-clicks ------------------------------------------------------------------------------------------------


async def test_a_double_clicked_rematch_gets_two_answers_and_makes_one_rematch(make_env, tmp_path):
    env = await war.start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    channel = env.channel()
    result, match_id = await finished_war(env, alice, bob)

    # the second click right after the first, as a double-click sends it (the button still on the screen)
    first = await env.click(alice, result, "Rematch")
    second = await env.click_shown(alice, result, f"war:rm:{match_id}")
    await answered(first, second)
    public = [ix for ix in (first, second) if not ix.response.ephemeral]
    [refused] = [ix for ix in (first, second) if ix.response.ephemeral]
    assert len(public) == 1 and labels(public[0].message) == ["Accept", "Decline", "Withdraw"]
    assert refused.message.text.startswith(("A rematch of this game is being made right now.",
                                             "The rematch of this game was asked for already.")), refused.message.text
    await env.wait_for(lambda: not result.buttons, message="the Rematch stayed")
    rematches = [m for m in in_channel(env, channel) if m is not result]
    assert rematches == [public[0].message]  # one rematch
    assert (await war.service(env).get_match(war.match_id_of(public[0].message))).user_ids == (alice.id, bob.id)

    # a third click, from a screen that still shows the Rematch: told where the rematch is
    late = (await answered(await env.click_shown(alice, result, f"war:rm:{match_id}")))[0]
    assert "asked for already" in private_text(late) and f"/{public[0].message.id}" in late.message.text
    assert [m for m in in_channel(env, channel) if m is not result] == rematches
    await settled(env, war.match_id_of(public[0].message))


async def test_a_double_clicked_forfeit_gets_two_answers_and_forfeits_once(make_env, tmp_path):
    env = await war.start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    match_id, thread = await war.challenge(env, alice, bob, pace="flip")
    question = (await war.slash(env, bob, "war forfeit")).message
    yes = f"war:ff:{match_id}:yes"

    first = await env.click(bob, question, custom_id=yes)
    second = await env.click_shown(bob, question, yes)
    await answered(first, second)
    # one answer is the forfeit (the question now says so), the other a note of its own that changes nothing
    assert question.text == f"🏳️ You gave up your War game (<#{thread.id}>): **<@{alice.id}>** wins."
    assert not question.buttons
    notes = [ix for ix in (first, second) if ix.response.type == 4]
    assert len(notes) == 1 and notes[0].response.ephemeral and notes[0].message.text == ANSWERED_ALREADY
    # and again from a screen that still shows the buttons, either of them
    for answer in ("yes", "no"):
        late = (await answered(await env.click_shown(bob, question, f"war:ff:{match_id}:{answer}")))[0]
        assert private_text(late) == ANSWERED_ALREADY
    assert question.text.startswith("🏳️ You gave up")
    await env.wait_for(lambda: war.results(env, thread), message="no result")
    await settled(env, match_id)
    assert len(war.results(env, thread)) == 1
    assert sorted((r.user_id, r.outcome) for r in await match_results(war.service(env).db, match_id)) == [
        (alice.id, "win"), (bob.id, "loss")]


# --- old buttons --------------------------------------------------------------------------------------------------


async def test_an_old_engagements_buttons_are_answered_after_they_went(make_env, tmp_path):
    env = await start_air_war(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    message = await challenge(env, alice, bob)
    match_id = match_id_of(message)
    thread = await accept(env, bob, message)
    first_panel = await env.wait_for(lambda: dm_panel(env, alice, 1), message="no panel")
    stale_card = next(b["custom_id"] for b in first_panel.buttons if ":card:" in b["custom_id"])
    board_one = await env.wait_for(lambda: board(env, thread, 1), message="no board")
    arrange = next(b["custom_id"] for b in board_one.buttons)
    await play(env, (alice, bob), thread, until=1)
    panel = await env.wait_for(lambda: dm_panel(env, alice, 2), message="no panel for engagement 2")
    await env.wait_for(lambda: not board_one.buttons, message="engagement 1's board kept its button")
    before = [b["custom_id"] for b in panel.buttons]

    for where, custom_id in ((panel, stale_card), (panel, f"aw:p:{match_id}:1:confirm"), (board_one, arrange)):
        ix = (await answered(await env.click_shown(alice, where, custom_id)))[0]
        assert ix.response.ephemeral and "engagement 1" in ix.message.text.lower(), ix.message.text
    assert [b["custom_id"] for b in panel.buttons] == before and not board_one.buttons  # nothing changed
    assert (await env.bot.matches.get_match(match_id)).step == 2


async def test_old_buttons_from_before_a_restart_are_answered(make_env, tmp_path):
    database = tmp_path / "war.db"
    env = await make_env(fast_bot(database))
    war.lift_rate_limits(env)
    alice, bob, carol = env.user("alice"), env.user("bob"), env.user("carol")
    result, match_id = await finished_war(env, alice, bob)
    table = war.table_of(env, result.thread)
    flip = f"war:t:{match_id}:0:flip"
    assert any(b["custom_id"] == flip for v in table.history for b in _buttons(v.components))
    [question] = [m for m in env.ephemerals(bob) if m.text.startswith("🏳️ You gave up")]
    # a non-match button: alice asks to delete her data and cancels; the question keeps no buttons
    ask = (await war.slash(env, alice, "privacy delete")).message
    cancel = next(b["custom_id"] for b in ask.buttons if b["custom_id"].endswith(":no"))
    await war.click(env, alice, ask, cancel)
    assert ask.text == "Nothing was deleted." and not ask.buttons

    await env.bot.close()  # the database stays; the new bot knows nothing of the old one's messages
    env.bot = None
    await restart_in_process(env, database)

    # the finished match's buttons, from screens that still show them: the challenge's, the table's, the
    # forfeit question's -- each answered privately, nothing changed
    closed = "This challenge is no longer open: it was already accepted."
    for user, message, custom_id, said in (
            (bob, result, f"war:c:{match_id}:accept", closed), (carol, result, f"war:c:{match_id}:decline", closed),
            (alice, result, f"war:c:{match_id}:withdraw", closed),
            (alice, table, flip, "This game is over already; nothing changed."),
            (bob, question, f"war:ff:{match_id}:yes", ANSWERED_ALREADY)):
        ix = (await answered(await env.click_shown(user, message, custom_id)))[0]
        assert private_text(ix) == said, (custom_id, ix.message.text)
    assert question.text.startswith("🏳️ You gave up")
    assert labels(result) == ["Rematch"]
    assert (await war.service(env).get_match(match_id)).status == "finished"

    # the non-match button from before the restart: answered in place, still nothing deleted
    ix = (await answered(await env.click_shown(alice, ask, cancel)))[0]
    assert ix.response.type == 7 and ask.text == "Nothing was deleted."
    assert len(await match_results(war.service(env).db, match_id)) == 2

    # a button whose custom id the bot no longer knows (a kind it used to show), or can't read
    for forged in ("war:zz:1", "legacy-button", f"war:c:{match_id}:accept:extra"):
        result.buttons[0]["custom_id"] = forged
        ix = (await answered(await env.click(carol, result, custom_id=forged)))[0]
        assert ix.response.ephemeral and ix.message.text == NO_LONGER_IN_USE
    assert (await war.service(env).get_match(match_id)).status == "finished"


def _buttons(components: list[dict]) -> list[dict]:
    return [c for c in walk_components(components) if c.get("type") == 2]


# --- challenges that wait ----------------------------------------------------------------------------------------


async def test_a_rematch_not_accepted_does_not_block_its_senders_next_challenge(make_env, tmp_path):
    env = await war.start(make_env, tmp_path)
    alice, bob, carol = env.user("alice"), env.user("bob"), env.user("carol")
    channel = env.channel()
    result, _ = await finished_war(env, alice, bob)
    rematch = (await answered(await env.click(alice, result, "Rematch")))[0].message
    rematch_id = war.match_id_of(rematch)
    await settled(env, rematch_id)

    ix = await war.slash(env, alice, "war challenge", opponent=carol, pace="flip")
    assert not ix.response.ephemeral, ix.message.text
    challenge_message = ix.message
    new_id = war.match_id_of(challenge_message)
    # the rematch is withdrawn: its message says so and has no buttons; bob can't accept it any more
    await env.wait_for(lambda: not rematch.buttons, message="the withdrawn rematch kept its buttons")
    assert "withdr" in rematch.text.lower()
    assert (await war.service(env).get_match(rematch_id)).reason == "withdrawn"
    assert (await war.service(env).get_match(new_id)).status == "challenge"
    ix = (await answered(await env.click_shown(bob, rematch, f"war:c:{rematch_id}:accept")))[0]
    assert ix.response.ephemeral and "withdrawn" in ix.message.text
    # carol's challenge is a challenge like any other
    await war.stored(env, new_id)
    await war.click(env, carol, challenge_message, f"war:c:{new_id}:accept")
    await env.wait_for(lambda: challenge_message.thread, message="no thread for the new game")
    assert in_channel(env, channel) == [result, rematch, challenge_message]


async def test_a_second_challenge_withdraws_the_first_in_every_game(make_env, tmp_path):
    env = await start_air_war(make_env, tmp_path)
    alice, bob, carol, dave, erin = (env.user(name) for name in ("alice", "bob", "carol", "dave", "erin"))
    first = await challenge(env, alice, bob)
    first_id = match_id_of(first)
    second = await challenge(env, alice, carol)  # (refused before: alice was "already in a match")
    await env.wait_for(lambda: not first.buttons, message="the first challenge kept its buttons")
    assert first.text == f"↩️ **<@{alice.id}>** withdrew the Air War challenge to **<@{bob.id}>**."
    assert labels(second) == ["Accept", "Decline", "Withdraw"]
    assert (await env.bot.matches.get_match(first_id)).reason == "withdrawn"
    ix = (await answered(await env.click_shown(bob, first, f"aw:c:{first_id}:accept")))[0]
    assert ix.response.ephemeral and ix.message.text == "This challenge is no longer open: it was withdrawn."
    await settled(env, first_id)

    # a challenge refused withdraws nothing: dave is busy (erin challenged him); nor does someone else's challenge
    # (carol, challenged by alice, is not its sender)
    await challenge(env, erin, dave)
    ix = await slash(env, alice, "airwar challenge", opponent=dave)
    assert ix.response.ephemeral and ix.message.text == f"<@{dave.id}> is already in an Air War match."
    ix = await slash(env, carol, "airwar challenge", opponent=bob)
    assert ix.response.ephemeral and ix.message.text.startswith("You're already in an Air War match")
    assert labels(second) == ["Accept", "Decline", "Withdraw"]

    # a bystander's click on a challenge is told who may press it
    for label, who in (("Accept", carol), ("Decline", carol), ("Withdraw", alice)):
        ix = (await answered(await env.click(dave, second, label)))[0]
        assert ix.response.ephemeral and ix.message.text == f"Only <@{who.id}> can {label.lower()} this challenge."

    # opening a lobby withdraws it too (War: one open match of the family at a time)
    war_challenge = (await war.slash(env, carol, "war challenge", opponent=bob, pace="flip")).message
    war_challenge_id = war.match_id_of(war_challenge)
    await war.stored(env, war_challenge_id)
    ix = await war.slash(env, carol, "war lobby")
    assert not ix.response.ephemeral and "Players (1/4)" in ix.message.text
    await env.wait_for(lambda: not war_challenge.buttons, message="the War challenge kept its buttons")
    assert (await war.service(env).get_match(war_challenge_id)).reason == "withdrawn"
    await settled(env, war.match_id_of(ix.message))


# --- the host's buttons ------------------------------------------------------------------------------------------


async def test_deal_pressed_by_someone_else_says_only_the_host_deals(make_env, tmp_path):
    env = await war.start(make_env, tmp_path)
    alice, bob, carol = env.user("alice"), env.user("bob"), env.user("carol")
    ix = await war.slash(env, alice, "casinowar table")
    table = ix.message
    table_id = war.match_id_of(table)
    await settled(env, table_id)
    assert labels(table) == ["Join", "Leave", "Deal", "Cancel"]
    for user in (bob, carol):  # bob outside the table, carol at it
        if user is carol:
            await war.click(env, carol, table, f"cw:l:{table_id}:join")
        ix = (await answered(await env.click(user, table, "Deal")))[0]
        assert ix.response.ephemeral and ix.message.text == "Only the host deals."
        ix = (await answered(await env.click(user, table, "Cancel")))[0]
        assert ix.response.ephemeral and ix.message.text == "Only the host can close this table."
    ix = (await answered(await env.click(bob, table, "Leave")))[0]
    assert ix.response.ephemeral and ix.message.text == "You haven't joined, so there is nothing to leave."
    ix = (await answered(await env.click(alice, table, "Leave")))[0]
    assert ix.response.ephemeral and ix.message.text == "You're the host: use Cancel to close the table."
    assert (await env.bot.service_for("casinowar").get_match(table_id)).status == "challenge"


async def test_a_lobbys_start_pressed_by_someone_else_names_the_host(make_env, tmp_path):
    env = await war.start(make_env, tmp_path)
    alice, bob, carol = env.user("alice"), env.user("bob"), env.user("carol")
    lobby = (await war.slash(env, alice, "war lobby")).message
    lobby_id = war.match_id_of(lobby)
    await war.stored(env, lobby_id)
    await war.click(env, carol, lobby, f"war:l:{lobby_id}:join")
    await env.wait_for(lambda: "Players (2/4)" in lobby.text)
    ix = (await answered(await env.click(bob, lobby, custom_id=f"war:l:{lobby_id}:start")))[0]
    assert ix.response.ephemeral and ix.message.text == f"Only the host, <@{alice.id}>, can start this game."
    ix = (await answered(await env.click(bob, lobby, custom_id=f"war:l:{lobby_id}:cancel")))[0]
    assert ix.response.ephemeral and ix.message.text == f"Only the host, <@{alice.id}>, can cancel this lobby."


# --- the catch-all ------------------------------------------------------------------------------------------------


class SilentButton(discord.ui.DynamicItem[discord.ui.Button], template=r"silent:(?P<n>[0-9]+)"):
    """A button whose callback answers nothing (as a handler with a forgotten path would)."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="Silent", custom_id=f"silent:{n}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> SilentButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        return None


async def test_a_click_its_button_leaves_unanswered_is_answered_by_the_bot(make_env, tmp_path):
    env = await war.start(make_env, tmp_path)
    alice = env.user("alice")
    env.bot.add_dynamic_items(SilentButton)
    channel = env.bot.get_channel(env.channel().id)
    sent = await channel.send("A button", view=RoutedButtons().add_item(SilentButton(1)))
    message = next(m for m in env.messages() if m.id == sent.id)
    ix = (await answered(await env.click(alice, message, "Silent")))[0]
    assert ix.response.ephemeral and ix.message.text == "That button has nothing more to do; nothing was changed."


async def test_an_answered_interaction_is_freed_without_waiting_for_a_garbage_collection(make_env, tmp_path):
    """discord.py's interaction and its response refer to each other: the bot breaks that cycle once a command or a
    click is answered, so it (its message, components and user) goes as soon as nothing uses it, not at the next
    collection (with thousands of clicks a minute those collections were the bot's longest pauses)."""
    env = await start_air_war(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    gc.collect()
    gc.disable()
    try:
        message = await challenge(env, alice, bob)
        match_id = match_id_of(message)
        await accept(env, bob, message)
        panel = await env.wait_for(lambda: dm_panel(env, alice, 1), message="no panel")
        card = next(b["custom_id"] for b in panel.buttons if ":card:" in b["custom_id"])
        await answered(await env.click(alice, panel, custom_id=card))
        await settled(env, match_id)
        await asyncio.sleep(DEFER_AFTER + 0.3)  # (the answers' cancelled deferral timers leave the loop by then)
        alive = [o for o in gc.get_objects() if isinstance(o, discord.Interaction)]
    finally:
        gc.enable()
    assert alive == []
