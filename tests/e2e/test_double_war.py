"""Double War end to end: the registered variant challenged and played to the end at each of War's paces (flip,
auto, instant), its prize on the table, the result as the engine alone ends the same deal."""

from __future__ import annotations

import pytest

from tests.e2e.live_table_checks import assert_live_table_in_v2
from tests.e2e.test_war import assert_result, challenge, flip_to_the_end, start, table_of, title, version_texts

pytestmark = pytest.mark.e2e

RULES = {"pack": 32, "max_rounds": 12}


@pytest.mark.parametrize("pace", ["flip", "auto", "instant"])
async def test_double_war_to_the_end_at_each_pace(make_env, tmp_path, pace):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    match_id, thread = await challenge(env, alice, bob, variant="doublewar", pace=pace, rules="pack=32 max_rounds=12")
    if pace == "flip":
        await flip_to_the_end(env, match_id, [alice, bob], thread)
    expected = await assert_result(env, match_id, thread, [alice, bob], "doublewar", RULES)
    table = table_of(env, thread)
    assert table is not None and "Double War" in title(table) and not table.buttons
    assert_live_table_in_v2(env, [env.channel(), thread], cards_shown=pace != "instant")
    if pace != "instant":  # (instant plays the game out at once: the result is all there is to show)
        # the prize stood on the table while the game ran, and the rounds said who took it
        texts = [text for message in env.messages(thread) for text in version_texts(message)]
        assert any("🏆 Prize:" in text for text in texts)
        assert any("stands as the new prize" in text for text in texts)
    assert expected.card_locations()["prize"] == []  # at the end it went home
