"""Players against each other: seats swap, runs repeat, and a stronger player scores more."""

from __future__ import annotations

import json

from bot.__main__ import main
from bot.ai.arena import run


def test_the_greedy_player_beats_the_order_as_drawn_and_runs_repeat():
    report = run(("medium", "drawn"), 12, {"stack": 3}, seed=2)
    assert report.scores[0] + report.scores[1] == 12
    assert report.scores[0] / 12 >= 0.75
    assert 0 <= report.intervals[0][0] <= report.scores[0] / 12 <= report.intervals[0][1] <= 1
    assert run(("medium", "drawn"), 12, {"stack": 3}, seed=2) == report
    assert run(("medium", "drawn"), 12, {"stack": 3}, seed=2, jobs=2) == report


def test_sim_with_players_prints_each_ones_score(capsys):
    assert main(["sim", "--game", "airwar", "--players", "easy,drawn", "--games", "4", "--stack", "3"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["players"] == ["easy", "drawn"] and line["games"] == 4
    assert sum(line["score"].values()) == 1.0
    assert main(["sim", "--game", "airwar", "--players", "hard,grandmaster", "--games", "4"]) == 2
    assert "--players takes two of" in capsys.readouterr().err


def test_army_players_meet_in_the_arena_too(capsys):
    report = run(("hard", "easy"), 4, {"max_rounds": 30}, seed=3, game_name="army")
    assert report.scores[0] + report.scores[1] == 4 and report.games == 4
    assert main(["sim", "--game", "army", "--players", "hard,drawn", "--games", "2"]) == 2  # no drawn in Army
    assert "--game army" in capsys.readouterr().err
