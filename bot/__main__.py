"""`python -m bot` runs the bot; `python -m bot replay FILE` and `python -m bot sim ...` check results;
`python -m bot engine` answers Air War positions (:mod:`bot.ai.protocol`); `python -m bot migrate-db --to URL`
moves the SQLite database into PostgreSQL (:mod:`bot.migrate`); `python -m bot web` serves the web pages
(:mod:`bot.web`) in a process of its own."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.config import Settings, SettingsError
from bot.errors import GameError
from bot.registry import game_names

if TYPE_CHECKING:
    from bot.client import CardGameBot

EXIT_USAGE = 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Air War: the War family of card games "
                                     "in Discord. With no command, runs the bot.")
    commands = parser.add_subparsers(dest="command", metavar="{run,replay,sim,engine,migrate-db,web}")
    commands.add_parser("run", help="run the bot (the default)")
    replay = commands.add_parser("replay", help="play a match file; print one JSON line per event, then the result")
    replay.add_argument("file", help="the match file (JSON)")
    sim = commands.add_parser("sim", help="play many random games and report statistics")
    sim.add_argument("--game", default="war", choices=game_names())
    sim.add_argument("--games", type=_positive, default=1000, help="how many games (default 1000)")
    sim.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    sim.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE", help="a rule, repeatable")
    sim.add_argument("--jobs", type=_positive, default=1, help="processes to spread the games over (default 1)")
    sim.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    sim.add_argument("--players", metavar="A,B", help="Air War or Army: two players (the levels easy, medium, hard; "
                     "Air War also expert, random, drawn) against each other; prints each one's score with a 95%% "
                     "interval")
    sim.add_argument("--stack", type=_positive, help="Air War: the stack size (the rule stack)")
    sim.add_argument("--reactions", metavar="MS,MS", help="Speed War: each scripted player's mean reaction time")
    sim.add_argument("--errors", metavar="P,P", help="Speed War: each scripted player's chance of a wrong press")
    engine = commands.add_parser("engine", help="answer Air War positions: JSON lines on stdin, one answer line "
                                 "each on stdout")
    engine.add_argument("--level", default="hard", choices=("easy", "medium", "hard", "expert"),
                        help="the level that chooses (default hard)")
    migrate = commands.add_parser("migrate-db", help="move the SQLite database into an empty PostgreSQL database, "
                                  "checked row by row and by replaying every finished match")
    migrate.add_argument("--to", required=True, metavar="URL", help="the PostgreSQL database (postgresql://...)")
    migrate.add_argument("--from", dest="source", metavar="FILE",
                         help="the SQLite file (default: DATABASE_PATH, else data/airwar.db)")
    web = commands.add_parser("web", help="serve the match reviews, tournament pages and boards (read-only, on the "
                              "bot's database: DATABASE_URL, else DATABASE_PATH)")
    web.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: behind a "
                     "reverse proxy)")
    web.add_argument("--port", type=_positive, default=8080, help="the port (default 8080)")
    web.add_argument("--no-reviews", action="store_true", help="do not compute Air War reviews in this process")
    args = parser.parse_args(argv)

    if args.command == "replay":
        return run_replay(args.file)
    if args.command == "sim":
        return run_sim(args)
    if args.command == "migrate-db":
        return run_migrate(args.source, args.to)
    if args.command == "web":
        return run_web(args)
    if args.command == "engine":
        from bot.ai.protocol import serve

        serve(sys.stdin, sys.stdout, args.level)
        return 0
    return run_bot()


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def run_replay(path: str) -> int:
    from bot.replay import MatchFileError, load_match_file, replay

    try:
        for line in replay(load_match_file(path)):
            sys.stdout.write(json.dumps(line) + "\n")
    except MatchFileError as error:
        sys.stdout.flush()
        print(f"replay: {error}", file=sys.stderr)
        return 1
    return 0


def run_migrate(source: str | None, url: str) -> int:
    import os
    from pathlib import Path

    from bot.config import DEFAULT_DATABASE
    from bot.migrate import MigrationRefused, move

    if not url.startswith(("postgresql://", "postgres://")):
        print(f"migrate-db: --to takes a postgresql:// URL, not {url!r}", file=sys.stderr)
        return EXIT_USAGE
    path = Path(source or os.environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE)
    if not path.is_file():
        print(f"migrate-db: there is no SQLite database at {path}; nothing was written", file=sys.stderr)
        return 1
    try:
        report = asyncio.run(move(path, url))
    except MigrationRefused as error:
        print(f"migrate-db: {error}; nothing was written", file=sys.stderr)
        return 1
    for line in report.lines():
        print(line)
    print(f"moved {path} into {url.split('@')[-1]}: set DATABASE_URL to use it")
    return 0


def run_web(args: argparse.Namespace) -> int:
    import os
    from pathlib import Path

    from dotenv import load_dotenv

    from bot.config import DEFAULT_DATABASE, PROJECT_ROOT
    from bot.logs import setup_logging
    from bot.web.app import serve as serve_web

    load_dotenv(PROJECT_ROOT / ".env", override=False)
    setup_logging(os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO")
    path = Path(os.environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE)
    url = os.environ.get("DATABASE_URL", "").strip() or None
    if url is None and not path.is_file():
        print(f"web: there is no database at {path}: start the bot once first (or set DATABASE_URL)",
              file=sys.stderr)
        return 1
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve_web(path, url, args.host, args.port, reviews=not args.no_reviews))
    return 0


def run_sim(args: argparse.Namespace) -> int:
    from bot import sim

    rules = {}
    for item in args.rule:
        key, sep, value = item.partition("=")
        if not sep or not key:
            print(f"sim: --rule takes KEY=VALUE, not {item!r}", file=sys.stderr)
            return EXIT_USAGE
        rules[key.strip()] = value
    if args.stack is not None:
        rules["stack"] = str(args.stack)
    if args.players is not None:
        return run_arena(args, rules)
    progress = sim.terminal_progress if sys.stderr.isatty() and not args.json else None
    try:
        scripted = {key: tuple(float(part) for part in value.split(","))
                    for key, value in (("reactions", args.reactions), ("errors", args.errors)) if value}
        result = sim.run(args.game, args.games, args.seed, rules, jobs=args.jobs, progress=progress,
                         scripted=scripted)
    except GameError as error:
        print(f"sim: {error}", file=sys.stderr)
        return EXIT_USAGE
    print(json.dumps(result) if args.json else sim.format_report(result))
    return 0


def run_arena(args: argparse.Namespace, rules: dict[str, str]) -> int:
    from bot.ai import army
    from bot.ai.arena import run
    from bot.ai.players import PLAYERS

    known = {"airwar": PLAYERS, "army": army.LEVELS}.get(args.game, ())
    players = tuple(name.strip() for name in args.players.split(","))
    if not known or len(players) != 2 or any(name not in known for name in players):
        print(f"sim: --players takes two of {', '.join(PLAYERS)} (A,B) for --game airwar, or of "
              f"{', '.join(army.LEVELS)} for --game army", file=sys.stderr)
        return EXIT_USAGE
    try:
        report = run((players[0], players[1]), args.games, rules, seed=args.seed, jobs=args.jobs,
                     game_name=args.game)
    except GameError as error:
        print(f"sim: {error}", file=sys.stderr)
        return EXIT_USAGE
    print(json.dumps(report.to_json()))
    return 0


def run_bot() -> int:
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return EXIT_USAGE
    from bot.logs import setup_logging

    setup_logging(settings.log_level)
    try:
        asyncio.run(serve(settings))
    except KeyboardInterrupt:
        pass
    except LoginRefused as error:
        print(error, file=sys.stderr)
        return 1
    return 0


class LoginRefused(Exception):
    pass


async def serve(settings: Settings) -> None:
    """Run until Discord disconnects us for good or SIGTERM/SIGINT asks us to stop; then close cleanly."""
    import discord

    from bot.client import create_bot

    bot = create_bot(settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    async with bot:
        runner = asyncio.create_task(bot.start(settings.token))
        settler = asyncio.create_task(_settle_when_ready(bot))
        stopper = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        stopper.cancel()
        settler.cancel()
        await bot.close()
        if runner in done:
            try:
                runner.result()
            except discord.LoginFailure:
                raise LoginRefused(
                    "Discord refused DISCORD_TOKEN: it is wrong or was reset. Copy a fresh token from the "
                    "Developer Portal (your application -> Bot -> Reset Token) into .env."
                ) from None


async def _settle_when_ready(bot: CardGameBot) -> None:
    """Once the bot is started, keep what it made while starting out of the garbage collector's way."""
    from bot import memory

    await bot.wait_until_ready()
    memory.settle()


if __name__ == "__main__":
    sys.exit(main())
