"""War's flow on its own (no kernel, no database): auto pace plays runs of plain rounds and pauses longer on wars,
the next-war pace plays up to the next war and goes back to flip, and the card history keeps every round."""

from __future__ import annotations

from typing import Any

from bot.games.war.engine import War
from bot.games.war.flow import (
    CHAINED_WAR_SECONDS,
    NEXT_WAR,
    PLAIN_SECONDS,
    ROUND,
    TURN,
    WAR_EASING,
    WAR_FLOOR_SECONDS,
    WAR_SECONDS,
    WarFlow,
    pause_after,
    run_rounds,
)

FLOW = WarFlow()


def dealt(seed: int = 1234, **rules: Any) -> tuple[War, dict[str, Any]]:
    game = War.new(War.resolve_rules(rules), seed=seed)
    options: dict[str, Any] = {"pace": "auto"}
    FLOW.settle(game, options, 0, started=True)
    return game, options


def auto_step(game: War, options: dict[str, Any]) -> list[dict[str, Any]]:
    """What the kernel's auto step does with the flow: one round, then the flow settles it."""
    before = game.stats.rounds
    return [*FLOW.play_auto(game), *FLOW.settle(game, options, before, started=False)]


def wars_in(events: list[dict[str, Any]]) -> int:
    return sum(1 for event in events if event["type"] == "war")


def test_runs_start_with_single_rounds_and_grow_as_the_game_goes_on():
    assert [run_rounds(played) for played in (0, 14, 15, 100, 300, 999)] == [1, 1, 2, 7, 21, 67]


def test_an_auto_run_plays_plain_rounds_up_to_a_war_or_its_most_rounds():
    game, options = dealt()
    reference = War.new(War.resolve_rules({}), seed=1234)
    runs = 0
    while not game.is_over:
        first = game.stats.rounds + 1
        wars_before = game.stats.wars
        events = auto_step(game, options)
        runs += 1
        rounds = sorted({event["round"] for event in events if event["type"] == "battle"})
        most = run_rounds(first - 1)
        assert rounds == list(range(first, game.stats.rounds + 1)) and 1 <= len(rounds) <= most
        for number in rounds:  # the same rounds the engine plays alone
            alone = reference.play_round()
            assert [e for e in events if e.get("round") == number and e["type"] != "game_over"] == [
                e for e in alone if e["type"] != "game_over"]
        last = [event for event in events if event.get("round") == rounds[-1]]
        ended_by_war = wars_in(last) > 0
        assert wars_in(events) == wars_in(last)  # a war ends its run
        if not game.is_over:
            assert ended_by_war or len(rounds) == most
            war_pause = max(WAR_FLOOR_SECONDS, WAR_SECONDS * WAR_EASING / (WAR_EASING + wars_before))
            assert pause_after(game) == (PLAIN_SECONDS if not ended_by_war
                                         else war_pause + CHAINED_WAR_SECONDS * min(wars_in(last) - 1, 2))
    assert reference.is_over and reference.outcome == game.outcome
    assert runs < game.stats.rounds / 3
    # every round's counts are in the history (the chart's x axis counts rounds)
    assert options["every"] == 1 and len(options["history"]) == game.stats.rounds + 1


def test_the_auto_pause_is_a_plain_one_after_the_deal_and_longer_after_a_war():
    game, options = dealt()
    assert FLOW.schedule(None, game, options, new_step=True) == (ROUND, PLAIN_SECONDS)  # type: ignore[arg-type]
    while not game.is_over:
        events = auto_step(game, options)
        if wars_in(events):
            break
    assert pause_after(game) >= WAR_SECONDS  # the first war is shown longest
    assert FLOW.schedule(None, game, options, new_step=True) == (ROUND, pause_after(game))  # type: ignore[arg-type]


def test_next_war_plays_to_the_next_war_then_the_game_is_back_at_flip():
    game, options = dealt()
    options["pace"] = "flip"
    [flipped] = game.apply(0, {"type": "flip"})  # a flip already made counts in the run
    options["pace"] = NEXT_WAR
    events = FLOW.settle(game, options, 0, started=False)
    assert options["pace"] == "flip"
    rounds = sorted({event["round"] for event in events if event["type"] == "battle"})
    assert rounds == list(range(1, game.stats.rounds + 1))
    assert wars_in(events) and all(event["round"] == rounds[-1] for event in events if event["type"] == "war")
    assert next(event for event in events if event["type"] == "battle")["cards"][0] == flipped["card"]
    assert FLOW.schedule(None, game, options, new_step=True) == (TURN, None)  # type: ignore[arg-type]
    assert len(options["history"]) == game.stats.rounds + 1
    # a vote to the next war never stays the pace, even when the game ends on the way
    game, options = dealt(seed=5, max_rounds=3)
    options["pace"] = NEXT_WAR
    FLOW.settle(game, options, 0, started=False)
    assert game.is_over and options["pace"] == "flip"
