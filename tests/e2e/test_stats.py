"""`/stats`, `/history` (pages, Export, the match file replayed by `python -m bot replay`), `/h2h` (each private
unless shared), seasons, `/privacy delete` and ratings as players read them end to end: finished matches made
with the bot's real match service on its own database (or played through the buttons), then everything read
through the local Discord. Expected ratings are computed here with openskill directly, shown on the displayed
scale by openskill's own rescaling (``ordinal(alpha=24, target=1500)``)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from bot.match.ratings import DISPLAY_SCALE, DISPLAY_START, MIN_GAMES
from tests.localdiscord import CommandNotPermitted, ComponentNotFound, Env, User
from tests.localdiscord.airwar import airwar_bot_factory
from tests.records import rating_of

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SHARE_HELP = "Post the answer for everyone here (default: only you see it)"


class Matches:
    """Finishes Air War matches with the bot's MatchKernel (nobody shows them: their events are marked shown) and
    keeps the expected combined openskill ratings (every match counts, in order)."""

    def __init__(self, env: Env) -> None:
        self.env = env
        self.service = env.bot.matches
        self.model = PlackettLuce()
        self.combined: dict[int, object] = {}
        self.ids: list[int] = []

    async def _start(self, a: User, b: User, **options) -> int:
        await asyncio.wait_for(self.env.bot.resumed.wait(), 5)
        update = await self.service.challenge(self.env.guild.id, self.env.channel().id, a.id, b.id,
                                              challenger_name=a.name.title(), opponent_name=b.name.title(),
                                              **options)
        await self.service.accept(update.match.id, b.id)
        return update.match.id

    async def _done(self, match_id: int) -> dict:
        match = await self.service.get_match(match_id)
        assert match.status == "finished"
        events = await self.service.outbox.unshown_events(match_id)
        if events:
            await self.service.outbox.mark_shown(match_id, events[-1].seq)
        a, b = match.user_ids
        winner = match.result["winner_id"]
        ra, rb = self.combined.get(a) or self.model.rating(), self.combined.get(b) or self.model.rating()
        ranks = [1, 1] if winner is None else [1 if winner == a else 2, 1 if winner == b else 2]
        [[self.combined[a]], [self.combined[b]]] = self.model.rate([[ra], [rb]], ranks=ranks)
        self.ids.append(match_id)
        return match.result

    async def forfeit(self, winner: User, loser: User) -> int:
        match_id = await self._start(winner, loser)
        await self.service.forfeit(match_id, loser.id)
        await self._done(match_id)
        return match_id

    async def play_out(self, a: User, b: User) -> tuple[int, dict]:
        """Both lock in their stacks as drawn, every engagement, to the end."""
        match_id = await self._start(a, b, rules={"stack": 7})
        match = await self.service.get_match(match_id)
        while match.status == "active":
            for user in (a, b):
                await self.service.as_drawn(match_id, user.id, match.step)
                match = (await self.service.confirm(match_id, user.id, match.step)).match
        return match_id, await self._done(match_id)

    def rating(self, user: User) -> str:
        return shown(self.combined[user.id])


def shown(rating) -> str:
    """An openskill rating on the displayed scale, by the library's own rescaling of its ordinal."""
    return str(max(0, round(rating.ordinal(alpha=DISPLAY_SCALE, target=DISPLAY_START))))


async def replayed(tmp_path: Path, attachment) -> dict:
    """The last line ``python -m bot replay`` prints for an exported match file (an ephemeral answer's attachment):
    the replayed match's outcome."""
    path = tmp_path / attachment.filename
    path.write_bytes(attachment.data)
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "replay", str(path), cwd=ROOT,
                                                   stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    stdout, stderr = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, stderr.decode()
    return json.loads(stdout.decode().strip().splitlines()[-1])


async def slash(env: Env, user: User, command: str, **options):
    ix = await env.slash(user, command, **options)
    await ix.wait_response()
    return ix


async def test_stats_show_the_record_streaks_most_played_opponent_and_a_rating_chart(env: Env):
    alice, bob, carol, dave = (env.user(n) for n in ("alice", "bob", "carol", "dave"))
    matches = Matches(env)
    await matches.forfeit(alice, bob)
    await matches.forfeit(alice, bob)
    await matches.forfeit(bob, alice)
    await matches.forfeit(alice, carol)

    ix = await slash(env, alice, "stats")
    assert ix.response.ephemeral and env.messages() == []  # only alice sees it
    message = ix.message
    embed = message.embed
    assert embed["title"] == "Stats — All games"
    text = embed["description"]
    assert f"**<@{alice.id}>** — 4 games: 3 wins · 1 loss · 0 draws (win rate 75%)" in text
    assert "Current streak: 1 win · best winning streak: 2 wins" in text
    assert f"This season's combined rating: {matches.rating(alice)} · best ever:" in text
    assert f"Most played opponent: <@{bob.id}> (3 games)" in text
    assert "**Air War**: 4 games, 3W 1L 0D" in text
    [attachment] = message.attachments
    assert attachment.filename == "rating.png" and attachment.data[:8] == b"\x89PNG\r\n\x1a\n"
    assert embed["image"]["url"] == attachment.url and attachment.description.startswith("Rating history: ")

    ix = await slash(env, carol, "stats", player=bob, game="airwar")
    text = ix.message.body
    assert ix.message.title == "Stats — Air War"
    assert f"**<@{bob.id}>** — 3 games: 1 win · 2 losses · 0 draws (win rate 33%)" in text
    assert "Current streak: 1 win" in text
    assert f"This season's rating: {matches.rating(bob)} · " in text  # every match was Air War: one rating

    ix = await slash(env, alice, "stats", player=dave)
    assert ix.message.body == f"<@{dave.id}> hasn't finished a game on this server yet."
    assert not ix.message.attachments
    assert env.messages() == []


async def test_stats_history_and_h2h_answer_privately_unless_shared(env: Env):
    alice, bob = env.user("alice"), env.user("bob")
    await Matches(env).forfeit(alice, bob)
    for command in ("stats", "history", "h2h"):
        [share] = [o for o in env.commands[command]["options"] if o["name"] == "share"]
        assert (share["type"], share.get("required", False), share["description"]) == (5, False, SHARE_HELP)

    asked = [await slash(env, alice, "stats"), await slash(env, alice, "history"),
             await slash(env, alice, "h2h", player=bob)]
    assert all(ix.response.ephemeral for ix in asked)
    assert env.messages() == [] and env.ephemerals(alice) == [ix.message for ix in asked]
    assert env.visible_to(bob) == []

    shared = [await slash(env, alice, "stats", share=True), await slash(env, alice, "history", share=True),
              await slash(env, alice, "h2h", player=bob, share=True)]
    assert not any(ix.response.ephemeral for ix in shared)
    assert env.messages() == env.visible_to(bob) == [ix.message for ix in shared]
    assert [ix.message.title for ix in shared] == [ix.message.title for ix in asked]
    assert shared[0].message.attachments[0].filename == "rating.png"

    ix = await slash(env, bob, "history", player=env.user("carol"), share=True)  # nothing yet: said for all
    assert not ix.response.ephemeral and "hasn't finished" in ix.message.text


async def test_history_pages_link_each_match_and_export_a_match_file_that_replays(make_env, tmp_path):
    factory = airwar_bot_factory(tmp_path / "airwar.db")
    env = await make_env(factory)
    alice, bob, carol = env.user("alice"), env.user("bob"), env.user("carol")
    matches = Matches(env)
    played_id, result = await matches.play_out(alice, bob)
    for winner, loser in ((alice, bob), (bob, alice), (alice, carol), (carol, alice), (alice, bob)):
        await matches.forfeit(winner, loser)
    channel = env.channel()

    ix = await slash(env, carol, "history", player=alice)  # privately: only carol pages it
    message = ix.message
    assert ix.response.ephemeral and env.messages() == []
    text = message.body
    assert text.startswith(f"**<@{alice.id}>** — 6 finished matches")
    lines = [line for line in text.splitlines() if line.startswith("**")][1:]
    assert len(lines) == 5 and "Page 1 of 2" in text
    newest = matches.ids[-1]
    assert lines[0].startswith("**1.** ✅ Won (forfeit) · Air War vs <@" + str(bob.id) + ">")
    assert f"<#{channel.id}>" in lines[0] and f"match {newest}" in lines[0]
    assert [b["label"] for b in message.buttons] == ["◀", "▶", "Export 1", "Export 2", "Export 3", "Export 4",
                                                     "Export 5"]
    assert message.buttons[2]["custom_id"] == f"hx:{env.guild.id}:{newest}"

    with pytest.raises(ComponentNotFound, match="ephemeral to carol"):
        await env.click(bob, message, "▶")

    # the bot restarts: the old message's buttons still work
    await env.bot.close()
    await env._bot_task
    await env.start_bot(factory(env))
    click = await env.click(carol, message, "▶")
    assert (await click.wait_response()).type == 7
    text = message.body
    assert "Page 2 of 2" in text and f"match {played_id}" in text and "**6.**" in text
    assert [b["label"] for b in message.buttons] == ["◀", "▶", "Export 6"]

    click = await env.click(carol, message, "Export 6")
    response = await click.wait_response()
    assert response.type == 4 and response.ephemeral
    export = env.ephemerals(carol)[-1]
    [attachment] = export.attachments
    assert attachment.filename == f"match-{played_id}.json"
    assert export.text == (
        f"💾 The complete record of match {played_id} (Air War): its rules, the seed that dealt the cards and "
        "every move in order. Keep it to replay the match move by move, or to check its result: anyone with the "
        f"file gets the same game again.\n-# Running the bot? `python -m bot replay match-{played_id}.json` plays it.")
    data = json.loads(attachment.data)
    assert data["game"] == "airwar" and data["rules"]["stack"] == 7 and data["moves"]
    last = await replayed(tmp_path, attachment)
    assert (last["winner"], last["reason"]) == (result["winner"], result["reason"])

    # shared: anyone here pages it and exports from it, privately
    ix = await slash(env, carol, "history", player=alice, share=True)
    shared = ix.message
    assert not ix.response.ephemeral and env.messages() == [shared]
    click = await env.click(bob, shared, "▶")
    assert (await click.wait_response()).type == 7 and "Page 2 of 2" in shared.body
    click = await env.click(bob, shared, "Export 6")
    assert (await click.wait_response()).ephemeral
    assert env.ephemerals(bob)[-1].attachments[0].data == attachment.data
    assert env.messages() == [shared]  # the exports were private


async def test_head_to_head_counts_each_players_wins_and_lists_the_last_matches(env: Env):
    alice, bob, carol = env.user("alice"), env.user("bob"), env.user("carol")
    matches = Matches(env)
    await matches.forfeit(alice, bob)
    await matches.forfeit(bob, alice)
    await matches.forfeit(alice, bob)
    await matches.forfeit(alice, carol)

    ix = await slash(env, alice, "h2h", player=bob)  # against the one asking
    embed = ix.message.embed
    assert embed["title"] == "Head to head — All games" and ix.response.ephemeral
    text = embed["description"]
    assert f"<@{bob.id}> vs <@{alice.id}>: 3 games" in text
    assert f"<@{bob.id}>: 1 win · <@{alice.id}>: 2 wins · 0 draws" in text
    last = [line for line in text.splitlines() if line.startswith("• ")]
    assert [f"<@{winner}> won" in line for line, winner in zip(last, (alice.id, bob.id, alice.id), strict=True)] \
        == [True] * 3
    ix = await slash(env, carol, "h2h", player=carol, opponent=bob)
    assert "haven't finished a game together" in ix.message.body
    ix = await slash(env, bob, "h2h", player=bob)
    assert ix.response.ephemeral and ix.message.text == "Pick two different players."


async def test_a_new_season_keeps_the_old_boards_and_only_managers_may_start_it(env: Env):
    alice, bob, carol = env.user("alice"), env.user("bob"), env.user("carol")
    mo = env.user("mo", roles=[env.role("Mod", permissions=1 << 5)])  # Manage Server
    matches = Matches(env)
    for winner, loser in ((alice, bob), (alice, bob), (bob, carol), (carol, alice), (alice, carol), (bob, carol)):
        await matches.forfeit(winner, loser)
    ix = await slash(env, alice, "leaderboard", game="all")
    combined = ix.message.embed
    assert combined["title"] == "All games leaderboard"
    assert "One rating over the matches of every game." in combined["footer"]["text"]
    assert f"<@{alice.id}> **{matches.rating(alice)}** · 3W 1L" in combined["description"]
    ix = await slash(env, alice, "leaderboard")
    airwar_board = ix.message.embed

    with pytest.raises(CommandNotPermitted):  # Discord hides /settings from her
        await env.slash(alice, "settings newseason", name="Spring")
    env.commands["settings"]["default_member_permissions"] = None  # as if the server let everyone use /settings
    ix = await slash(env, alice, "settings newseason", name="Spring")
    assert ix.response.ephemeral and ix.message.text == "Starting a new season needs the Manage Server permission."
    assert [s.number for s in await env.bot.stats_service.seasons(env.guild.id)] == [1]

    ix = await slash(env, mo, "settings newseason", name="Spring")
    assert not ix.response.ephemeral
    assert ix.message.text.startswith("🏁 **Season 1** is over") and "**Spring** starts now" in ix.message.text
    ix = await slash(env, bob, "leaderboard")
    assert ix.response.ephemeral and ix.message.text.startswith("No ranked players yet")
    ix = await slash(env, bob, "leaderboard", season=1)
    assert ix.message.title == "Air War leaderboard — Season 1"
    assert ix.message.body == airwar_board["description"]
    ix = await slash(env, bob, "leaderboard", game="all", season=1)
    assert ix.message.body == combined["description"]
    ix = await slash(env, bob, "leaderboard", season=3)
    assert ix.response.ephemeral and ix.message.text == \
        "There is no season 3 on this server; it has seasons 1 to 2."
    ix = await slash(env, bob, "season list")
    assert ix.response.ephemeral
    assert "1. Season 1" in ix.message.text and "2. Spring from" in ix.message.text
    assert "(current)" in ix.message.text.splitlines()[-1]


async def test_privacy_delete_asks_refuses_during_a_match_and_anonymises(env: Env):
    alice, bob = env.user("alice"), env.user("bob")
    matches = Matches(env)
    await matches.forfeit(alice, bob)
    await matches.forfeit(bob, alice)
    update = await env.bot.matches.challenge(env.guild.id, env.channel().id, alice.id, bob.id)

    ix = await slash(env, alice, "privacy delete")
    assert ix.response.ephemeral and ix.message.text.startswith("You have a match going on in this server")
    await env.bot.matches.withdraw(update.match.id, alice.id)

    ix = await slash(env, alice, "privacy delete")
    assert ix.response.ephemeral and "can't be undone" in ix.message.text
    assert [b["label"] for b in ix.message.buttons] == ["Delete my data", "Cancel"]
    click = await env.click(alice, ix.message, "Cancel")
    await click.wait_response()
    assert ix.message.text == "Nothing was deleted." and not ix.message.buttons
    assert (await rating_of(env.bot.matches.db, env.guild.id, alice.id)) is not None

    ix = await slash(env, alice, "privacy delete")
    click = await env.click(alice, ix.message, "Delete my data")
    await click.wait_response()
    assert ix.message.text == "Done: your stats and history on this server are deleted (3 matches anonymised)."
    assert (await rating_of(env.bot.matches.db, env.guild.id, alice.id)) is None

    ix = await slash(env, bob, "stats", player=alice)
    assert "hasn't finished a game" in ix.message.body
    ix = await slash(env, bob, "history")
    text = ix.message.body
    assert text.count("vs deleted player") == 2 and str(alice.id) not in text
    ix = await slash(env, bob, "h2h", player=alice)
    assert "haven't finished a game together" in ix.message.body
    ix = await slash(env, alice, "privacy delete")
    assert ix.message.text == "This server has no stats or history of yours: there is nothing to delete."


INTERNALS = ("μ", "σ", "openskill", "ordinal")  # the rating library's words: only /help uses them


async def test_a_first_loss_reads_on_the_familiar_scale_provisional_and_only_help_shows_the_internals(make_env,
                                                                                                     tmp_path):
    from tests.e2e.test_airwar import accept, as_drawn, challenge, fast_bot, lift_rate_limits, play, results

    # seed 584, stacks of 7, both stacks played as drawn: alice wins after 10 engagements
    env = await make_env(fast_bot(tmp_path / "airwar.db", seeds=(584,)))
    lift_rate_limits(env)
    alice, bob = env.user("alice"), env.user("bob")
    channel = env.channel()
    thread = await accept(env, bob, await challenge(env, alice, bob, stack=7))
    await play(env, (alice, bob), thread, policies=(as_drawn, as_drawn))
    model = PlackettLuce()
    [[won], [lost]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    winner, loser = shown(won), shown(lost)
    assert 0 < int(loser) < DISPLAY_START < int(winner)

    rated = (f"Ratings: <@{alice.id}> 1500 → {winner} ({int(winner) - 1500:+d}, provisional) · "
             f"<@{bob.id}> 1500 → {loser} ({int(loser) - 1500:+d}, provisional)")
    [result] = await env.wait_for(lambda: results(env, thread))
    assert f"**<@{alice.id}>** wins!" in result.text and rated in result.text
    everywhere = [m.text for m in env.messages(thread) + env.messages(channel)]
    assert all(rated in text for text in everywhere if "Ratings:" in text)  # the channel's copy, if any
    assert not any(word in text for text in everywhere for word in INTERNALS)

    ix = await slash(env, bob, "stats")
    text = ix.message.body
    assert f"This season's combined rating: {loser} (provisional) · best ever: {loser}" in text
    assert f"**Air War**: 1 game, 0W 1L 0D · rating {loser} (provisional) · best {loser}" in text
    [chart] = ix.message.attachments
    assert chart.description == (f"Rating history: All games from 1500 to {loser} over 1 match; "
                                 f"Air War from 1500 to {loser} over 1 match")
    ix = await slash(env, bob, "stats", game="airwar")
    assert f"This season's rating: {loser} (provisional) · best ever: {loser}" in ix.message.body
    ix = await slash(env, bob, "history")
    assert f"rating {loser} ({int(loser) - 1500:+d})" in ix.message.body
    ix = await slash(env, alice, "leaderboard")  # nobody has the minimum games: a private hint
    assert ix.response.ephemeral and ix.message.text == (
        f"No ranked players yet: play {MIN_GAMES} games to be ranked.\n"
        f"2 players have played fewer than {MIN_GAMES} games so far.")
    said = [m.text for m in env.ephemerals(bob) + env.ephemerals(alice)]
    assert said and not any(word in text for text in said for word in INTERNALS)

    ix = await slash(env, bob, "help")
    assert not any(word in ix.message.text for word in INTERNALS)  # the overview is short: the ratings have a page
    await (await env.select(bob, ix.message, ["rankings"])).wait_response()
    text = ix.message.body
    assert f"everyone starts at {DISPLAY_START}" in text and f"provisional for its first {MIN_GAMES} games" in text
    assert "openskill" in text and "your estimated skill and how sure it is" in text
    assert not any(word in text for word in ("μ", "σ", "ordinal"))  # (plain words, even on the ratings page)
