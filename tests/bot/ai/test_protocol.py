"""`python -m bot engine`: a batch of positions answered in one process, an error line for a bad one."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

from bot.ai.protocol import answer, serve
from bot.games.airwar.engine import AirWar

ROOT = Path(__file__).resolve().parents[3]


def match_file(seed: int, engagements: int, stack: int = 3) -> tuple[dict, AirWar]:
    """A match file with ``engagements`` moves played by seeded random orders, and the game it leads to."""
    game = AirWar.new({"stack": stack}, seed=seed)
    chooser = random.Random(seed)
    moves = []
    for _ in range(engagements):
        if game.is_over:
            break
        orders = []
        for seat in (0, 1):
            order = list(game.stacks[seat])
            chooser.shuffle(order)
            orders.append(order)
        moves.append({"orders": orders})
        game.apply_move({"orders": orders})
    return {"game": "airwar", "rules": {"stack": stack}, "seed": seed, "moves": moves}, game


def test_a_batch_of_a_hundred_positions_is_answered_in_one_process_and_a_bad_line_gets_an_error():
    requests, games = [], {}
    for index in range(100):
        match, game = match_file(index, index % 7)
        if game.is_over:
            continue
        requests.append(json.dumps({"id": index, "match": match, "seat": index % 2}))
        games[index] = game
    requests.insert(10, "{not json")
    requests.insert(20, json.dumps({"id": "bad-seat", "match": match_file(1, 0)[0], "seat": 3}))
    done = subprocess.run([sys.executable, "-m", "bot", "engine", "--level", "hard"], input="\n".join(requests),
                          capture_output=True, text=True, cwd=ROOT, timeout=300, check=True)
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == len(requests)
    assert lines[10] == {"id": None, "error": lines[10]["error"]} and "JSON" in lines[10]["error"]
    assert lines[20]["id"] == "bad-seat" and "seat" in lines[20]["error"]
    answered = [line for line in lines if "order" in line]
    assert len(answered) == len(games) >= 80
    for line in answered:
        game = games[line["id"]]
        seat = line["id"] % 2
        assert sorted(line["order"]) == sorted(game.stacks[seat])
        assert abs(sum(p for _, p in line["strategy"]) - 1) < 1e-4
        assert line["order"] in [order for order, _ in line["strategy"]]
        assert -1 <= line["value"] <= 1


def test_the_same_request_gets_the_same_answer_and_a_finished_game_is_refused():
    match, _ = match_file(4, 2)
    request = {"id": "x", "match": match, "seat": 0}
    assert answer(request) == answer(json.loads(json.dumps(request)))
    over = dict(match, moves=[*match["moves"], {"forfeit": 1}])
    assert answer({"id": 1, "match": over, "seat": 0}) == {"id": 1, "error": "the game is over: there is nothing "
                                                                          "to choose"}


def test_an_illegal_move_in_the_file_is_named():
    match, game = match_file(2, 1)
    match["moves"].append({"orders": [["ZZ"], game.stacks[1]]})
    reply = answer({"id": 7, "match": match, "seat": 0})
    assert reply["id"] == 7 and reply["error"].startswith("move 2:")


def test_serve_answers_every_line_and_goes_on():
    out = io.StringIO()
    match, _ = match_file(3, 1)
    count = serve(["[]", "", json.dumps({"id": 1, "match": match, "seat": 1})], out, "medium")
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert count == 2 and "error" in replies[0] and replies[1]["id"] == 1 and len(replies[1]["strategy"]) == 1


def test_the_expert_answers_with_its_mix_which_reads_the_match_moves():
    match, game = match_file(9, 4)
    reply = answer({"id": 2, "match": match, "seat": 0}, "expert")
    assert sorted(reply["order"]) == sorted(game.stacks[0])
    assert abs(sum(p for _, p in reply["strategy"]) - 1) < 1e-4
    assert reply["order"] in [order for order, _ in reply["strategy"]]
    assert answer({"id": 2, "match": match, "seat": 0}, "expert") == reply


def test_a_game_of_three_is_answered_with_the_levels_order_alone():
    match = {"game": "airwar", "rules": {"stack": 3, "players": 3}, "seed": 5, "moves": []}
    game = AirWar.new(match["rules"], seed=5)
    reply = answer({"id": 3, "match": match, "seat": 2})
    assert sorted(reply["order"]) == sorted(game.stacks[2])
    assert reply["strategy"] == [[reply["order"], 1.0]] and reply["value"] is None


def test_every_level_of_the_bot_is_offered_on_the_command_line():
    from bot.ai.players import LEVELS

    match, _ = match_file(2, 1)
    for level in LEVELS:
        done = subprocess.run([sys.executable, "-m", "bot", "engine", "--level", level],
                              input=json.dumps({"id": level, "match": match, "seat": 0}), capture_output=True,
                              text=True, cwd=ROOT, timeout=120, check=True)
        assert json.loads(done.stdout)["id"] == level
