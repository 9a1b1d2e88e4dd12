"""Finished matches written straight into a database, played by the engines themselves (random legal actions,
seeded): what the web pages' tests and benchmark read. The rows are the ones the match kernel writes (match,
seats, action log, events, results, ratings), without Discord."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bot.registry import game_class
from bot.storage.records import RatingRecord, ResultRecord
from bot.storage.web import WEB
from bot.tournaments import Tournament

CHANNEL = 10


async def make_public(db: Any, guild_id: int, *, language: str | None = None, now: float = 1.0) -> None:
    """``/settings web on`` (and ``/settings language``) as the settings service stores them."""
    async with db.transaction() as conn:
        await db.web.set_option(conn, guild_id, WEB, "on", now)
        if language is not None:
            await db.settings.update_settings(conn, guild_id, now, language=language)


async def name_players(db: Any, guild_id: int, names: dict[int, str], now: float = 1.0) -> None:
    async with db.transaction() as conn:
        for user_id, name in names.items():
            await db.settings.remember_player(conn, guild_id, user_id, name, now)


def play(game_name: str, seed: int, seats: int = 2, rules: dict[str, Any] | None = None
         ) -> tuple[Any, list[dict[str, Any]], list[tuple[int, int, dict]]]:
    """The engine played to the end with seeded random legal actions: the game, its events, and each action as
    (seat, step, action)."""
    cls = game_class(game_name)
    game = cls.new({**(rules or {}), **({"players": seats} if seats != 2 else {})}, seed=seed)
    chooser = random.Random(seed)
    events = list(game.opening_events)
    actions: list[tuple[int, int, dict]] = []
    for _ in range(10_000):
        if game.is_over:
            break
        if cls.automatic:
            events += game.play_out()
            continue
        for seat in game.pending_seats():
            if game.is_over:
                break
            action = chooser.choice(game.legal_actions(seat))
            actions.append((seat, getattr(game, "engagement", 0) or game.stats.rounds, action))
            events += game.apply(seat, action)
    return game, events, actions


async def add_finished(db: Any, guild_id: int, game_name: str, user_ids: Sequence[int], seed: int,
                       now: float, rules: dict[str, Any] | None = None) -> int:
    """One finished, rated match of ``game_name`` between ``user_ids``; its id."""
    async with db.transaction() as conn:
        return await write_finished(db, conn, guild_id, game_name, user_ids, seed, now, rules)


async def write_finished(db: Any, conn: Any, guild_id: int, game_name: str, user_ids: Sequence[int], seed: int,
                         now: float, rules: dict[str, Any] | None = None) -> int:
    """:func:`add_finished` in the caller's transaction ``conn``."""
    game, events, actions = play(game_name, seed, len(user_ids), rules)
    match_id = await db.matches.insert_match(
        conn, guild_id=guild_id, channel_id=CHANNEL, game=game_name, rules=game.rules, arrange_seconds=None,
        user_ids=list(user_ids), deadline_at=now, now=now)
    kind = "order" if game_name == "airwar" else "play"
    for seat, step, action in actions:
        await db.matches.append_action(conn, match_id, seat=seat, step=step, kind=kind, action=action, now=now)
    await db.matches.append_events(conn, match_id, events, now)
    winner = game.outcome.winner
    await db.matches.update_match(
        conn, match_id, now, status="finished", seed=seed, state=game.to_json(), reason=game.outcome.reason,
        result={"winner": winner, "winner_id": None if winner is None else user_ids[winner],
                "reason": game.outcome.reason, "detail": game.outcome.detail, "engagement": 0,
                "user_ids": list(user_ids)},
        deadline_at=None, deadline_kind=None, started_at=now, finished_at=now)
    outcomes = ["draw" if winner is None else "win" if seat == winner else "loss" for seat in range(len(user_ids))]
    before = [await db.results.get_rating(conn, guild_id, game_name, user_id) for user_id in user_ids]
    before = [found or RatingRecord(guild_id, game_name, user_id, 25.0, 8.333, 0.0)
              for found, user_id in zip(before, user_ids, strict=True)]
    after = [old.rating + {"win": 1.0, "loss": -1.0, "draw": 0.0}[outcome]
             for old, outcome in zip(before, outcomes, strict=True)]
    await db.results.insert_results(conn, [
        ResultRecord(match_id, seat, guild_id, game_name, user_ids[seat], outcomes[seat], before[seat].rating,
                     after[seat]) for seat in range(len(user_ids))], now)
    for seat, old in enumerate(before):
        await db.results.put_rating(conn, RatingRecord(
            guild_id, game_name, old.user_id, old.mu, old.sigma, after[seat], old.games + 1,
            old.wins + (outcomes[seat] == "win"), old.losses + (outcomes[seat] == "loss"),
            old.draws + (outcomes[seat] == "draw")), now)
    return match_id


async def add_tournament(db: Any, guild_id: int, players: Sequence[int], matches: Sequence[int],
                         chooser: random.Random, *, decided: int | None = None) -> int:
    """A single elimination of ``players`` (War), its matches decided at random in order (``decided``: only that
    many; the rest still to play), each decided one's game one of ``matches`` (finished matches, each used once)."""
    bracket = Tournament.new("single_elimination", list(players), rng=chooser)
    spare = iter(matches)
    count = 0
    async with db.transaction() as conn:
        tournament_id = await db.tournaments.insert_tournament(
            conn, guild_id=guild_id, channel_id=CHANNEL, name="Test Cup", game="war", format="single_elimination",
            rules={}, options={}, organiser_id=players[0], seed=1, signup_closes_at=None, now=1.0)
        for player in players:
            await db.tournaments.add_entrant(conn, tournament_id, player, None, 1.0)
        while not bracket.is_over and (decided is None or count < decided):
            for match in bracket.pending_matches():
                if decided is not None and count >= decided:
                    break
                winner = chooser.choice(match.players)
                await db.tournaments.insert_bracket_match(conn, tournament_id, match.key, match.round,
                                                          match.players, None, 1.0)
                await db.tournaments.insert_game(conn, tournament_id, match.key, next(spare))
                slot = match.players.index(winner)
                await db.tournaments.update_bracket_match(
                    conn, tournament_id, match.key, status="decided", winner_id=winner, outcome="series",
                    wins_a=int(slot == 0), wins_b=int(slot == 1))
                bracket.record_result(match.key, winner)
                count += 1
        await db.tournaments.update_tournament(
            conn, tournament_id, 2.0, status="finished" if bracket.is_over else "running", state=bracket.to_json(),
            champion_id=bracket.champion, started_at=1.0)
    return tournament_id
