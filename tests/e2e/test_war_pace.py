"""War that fits a sitting, and a table whose every click is answered, end to end: the real bot against the local
Discord.

* auto pace: a default game reads in 2-3 minutes (the pauses the bot takes showing it, summed), every war is shown
  on the table, runs of plain rounds are summed up, and the match file still replays every round;
* flip pace: "Next war", once every player presses it, plays the rounds up to the next war and shows it;
* the table's buttons keep their ids for the whole game: a click made on an earlier render is answered, for the
  round it was meant for, and a click on a round that is over is answered privately with what happened.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.games.war.flow import PLAIN_SECONDS
from bot.registry import game_class
from tests.e2e.test_airwar import SEED, fast_bot, lift_rate_limits, settled, version_texts
from tests.e2e.test_war import (
    assert_result,
    challenge,
    click,
    flip_id,
    service,
    table_at,
    table_of,
    title,
)
from tests.localdiscord import ComponentNotFound, Env

pytestmark = pytest.mark.e2e

#: a sitting: what a default game at auto pace takes to show
SITTING_SECONDS = (120.0, 180.0)


def shown_pace_bot(database: Path, pace_log: list[float]):
    """The real bot whose auto pauses are logged (not really waited) and last until the table shows what the run
    played, as a real pause of seconds does."""
    make = fast_bot(database, pace_log=pace_log)

    def factory(env: Env):
        bot = make(env)
        logged = bot.pace_sleep

        async def pace_sleep(seconds: float) -> None:
            await logged(seconds)
            await bot.get_cog("War").presenter.idle()

        bot.pace_sleep = pace_sleep
        return bot

    return factory


def rounds_with_a_war(rules: dict[str, Any], players: int = 2) -> tuple[list[int], int]:
    """The engine alone, seeded as the bot deals: the rounds in which a war was fought, and the rounds played."""
    cls = game_class("war")
    game = cls.new(cls.resolve_rules({**rules, "players": players}), seed=SEED)
    wars = []
    while not game.is_over:
        events = game.play_round()
        if any(event["type"] == "war" for event in events):
            wars.append(game.stats.rounds)
    return wars, game.stats.rounds


async def test_a_default_game_at_auto_pace_reads_in_a_sitting_and_shows_every_war(make_env, tmp_path):
    pauses: list[float] = []
    env = await make_env(shown_pace_bot(tmp_path / "war.db", pauses))
    lift_rate_limits(env)
    alice, bob = env.user("alice"), env.user("bob")
    match_id, thread = await challenge(env, alice, bob)  # the defaults: auto pace, War's own rules
    expected = await assert_result(env, match_id, thread, [alice, bob], "war", {})
    wars, rounds = rounds_with_a_war({})
    assert rounds == expected.stats.rounds and len(wars) >= 5

    shown = sum(pauses)
    assert SITTING_SECONDS[0] <= shown <= SITTING_SECONDS[1], (shown, len(pauses))
    assert rounds * PLAIN_SECONDS > 3 * shown  # a round every 2 s would have taken three times as long
    assert pauses[0] == pytest.approx(PLAIN_SECONDS, abs=0.5)  # the deal
    assert max(pauses) > 2 * PLAIN_SECONDS  # it slows down for wars
    assert len(pauses) < rounds / 3  # runs of rounds

    table = table_of(env, thread)
    texts = version_texts(table)
    assert len(texts) <= len(pauses) + 2  # the table is edited once a run
    for number in wars:  # every war had a render of its own
        assert any(f"**Round {number}**" in text and "⚔️ War 1:" in text for text in texts), number
    runs = [text for text in texts if re.search(r"^Rounds \d+–\d+: ", text, flags=re.MULTILINE)]
    assert runs and all(" won " in text for text in runs)  # a run of plain rounds is summed up
    # every round's events were queued, and the match file replays every round to the same end
    battles = [q.event["round"] for q in await service(env).outbox.events(match_id) if q.type == "battle"]
    assert battles == list(range(1, rounds + 1))
    exported = await service(env).export(match_id)
    replayed = game_class(exported["game"]).new(exported["rules"], seed=exported["seed"])
    replayed.play_out()
    assert replayed.stats.rounds == rounds and replayed.outcome == expected.outcome
    assert not env.problems


async def test_next_war_plays_the_rounds_up_to_the_next_war_once_everyone_presses_it(make_env, tmp_path):
    env = await make_env(fast_bot(tmp_path / "war.db"))
    lift_rate_limits(env)
    alice, bob = env.user("alice"), env.user("bob")
    match_id, thread = await challenge(env, alice, bob, pace="flip")
    wars, _ = rounds_with_a_war({})
    war = service(env)
    table = await table_at(env, match_id, thread, 1)
    next_war = f"war:t:{match_id}:0:vote:next_war"
    assert [b["custom_id"] for b in table.buttons] == [flip_id(match_id), next_war, f"war:t:{match_id}:0:vote:auto",
                                                       f"war:t:{match_id}:0:vote:instant"]
    await click(env, alice, table, flip_id(match_id))  # a flip already made this round counts in the run
    await click(env, alice, table, next_war)
    assert env.ephemerals(alice)[-1].text == ("Your vote to go to the next war is in: it goes once everyone still in "
                                              "presses it.")
    await env.wait_for(lambda: "Next war 1/2" in table.text)
    assert (await war.get_match(match_id)).step == 0  # one vote plays nothing
    await click(env, bob, table, next_war)
    assert env.ephemerals(bob)[-1].text == "Everyone agreed: the rounds up to the next war are played; see the table."
    match = await war.get_match(match_id)
    assert match.step == wars[0] and match.options["pace"] == "flip" and match.options["votes"] == {}
    table = await table_at(env, match_id, thread, wars[0] + 1)
    assert f"**Round {wars[0]}**" in table.text and "⚔️ War 1:" in table.text
    assert f"Rounds 1–{wars[0] - 1}: " in table.text and title(table).endswith(f"round {wars[0]}")
    assert not [m for m in env.messages(thread) if "🗳️" in m.text]  # the table shows it: no note

    # again, from the round after the war: to the second war
    await click(env, bob, table, next_war)
    await click(env, alice, table, next_war)
    assert (await war.get_match(match_id)).step == wars[1]
    await table_at(env, match_id, thread, wars[1] + 1)
    assert not env.problems


async def test_a_click_that_races_an_edit_of_the_table_is_answered(make_env, tmp_path):
    env = await make_env(fast_bot(tmp_path / "war.db"))
    lift_rate_limits(env)
    alice, bob = env.user("alice"), env.user("bob")
    match_id, thread = await challenge(env, alice, bob, pace="flip", rules="max_rounds=60")
    war = service(env)
    table = await table_at(env, match_id, thread, 1)
    first_render = [b["custom_id"] for b in table.buttons]
    await click(env, alice, table, flip_id(match_id))
    await settled(env, match_id)

    # Bob's flip ends round 1; the table's edit to round 2 is held on its way, so the message still shows round 1
    # when Bob clicks Flip a second time
    hold = env.hold(lambda r: r.method == "PATCH" and r.template.endswith("/messages/{message_id}")
                    and "round 1" in str(r.body))
    ix = await click(env, bob, table, flip_id(match_id))
    assert not ix.response.ephemeral
    await hold.wait()
    assert "**Round 1:**" in table.text
    ix = await click(env, bob, table, flip_id(match_id))
    assert ix.response.ephemeral and ix.message.text == (
        "Round 1 was over before your click arrived; nothing changed. Round 2 is on now: press the button again to "
        "play it.")
    assert (await war.get_match(match_id)).step == 1 and (await war.view(match_id))["to_flip"] == [0, 1]
    hold.release()
    await table_at(env, match_id, thread, 2)

    # the table was edited since: a click carrying the ids of its first render still finds its button, for round 2
    assert [b["custom_id"] for b in table.buttons] == first_render and len(table.history) >= 2
    ix = await click(env, bob, table, first_render[0])
    assert not ix.response.ephemeral
    assert (await war.view(match_id))["to_flip"] == [0]
    ix = await click(env, bob, table, first_render[0])  # a second click on the same round: said so
    assert ix.response.ephemeral and ix.message.text == "You've flipped already in round 2; waiting for the others."
    ix = await click(env, alice, table, first_render[2])  # a vote, by id of the first render
    assert ix.message.text == "Your vote for the auto pace is in."

    # a finished table has no live buttons
    await click(env, bob, table, f"war:t:{match_id}:0:vote:auto")
    await env.wait_for(lambda: "🏁" in table.text and not table.buttons, timeout=10)
    with pytest.raises(ComponentNotFound):
        await env.click(alice, table, custom_id=flip_id(match_id))
    assert not env.problems
