"""Benchmark: a whole single-elimination tournament through the local Discord, scripted players, instant War.

    python -m tests.bench.tournament [--players 256] [--no-show-minutes 10] [--json]

The real bot on a temporary database; one organiser creates the tournament with ``/tournament create`` (War,
instant pace), every player presses Join on the signup message, the organiser starts it, and each player presses
Ready on each of their matches' buttons, until the champion is announced. Prints ``finished`` (the tournament ended with
a champion), ``seconds`` (from the start command to the champion's announcement), the games played and the
problems the local Discord recorded; ``--json``: one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

from tests.e2e.test_airwar import fast_bot, lift_rate_limits
from tests.localdiscord import Env

RULES = "pack=32 max_rounds=300"


def ready_buttons(message) -> list[tuple[str, str]]:
    """A call's live Ready buttons, each with the line of its match (a round's call lists its pairings one per line,
    in the order of its buttons; a call of one match is one line)."""
    buttons = [b for b in message.buttons if b.get("custom_id", "").startswith("tn:ready:")]
    lines = [line for line in message.text.splitlines() if line[:1].isdigit()] or [message.text]
    return [(line, b["custom_id"]) for line, b in zip(lines, buttons, strict=False) if not b.get("disabled")]


async def run(players: int, no_show_minutes: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        env = await Env.start(fast_bot(Path(folder) / "bench.db"), record_requests=False)
        try:
            lift_rate_limits(env)
            env.rate_limit("default", limit=100_000, per=1.0)
            organiser = env.user("organiser")
            users = [env.user(f"player{n}") for n in range(players)]
            ix = await env.slash(organiser, "tournament create", name="Benchmark Cup", game="war",
                                 format="single elimination", pace="instant", rules=RULES, max_players=256,
                                 no_show=no_show_minutes)
            await ix.wait_response()
            await env.wait_for(lambda: any("Benchmark" in m.title
                                           for m in env.messages()), timeout=10)
            signup = next(m for m in env.messages() if "Benchmark" in m.title)
            for user in users:
                join = await env.click(user, signup, "Join")
                await join.wait_response(timeout=10)
            cog = env.bot.get_cog("Tournament")
            tournament = await cog.service.in_channel(env.guild.id, env.channel().id)
            await env.wait_for(lambda: f"Players ({players})" in signup.body, timeout=30)
            started = time.perf_counter()
            ix = await env.slash(organiser, "tournament start")
            await ix.wait_response()
            pressed: set[str] = set()
            by_mention = {user.mention: user for user in users}
            seen = 0
            while True:
                current = await cog.service.get(tournament.id)
                if not current.is_open:
                    break
                messages = env.messages()
                clicks = []
                for message in messages[seen:] if seen <= len(messages) else messages:
                    for line, custom_id in ready_buttons(message):
                        for mention, user in by_mention.items():
                            if mention in line and (custom_id, user.id) not in pressed:
                                pressed.add((custom_id, user.id))
                                clicks.append(env.click(user, message, custom_id=custom_id))
                seen = max(0, len(messages) - 50)  # calls can be edited late; look back a little
                for ix in await asyncio.gather(*clicks):
                    await ix.wait_response(timeout=10)
                if not clicks:
                    await asyncio.sleep(0.02)
            await env.wait_for(lambda: any("🏆" in m.text for m in env.messages()), timeout=30)
            seconds = time.perf_counter() - started
            final = await cog.service.get(tournament.id)
            games = await cog.service.games(tournament.id)
            return {"players": players, "finished": final.status == "finished" and final.champion_id is not None,
                    "seconds": round(seconds, 2), "games": len(games), "ready_clicks": len(pressed),
                    "messages": len(env.messages()), "problems": len(env.failures())}
        finally:
            await env.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--no-show-minutes", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = asyncio.run(run(args.players, args.no_show_minutes))
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0 if result["finished"] else 1


if __name__ == "__main__":
    sys.exit(main())
