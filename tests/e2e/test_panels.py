"""Private play without ping-pong, through the local Discord, for every game with panels (Air War, Army): the match's
board opens each player's panel as an ephemeral message in the thread; a player who prefers DMs gets one DM per
match, edited step by step; closed DMs fall back to the thread by themselves; each player is notified at most once
a step; every card reads ``A♦`` in texts and buttons.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest

from tests.e2e import test_army as army
from tests.e2e.test_airwar import (
    POLICIES,
    TITLE,
    Played,
    accept,
    assert_finished_like_reference,
    assert_no_order_leaked,
    board,
    challenge,
    click,
    dm_panel,
    lock_in,
    match_id_of,
    panel_in,
    play,
    results,
    settled,
    shown_panels,
    slash,
    stack_of,
    start,
    versions,
)
from tests.localdiscord import Env, Message, User

pytestmark = pytest.mark.e2e

#: a card as a button shows it (a placed card with its place first)
CARD_LABEL = re.compile(r"^(?:\d: )?(?:10|[2-9JQKA])[♣♦♥♠]$")


async def prefer(env: Env, user: User, where: str) -> str:
    ix = await slash(env, user, "preferences panels", options={"where": where})  # (``where=``: the driver's)
    assert ix.response.ephemeral
    return ix.message.text


def channel_of(request) -> int | None:
    found = re.match(r"/channels/(\d+)/messages", request.path)
    return int(found.group(1)) if found else None


def dm_requests(env: Env) -> list:
    """Every request that opened a DM channel or sent or edited a message in one."""
    dms = {channel.id for channel in env.world.channels.values() if channel.recipient is not None}
    return [r for r in env.requests if r.template == "/users/@me/channels" or channel_of(r) in dms]


def mentions_of(env: Env, user: User, where) -> list[Message]:
    """The bot's messages in ``where`` that mention ``user`` (each a notification)."""
    return [m for m in env.messages(where) if user in m.notified]


async def accepted_match(env: Env, challenger: User, opponent: User):
    """An Air War challenge, accepted: the match's id and its thread."""
    message = await challenge(env, challenger, opponent)
    return match_id_of(message), await accept(env, opponent, message)


async def open_here(env: Env, user: User, public: Message, label: str, is_panel) -> Message:
    """Press the board's button: the user's panel, ephemeral, in the thread."""
    ix = await click(env, user, public, label=label)
    assert ix.response.ephemeral
    panel = await env.wait_for(lambda: next((m for m in reversed(env.ephemerals(user)) if is_panel(m)), None))
    assert panel.ephemeral_to is user and panel.channel is public.channel
    return panel


async def play_from_the_thread(env: Env, players: Sequence[User], thread, *, policies=POLICIES) -> Played:
    """Every engagement through the board's **Arrange** button and the ephemeral panel it opens, to the result."""
    played = Played()
    number = 1
    while True:
        def ready(n: int = number):
            if results(env, thread):
                return "over"
            message = board(env, thread, n)
            return message if message is not None and message.buttons else None

        found = await env.wait_for(ready, timeout=20, message=f"no board with its button for engagement {number}")
        if found == "over":
            return played
        assert [b["label"] for b in found.buttons] == ["Arrange"]
        orders = []
        for seat, user in enumerate(players):
            panel = await open_here(env, user, found, "Arrange", lambda m, n=number: panel_in([m], n) is not None)
            assert all(CARD_LABEL.match(b["label"]) for b in panel.buttons if ":card:" in b["custom_id"])
            order = policies[seat](stack_of(panel))
            await lock_in(env, user, panel, order)
            orders.append(order)
        played.orders[number] = orders
        played.engagements = number
        number += 1


# --- Air War -------------------------------------------------------------------------------------------------


async def test_a_whole_air_war_match_played_only_from_the_thread_sends_no_dm(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob, dave = env.user("alice"), env.user("bob"), env.user("dave")
    channel = env.channel()
    ix = await slash(env, alice, "preferences panels")  # nothing set yet: DMs, the default
    assert ix.response.ephemeral and ix.message.text.startswith("Your panels come by DM")
    for user in (alice, bob):
        said = await prefer(env, user, "here")
        assert said.startswith("Saved.") and "No DMs" in said
    ix = await slash(env, alice, "preferences panels")
    assert ix.response.ephemeral and "Your panels open here" in ix.message.text
    match_id, thread = await accepted_match(env, alice, bob)

    first = await env.wait_for(lambda: board(env, thread, 1) if board(env, thread, 1) and board(env, thread, 1).buttons
                               else None)
    assert {alice, bob} <= set(first.mentions)  # called into the thread once: their one notification
    assert "**Arrange** below" in first.text
    ix = await click(env, dave, first, label="Arrange")  # someone else
    assert ix.response.ephemeral and ix.message.text == "This isn't your match."
    panel = await open_here(env, alice, first, "Arrange", lambda m: panel_in([m], 1) is not None)
    # the panel reads on a phone: a few lines, two rows of buttons; cards as the buttons show them, with their emoji
    lines = panel.body.splitlines()
    assert len(lines) <= 8, lines
    assert len(panel.rows) == 2  # the five cards, then undo / reset / random / as drawn / lock in
    assert all(CARD_LABEL.match(b["label"]) and b["emoji"]["name"].startswith("c_")
               for b in panel.buttons if ":card:" in b["custom_id"])
    assert not panel.attachments  # no picture: the text and the buttons say it all
    assert not re.search(r"\b(ace|king|queen|jack) of\b", panel.text, flags=re.IGNORECASE)

    played = await play_from_the_thread(env, (alice, bob), thread)
    assert played.engagements > 3
    await assert_finished_like_reference(env, match_id, played, thread, channel, (alice, bob))
    assert env.messages(alice) == [] and env.messages(bob) == []
    assert dm_requests(env) == []  # not one DM, not even a DM channel opened
    for user in (alice, bob):  # one notification for the whole match
        assert mentions_of(env, user, thread) == [first]
    assert_no_order_leaked(env, thread, played.orders, (alice, bob))
    for number in range(1, played.engagements + 1):  # no button left once the engagement is flipped
        assert not board(env, thread, number).buttons


async def test_a_match_with_dm_panels_sends_each_player_exactly_one_dm(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    channel = env.channel()
    match_id, thread = await accepted_match(env, alice, bob)
    first = await env.wait_for(lambda: board(env, thread, 1))
    assert not first.mentions  # their DM is their notification
    # the board's button works for a DM player too: the same panel, ephemeral, in the thread
    await env.wait_for(lambda: first.buttons)
    here = await open_here(env, bob, first, "Arrange", lambda m: panel_in([m], 1) is not None)
    dm = await env.wait_for(lambda: dm_panel(env, bob, 1))
    assert stack_of(here) == stack_of(dm)

    played = await play(env, (alice, bob), thread)
    await assert_finished_like_reference(env, match_id, played, thread, channel, (alice, bob))
    assert played.engagements > 3
    for user in (alice, bob):
        [sent] = env.messages(user)  # one DM message for the whole match ...
        creates = [r for r in dm_requests(env) if r.method == "POST" and channel_of(r) == sent.channel.id]
        assert len(creates) == 1  # ... sent once (one notification), then edited
        shown = [n for n in range(1, played.engagements + 1) if shown_panels([sent], n)]
        assert shown == list(range(1, played.engagements + 1))
        # engagement after engagement, in order, never back
        order = [int(re.search(r"engagement (\d+)", v.title).group(1)) for v in versions(sent) if v.embed]
        assert order == sorted(order)
        assert mentions_of(env, user, thread) == []
        assert all(CARD_LABEL.match(b["label"]) for version in versions(sent) for b in version.buttons
                   if ":card:" in b["custom_id"])
    assert_no_order_leaked(env, thread, played.orders, (alice, bob))


async def test_closed_dms_fall_back_to_the_thread_by_themselves(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, carol = env.user("alice"), env.user("carol", dms_open=False)
    match_id, thread = await accepted_match(env, alice, carol)

    def panels_of(user: User, number: int):
        if user is alice:
            return dm_panel(env, alice, number)
        return panel_in(env.ephemerals(carol), number)

    for number in (1, 2, 3):
        found = await env.wait_for(lambda n=number: board(env, thread, n) if board(env, thread, n)
                                   and board(env, thread, n).buttons else None)
        assert f"📪 <@{carol.id}>'s DMs are closed" in found.text
        await open_here(env, carol, found, "Arrange", lambda m, n=number: panel_in([m], n) is not None)
        await play(env, (alice, carol), thread, first=number, until=number, panels=panels_of)
    await env.wait_for(lambda: board(env, thread, 4))
    ix = await slash(env, carol, "airwar forfeit")
    await click(env, carol, ix.message, label="Forfeit")
    await env.wait_for(lambda: results(env, thread))
    await settled(env, match_id)
    # the DM was tried once (refused: 50007); after that the panels came from the board only
    carol_dm = env.dm(carol)
    tried = [r for r in dm_requests(env) if r.method == "POST" and channel_of(r) == carol_dm.id]
    assert [r.status for r in tried] == [403]
    assert env.messages(carol) == [] and len(env.messages(alice)) == 1
    assert mentions_of(env, carol, thread) == [board(env, thread, 1)]  # once, when her panels moved to the thread
    assert mentions_of(env, alice, thread) == []


# --- Army ----------------------------------------------------------------------------------------------------


async def test_army_from_the_thread_and_by_one_dm(make_env, tmp_path):
    """alice plays from the thread (``here``), bob by DM: alice gets no DM, bob one, edited each step; a choice bob
    makes from the thread leaves his DM without buttons."""
    env = await army.start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    await prefer(env, alice, "here")
    message = await army.challenge(env, alice, bob)
    match_id = army.match_id_of(message)
    thread = await army.accept(env, bob, message)

    def open_round(step: int):
        return lambda: (found := army.round_message(env, thread, step)) and found.buttons and found

    first = await env.wait_for(open_round(1))
    assert [b["label"] for b in first.buttons] == ["Choose"]
    assert alice in first.mentions and bob not in first.mentions
    assert "📪" not in first.text  # alice chose it: no note about DMs

    def is_panel(step: int):
        return lambda m: army.title(m) == army.panel_title(step)

    panel = await open_here(env, alice, first, "Choose", is_panel(1))
    await army.arrange(env, alice, panel, lambda dealt: dealt)
    bob_dm = await env.wait_for(lambda: army.dm_panel(env, bob, 1))
    await army.arrange(env, bob, bob_dm, lambda dealt: list(reversed(dealt)))

    for step in (2, 3):
        round_message = await env.wait_for(open_round(step))
        assert not round_message.mentions
        mine = await open_here(env, alice, round_message, "Choose", is_panel(step))
        await army.click(env, alice, mine, f"play:{army.keys(mine, 'play')[0]}")
        # bob picks from the thread this time: his DM of the step shows it, without buttons
        await env.wait_for(lambda s=step: army.dm_panel(env, bob, s))
        theirs = await open_here(env, bob, round_message, "Choose", is_panel(step))
        chosen = army.keys(theirs, "play")[-1]
        await army.click(env, bob, theirs, f"play:{chosen}")
        shown = await env.wait_for(lambda s=step: (found := army.dm_shown(env, bob, s)) and not found.buttons
                                   and found)
        assert army.card_text(chosen) in shown.text
    await env.wait_for(lambda: army.round_message(env, thread, 4))
    ix = await slash(env, bob, "army forfeit")
    await click(env, bob, ix.message, label="Forfeit")
    await env.wait_for(lambda: army.results(env, thread))
    await army.settled(env, match_id)
    assert env.messages(alice) == []
    [sent] = env.messages(bob)
    assert next(army.title(v) for v in versions(sent) if army.title(v)) == army.panel_title(1)
    assert {army.title(v) for v in versions(sent)} >= {army.panel_title(s) for s in (1, 2, 3)}
    assert mentions_of(env, alice, thread) == [first] and mentions_of(env, bob, thread) == []


async def test_help_tells_where_panels_open(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice = env.user("alice")
    ix = await slash(env, alice, "help")
    assert TITLE in ix.message.text
    await (await env.select(alice, ix.message, ["settings"])).wait_response()
    assert "/preferences panels" in ix.message.text
