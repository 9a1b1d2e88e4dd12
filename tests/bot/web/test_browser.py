"""The web pages in a real browser (Debian's Chromium, headless, at a phone's width), on the database of the real
bot driven through the local Discord:

* an Air War match played through Discord, reviewed: stepped through with the arrow keys, each engagement's
  orders, flips and fights (the cards kept and discarded) as the engine played them, each order's accuracy and
  the best order as the AI's review says;
* a tournament's page updates by itself when one of its matches ends, and links to that match's review;
* a board and a player's page in German;
* each page's screenshot at 390 px wide, and nothing wider than the phone.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.ai.review import accuracy_percent, review
from bot.services.settings import SettingsService
from bot.web.reviews import export, review_data, review_match
from tests.bot.web.browser import assert_fits_a_phone, chromium, run, served
from tests.bot.web.data import add_finished, make_public, name_players
from tests.e2e.test_airwar import accept, challenge, match_id_of, play, reference, settled, start
from tests.e2e.test_tournament import create, open_calls, tournament_rows
from tests.e2e.test_tournament import start as tournament_env

pytestmark = pytest.mark.e2e

BUDGET = 0.5  # seconds per engagement's solve: the same budget for the stored review and the test's own

STEP_SCRIPT = """
const shown = [...document.querySelectorAll('section.step')].filter(s => !s.hidden);
return shown.map(s => ({
  id: s.id,
  number: +s.dataset.number,
  orders: [...s.querySelectorAll('.side')].map(d => [...d.querySelectorAll('.order img')].map(i => i.dataset.card)),
  best: [...s.querySelectorAll('.side')].map(d => [...d.querySelectorAll('.best img')].map(i => i.dataset.card)),
  accuracy: [...s.querySelectorAll('.step-accuracy')].map(d => parseFloat(d.dataset.value)),
  costly: [...s.querySelectorAll('.side')].map(d => d.classList.contains('costly')),
  flips: [...s.querySelectorAll('.flip')].map(f => [...f.querySelectorAll('img')].map(i => i.dataset.card)),
  fights: [...s.querySelectorAll('.fight')].map(f => ['.kept', '.discarded'].map(
    part => [...f.querySelectorAll(part + ' img')].map(i => i.dataset.card))),
  alt: [...s.querySelectorAll('img')].every(i => i.alt.length > 0),
}));
"""


def walk_review(url: str, steps: int, screenshot) -> list[dict]:
    """Open the review, then press → through every step (and ← once at the end): what each step showed."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    browser = chromium()
    try:
        browser.get(url)
        # the stepper shows once its script ran (without the script every step shows, one under the other)
        WebDriverWait(browser, 15, poll_frequency=0.1).until(
            lambda b: b.execute_script("return !document.querySelector('nav.stepper').hidden"))
        seen = []
        for number in range(steps):
            shown = browser.execute_script(STEP_SCRIPT)
            assert len(shown) == 1, f"step {number + 1}: {len(shown)} steps shown at once"
            seen.append(shown[0])
            if number == 0:
                assert_fits_a_phone(browser, screenshot)
            ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
        assert browser.execute_script(STEP_SCRIPT)[0]["id"] == f"step-{steps}"  # → stops at the last step
        ActionChains(browser).send_keys(Keys.ARROW_LEFT).perform()
        seen.append(browser.execute_script(STEP_SCRIPT)[0])
        return seen
    finally:
        browser.quit()


async def test_an_air_war_match_played_in_discord_is_reviewed_step_by_step_with_the_keyboard(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    message = await challenge(env, alice, bob, stack=3)
    match_id = match_id_of(message)
    thread = await accept(env, bob, message)
    played = await play(env, [alice, bob], thread)
    await settled(env, match_id)
    db = env.bot.database
    await SettingsService(db).set_web_public(env.guild.id, True)

    async def solve(file):
        return await asyncio.to_thread(review_data, file, BUDGET)

    assert await review_match(db, match_id, solve)  # what the web process's reviewer does once the match ended
    file = await export(db, match_id)
    reviewed = await asyncio.to_thread(review, file, BUDGET)  # the AI's own review of the same match
    _, events = reference(played.orders, {"stack": 3})
    async with served(db) as base:
        seen = await run(walk_review, f"{base}/m/{match_id}", played.engagements, tmp_path / "review.png")
    assert [step["number"] for step in seen[:-1]] == list(range(1, played.engagements + 1))
    assert seen[-1]["number"] == played.engagements - 1  # ← went back one
    costliest = [reviewed.costliest(seat) for seat in (0, 1)]
    for step, item in zip(seen[:-1], reviewed.engagements, strict=True):
        number = step["number"]
        assert step["orders"] == played.orders[number], f"engagement {number}: the orders"
        assert step["flips"] == [flip["cards"] for flip in events
                                 if flip["type"] == "flip" and flip["engagement"] == number], f"engagement {number}"
        assert step["fights"] == [[fight["kept"], fight["discarded"]] for fight in events
                                  if fight["type"] == "fight" and fight["engagement"] == number]
        assert item.number == number
        assert step["best"] == [list(item.best[0]), list(item.best[1])]
        for seat in (0, 1):
            expected = accuracy_percent([item.regrets[seat]], [item.stakes[seat]])
            assert step["accuracy"][seat] == pytest.approx(expected, abs=0.051), f"engagement {number}, seat {seat}"
            worst = costliest[seat]
            assert step["costly"][seat] == (worst is not None and worst.number == number)
        assert step["alt"], "a card without alt text"


def watch_tournament(url: str, screenshot, decided: asyncio.Event, loop) -> dict:
    """Open the tournament's page, let the test end a match, and wait (no reload) until the page shows it."""
    from selenium.webdriver.support.ui import WebDriverWait

    browser = chromium()
    try:
        browser.get(url)
        before = browser.execute_script("window.notReloaded = true;"
                                        "return document.querySelectorAll('.winner').length")
        assert_fits_a_phone(browser, screenshot)
        loop.call_soon_threadsafe(decided.set)
        WebDriverWait(browser, 20, poll_frequency=0.2).until(
            lambda b: b.execute_script("return document.querySelectorAll('.winner').length") > before)
        return browser.execute_script(
            "return {kept: window.notReloaded === true, links: [...document.querySelectorAll('a.game')]"
            ".map(a => a.getAttribute('href')), winners: document.querySelectorAll('.winner').length}")
    finally:
        browser.quit()


async def test_a_tournament_page_updates_by_itself_when_a_match_ends(make_env, tmp_path):
    env = await tournament_env(make_env, tmp_path / "t.db")
    organiser = env.user("org")
    players = [env.user(f"p{n}") for n in range(4)]
    tournament_id = await create(env, organiser, "single elimination", players)
    await (await env.slash(organiser, "tournament start")).wait_response()
    await env.wait_for(lambda: open_calls(env, players[0]))
    db = env.bot.database
    await SettingsService(db).set_web_public(env.guild.id, True)
    opened = asyncio.Event()
    async with served(db) as base:
        watcher = asyncio.create_task(run(watch_tournament, f"{base}/t/{tournament_id}", tmp_path / "t.png", opened,
                                          asyncio.get_running_loop()))
        await asyncio.wait_for(opened.wait(), 30)
        # one match is played: both its players press Ready, War plays it out at once
        message, custom_id = open_calls(env, players[0])[0]
        for player in players:
            if any(found == custom_id for _, found in open_calls(env, player)):
                await (await env.click(player, message, custom_id=custom_id)).wait_response()
        started = time.monotonic()
        shown = await asyncio.wait_for(watcher, 40)
    rows = await tournament_rows(env).bracket_matches(tournament_id)
    assert sum(row.status == "decided" for row in rows) >= 1
    assert shown["kept"], "the page was reloaded instead of updated"
    decided = {row.key for row in rows if row.status == "decided"}
    async with db.read() as conn:
        games = [game.match_id for game in await db.tournaments.games(conn, tournament_id) if game.key in decided]
    assert games and all(f"/m/{match_id}" in shown["links"] for match_id in games), (games, shown["links"])
    assert time.monotonic() - started < 40


def read_board(base: str, guild_id: int, user_id: int, tmp_path) -> dict:
    browser = chromium()
    try:
        browser.get(f"{base}/s/{guild_id}/war")
        board = browser.execute_script(
            "return {lang: document.documentElement.lang, title: document.querySelector('h1').textContent,"
            " rows: [...document.querySelectorAll('table.board tbody tr')].map(r => r.textContent)}")
        assert_fits_a_phone(browser, tmp_path / "board.png")
        browser.get(f"{base}/s/{guild_id}/war/p/{user_id}")
        player = browser.execute_script(
            "const svg = document.querySelector('svg[role=img]');"
            "return {lang: document.documentElement.lang, chart: svg.getAttribute('aria-label'),"
            " points: (svg.querySelector('polyline') || {getAttribute: () => ''}).getAttribute('points'),"
            " recent: document.querySelectorAll('ol.recent li').length}")
        assert_fits_a_phone(browser, tmp_path / "player.png")
        return {"board": board, "player": player}
    finally:
        browser.quit()


async def test_a_board_and_a_player_page_in_german_fit_a_phone(tmp_path):
    from bot.storage.database import Database

    db = await Database.open(tmp_path / "airwar.db")
    try:
        await make_public(db, 1, language="de")
        await name_players(db, 1, {11: "Alice Wunderland-Langername", 12: "Bob"})
        for seed in range(6):
            await add_finished(db, 1, "war", [11, 12], seed, 100.0 + seed)
        async with served(db) as base:
            seen = await run(read_board, base, 1, 11, tmp_path)
    finally:
        await db.close()
    assert seen["board"]["lang"] == "de" and "Rangliste" in seen["board"]["title"]
    assert len(seen["board"]["rows"]) == 2 and "Alice Wunderland-Langername" in seen["board"]["rows"][0] + \
        seen["board"]["rows"][1]
    assert seen["player"]["lang"] == "de" and "Wertung" in seen["player"]["chart"]
    assert len(seen["player"]["points"].split()) == 6 and seen["player"]["recent"] == 6
