"""`/leaderboard` end to end: real matches played through the real MatchKernel on the bot's own database, then the
board read through the local Discord: an embed of short lines that fit a phone (rank, mention, rating, W/L/D), the
ratings on the displayed scale (computed here independently with openskill's Plackett-Luce model and its own
rescaling of the ordinal), ranked by them, the provisional players (fewer than the minimum games) counted apart,
pages with ◀ / ▶, one server's results only, and the empty board's hint."""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass

import pytest
from openskill.models import PlackettLuce

from bot.match.ratings import DISPLAY_SCALE, DISPLAY_START
from tests.localdiscord import Env, User
from tests.localdiscord.airwar import airwar_bot_factory

pytestmark = pytest.mark.e2e

MIN_GAMES = 3  # the service's default: what the board is expected to use
PHONE_COLUMNS = 40  # what a line of an embed may take on a phone without wrapping


@dataclass(frozen=True)
class Row:
    rank: int
    user_id: int
    rating: int
    wins: int
    losses: int
    draws: int


def displayed(rating) -> int:
    """An openskill rating on the displayed scale, by the library's own rescaling of its ordinal."""
    return max(0, round(rating.ordinal(alpha=DISPLAY_SCALE, target=DISPLAY_START)))


class Results:
    """Plays Air War matches with the bot's real MatchKernel and keeps the expected standings: openskill
    Plackett-Luce ratings updated here from each finished match's outcome, per server."""

    def __init__(self, env: Env) -> None:
        self.env = env
        self.service = env.bot.matches
        self.model = PlackettLuce()
        self.ratings: dict[tuple[int, int], object] = {}
        self.records: dict[tuple[int, int], list[int]] = {}  # wins, losses, draws

    async def _start(self, guild_id: int, a: User, b: User) -> int:
        # (the bot's own look at the matches after its start must be over: nobody is to show these ones)
        await asyncio.wait_for(self.env.bot.resumed.wait(), 5)
        update = await self.service.challenge(guild_id, self.env.channel().id, a.id, b.id)
        await self.service.accept(update.match.id, b.id)
        return update.match.id

    async def _finish(self, match_id: int) -> int | None:
        match = await self.service.get_match(match_id)
        assert match.status == "finished", match
        events = await self.service.outbox.unshown_events(match_id)
        if events:  # nobody else is to show them
            await self.service.outbox.mark_shown(match_id, events[-1].seq)
        winner_id = match.result["winner_id"]
        a, b = match.user_ids
        guild = match.guild_id
        ra = self.ratings.get((guild, a)) or self.model.rating()
        rb = self.ratings.get((guild, b)) or self.model.rating()
        ranks = [1, 1] if winner_id is None else [1 if winner_id == a else 2, 1 if winner_id == b else 2]
        [[ra], [rb]] = self.model.rate([[ra], [rb]], ranks=ranks)
        self.ratings[(guild, a)], self.ratings[(guild, b)] = ra, rb
        for user_id in (a, b):
            record = self.records.setdefault((guild, user_id), [0, 0, 0])
            record[2 if winner_id is None else 0 if winner_id == user_id else 1] += 1
        return winner_id

    async def forfeit(self, guild_id: int, winner: User, loser: User) -> None:
        match_id = await self._start(guild_id, winner, loser)
        await self.service.forfeit(match_id, loser.id)
        assert await self._finish(match_id) == winner.id

    async def play_out(self, guild_id: int, a: User, b: User) -> int | None:
        """Both players lock in their stacks as drawn, engagement after engagement, to the end of the game."""
        match_id = await self._start(guild_id, a, b)
        match = await self.service.get_match(match_id)
        engagements = 0
        while match.status == "active":
            engagement = match.step
            for user in (a, b):
                await self.service.as_drawn(match_id, user.id, engagement)
                match = (await self.service.confirm(match_id, user.id, engagement)).match
            engagements += 1
            assert engagements < 500
        assert match.reason not in ("forfeit", "timeout", "double_timeout")
        return await self._finish(match_id)

    async def double_timeout(self, guild_id: int, a: User, b: User, shift: list[float]) -> None:
        """Nobody locks in an order: the bot's clock is moved past each deadline; two misses each is a draw."""
        match_id = await self._start(guild_id, a, b)
        match = await self.service.get_match(match_id)
        while match.status == "active":
            shift[0] += 3600
            update = await self.service.deadline_due(match_id)
            assert update is not None
            match = update.match
        assert match.reason == "double_timeout"
        assert await self._finish(match_id) is None

    def expected(self, guild_id: int, *, min_games: int = MIN_GAMES) -> list[Row]:
        """The board as it should read: best ordinal first (the displayed rating follows it), then more wins,
        more games, lower id."""
        entries = []
        for (guild, user_id), (wins, losses, draws) in self.records.items():
            games = wins + losses + draws
            if guild != guild_id or games < min_games:
                continue
            rating = self.ratings[(guild, user_id)]
            entries.append((-rating.ordinal(), -wins, -games, user_id, displayed(rating), wins, losses, draws))
        entries.sort()
        return [Row(rank, user_id, shown, wins, losses, draws)
                for rank, (_, _, _, user_id, shown, wins, losses, draws) in enumerate(entries, 1)]

    def unranked(self, guild_id: int, *, min_games: int = MIN_GAMES) -> int:
        return sum(1 for (guild, _), record in self.records.items() if guild == guild_id and sum(record) < min_games)


LINE = re.compile(r"\*\*(\d+)\.\*\* <@(\d+)> \*\*(\d+)\*\* · (\d+)W (\d+)L(?: (\d+)D)?")


def table(env: Env, embed: dict) -> list[Row]:
    """The board's lines, ``**1.** <@id> **1623** · 5W 1L 1D`` (no draws: no ``D``), each checked to fit a phone
    as Discord draws it: the mention as ``@`` and the member's name, no markdown stars."""
    description = embed["description"]
    assert "```" not in description
    rows = []
    for line in description.splitlines():
        match = LINE.fullmatch(line)
        assert match is not None, line
        rank, user_id, rating, wins, losses, draws = (int(group or 0) for group in match.groups())
        rows.append(Row(rank, user_id, rating, wins, losses, draws))
        drawn = line.replace(f"<@{user_id}>", "@" + env.world.users[user_id].name).replace("**", "")
        assert len(drawn) <= PHONE_COLUMNS, drawn
    return rows


async def test_the_leaderboard_command_offers_every_game_the_combined_board_and_a_season(env: Env):
    from bot.registry import game_class, game_names

    command = env.commands["leaderboard"]
    game, season, vs_bot = command["options"]
    assert game["name"] == "game" and game["type"] == 3
    assert not game.get("required")
    assert [c["value"] for c in game["choices"]] == [*game_names(), "all"]
    assert [c["name"] for c in game["choices"]] == [*(game_class(g).title for g in game_names()),
                                                     "All games (combined)"]
    assert (season["name"], season["type"], season.get("required", False), season["min_value"]) == \
        ("season", 4, False, 1)
    assert (vs_bot["name"], vs_bot["type"], vs_bot.get("required", False)) == ("vs_bot", 5, False)
    assert command.get("contexts") == [0, 1, 2]  # a board per server, per DM and per group DM


async def test_an_empty_board_is_a_private_hint_with_the_minimum_number_of_games(env: Env):
    alice, bob, carol = env.user("alice"), env.user("bob"), env.user("carol")

    ix = await env.slash(alice, "leaderboard")
    response = await ix.wait_response()
    assert response.type == 4 and response.ephemeral
    assert ix.message.text == f"No ranked players yet: play {MIN_GAMES} games to be ranked."
    assert ix.message.buttons == []
    assert env.messages() == []

    results = Results(env)
    await results.forfeit(env.guild.id, alice, bob)
    await results.forfeit(env.guild.id, bob, alice)  # two games each: not ranked yet
    for _ in range(MIN_GAMES):  # ranked, but in another server
        await results.forfeit(env.guild.id + 1, carol, bob)

    ix = await env.slash(carol, "leaderboard", game="airwar")
    response = await ix.wait_response()
    assert response.type == 4 and response.ephemeral and ix.message.ephemeral_to is carol
    assert ix.message.text == (f"No ranked players yet: play {MIN_GAMES} games to be ranked.\n"
                                  f"2 players have played fewer than {MIN_GAMES} games so far.")
    assert env.messages() == []


async def test_the_board_ranks_this_servers_players_by_their_displayed_rating_in_lines_for_a_phone(make_env,
                                                                                                     tmp_path):
    shift = [0.0]
    env = await make_env(airwar_bot_factory(tmp_path / "airwar.db", clock=lambda: time.time() + shift[0]))
    guild = env.guild.id
    alice, bob, carol, dave, erin, finn, gus = (env.user(n) for n in ("alice", "bob", "carol", "dave", "erin",
                                                                       "finn", "gus"))
    results = Results(env)

    await results.play_out(guild, alice, bob)  # a whole game, both orders locked in every engagement
    await results.forfeit(guild, alice, carol)
    await results.forfeit(guild, alice, dave)
    await results.forfeit(guild, bob, carol)
    await results.forfeit(guild, carol, dave)
    await results.forfeit(guild, erin, bob)
    await results.double_timeout(guild, dave, erin, shift)  # a draw
    await results.forfeit(guild, erin, finn)
    await results.forfeit(guild, finn, dave)  # finn: 2 games, provisional, not ranked
    # another server: would change every number here if it leaked
    other = guild + 1
    for _ in range(3):
        await results.forfeit(other, bob, alice)
        await results.forfeit(other, gus, carol)
    await results.forfeit(other, finn, erin)

    expected = results.expected(guild)
    assert len(expected) == 5 and results.unranked(guild) == 1
    assert {row.draws for row in expected if row.user_id in (dave.id, erin.id)} == {1}

    ix = await env.slash(erin, "leaderboard")
    response = await ix.wait_response()
    assert response.type == 4 and not response.ephemeral  # the board is public
    message = ix.message
    assert env.messages() == [message] and message.author is env.bot_user

    embed = message.embed
    assert embed["title"] == "Air War leaderboard"
    assert table(env, embed) == expected
    assert [row.rank for row in expected] == [1, 2, 3, 4, 5]
    ratings = [row.rating for row in expected]
    assert ratings == sorted(ratings, reverse=True) and min(ratings) >= 0
    assert str(finn.id) not in embed["description"] and str(gus.id) not in embed["description"]
    assert embed["footer"]["text"].splitlines() == [
        f"1 provisional player (fewer than {MIN_GAMES} games) not ranked yet.",
        f"Ranked after {MIN_GAMES} games; a new rating starts at 1500. /help explains the ratings."]
    assert message.buttons == []  # one page: no buttons


async def test_pages_turn_in_place_survive_a_restart_and_stay_in_their_server(make_env, tmp_path):
    factory = airwar_bot_factory(tmp_path / "airwar.db")
    env = await make_env(factory)
    guild = env.guild.id
    players = [env.user(f"p{i:02}") for i in range(13)]
    results = Results(env)
    for shift in range(3):  # three rounds of six games: p00..p11 play three each, the lower number wins
        for i in range(6):
            a, b = (2 * i + shift) % 12, (2 * i + 1 + shift) % 12
            winner, loser = (a, b) if a < b else (b, a)
            await results.forfeit(guild, players[winner], players[loser])
    await results.forfeit(guild, players[12], players[11])  # p12: one game
    for _ in range(3):  # another server
        await results.forfeit(guild + 1, players[12], players[0])

    expected = results.expected(guild)
    assert len(expected) == 12

    viewer, pager = players[12], players[5]
    ix = await env.slash(viewer, "leaderboard")
    assert (await ix.wait_response()).type == 4
    message = ix.message
    assert not message.ephemeral
    first_page = message.embed
    assert table(env, first_page) == expected[:10]
    assert first_page["footer"]["text"].splitlines()[:2] == [
        "Page 1 of 2", f"1 provisional player (fewer than {MIN_GAMES} games) not ranked yet."]
    back, forward = message.buttons
    assert (back["label"], back["custom_id"], back.get("disabled")) == ("◀", f"lb:{guild}:airwar:1", True)
    assert (forward["label"], forward["custom_id"], forward.get("disabled", False)) == \
        ("▶", f"lb:{guild}:airwar:2", False)

    # anyone may page: the same public message is edited in place
    click = await env.click(pager, message, "▶")
    assert (await click.wait_response()).type == 7
    assert click.message is message and env.messages() == [message]
    assert table(env, message.embed) == expected[10:]
    assert [row.rank for row in table(env, message.embed)] == [11, 12]
    assert message.embed["footer"]["text"].startswith("Page 2 of 2\n")
    back, forward = message.buttons
    assert (back["custom_id"], back.get("disabled", False)) == (f"lb:{guild}:airwar:1", False)
    assert (forward["custom_id"], forward.get("disabled")) == (f"lb:{guild}:airwar:2", True)

    click = await env.click(viewer, message, "◀")
    assert (await click.wait_response()).type == 7
    assert message.embed == first_page and len(message.history) == 2

    # the buttons carry their state: a restarted bot (same database) turns the page of the old message
    old_bot, old_task = env.bot, env._bot_task
    await old_bot.close()
    await old_task
    await env.start_bot(factory(env))
    assert env.bot is not old_bot
    click = await env.click(pager, message, "▶")
    assert (await click.wait_response()).type == 7
    assert table(env, message.embed) == expected[10:] and env.messages() == [message]
    click = await env.click(viewer, message, "◀")
    assert (await click.wait_response()).type == 7
    assert message.embed == first_page and len(message.history) == 4

    # a board of another server (its id in the custom id) is refused, and the message stays as it is
    message.buttons[1]["custom_id"] = f"lb:{guild + 1}:airwar:2"
    click = await env.click(pager, message, "▶")
    response = await click.wait_response()
    assert response.type == 4 and response.ephemeral
    assert click.followups == [] and env.ephemerals(pager)[-1].text == "This leaderboard belongs to another server."
    assert message.embed == first_page and len(message.history) == 4


# Three matches between alice and bob, stacks of 7, both stacks played as drawn (the engine's reference run gives
# the same): seed 584 -- alice wins with 26 cards to 6 after 10 engagements; 2467 -- bob wins; 329 -- alice wins.
SEEDS = (584, 2467, 329)
FIRST = {"winner": 0, "deck_counts": [26, 6], "engagements": 10}


async def test_three_matches_played_through_the_buttons_make_the_board(make_env, tmp_path):
    from tests.e2e.test_airwar import (
        accept,
        as_drawn,
        assert_finished_like_reference,
        challenge,
        fast_bot,
        lift_rate_limits,
        match_id_of,
        panel_in,
        play,
        slash,
    )

    env = await make_env(fast_bot(tmp_path / "airwar.db", seeds=SEEDS))
    lift_rate_limits(env)
    ix = await slash(env, env.owner, "settings pace", seconds=1.0)  # the fastest pace there is (flips don't wait)
    assert ix.message.text.startswith("Saved.")
    alice, bob = env.user("alice"), env.user("bob")
    channel = env.channel()
    model = PlackettLuce()
    ratings = {alice.id: model.rating(), bob.id: model.rating()}
    wins = {alice.id: 0, bob.id: 0}
    rules = {"stack": 7}
    for number, seed in enumerate(SEEDS, 1):
        seen = {user: len(env.messages(user)) for user in (alice, bob)}  # the DMs of this match come after

        def panels(user, n, seen=seen):
            return panel_in(env.messages(user)[seen[user]:], n)

        message = await challenge(env, alice, bob, stack=7)
        match_id = match_id_of(message)
        thread = await accept(env, bob, message)
        played = await play(env, (alice, bob), thread, policies=(as_drawn, as_drawn), panels=panels)
        game = await assert_finished_like_reference(env, match_id, played, thread, channel, (alice, bob),
                                                    rules=rules, seed=seed, games=number)
        winner = (alice, bob)[game.outcome.winner]
        if number == 1:  # the literal result of the first match, the engine agreeing above
            assert (game.outcome.winner, game.view(None)["deck_counts"], played.engagements) == (
                FIRST["winner"], FIRST["deck_counts"], FIRST["engagements"])
            [result] = [m for m in env.messages(thread) if "wins" in m.title]
            assert f"**<@{alice.id}>** wins!" in result.text
            assert f"Decks: <@{alice.id}> 26 · <@{bob.id}> 6" in result.text
        loser = bob if winner is alice else alice
        before = {user.id: displayed(ratings[user.id]) for user in (alice, bob)}
        [[ratings[winner.id]], [ratings[loser.id]]] = model.rate([[ratings[winner.id]], [ratings[loser.id]]],
                                                                  ranks=[1, 2])
        wins[winner.id] += 1
        # the result reads on the displayed scale, provisional until the third game
        [result] = [m for m in env.messages(thread) if "wins" in m.title]
        note = ", provisional" if number < MIN_GAMES else ""
        changes = [f"<@{user.id}> {before[user.id]} → {displayed(ratings[user.id])} "
                   f"({displayed(ratings[user.id]) - before[user.id]:+d}{note})" for user in (alice, bob)]
        assert "Ratings: " + " · ".join(changes) in result.text
    assert wins == {alice.id: 2, bob.id: 1}

    ix = await slash(env, env.owner, "leaderboard")
    assert not ix.response.ephemeral
    expected = [Row(1, alice.id, displayed(ratings[alice.id]), 2, 1, 0),
                Row(2, bob.id, displayed(ratings[bob.id]), 1, 2, 0)]
    assert table(env, ix.message.embed) == expected
    assert ratings[alice.id].ordinal() > ratings[bob.id].ordinal()
