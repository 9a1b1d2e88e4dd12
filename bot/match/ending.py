"""The end of a match's game: the match finishes and its result, results rows and ratings are written in the
transaction of the play that ended it (:func:`finish`), and the ``result`` event is queued (its keys:
:mod:`bot.match.outbox`)."""

from __future__ import annotations

from typing import Any

from bot.game import Game
from bot.match.challenges import OPPONENT_OPTION
from bot.match.flow import Flow
from bot.match.ratings import Ratings
from bot.match.work import Change, Work
from bot.storage.port import ResultStore
from bot.storage.records import RatingRecord, ResultRecord, Status


async def finish(work: Work, game: Game, flow: Flow, ratings: Ratings, results: ResultStore[Any]) -> None:
    """The game is over: in this transaction, the match finishes and the result, results rows and ratings are
    written, once (a conditional update on status, and the results' primary key)."""
    match = work.match
    outcome = game.outcome
    assert outcome is not None
    users = list(match.user_ids)
    result = {
        "winner": outcome.winner, "winner_id": None if outcome.winner is None else users[outcome.winner],
        "reason": outcome.reason, "detail": outcome.detail, "engagement": flow.step(game), "user_ids": users,
    }
    changed = await work.update(
        status=Status.FINISHED, reason=outcome.reason, result=result, deadline_at=None, deadline_kind=None,
        finished_at=work.now, only_status=Status.ACTIVE,
    )
    if changed != 1:
        raise RuntimeError(f"match {match.id} cannot finish: it is no longer active")
    if not flow.rated or match.options.get(OPPONENT_OPTION):
        await _finish_unrated(work, game, flow, results, result)
        return
    before = []
    for user_id in users:
        stored = await results.get_rating(work.conn, match.guild_id, match.game, user_id)
        before.append(stored or RatingRecord(match.guild_id, match.game, user_id, *_initial(ratings)))
    skills = [ratings.skill(r.mu, r.sigma) for r in before]
    places = flow.places(game)
    after = ratings.rate(skills, outcome.winner, places)
    outcomes = ["draw" if outcome.winner is None else "win" if seat == outcome.winner else "loss"
                for seat in range(len(users))]
    await results.insert_results(work.conn, [
        ResultRecord(match.id, seat, match.guild_id, match.game, users[seat], outcomes[seat],
                     before[seat].rating, after[seat].ordinal)
        for seat in range(len(users))
    ], work.now)
    for seat, old in enumerate(before):
        await results.put_rating(work.conn, RatingRecord(
            match.guild_id, match.game, old.user_id, after[seat].mu, after[seat].sigma, after[seat].ordinal,
            old.games + 1, old.wins + (outcomes[seat] == "win"), old.losses + (outcomes[seat] == "loss"),
            old.draws + (outcomes[seat] == "draw"),
        ), work.now)
    await work.queue([{
        **{k: v for k, v in result.items() if k != "engagement"}, "type": "result",
        "engagement": flow.step(game), "outcomes": outcomes,
        "ratings": [{"before": before[seat].rating, "after": after[seat].ordinal, "games": before[seat].games + 1}
                    for seat in range(len(users))],
        **({} if places is None else {"places": places}),
    }])
    work.changes |= {Change.FINISHED, Change.DEADLINE}


async def _finish_unrated(work: Work, game: Game, flow: Flow, results: ResultStore[Any],
                          result: dict[str, Any]) -> None:
    """A game against the house or the bot is over: each seat's outcome is its own (the flow's, else from the
    winner), results are written unrated (no rating moves, no rating board, no combined rating)."""
    match = work.match
    users = list(match.user_ids)
    winner = game.outcome.winner if game.outcome is not None else None
    outcomes = flow.outcomes(game) or [
        "draw" if winner is None else "win" if seat == winner else "loss" for seat in range(len(users))]
    await work.update(result={**result, "outcomes": outcomes})
    await results.insert_results(work.conn, [
        ResultRecord(match.id, seat, match.guild_id, match.game, users[seat], outcomes[seat], 0.0, 0.0,
                     rated=False)
        for seat in range(len(users))
    ], work.now)
    await work.queue([{
        **{k: v for k, v in result.items() if k != "engagement"}, "type": "result",
        "engagement": flow.step(game), "outcomes": outcomes, "ratings": None,
    }])
    work.changes |= {Change.FINISHED, Change.DEADLINE}


def _initial(ratings: Ratings) -> tuple[float, float, float]:
    skill = ratings.initial()
    return skill.mu, skill.sigma, skill.ordinal
