"""Air War against the bot through the local Discord: a whole match at each level, a restart mid-match, the hint,
the accuracy at the end; unrated, the bot's orders stored and replayed."""

from __future__ import annotations

import asyncio

import pytest

from bot.ai.players import decide
from bot.cards import card_label
from bot.games.airwar.engine import AirWar
from bot.match.kernel import OPPONENT_OPTION
from bot.replay import replay
from tests.e2e.test_airwar import (
    SEED,
    dm_panel,
    fast_bot,
    lock_in,
    match_id_of,
    results,
    settled,
    slash,
    stack_of,
    start,
    weave,
)
from tests.localdiscord import Env
from tests.records import match_results, rating_of

pytestmark = pytest.mark.e2e

RULES = {"stack": 3}


async def challenge_the_bot(env: Env, user, level: str | None):
    options = {"opponent": env.bot_user, "stack": 3, **({"level": level} if level else {})}
    ix = await slash(env, user, "airwar challenge", **options)
    assert not ix.response.ephemeral, ix.message.text
    match_id = match_id_of(ix.message)
    thread = await env.wait_for(lambda: ix.message.thread, message="the bot did not take its own challenge")
    return match_id, thread


async def play_against_the_bot(env: Env, user, thread, first: int = 1, until: int | None = None) -> int:
    """Lock in weave orders from the DM panels until the result (or engagement ``until``); the engagements played."""
    number = first
    while True:
        def ready(n: int = number):
            return "over" if results(env, thread) else dm_panel(env, user, n)

        found = await env.wait_for(ready, timeout=20, message=f"no panel for engagement {number}")
        if found == "over":
            return number - 1
        if found.buttons:
            await lock_in(env, user, found, weave(stack_of(found)))
        if until is not None and number >= until:
            return number
        number += 1


def replayed_like_the_bot(export: dict, level: str) -> None:
    """Every order the bot's seat played is the one its player chooses from the same position and key: the match
    replays to its stored result, and nothing was solved differently after a restart."""
    game = AirWar.new(export["rules"], seed=export["seed"])
    for number, move in enumerate(export["moves"], start=1):
        if "orders" not in move:
            break
        expected = decide(game.view(1), 1, level, f"{export['seed']}:{number}:1")
        assert move["orders"][1] == expected["cards"], f"engagement {number}"
        game.apply_move(move)


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
async def test_a_whole_match_against_the_bot_at_each_level(make_env, tmp_path, level):
    env = await start(make_env, tmp_path)
    alice = env.user("alice")
    match_id, thread = await challenge_the_bot(env, alice, level)
    match = await env.bot.matches.get_match(match_id)
    assert match.options[OPPONENT_OPTION] == {"seat": 1, "level": level}
    assert env.messages(env.dm(env.bot_user)) == []  # the bot sends itself no panel
    played = await play_against_the_bot(env, alice, thread)
    assert played >= 1
    await settled(env, match_id)
    stored = await match_results(env.bot.matches.db, match_id)
    assert [result.rated for result in stored] == [False, False]  # practice: unrated
    assert await rating_of(env.bot.matches.db, env.guild.id, alice.id) is None
    export = await env.bot.matches.export(match_id)
    replayed_like_the_bot(export, level)
    accuracy = await env.wait_for(lambda: accuracy_of(env, thread), timeout=30, message="no accuracy after the match")
    assert_accuracy_of_the_human_only(env, accuracy.text, alice, "engagement", "order")


async def test_a_restart_mid_match_replays_the_bots_stored_order(make_env, tmp_path):
    database = tmp_path / "airwar.db"
    env = await start(make_env, tmp_path)
    alice = env.user("alice")
    match_id, thread = await challenge_the_bot(env, alice, None)  # the default level: hard
    await play_against_the_bot(env, alice, thread, until=2)
    panel = await env.wait_for(lambda: dm_panel(env, alice, 3))
    # the bot has locked in engagement 3 (it thinks as soon as the stacks are drawn); alice has not
    for _ in range(300):
        if await env.bot.matches.program_turn(match_id) is None:
            break
        await asyncio.sleep(0.02)
    log_before = await env.bot.matches.export(match_id, allow_open=True)
    await settled(env, match_id)

    await env.bot.close()
    env.bot = None
    await env.start_bot(fast_bot(database, seed=SEED)(env))
    await asyncio.wait_for(env.bot.get_cog("AirWar").resumed.wait(), 5)
    # the bot's order of engagement 3 is the stored one: nothing to choose, nothing solved again
    assert await env.bot.matches.program_turn(match_id) is None
    assert env.bot.thinking._pool is None
    await lock_in(env, alice, panel, weave(stack_of(panel)))
    await play_against_the_bot(env, alice, thread, first=4)
    await settled(env, match_id)
    export = await env.bot.matches.export(match_id)
    assert export["moves"][:len(log_before["moves"])] == log_before["moves"]
    replayed_like_the_bot(export, "hard")


#: words a newcomer would not understand, never in a hint or an accuracy
EXPERT_WORDS = ("equilibrium", "win-chance", "win chance", "mixed strategy", "best mix")


def assert_plain(text: str) -> None:
    assert not any(word in text.lower() for word in EXPERT_WORDS), text


def accuracy_of(env: Env, thread):
    return next((m for m in env.messages(thread) if "🎯" in m.text), None)


def assert_accuracy_of_the_human_only(env: Env, text: str, human, unit: str, play: str) -> None:
    """The human's accuracy in the new words, with the costliest step's best play; nothing about the bot."""
    assert text.startswith(f"🎯 <@{human.id}>, your accuracy: **"), text
    assert f"how close your {play}s came to the best {play}; 100% = the best {play} every {unit}" in text
    assert f"<@{env.bot_user.id}>" not in text and text.count("🎯") == 1  # the bot is not graded
    assert (f"Your costliest {unit}: **" in text and f"the best {play} there was " in text) \
        or "You made the best play every time." in text
    assert_plain(text)


async def test_the_hint_says_the_best_order_and_why_privately_and_the_end_grades_the_human_only(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice = env.user("alice")
    match_id, thread = await challenge_the_bot(env, alice, "hard")
    panel = await env.wait_for(lambda: dm_panel(env, alice, 1))
    hint_button = next(b for b in panel.buttons if b["label"].endswith("Hint"))
    ix = await env.click(alice, panel, None, custom_id=hint_button["custom_id"])
    await ix.wait_response()
    hint = await env.wait_for(lambda: next((m for m in env.ephemerals(alice) if "💡" in m.text), None), timeout=20)
    stack = stack_of(panel)
    lines = hint.text.splitlines()
    if lines[0].startswith("💡 **Hint:** play **"):  # the best order, all of the stack, and why
        order = lines[0].split("**")[3].split()
        assert sorted(order) == sorted(card_label(card) for card in stack)
        assert any(words in lines[0] for words in ("comes last, when my", "most likely meets my strongest",
                                                   "Against my best play it wins about"))
    else:
        assert lines[0] == "💡 **Hint:** any order works as well here: against my best play they all come out the same."
    assert lines[-1] == "-# Place every card to see how your order compares."
    assert "%" not in hint.text  # no probability of an order
    assert_plain(hint.text)
    assert all(m.author is not env.bot_user or "💡" not in m.text for m in env.messages(thread))
    # the stack placed as drawn: the Hint now says how that order compares with the best
    drawn = next(b["custom_id"] for b in panel.buttons if b["custom_id"].endswith(":drawn"))
    await (await env.click(alice, panel, None, custom_id=drawn)).wait_response()
    await (await env.click(alice, panel, None, custom_id=hint_button["custom_id"])).wait_response()
    second = await env.wait_for(lambda: [m for m in env.ephemerals(alice) if "💡" in m.text][1:] or None, timeout=20)
    assert second[0].text.splitlines()[-1] in ("Your order as it stands is one of the best.",
                                               "Your order as it stands is almost as good as the best.",
                                               "Your order as it stands is weaker than the best.")
    confirm = next(b["custom_id"] for b in panel.buttons if b["custom_id"].endswith(":confirm"))
    await (await env.click(alice, panel, None, custom_id=confirm)).wait_response()
    await play_against_the_bot(env, alice, thread, first=2)
    await settled(env, match_id)
    accuracy = await env.wait_for(lambda: accuracy_of(env, thread), timeout=30, message="no accuracy after the match")
    assert_accuracy_of_the_human_only(env, accuracy.text, alice, "engagement", "order")


async def army_hint(env: Env, user, panel) -> str:
    """Press the panel's Hint: the private answer's text."""
    before = len([m for m in env.ephemerals(user) if "💡" in m.text])
    hint_button = next(b for b in panel.buttons if b["label"].endswith("Hint"))
    await (await env.click(user, panel, custom_id=hint_button["custom_id"])).wait_response()
    found = await env.wait_for(lambda: [m for m in env.ephemerals(user) if "💡" in m.text][before:] or None,
                               timeout=20, message="no hint")
    return found[0].text


async def test_an_army_match_against_the_bot_with_the_hint_and_the_humans_accuracy(make_env, tmp_path):
    from tests.e2e.test_army import dm_panel as army_panel
    from tests.e2e.test_army import keys
    from tests.e2e.test_army import results as army_results

    env = await start(make_env, tmp_path)
    alice = env.user("alice")
    ix = await slash(env, alice, "army challenge", opponent=env.bot_user, rounds=6, level="hard")
    assert not ix.response.ephemeral, ix.message.text
    match_id = match_id_of(ix.message)
    thread = await env.wait_for(lambda: ix.message.thread, message="the bot did not take its own challenge")
    army = env.bot.get_cog("Army").service
    step = 1
    hints = []
    while not army_results(env, thread):
        panel = await env.wait_for(lambda s=step: army_results(env, thread) or army_panel(env, alice, s),
                                   timeout=20, message=f"no Army panel for step {step}")
        if isinstance(panel, list):
            break
        hint = await army_hint(env, alice, panel)
        hints.append(hint)
        assert_plain(hint)
        if step == 1:
            assert hint == ("💡 **Hint:** any order of your armies works as well: each must be worn down, whatever "
                            "the order.")
            ids = [b["custom_id"] for b in panel.buttons if b["custom_id"].endswith(":dealt")]
            await (await env.click(alice, panel, custom_id=ids[0])).wait_response()
            confirm = [b["custom_id"] for b in panel.buttons if b["custom_id"].endswith(":confirm")]
            await (await env.click(alice, panel, custom_id=confirm[0])).wait_response()
        else:
            first = hint.splitlines()[0]
            assert first.startswith("💡 **Hint:** play **") and ("A red card attacks: it beats" in first
                                                                 or "A black card defends: it stops" in first
                                                                 or "It can take my last stamina point" in first)
            best = first.split("**")[3]
            hand = keys(panel, "play")
            assert best in [card_label(card) for card in hand]  # a card of the player's own hand
            value = next(int(card[:-1]) for card in hand if card_label(card) == best)
            worst = min(hand, key=lambda card: (int(card[:-1]) == value, int(card[:-1])))  # not the best's number
            play = next(b["custom_id"] for b in panel.buttons if b["custom_id"].endswith(f":play:{worst}"))
            await (await env.click(alice, panel, custom_id=play)).wait_response()
        step += 1
    await settled(env, match_id)
    match = await army.get_match(match_id)
    assert match.status == "finished" and match.options[OPPONENT_OPTION]["level"] == "hard"
    assert [result.rated for result in await match_results(army.db, match_id)] == [False, False]
    assert env.messages(env.dm(env.bot_user)) == []
    last = list(replay(await army.export(match_id)))[-1]
    assert last["winner"] == match.result["winner"] and last["reason"] == match.result["reason"]
    assert all(m.author is not env.bot_user or "💡" not in m.text for m in env.messages(thread))
    accuracy = await env.wait_for(lambda: accuracy_of(env, thread), timeout=30, message="no accuracy after the match")
    assert_accuracy_of_the_human_only(env, accuracy.text, alice, "round", "card")
    if len(hints) > 2:  # a card other than the best, round after round: not a perfect score
        assert "**100%**" not in accuracy.text


async def test_matches_against_the_bot_have_their_own_board_by_level(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    match_id, thread = await challenge_the_bot(env, alice, "easy")
    await play_against_the_bot(env, alice, thread)
    await settled(env, match_id)
    [alice_result] = [r for r in await match_results(env.bot.matches.db, match_id) if r.user_id == alice.id]
    forfeited, _ = await challenge_the_bot(env, bob, "expert")
    ix = await slash(env, bob, "airwar forfeit")
    confirm = next((b for b in ix.message.buttons if "orfeit" in b["label"]), None)
    if confirm is not None:  # asked to confirm
        await (await env.click(bob, ix.message, custom_id=confirm["custom_id"])).wait_response()
    await settled(env, forfeited)
    assert [r.outcome for r in await match_results(env.bot.matches.db, forfeited) if r.user_id == bob.id] == ["loss"]

    ix = await slash(env, alice, "leaderboard", vs_bot=True)
    assert not ix.response.ephemeral
    [embed] = ix.message.embeds
    assert embed["title"] == "Air War — against me"
    lines = embed["description"].splitlines()
    won = alice_result.outcome == "win"
    alice_line = (f"<@{alice.id}>" + (" · beat **easy**" if won else "") + " · easy "
                  + {"win": "1W 0L", "loss": "0W 1L", "draw": "0W 0L 1D"}[alice_result.outcome])
    bob_line = f"<@{bob.id}> · expert 0W 1L"
    first, second = (alice_line, bob_line) if won or alice.id < bob.id else (bob_line, alice_line)
    assert lines == [f"**1.** {first}", f"**2.** {second}"]
    assert f"<@{env.bot_user.id}>" not in embed["description"]  # the bot's own seat is not on its board

    # the rated board knows nothing of practice matches
    ix = await slash(env, alice, "leaderboard")
    assert ix.response.ephemeral and ix.message.text.startswith("No ranked players yet")
    for game, words in (("war", "I don't play War myself"), ("all", "one per game"),
                        ("army", "Nobody has played me at Army this season")):
        ix = await slash(env, alice, "leaderboard", game=game, vs_bot=True)
        assert ix.response.ephemeral and words in ix.message.text, ix.message.text


async def test_an_accuracy_the_bot_stopped_before_posting_is_posted_once_after_a_start(make_env, tmp_path):
    from tests.e2e.test_airwar_restart import crash, creates, restart_in_process

    env = await start(make_env, tmp_path)
    alice = env.user("alice")
    match_id, thread = await challenge_the_bot(env, alice, "easy")
    hold = env.hold(creates(thread, lambda body: "🎯" in (body.get("content") or "")))
    await play_against_the_bot(env, alice, thread)
    await settled(env, match_id)
    await crash(env, hold)  # the bot stops while posting the accuracy
    await restart_in_process(env, tmp_path / "airwar.db")
    posted = await env.wait_for(lambda: [m for m in env.messages(thread) if "🎯" in m.text] or None,
                                timeout=30, message="no accuracy after the start")
    for _ in range(100):
        if "accuracy" in (await env.bot.matches.get_match(match_id)).messages:
            break
        await asyncio.sleep(0.05)
    assert "accuracy" in (await env.bot.matches.get_match(match_id)).messages
    await asyncio.sleep(0.2)
    assert len([m for m in env.messages(thread) if "🎯" in m.text]) == len(posted) == 1
