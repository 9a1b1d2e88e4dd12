"""``python -m bot sim`` and ``python -m bot replay`` for Air War of three and four, run as a user runs them."""

from __future__ import annotations

import json
import random

import pytest

from bot.games.airwar.engine import AirWar
from tests.bot.test_main import run_cli, write_match


@pytest.mark.parametrize("players", [3, 4])
def test_sim_prints_the_figures_of_three_and_four(players):
    table = run_cli("sim", "--game", "airwar", "--rule", f"players={players}", "--games", "60", "--seed", "1")
    assert table.returncode == 0, table.stderr
    assert "rounds           mean " in table.stdout and "draws" in table.stdout
    assert f"seat {players - 1}: " in table.stdout and f"seat {players}: " not in table.stdout
    data = json.loads(run_cli("sim", "--game", "airwar", "--rule", f"players={players}", "--games", "60",
                              "--seed", "1", "--json").stdout)
    assert len(data["wins"]) == players and sum(data["wins"]) + data["draws"] == 60 and data["mean_rounds"] > 5


def test_replay_plays_a_match_file_of_three_with_a_seat_out(tmp_path):
    game = AirWar.new({"players": 3}, seed=9)
    chooser = random.Random(9)
    moves: list[dict] = [{"forfeit": 1, "reason": "forfeit"}]
    game.forfeit(1)
    while not game.is_over:
        orders = [None if not game.in_game[s] else chooser.choice(game.legal_actions(s))["cards"] for s in range(3)]
        moves.append({"orders": orders})
        game.apply_move({"orders": orders})
    match = {"game": "airwar", "rules": {"players": 3}, "seed": 9, "moves": moves}
    result = run_cli("replay", write_match(tmp_path, match))
    assert result.returncode == 0, result.stderr
    last = json.loads(result.stdout.splitlines()[-1])
    assert (last["winner"], last["reason"]) == (game.outcome.winner, game.outcome.reason)
