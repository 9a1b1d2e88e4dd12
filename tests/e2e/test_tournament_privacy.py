"""`/privacy delete` and tournaments, end to end: refused while the player is signed up for a tournament that isn't
over; once it is, the player's place in it is anonymised (one transaction with the rest of their data) and every
later view of it (status, bracket text and picture, history) shows a deleted player."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.test_tournament import create, note, start, tournament_rows, wait_over
from tests.localdiscord import Env, User

pytestmark = pytest.mark.e2e


async def ask(env: Env, user: User, command: str, **options) -> str:
    ix = await env.slash(user, command, **options)
    await ix.wait_response()
    return await note(env, user)


async def test_privacy_delete_waits_for_the_tournament_then_shows_a_deleted_player(make_env, tmp_path):
    env = await start(make_env, tmp_path / "t.db")
    organiser = env.user("org")
    alice, bob, carol = players = [env.user("alice"), env.user("bob"), env.user("carol")]
    tid = await create(env, organiser, "round robin", players, no_show=0)

    # signed up for a tournament that isn't over: refused, with what to do
    for user in (alice, organiser):
        ix = await env.slash(user, "privacy delete")
        await ix.wait_response()
        assert ix.response.ephemeral and not ix.message.buttons
        assert "**Friday Cup**" in ix.message.text and "before you delete your data" in ix.message.text
    assert "You organise the tournament" in ix.message.text

    ix = await env.slash(organiser, "tournament start")
    await ix.wait_response()
    service = tournament_rows(env)
    for _ in range(200):
        if not (await service.get(tid)).is_open:
            break
        await asyncio.sleep(0.05)
    await wait_over(env)
    assert (await service.get(tid)).status == "finished"
    before = await ask(env, bob, "tournament status")
    assert "Alice" in before and "deleted player" not in before

    ix = await env.slash(alice, "privacy delete")
    await ix.wait_response()
    assert "Matches and tournaments you played stay" in ix.message.text
    click = await env.click(alice, ix.message, "Delete my data")
    await click.wait_response()
    assert ix.message.text == ("Done: your stats and history on this server are deleted (2 matches and "
                                  "1 tournament anonymised).")

    status = await ask(env, bob, "tournament status")
    assert "deleted player" in status and "Alice" not in status and str(alice.id) not in status
    assert "Bob" in status and "Carol" in status
    ix = await env.slash(bob, "tournament bracket")
    await ix.wait_response()
    await note(env, bob)
    answer = env.ephemerals(bob)[-1]
    assert "deleted player" in answer.text and "alice" not in answer.text.lower()
    assert answer.attachments and "alice" not in (answer.attachments[0].description or "").lower()
    history = await ask(env, bob, "tournament history")
    tournament = await service.get(tid)
    assert str(alice.id) not in history
    champion = "deleted player" if tournament.champion_id == -1 else f"<@{tournament.champion_id}>"
    assert f"**Friday Cup** — War, round robin — 🏆 {champion}" in history
    async with env.bot.db.read() as conn:
        rows = await conn.execute_fetchall("SELECT user_id, name FROM tournament_players WHERE tournament_id = ?"
                                           " ORDER BY joined_at", (tid,))
    assert [tuple(row) for row in rows] == [(-1, None), (bob.id, "Bob"), (carol.id, "Carol")]
