"""The command line: `python -m bot` without a token, `replay` and `sim`, run as a user runs them."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

WORKED_EXAMPLE = {
    "game": "airwar",
    "rules": {"stack": 5, "aces": "high"},
    "seed": 1,
    "piles": [
        ["AS", "QS", "10S", "4S", "3S", "8S", "2S"],
        ["KH", "QH", "JH", "9H", "3H", "6H", "5H", "7H"],
    ],
    "moves": [{"orders": [["QS", "10S", "AS", "4S", "3S"], ["QH", "KH", "9H", "JH", "3H"]]}],
}


def run_cli(*args, env_extra=None, tmp_path=None):
    env = {**os.environ, **(env_extra or {})}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def write_match(tmp_path, match, name="match.json"):
    path = tmp_path / name
    path.write_text(json.dumps(match) if not isinstance(match, str) else match)
    return str(path)


def test_without_a_token_the_bot_exits_2_naming_the_setting():
    result = run_cli(env_extra={"DISCORD_TOKEN": ""})
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr and ".env" in result.stderr
    assert "Traceback" not in result.stderr


def test_replay_plays_the_worked_example_and_ends_on_the_short_stack(tmp_path):
    result = run_cli("replay", write_match(tmp_path, WORKED_EXAMPLE))
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    flips = [line for line in lines if line.get("type") == "flip"]
    assert [flip["cards"] for flip in flips] == [
        ["QS", "QH"], ["10S", "KH"], ["AS", "9H"], ["4S", "JH"], ["3S", "3H"], ["8S", "6H"]
    ]
    last = lines[-1]
    # Seat 0 keeps A, 3, 8 and has 2S left: 4 cards, no full stack of 5 -> seat 1 wins.
    assert last["winner"] == 1
    assert last["piles"] == [["2S", "AS", "3S", "8S"], ["5H", "7H", "QH", "KH", "JH"]]


def test_replay_stops_when_the_moves_run_out_and_prints_the_state(tmp_path):
    match = {**WORKED_EXAMPLE, "piles": [WORKED_EXAMPLE["piles"][0] + ["5S", "6S", "7S"],
                                         WORKED_EXAMPLE["piles"][1]]}
    result = run_cli("replay", write_match(tmp_path, match))
    assert result.returncode == 0, result.stderr
    last = json.loads(result.stdout.splitlines()[-1])
    assert "winner" not in last
    assert last["reason"] == "unfinished"


def test_replay_of_war_is_deterministic_and_finishes(tmp_path):
    path = write_match(tmp_path, {"game": "war", "rules": {"return_order": "played"}, "seed": 42})
    first, second = run_cli("replay", path), run_cli("replay", path)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    last = json.loads(first.stdout.splitlines()[-1])
    assert "winner" in last and last["reason"]


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("{not json", "not valid JSON"),
        ({"game": "chess"}, "no game 'chess'"),
        ({"game": "war", "rules": {"face_down": 7}}, "face_down"),
        ({"game": "war", "moves": [{"orders": []}]}, "its only moves are forfeits and draws"),
        ({"game": "war", "moves": [{"forfeit": 1, "reason": "forfeit"}]}, "names the round it came after"),
        ({**WORKED_EXAMPLE, "moves": [{"orders": [["QS", "QS", "AS", "4S", "3S"], ["QH", "KH", "9H", "JH", "3H"]]}]},
         "move 1"),
    ],
)
def test_replay_refuses_a_bad_file_with_one_line_and_status_1(tmp_path, content, fragment):
    result = run_cli("replay", write_match(tmp_path, content))
    assert result.returncode == 1
    assert fragment in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_replay_of_a_missing_file():
    result = run_cli("replay", "/nonexistent/match.json")
    assert result.returncode == 1 and "cannot read" in result.stderr


def test_sim_json_has_exactly_the_documented_keys_and_ignores_jobs():
    one = run_cli("sim", "--game", "war", "--games", "300", "--seed", "5", "--json", "--jobs", "1")
    two = run_cli("sim", "--game", "war", "--games", "300", "--seed", "5", "--json", "--jobs", "2")
    assert one.returncode == 0, one.stderr
    first, second = json.loads(one.stdout), json.loads(two.stdout)
    assert list(first) == ["games", "mean_rounds", "median_rounds", "p90_rounds", "max_rounds", "mean_wars",
                           "wins", "draws", "cycles", "capped", "games_per_second"]
    assert first["games"] == 300
    assert sum(first["wins"]) + first["draws"] == 300
    first.pop("games_per_second"), second.pop("games_per_second")
    assert first == second


def test_sim_takes_rules_and_refuses_bad_ones():
    good = run_cli("sim", "--games", "50", "--rule", "players=3", "--rule", "face_down=3", "--json")
    assert good.returncode == 0, good.stderr
    assert len(json.loads(good.stdout)["wins"]) == 3
    bad = run_cli("sim", "--games", "5", "--rule", "players=9")
    assert bad.returncode == 2 and "players" in bad.stderr and "Traceback" not in bad.stderr


def test_sim_plays_games_that_need_decisions():
    result = run_cli("sim", "--game", "airwar", "--games", "20", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["games"] == 20 and data["mean_rounds"] > 0


def test_replay_reads_forfeit_and_draw_moves(tmp_path):
    forfeit = {**WORKED_EXAMPLE, "moves": [{"forfeit": 0, "reason": "timeout"}]}
    result = run_cli("replay", write_match(tmp_path, forfeit))
    assert result.returncode == 0, result.stderr
    last = json.loads(result.stdout.splitlines()[-1])
    assert (last["winner"], last["reason"]) == (1, "timeout")

    draw = {"game": "army", "seed": 3, "moves": [{"draw": "double_timeout"}]}
    last = json.loads(run_cli("replay", write_match(tmp_path, draw, "draw.json")).stdout.splitlines()[-1])
    assert (last["winner"], last["reason"]) == (None, "double_timeout")


@pytest.mark.parametrize(
    ("move", "fragment"),
    [({"forfeit": 5}, "move 1: there is no seat 5"), ({"forfeit": 0, "why": "x"}, "move 1: a forfeit move"),
     ({"draw": 3}, "move 1: a draw move")],
)
def test_replay_refuses_bad_forfeit_and_draw_moves(tmp_path, move, fragment):
    result = run_cli("replay", write_match(tmp_path, {**WORKED_EXAMPLE, "moves": [move]}))
    assert result.returncode == 1 and fragment in result.stderr, result.stderr
