"""The web pages served from a real database: what a page shows, what it never shows, and who sees it."""

from __future__ import annotations

import re

from bot.ai.review import review
from bot.services.stats import StatsService
from bot.storage.stats import placeholder_id
from bot.web.pages import generic_steps
from bot.web.reviews import export, review_data, review_match
from tests.bot.web.data import add_finished, add_tournament, make_public, name_players, play

GUILD, OTHER = 1, 2
ALICE, BOB = 11, 12


async def _public_match(db, game: str = "airwar", seed: int = 5, language: str | None = None) -> int:
    await make_public(db, GUILD, language=language)
    await name_players(db, GUILD, {ALICE: "Alice", BOB: "Bob"})
    return await add_finished(db, GUILD, game, [ALICE, BOB], seed, 100.0)


async def test_a_server_without_web_on_serves_404_for_every_page(db, site):
    await name_players(db, OTHER, {ALICE: "Alice", BOB: "Bob"})
    match_id = await add_finished(db, OTHER, "war", [ALICE, BOB], 3, 100.0)
    for path in (f"/m/{match_id}", f"/s/{OTHER}/war", f"/s/{OTHER}/war/p/{ALICE}", "/m/999", "/s/1/nogame",
                 "/t/1", "/c/XX.png"):
        response = await site.get(path)
        assert response.status == 404, path
        assert "Alice" not in await response.text()
    await make_public(db, OTHER)
    assert (await site.get(f"/s/{OTHER}/war")).status == 200
    assert (await site.get(f"/m/{match_id}")).status == 200


async def test_an_unfinished_match_says_so_and_reveals_no_hidden_order(db, site):
    await make_public(db, GUILD)
    await name_players(db, GUILD, {ALICE: "Alice", BOB: "Bob"})
    game, _, _ = play("airwar", 9)
    async with db.transaction() as conn:
        match_id = await db.matches.insert_match(
            conn, guild_id=GUILD, channel_id=10, game="airwar", rules=game.rules, arrange_seconds=60,
            user_ids=[ALICE, BOB], deadline_at=200.0, now=100.0)
        first = game.__class__.new({}, seed=9)
        stacks = first.view(None)["stacks"]
        locked = list(reversed(stacks[0]))  # seat 0 locked an order; seat 1 has not chosen yet
        first.apply(0, {"type": "order", "cards": locked})
        await db.matches.append_action(conn, match_id, seat=0, step=1, kind="order",
                                       action={"type": "order", "cards": locked}, now=100.0)
        await db.matches.append_events(conn, match_id, first.opening_events, 100.0)
        await db.matches.update_match(conn, match_id, 100.0, status="active", seed=9, state=first.to_json(), step=1,
                                      deadline_at=200.0, deadline_kind="arrange")
    response = await site.get(f"/m/{match_id}")
    html = await response.text()
    assert response.status == 200
    assert 'id="unfinished"' in html and "Alice" in html
    # the leak scan: no card of the locked order (nor any card at all) is in the page
    assert not re.search(r'data-card="', html)
    for card in locked:
        assert f"/c/{card}.png" not in html and f'"{card}"' not in html


async def test_a_finished_air_war_match_shows_every_engagement_with_its_stored_review(db, site):
    match_id = await _public_match(db)
    html = await (await site.get(f"/m/{match_id}")).text()
    assert "being worked out" in html  # not reviewed yet: the page does not solve anything itself
    file = await export(db, match_id)

    async def solve(match_file):
        return review_data(match_file, budget=0.5)

    assert await review_match(db, match_id, solve)
    html = await (await site.get(f"/m/{match_id}")).text()
    reviewed = review(file, 0.5)
    sections = re.findall(r'<section class="step".*?</section>', html, re.S)
    assert len(sections) == len(reviewed.engagements)
    for section, item in zip(sections, reviewed.engagements, strict=True):
        orders = re.findall(r'<dd class="order">(.*?)</dd>', section, re.S)
        assert [re.findall(r'data-card="(\w+)"', order) for order in orders] == [list(p) for p in item.played]
        best = re.findall(r'<dd class="best">(.*?)</dd>', section, re.S)
        assert [re.findall(r'data-card="(\w+)"', order) for order in best] == [list(b) for b in item.best]
    costly = [reviewed.costliest(seat) for seat in (0, 1)]
    for seat, worst in enumerate(costly):
        if worst is not None:
            marked = sections[worst.number - 1]
            assert re.search(rf'class="side costly" data-seat="{seat}"', marked)


async def test_every_game_s_finished_match_is_shown_step_by_step(db, site):
    await make_public(db, GUILD)
    for number, game in enumerate(("war", "army", "casinowar", "speedwar", "bundlewar")):
        match_id = await add_finished(db, GUILD, game, [ALICE, BOB], 20 + number, 100.0)
        response = await site.get(f"/m/{match_id}")
        html = await response.text()
        assert response.status == 200, game
        assert html.count('<section class="step"') >= 1, game
        assert 'data-card="' in html, game


async def test_deleted_players_are_anonymised_on_the_review_and_the_board(db, site):
    match_id = await _public_match(db, game="war")
    await StatsService(db).delete_player(GUILD, ALICE)  # what /privacy delete does
    html = await (await site.get(f"/m/{match_id}")).text()
    assert "Alice" not in html and "deleted player" in html
    board = await (await site.get(f"/s/{GUILD}/war")).text()
    assert "Alice" not in board and "Bob" in board
    assert (await site.get(f"/s/{GUILD}/war/p/{ALICE}")).status == 404
    assert (await site.get(f"/s/{GUILD}/war/p/{placeholder_id(0)}")).status == 404


async def test_a_board_and_a_player_page_speak_the_server_s_language(db, site):
    await _public_match(db, game="war", language="de")
    board = await (await site.get(f"/s/{GUILD}/war")).text()
    assert '<html lang="de">' in board and "Rangliste" in board
    player = await (await site.get(f"/s/{GUILD}/war/p/{ALICE}")).text()
    assert "Letzte Partien" in player and "role=\"img\"" in player


def test_a_war_round_s_events_make_one_step_with_its_cards():
    from bot.i18n import texts
    from bot.storage.records import QueuedEvent

    _, events, _ = play("war", 4)
    steps = generic_steps([QueuedEvent(1, n, 0, e["type"], e, True) for n, e in enumerate(events, 1)],
                          ["A", "B"], texts("en"))
    rounds = {e["round"] for e in events if "round" in e}
    assert [step.number for step in steps] == sorted(rounds)
    battle = next(e for e in events if e["type"] == "battle")
    first = next(step for step in steps if step.number == battle["round"])
    assert [card.code for card in first.lines[0].cards] == battle["cards"]
    assert first.lines[0].text == ("Battle: a tie" if battle["winner"] is None
                                   else f"Battle: {'AB'[battle['winner']]} wins")


def test_the_templates_say_only_words_the_catalogues_hold():
    from pathlib import Path

    from bot.web.words import TEMPLATE_WORDS

    folder = Path(__file__).resolve().parents[3] / "bot" / "web" / "templates"
    used = set()
    for template in folder.glob("*.html"):
        used |= {a or b for a, b in re.findall(r"""_\((?:"([^"]*)"|'([^']*)')""", template.read_text())}
    assert used == set(TEMPLATE_WORDS)


async def test_a_tournament_page_shows_the_bracket_with_links_to_each_game_and_anonymises_deleted_players(db, site):
    import random

    await make_public(db, GUILD)
    players = [ALICE, BOB, 13, 14]
    await name_players(db, GUILD, {ALICE: "Alice", BOB: "Bob", 13: "Cleo", 14: "Dan"})
    games = [await add_finished(db, GUILD, "war", [players[n % 4], players[(n + 1) % 4]], n, 100.0 + n,
                                {"max_rounds": 20}) for n in range(3)]
    tournament_id = await add_tournament(db, GUILD, players, games, random.Random(3))
    html = await (await site.get(f"/t/{tournament_id}")).text()
    assert "Test Cup" in html and "Finished" in html and "Champion:" in html
    assert {f'href="/m/{match_id}"' for match_id in games} == set(re.findall(r'href="/m/\d+"', html))
    assert html.count('class="winner"') == 3 and "Alice" in html
    live = await (await site.get(f"/t/{tournament_id}?part=live")).text()  # what the page polls: the bracket alone
    assert live.lstrip().startswith('<div id="live"') and "<html" not in live
    assert 'data-live="false"' in live and "data-poll" not in html  # over: the page stops asking
    await StatsService(db).delete_player(GUILD, ALICE)  # what /privacy delete does
    html = await (await site.get(f"/t/{tournament_id}")).text()
    assert "Alice" not in html and "deleted player" in html


async def test_a_closed_season_s_board_is_kept(db, site):
    await _public_match(db, game="war")
    async with db.transaction() as conn:
        await db.seasons.start_season(conn, GUILD, "Spring", 200.0)
    current = await (await site.get(f"/s/{GUILD}/war")).text()
    assert "Alice" not in current and "Spring" in current
    closed = await (await site.get(f"/s/{GUILD}/war?season=1")).text()
    assert "Alice" in closed and "Bob" in closed
    assert (await site.get(f"/s/{GUILD}/war?season=2")).status == 404  # the current one has no archive
    assert (await site.get(f"/s/{GUILD}/war?season=x")).status == 404


async def test_a_player_s_name_is_written_as_text_never_as_markup(db, site):
    await make_public(db, GUILD)
    await name_players(db, GUILD, {ALICE: '<script>alert("x")</script>', BOB: "Bob"})
    match_id = await add_finished(db, GUILD, "war", [ALICE, BOB], 8, 100.0, {"max_rounds": 20})
    for path in (f"/m/{match_id}", f"/s/{GUILD}/war", f"/s/{GUILD}/war/p/{ALICE}"):
        html = await (await site.get(path)).text()
        assert "<script>alert" not in html and "&lt;script&gt;alert" in html, path
