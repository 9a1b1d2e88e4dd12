"""The web application (aiohttp.web, Jinja2 templates): its routes, and :func:`serve` for ``python -m bot web``.

aiohttp is what discord.py already runs on (no new server stack to keep up to date), serves asyncio natively, and
streams; Jinja2 escapes everything it writes into a page by default. Every page is read-only: the process writes
only the reviews it computes (:mod:`bot.web.reviews`).
"""

from __future__ import annotations

import asyncio
import logging
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from aiohttp import web

from bot import memory
from bot.i18n import Texts
from bot.render.card_emoji import CARDS, emoji_png
from bot.storage.port import Storage
from bot.web import pages
from bot.web.links import board_url, player_url, review_url
from bot.web.reviews import Reviewer

log = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
DB_KEY = web.AppKey("db", Storage)
#: how often a live tournament page asks whether it changed (milliseconds)
POLL_MS = 3000

_templates = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"), autoescape=True,
                                trim_blocks=True, lstrip_blocks=True)
_templates.globals.update(review_url=lambda match_id: review_url("", match_id),
                          board_url=lambda guild_id, game: board_url("", guild_id, game),
                          player_url=lambda guild_id, game, user_id: player_url("", guild_id, game, user_id),
                          poll_ms=POLL_MS)


def percent(say: Texts, value: float) -> str:
    """A percentage with one decimal, as the language writes it (``93.5%``, ``93,5 %``)."""
    _ = say
    return _("{percent}%", percent=say.number(value, digits=1))


def render(template: str, status: int = 200, **context: Any) -> web.Response:
    say = context.get("say")
    html = _templates.get_template(template).render(
        _=say, lang=(say.language if say else "en").replace("_", "-"),
        percent=(lambda value: percent(say, value)) if say else None, **context)
    return web.Response(text=html, status=status, content_type="text/html", charset="utf-8",
                        headers={"Cache-Control": "no-cache"})


def _number(request: web.Request, key: str) -> int:
    try:
        return int(request.match_info[key])
    except ValueError:
        raise pages.NotFound from None


async def match(request: web.Request) -> web.Response:
    page = await pages.match_page(request.app[DB_KEY], _number(request, "id"))
    return render("match.html", say=page.say, page=page)


async def tournament(request: web.Request) -> web.Response:
    page = await pages.tournament_page(request.app[DB_KEY], _number(request, "id"))
    if request.query.get("part") == "live":
        return render("tournament_live.html", say=page.say, page=page)
    return render("tournament.html", say=page.say, page=page)


async def board(request: web.Request) -> web.Response:
    season = request.query.get("season")
    if season is not None and not season.isdigit():
        raise pages.NotFound
    page = await pages.board_page(request.app[DB_KEY], _number(request, "guild"), request.match_info["game"],
                                  None if season is None else int(season))
    return render("board.html", say=page.say, page=page)


async def player(request: web.Request) -> web.Response:
    page = await pages.player_page(request.app[DB_KEY], _number(request, "guild"), request.match_info["game"],
                                   _number(request, "user"))
    return render("player.html", say=page.say, page=page)


@lru_cache(maxsize=len(CARDS))
def _card_png(code: str) -> bytes:
    return emoji_png(code)


async def card_picture(request: web.Request) -> web.Response:
    code = request.match_info["card"]
    if code not in CARDS:
        raise pages.NotFound
    body = await asyncio.to_thread(_card_png, code)
    return web.Response(body=body, content_type="image/png", headers={"Cache-Control": "public, max-age=86400"})


async def health(request: web.Request) -> web.Response:
    return web.Response(text="ok")


@web.middleware
async def not_found(request: web.Request, handler: Any) -> web.StreamResponse:
    """Anything unknown, or of a server whose pages are not public, is one plain 404."""
    try:
        return await handler(request)
    except (pages.NotFound, web.HTTPNotFound):
        return render("not_found.html", status=404)


def make_app(db: Storage, *, reviewer: Reviewer | None = None) -> web.Application:
    """The site on ``db``; ``reviewer`` runs while the site does (``None``: no reviews are computed here)."""
    app = web.Application(middlewares=[not_found])
    app[DB_KEY] = db
    app.add_routes([
        web.get("/m/{id}", match), web.get("/t/{id}", tournament), web.get("/s/{guild}/{game}", board),
        web.get("/s/{guild}/{game}/p/{user}", player), web.get("/c/{card}.png", card_picture),
        web.get("/health", health), web.static("/static", HERE / "static"),
    ])
    if reviewer is not None:
        async def running(_: web.Application):
            reviewer.start()
            yield
            await reviewer.stop()

        app.cleanup_ctx.append(running)
    return app


async def open_database(path: Path, url: str | None) -> Storage:
    if url:
        from bot.storage.postgres import PostgresDatabase

        return await PostgresDatabase.open(url, shared=True)
    from bot.storage.database import Database

    return await Database.open(path, shared=True)


async def serve(path: Path, url: str | None, host: str, port: int, *, reviews: bool = True) -> None:
    """Serve the site until cancelled (SIGTERM/SIGINT)."""
    db = await open_database(path, url)
    app = make_app(db, reviewer=Reviewer(db) if reviews else None)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    for name in _templates.list_templates():  # compiled once, before the collector is told to leave them be
        _templates.get_template(name)
    memory.settle()
    log.info("serving the web pages on http://%s:%s", host, port)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
        await db.close()
