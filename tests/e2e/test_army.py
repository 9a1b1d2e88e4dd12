"""Army end to end: the real bot (cogs/army/) against the local Discord, players clicking real buttons.

A seeded match from the challenge to the result (the engine alone, fed the same choices, must end the same), missed
deadlines (the default, then a forfeit), closed DMs (the panel from the round message), refusals, a restart, and a
scan of every message anyone but a player could see for that player's secrets (hand, army order, chosen card).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.games.army.engine import Army, fighting_value
from bot.games.army.render import card as card_text
from tests.e2e.live_table_checks import assert_live_table_in_v2
from tests.e2e.test_airwar import every_version, fast_bot, lift_rate_limits, versions
from tests.localdiscord import Env, Message, User
from tests.records import leaderboard_page, match_results

pytestmark = pytest.mark.e2e

SEED = 4321
TITLE = "Army"


# --- the bot and finding things ---------------------------------------------------------------------------------


async def start(make_env, tmp_path: Path, **options: Any) -> Env:
    env = await make_env(fast_bot(tmp_path / "army.db", seed=SEED, **options))
    lift_rate_limits(env)
    return env


def cog(env: Env):
    return env.bot.get_cog("Army")


def service(env: Env):
    return cog(env).service


def title(message: Message) -> str:
    return message.title


def panel_title(step: int) -> str:
    return f"{TITLE} — your armies" if step == 1 else f"{TITLE} — round {step - 1}: your card"


def round_title(step: int) -> str:
    return f"{TITLE} — setting the armies" if step == 1 else f"{TITLE} — round {step - 1}"


def find(messages: Sequence[Message], wanted: str) -> Message | None:
    return next((m for m in reversed(messages) if title(m) == wanted), None)


def dm_panel(env: Env, user: User, step: int) -> Message | None:
    """The player's DM panel (one message per match, edited step by step) while it shows ``step``."""
    return find(env.messages(user), panel_title(step))


def dm_shown(env: Env, user: User, step: int) -> Message | None:
    """The last state of the player's DM panel that showed ``step`` (the message itself while it still does)."""
    shown = [version for message in env.messages(user) for version in versions(message)
             if title(version) == panel_title(step)]
    return shown[-1] if shown else None


def round_message(env: Env, where, step: int) -> Message | None:
    return find(env.messages(where), round_title(step))


def results(env: Env, where) -> list[Message]:
    return [m for m in env.messages(where) if title(m).startswith(f"{TITLE} — ") and
            (title(m).endswith(" wins") or title(m) == f"{TITLE} — draw")]


def keys(panel: Message, prefix: str) -> list[str]:
    """The cards on a panel's buttons of a kind (``army:`` or ``play:``), in order."""
    return [b["custom_id"].split(f":{prefix}:")[1] for b in panel.buttons if f":{prefix}:" in b["custom_id"]]


def button_id(message: Message, key: str) -> str:
    for button in message.buttons:
        if button["custom_id"].endswith(f":{key}"):
            return button["custom_id"]
    raise AssertionError(f"no button {key!r}: {[b['custom_id'] for b in message.buttons]}")


async def click(env: Env, user: User, message: Message, key: str | None = None, *, label: str | None = None):
    ix = await env.click(user, message, label, custom_id=None if key is None else button_id(message, key))
    await ix.wait_response()
    return ix


async def slash(env: Env, user: User, command: str, **options: Any):
    ix = await env.slash(user, command, **options)
    await ix.wait_response()
    return ix


def match_id_of(challenge: Message) -> int:
    return int(challenge.buttons[0]["custom_id"].split(":")[2])


async def settled(env: Env, match_id: int) -> None:
    for _ in range(500):
        if not await service(env).outbox.unshown_events(match_id):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"match {match_id} still has events to show")


async def challenge(env: Env, challenger: User, opponent: User, **options: Any) -> Message:
    ix = await slash(env, challenger, "army challenge", opponent=opponent, **options)
    assert not ix.response.ephemeral, ix.message.text
    match_id = match_id_of(ix.message)
    for _ in range(500):
        if (await service(env).get_match(match_id)).challenge_message_id is not None:
            return ix.message
        await asyncio.sleep(0.01)
    raise AssertionError("the challenge message was never stored")


async def accept(env: Env, opponent: User, message: Message):
    await click(env, opponent, message, label="Accept")
    return await env.wait_for(lambda: message.thread, message="no thread for the match")


# --- playing ----------------------------------------------------------------------------------------------------


def strongest(hand: Sequence[str]) -> str:
    return max(hand, key=lambda c: (fighting_value(c), c[-1] in "DH"))


def lowest_red_else_black(hand: Sequence[str]) -> str:
    reds = [c for c in hand if c[-1] in "DH"]
    return max(reds, key=fighting_value) if reds else min(hand, key=fighting_value)


async def arrange(env: Env, user: User, panel: Message, order: Callable[[list[str]], list[str]]) -> list[str]:
    dealt = keys(panel, "army")
    wanted = order(dealt)
    if wanted == dealt:
        await click(env, user, panel, "dealt")
    else:
        for army in wanted:
            await click(env, user, panel, f"army:{army}")
    await click(env, user, panel, "confirm")
    assert "Your army order is locked in" in panel.text or "Your army order: 1 " in panel.text
    return wanted


class Secrets:
    """What the players chose and when it became public, to check that nothing leaked before."""

    def __init__(self) -> None:
        self.orders: list[list[str]] = [[], []]
        self.plays: list[list[str]] = []


def spelled(card: str) -> list[str]:
    """How a card could appear in a message: its sign (``7♥``) and its notation in a button's id (``:7H``)."""
    return [card_text(card), f":{card}"]


def assert_not_shown(env: Env, players: Sequence[User], seat: int, cards: Sequence[str], why: str) -> None:
    """No public message and nothing in the other player's DMs names any of ``cards`` (the latest versions)."""
    other = players[1 - seat]
    for where in [None, *env.threads, other]:
        for message in env.messages(where):
            if message.author is not env.bot_user:
                continue
            text = "\n".join(v.text for v in [message]) + "".join(b.get("custom_id", "") for b in message.buttons)
            for card in cards:
                for form in spelled(card):
                    assert form not in text, f"{why}: {card} shown: {text[:500]}"
    for message in env.ephemerals(other):
        for card in cards:
            assert all(form not in message.text for form in spelled(card)), f"{why}: {card} in {other.name}'s view"


async def play_match(env: Env, players: Sequence[User], thread, *, policies, orders, check_secrets: bool = True,
                     panels: Callable[[User, int], Message | None] | None = None, until: int | None = None) -> Secrets:
    """Set the armies and fight rounds through the panels until the result (or step ``until``)."""
    secrets = Secrets()
    find_panel = panels or (lambda user, step: dm_panel(env, user, step))
    step = 1
    revealed: set[str] = set()
    while until is None or step <= until:
        def ready(s: int = step):
            if results(env, thread):
                return "over"
            found = [find_panel(user, s) for user in players]
            return found if all(found) else None

        found = await env.wait_for(ready, timeout=20, message=f"no panels for step {step}")
        if found == "over":
            return secrets
        if step == 1:
            for seat, (user, panel) in enumerate(zip(players, found, strict=True)):
                secrets.orders[seat] = await arrange(env, user, panel, orders[seat])
                if seat == 0 and check_secrets:
                    assert_not_shown(env, players, 0, secrets.orders[0], "alice's armies before they are set")
        else:
            cards = []
            for seat, (user, panel) in enumerate(zip(players, found, strict=True)):
                chosen = policies[seat](keys(panel, "play"))
                await click(env, user, panel, f"play:{chosen}")
                cards.append(chosen)
                if seat == 0:
                    assert f"Locked in:** {card_text(chosen)} for round {step - 1}" in panel.text
                    assert f"Waiting for **<@{players[1].id}>** to pick." in panel.text
                    assert not panel.buttons
                    if check_secrets and chosen not in revealed:
                        await asyncio.sleep(0.05)  # (anything the pick made the bot send has arrived)
                        assert_not_shown(env, players, 0, [chosen], f"alice's card of round {step - 1}")
            revealed |= set(cards)
            secrets.plays.append(cards)
        step += 1
    return secrets


def reference(secrets: Secrets, rules: dict[str, Any]) -> Army:
    game = Army.new(rules, seed=SEED)
    game.apply_move({"armies": secrets.orders})
    for cards in secrets.plays:
        game.apply_move({"plays": cards})
    return game


# --- the tests -------------------------------------------------------------------------------------------------


async def test_an_army_match_from_challenge_to_result(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    channel = env.channel()
    message = await challenge(env, alice, bob, rounds=30, timer=120)
    match_id = match_id_of(message)
    assert f"<@{bob.id}>" in message.text and bob in message.mentions
    assert title(message) == "Army challenge" and "expires <t:" in message.text and "round limit 30" in message.text
    assert [b["custom_id"] for b in message.buttons] == [f"army:c:{match_id}:{a}" for a in
                                                          ("accept", "decline", "withdraw")]
    thread = await accept(env, bob, message)
    # the challenge message is now the match's live message in the channel: who plays, the link to the thread
    await env.wait_for(lambda: f"<#{thread.id}>" in message.text and not message.buttons)
    assert "**Army:**" in message.text and "follow the match" in message.text
    first = await env.wait_for(lambda: round_message(env, thread, 1))
    assert not first.mentions  # each player's one notification is their DM panel
    assert "Orders due <t:" in first.text and f"<@{alice.id}>: ⏳ choosing" in first.text

    # the arrangement panel: the three armies, tap / undo / reset / as dealt / confirm
    panel = await env.wait_for(lambda: dm_panel(env, alice, 1))
    dealt = keys(panel, "army")
    assert len(dealt) == 3 and "Deadline: <t:" in panel.text and "Your fighting cards:" in panel.text
    assert [b["label"] for b in panel.buttons][3:] == ["Undo", "Reset", "As dealt", "Confirm"]
    await click(env, alice, panel, f"army:{dealt[1]}")
    assert f"Fighting order: 1 {card_text(dealt[1])} · 2 — · 3 —" in panel.text
    placed = next(b for b in panel.buttons if b["custom_id"].endswith(f":army:{dealt[1]}"))
    assert placed.get("disabled") and not any(b.get("disabled") for b in panel.buttons if b is not placed
                                              and ":army:" in b["custom_id"])
    await click(env, alice, panel, "undo")
    assert "nothing placed yet" in panel.text
    await click(env, alice, panel, "dealt")
    await click(env, alice, panel, "reset")
    assert "nothing placed yet" in panel.text

    rules = {"max_rounds": 30}
    secrets = await play_match(env, (alice, bob), thread, policies=(strongest, lowest_red_else_black),
                               orders=(lambda d: list(reversed(d)), lambda d: d))
    game = reference(secrets, rules)
    assert game.is_over
    match = await service(env).get_match(match_id)
    assert match.status == "finished" and match.result["winner"] == game.outcome.winner
    assert match.result["reason"] == game.outcome.reason
    assert game.outcome.winner is not None
    winner = (alice, bob)[game.outcome.winner]
    [in_thread] = await env.wait_for(lambda: results(env, thread) or None)
    [in_channel] = await env.wait_for(lambda: [m for m in results(env, channel) if f"<#{thread.id}>" in m.text]
                                      or None)
    for result in (in_thread, in_channel):
        assert f"🏆 **<@{winner.id}>** wins!" in result.text
        assert title(result).lower() == f"{TITLE} — {winner.name} wins".lower()
        assert f"{game.stats.rounds} rounds fought" in result.text and "Ratings:" in result.text
    await settled(env, match_id)
    # one round message per round, each showing the reveal of the round before it
    for number, cards in enumerate(secrets.plays[:-1], start=1):
        shown = round_message(env, thread, number + 2)
        assert shown is not None, f"no message for round {number + 1}"
        assert f"**Round {number}:** <@{alice.id}> {card_text(cards[0])}" in shown.text
        assert f"vs <@{bob.id}> {card_text(cards[1])}" in shown.text
    assert len([m for m in env.messages(thread) if title(m).startswith(f"{TITLE} — round ")]) == len(secrets.plays)
    last = secrets.plays[-1]
    assert f"**Round {len(secrets.plays)}:** <@{alice.id}> {card_text(last[0])}" in in_thread.text
    # stamina as the engine has it, on the last round message
    final_round = round_message(env, thread, len(secrets.plays) + 1)
    assert "The match is over" in final_round.text and not final_round.buttons
    # recorded once, with ratings, on the board of Army
    rows = await match_results(service(env).db, match_id)
    assert sorted(r.user_id for r in rows) == sorted((alice.id, bob.id))
    board = await leaderboard_page(service(env).db, env.guild.id, "army", min_games=1)
    assert {row.user_id for row in board.rows} == {alice.id, bob.id}
    # the whole history: a card nobody played and an army never face up was never shown but to its owner
    assert_no_secret_ever_shown(env, (alice, bob), secrets, game)
    assert_live_table_in_v2(env, [channel, thread])


def assert_no_secret_ever_shown(env: Env, players: Sequence[User], secrets: Secrets, game: Army) -> None:
    played = {card for cards in secrets.plays for card in cards}
    face_up = {line[0] for line in secrets.orders}
    events = game_events(secrets, game.rules)
    for event in events:
        if event["type"] == "army_fallen" and event["next"]:
            face_up.add(event["next"])
        if event["type"] == "game_over" and event.get("armies"):
            face_up |= {army["army"] for line in event["armies"] for army in line}
    for seat, player in enumerate(players):
        view = game.view(seat)["you"]
        never_played = [card for card in view["hand"] if card not in played]
        hidden = [army for army in secrets.orders[seat] if army not in face_up]
        secret = never_played + hidden
        assert secret, "nothing stayed secret: the check would check nothing"
        own = [v.text for v in every_version(env) if v.audience == player.name]
        assert any(form in text for text in own for card in secret for form in spelled(card)), \
            "the scan would not see a secret: not even its owner's panel names it"
        for version in every_version(env):
            if version.audience == player.name:
                continue
            for card in secret:
                for form in spelled(card):
                    assert form not in version.text, f"{player.name}'s {card} shown to {version.audience}"


def game_events(secrets: Secrets, rules: dict[str, Any]) -> list[dict[str, Any]]:
    game = Army.new(rules, seed=SEED)
    events = game.apply_move({"armies": secrets.orders})
    for cards in secrets.plays:
        events += game.apply_move({"plays": cards})
    return events


async def test_missed_deadlines_play_the_default_then_forfeit(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    message = await challenge(env, alice, bob, timer=30)
    match_id = match_id_of(message)
    thread = await accept(env, bob, message)
    alice_panel = await env.wait_for(lambda: dm_panel(env, alice, 1))
    await arrange(env, alice, alice_panel, lambda d: d)
    bob_panel = await env.wait_for(lambda: dm_panel(env, bob, 1))
    bob_dealt = keys(bob_panel, "army")
    await settled(env, match_id)

    async def miss() -> None:
        match = await service(env).get_match(match_id)
        env.clock.advance(match.deadline_at - env.clock.time() + 1)

    await miss()  # bob misses the arrangement: his armies fight as dealt
    note = await env.wait_for(lambda: next((m for m in env.messages(thread) if m.text.startswith("⌛")), None))
    assert note.text == (f"⌛ <@{bob.id}> missed the deadline of setting the armies: their armies fight in the "
                            "order they were dealt. Two misses in a row forfeit the match.")
    missed = await env.wait_for(lambda: (shown := dm_shown(env, bob, 1)) and "You missed the deadline" in shown.text
                                and shown)
    assert not missed.buttons and card_text(bob_dealt[0]) in missed.text
    assert (await service(env).get_match(match_id)).seats[1].misses == 1

    # round 1: bob picks (his misses start again), round 2: he misses: his lowest card is played
    for user in (alice, bob):
        panel = await env.wait_for(lambda u=user: dm_panel(env, u, 2))
        await click(env, user, panel, f"play:{keys(panel, 'play')[0]}")
    assert (await service(env).get_match(match_id)).seats[1].misses == 0
    alice_panel = await env.wait_for(lambda: dm_panel(env, alice, 3))
    bob_panel = await env.wait_for(lambda: dm_panel(env, bob, 3))
    bob_hand = keys(bob_panel, "play")
    await click(env, alice, alice_panel, f"play:{keys(alice_panel, 'play')[0]}")
    await settled(env, match_id)
    await miss()
    lowest = min(bob_hand, key=fighting_value)
    await env.wait_for(lambda: round_message(env, thread, 4))
    note = await env.wait_for(lambda: next((m for m in env.messages(thread) if "deadline of round 2" in m.text),
                                           None))
    assert "their lowest card is played" in note.text and f"<@{bob.id}>" in note.text
    assert f"vs <@{bob.id}> {card_text(lowest)}" in round_message(env, thread, 4).text
    await env.wait_for(lambda: f"your lowest card, {card_text(lowest)}, was played" in dm_shown(env, bob, 3).text)

    # round 3: a second miss in a row: bob forfeits
    alice_panel = await env.wait_for(lambda: dm_panel(env, alice, 4))
    chosen = keys(alice_panel, "play")[0]
    await click(env, alice, alice_panel, f"play:{chosen}")
    await settled(env, match_id)
    await miss()
    [result] = await env.wait_for(lambda: results(env, thread) or None)
    assert f"🏆 **<@{alice.id}>** wins! <@{bob.id}> missed two deadlines in a row." in result.text
    assert any(f"<@{bob.id}> missed two deadlines in a row and forfeits" in m.text for m in env.messages(thread))
    match = await service(env).get_match(match_id)
    assert match.status == "finished" and match.reason == "timeout" and match.result["winner_id"] == alice.id
    await settled(env, match_id)
    bob_last = dm_shown(env, bob, 4)
    assert "forfeited the match" in bob_last.text and not bob_last.buttons
    # alice's card of the round nobody fought stayed hers
    assert_not_shown(env, (alice, bob), 0, [chosen], "alice's card of the unfought round")
    assert len(await match_results(service(env).db, match_id)) == 2


async def test_closed_dms_get_the_panel_from_the_round_message(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, carol, dave = env.user("alice"), env.user("carol", dms_open=False), env.user("dave")
    message = await challenge(env, alice, carol)
    match_id = match_id_of(message)
    thread = await accept(env, carol, message)
    first = await env.wait_for(lambda: round_message(env, thread, 1))
    await env.wait_for(lambda: first.buttons)
    assert f"📪 <@{carol.id}>'s DMs are closed" in first.text
    assert [b["label"] for b in first.buttons] == ["Choose"]
    assert carol in first.mentions and alice not in first.mentions and env.messages(carol) == []
    ix = await click(env, dave, first, label="Choose")  # an outsider
    assert ix.response.ephemeral and ix.message.text == "This isn't your match."

    def ephemeral_panel(user: User, step: int):
        return find(env.ephemerals(user), panel_title(step))

    async def open_panel(user: User, step: int) -> None:
        board = await env.wait_for(lambda: round_message(env, thread, step))
        if board.buttons and ephemeral_panel(user, step) is None:
            ix = await click(env, user, board, label="Choose")
            assert ix.response.ephemeral

    def panels(user: User, step: int):
        return ephemeral_panel(carol, step) if user is carol else dm_panel(env, user, step)

    await open_panel(carol, 1)
    secrets = await play_match(env, (alice, carol), thread, policies=(strongest, strongest),
                               orders=(lambda d: d, lambda d: list(reversed(d))), panels=panels, until=1,
                               check_secrets=False)
    await open_panel(carol, 2)
    secrets2 = await play_match_round(env, (alice, carol), 2, panels)
    assert secrets.orders[1] and secrets2
    # the second round's message shows the reveal of round 1; carol's panel came from the button again
    shown = await env.wait_for(lambda: round_message(env, thread, 3))
    assert f"**Round 1:** <@{alice.id}> {card_text(secrets2[0])}" in shown.text
    # /army forfeit ends it: the result once
    ix = await slash(env, carol, "army forfeit")
    assert ix.response.ephemeral and "Forfeit your Army match" in ix.message.text
    ix = await click(env, carol, ix.message, label="Forfeit")
    await env.wait_for(lambda: results(env, thread) or None)
    match = await service(env).get_match(match_id)
    assert match.reason == "forfeit" and match.result["winner_id"] == alice.id
    await settled(env, match_id)


async def play_match_round(env: Env, players: Sequence[User], step: int, panels) -> list[str]:
    cards = []
    for user in players:
        panel = await env.wait_for(lambda u=user: panels(u, step), message=f"no panel of {user.name}")
        chosen = strongest(keys(panel, "play"))
        await click(env, user, panel, f"play:{chosen}")
        cards.append(chosen)
    return cards


async def test_refusals_and_outsiders(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob, carol, dave = (env.user(n) for n in ("alice", "bob", "carol", "dave"))
    robot = env.user("robot")
    robot.bot = True
    stranger = env.user("stranger", member=False)

    async def refused(challenger: User, opponent: User) -> str:
        ix = await slash(env, challenger, "army challenge", opponent=opponent)
        assert ix.response.ephemeral
        return ix.message.text

    assert await refused(alice, alice) == "You can't challenge yourself."
    assert "bots can't play Army" in await refused(alice, robot)
    assert "isn't a member of this server" in await refused(alice, stranger)
    message = await challenge(env, alice, bob)
    assert await refused(carol, bob) == f"<@{bob.id}> is already in an Army match."
    assert "You're already in an Army match" in await refused(bob, carol)
    # the buttons: an outsider, the wrong player
    ix = await click(env, dave, message, label="Accept")
    assert ix.response.ephemeral and ix.message.text == f"Only <@{bob.id}> can accept this challenge."
    ix = await click(env, bob, message, label="Withdraw")
    assert ix.message.text == f"Only <@{alice.id}> can withdraw this challenge."
    ix = await slash(env, dave, "army status")
    assert ix.response.ephemeral and ix.message.text == "You're not in an Army match."
    ix = await slash(env, bob, "army status")
    assert "challenged you to Army" in ix.message.text
    await click(env, bob, message, label="Decline")
    await env.wait_for(lambda: "declined" in message.text and not message.buttons)
    assert not env.threads
    # expiry after five minutes
    late = await challenge(env, carol, dave)
    env.clock.advance(301)
    await env.wait_for(lambda: "expired" in late.text and not late.buttons)


async def test_status_and_a_restart_mid_round(make_env, tmp_path):
    database = tmp_path / "army.db"
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    message = await challenge(env, alice, bob, timer=300)
    match_id = match_id_of(message)
    thread = await accept(env, bob, message)
    await play_match(env, (alice, bob), thread, policies=(strongest, strongest), orders=(lambda d: d, lambda d: d),
                     until=1, check_secrets=False)
    alice_panel = await env.wait_for(lambda: dm_panel(env, alice, 2))
    bob_panel = await env.wait_for(lambda: dm_panel(env, bob, 2))
    chosen = keys(alice_panel, "play")[0]
    await click(env, alice, alice_panel, f"play:{chosen}")
    # /army status: private, your hand and your choice; nothing of bob's hand
    ix = await slash(env, alice, "army status")
    assert ix.response.ephemeral
    assert f"Your card this round: {card_text(chosen)} (locked in)" in ix.message.text
    assert all(card_text(c) not in ix.message.text for c in keys(bob_panel, "play"))
    ix = await slash(env, bob, "army status")
    assert card_text(chosen) not in ix.message.text and "Your hand:" in ix.message.text
    assert [b["label"] for b in ix.message.buttons] == ["Open my Army panel"]
    await settled(env, match_id)
    before = len(env.messages(thread))

    await env.bot.close()  # the database stays; the new bot knows nothing else
    env.bot = None
    bot = fast_bot(database, seed=SEED)(env)
    await env.start_bot(bot)
    await asyncio.wait_for(cog(env).resumed.wait(), 5)
    assert env.bot.timers.armed(("army", match_id))
    # the old DM button works: the round is fought, shown once
    bob_card = keys(bob_panel, "play")[0]
    await click(env, bob, bob_panel, f"play:{bob_card}")
    shown = await env.wait_for(lambda: round_message(env, thread, 3))
    assert f"**Round 1:** <@{alice.id}> {card_text(chosen)}" in shown.text
    await settled(env, match_id)
    titles = [title(m) for m in env.messages(thread) if title(m)]
    assert len(titles) == len(set(titles)) and len(env.messages(thread)) == before + 1
    ix = await slash(env, alice, "army forfeit")
    await click(env, alice, ix.message, label="Forfeit")
    await env.wait_for(lambda: results(env, thread) or None)
    await settled(env, match_id)
    assert len(await match_results(service(env).db, match_id)) == 2
