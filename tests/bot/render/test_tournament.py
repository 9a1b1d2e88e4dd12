"""A tournament's channel texts: calls that fit Discord's limits whatever their lines say, rounds named as players
name them, rules in the game's own words, summaries that name the champion."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.games.airwar.render import rules_text as airwar_rules
from bot.games.army.render import rules_text as army_rules
from bot.games.war.render import rules_text as war_rules
from bot.i18n import LANGUAGES, texts
from bot.render import tournament as wording
from bot.render.common import BUTTON_LABEL_LIMIT, MESSAGE_LIMIT
from bot.storage.tournaments import BracketMatchRecord, EntrantRecord, TournamentRecord
from bot.tournaments import Format, Tournament
from tests.bot.i18n.pseudo import PSEUDO, english_left, pseudo_language
from tests.bot.tournaments.support import play_out

#: the longest ids Discord hands out (64-bit snowflakes: 20 digits)
LONG_ID = 18_446_744_073_709_551_000


def record(**changes) -> TournamentRecord:
    base = TournamentRecord(
        id=1, guild_id=1, channel_id=2, name="Cup", game="war", format="single_elimination",
        rules={"pack": 32, "max_rounds": 200, "capture_pile": False, "target": None},
        options={"best_of": 1, "no_show": 600, "check_in": 0, "max_players": 256, "pace": "instant"},
        organiser_id=7, status="running", seed=1, signup_closes_at=None, check_in_ends_at=None, state_text=None,
        champion_id=None, signup_message_id=None, bracket_message_id=None, created_at=0.0, updated_at=0.0,
        started_at=None, finished_at=None)
    return replace(base, **changes)


def row(key: str, players: tuple[int, int], **changes) -> BracketMatchRecord:
    base = BracketMatchRecord(
        tournament_id=1, key=key, round="W1", players=players, status="called", ready=(False, False),
        deadline_at=1_000_000.0, match_id=None, wins=(0, 0), draws=0, winner_id=None, outcome=None,
        call_message_id=None, called_at=0.0, decided_at=None)
    return replace(base, **changes)


#: a match in each state a call line shows, the longest words first
STATES = [
    {"status": "decided", "outcome": "double_no_show", "winner_id": LONG_ID},
    {"status": "decided", "outcome": "series", "winner_id": LONG_ID, "wins": (4, 3)},
    {"status": "decided", "outcome": "no_show", "winner_id": LONG_ID},
    {"status": "decided", "outcome": "disqualified", "winner_id": LONG_ID},
    {"status": "decided", "outcome": "cancelled"},
    {"status": "playing", "wins": (3, 3)},
    {"status": "waiting", "outcome": "busy"},
    {"status": "called", "ready": (True, True)},
]


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("state", STATES)
def test_a_full_call_fits_one_message_whatever_its_lines_say(state, language):
    say = texts(language)
    tournament = record(name="N" * 100, options={"best_of": 7, "no_show": 3600, "max_players": 256})
    rows = [row(f"W1-{n}", (LONG_ID - n, LONG_ID - 100 - n), **state) for n in range(wording.CALLS_PER_MESSAGE)]
    content = wording.call_text(tournament, wording.round_name(Tournament.new("double_elimination", list(range(64)),
                                                                              seeded=True), "L10", say),
                                rows, first_number=121, part=(8, 8), bye=LONG_ID, say=say)
    assert len(content.encode("utf-16-le")) // 2 <= MESSAGE_LIMIT - 100 and say("… (cut to fit Discord's limit)") \
        not in content  # room left
    names = {player: "W" * 40 for r in rows for player in r.players}
    buttons = wording.call_buttons(tournament, rows, names, say)
    assert len(buttons) <= 25 and all(len(button.label) <= BUTTON_LABEL_LIMIT for button in buttons)


@pytest.mark.parametrize(("matches", "parts"), [(1, [1]), (16, [16]), (17, [9, 8]), (32, [16, 16]),
                                                (128, [16] * 8), (100, [15, 15, 14, 14, 14, 14, 14])])
def test_a_round_takes_as_few_call_messages_as_fit_evenly_filled(matches, parts):
    assert wording.call_parts(matches) == parts


def test_buttons_are_live_only_while_their_match_waits_for_ready():
    tournament = record()
    rows = [row("W1-1", (1, 2)), row("W1-2", (3, 4), status="playing"),
            row("W1-3", (5, 6), status="decided", outcome="series", winner_id=5),
            row("W1-4", (7, 8), status="decided", outcome="cancelled")]
    names = {n: f"p{n}" for n in range(1, 9)}
    labels = [(b.label, b.live) for b in wording.call_buttons(tournament, rows, names)]
    assert labels == [("Ready: p1 vs p2", True), ("p3 vs p4: under way", False), ("p5 vs p6: over", False),
                      ("p7 vs p8: called off", False)]
    cancelled = wording.call_buttons(record(status="cancelled"), rows[:1], names)
    assert [(b.label, b.live) for b in cancelled] == [("p1 vs p2: called off", False)]
    assert wording.call_buttons(record(options={"no_show": 0}), rows, names) == []  # no ready check: no buttons


def test_a_call_says_what_to_do_and_where_each_match_stands():
    rows = [row("W1-1", (1, 2), ready=(True, False)), row("W1-2", (3, 4), status="playing")]
    content = wording.call_text(record(), "Semifinals", rows, first_number=1, part=(1, 1))
    head, first, second = content.splitlines()
    assert head == ("📣 **Cup** · **Semifinals**: press **Ready** on your match by <t:1000000:R>; who doesn't "
                    "forfeits. A game starts once both players are ready.")
    assert first == "1. <@1> ✅ vs <@2>" and second == "2. <@3> vs <@4> — ▶️ playing"
    paused = wording.call_text(record(status="paused"), "Semifinals", rows, first_number=1, part=(1, 1))
    assert "paused" in paused.splitlines()[0]


@pytest.mark.parametrize(("format", "players", "names"), [
    ("single_elimination", 8, ["Quarterfinals", "Semifinals", "Final"]),
    ("single_elimination", 16, ["Round 1", "Quarterfinals", "Semifinals", "Final"]),
    ("double_elimination", 4, ["Winners' round 1", "Winners' final", "Losers' round 1", "Losers' final",
                               "Grand final"]),
    ("round_robin", 4, ["Round 1 of 3", "Round 2 of 3", "Round 3 of 3"]),
    ("swiss", 6, ["Round 1 of 3"]),
])
def test_rounds_are_named_as_players_name_them(format, players, names):
    bracket = Tournament.new(format, list(range(1, players + 1)), rng=random.Random(1))
    assert [wording.round_name(bracket, round_.label) for round_ in bracket.rounds()] == names


@pytest.mark.parametrize(("game", "rules", "words"), [
    ("war", {"face_down": 3, "capture_pile": False, "target": None}, war_rules("war", {"face_down": 3})),
    ("drunkard", {}, war_rules("drunkard", {})),
    ("airwar", {"stack": 3, "aces": "low", "deck": "standard"},
     airwar_rules({"stack": 3, "aces": "low", "deck": "standard"})),
    ("army", {"max_rounds": 100}, army_rules({"max_rounds": 100})),
])
def test_rules_are_worded_by_the_game(game, rules, words):
    assert wording.rules_words(game, rules) == words
    assert "=" not in words and "False" not in words and "None" not in words


def test_the_status_message_words_the_signup_and_the_end():
    entrants = [EntrantRecord(1, "Ann", 0.0, False), EntrantRecord(2, "Ben", 0.0, True)]
    signup = wording.status_text(record(status="signup"), entrants, None, [])
    assert signup.title == "🏟️ Cup · War · single elimination"
    lines = signup.description.splitlines()
    assert lines[0].startswith("**Signup is open:** press **Join** to play (2 of at most 256)")
    assert f"**Rules:** {war_rules('war', record().rules)}" in lines
    assert "**How:** one game per match · press Ready within 10 minutes of a call · pace: instant (played out at " \
           "once)" in lines
    assert "**Players (2):** <@1>, <@2>" in lines
    bracket = Tournament.new("single_elimination", [1, 2], seeded=True)
    play_out(bracket, random.Random(2))
    over = wording.status_text(record(status="finished", champion_id=bracket.champion), entrants, bracket, [])
    assert over.description.startswith(f"🏆 **Champion: <@{bracket.champion}>**")
    assert "**Seeds (2):** 1. <@1>, 2. <@2>" in over.description.splitlines()


def test_a_round_summary_lists_its_results_and_the_champion():
    bracket = Tournament.new("single_elimination", [1, 2, 3, 4], rng=random.Random(1), seeded=True)
    semis = bracket.rounds()[0]
    rows = {}
    for match, outcome in zip(semis.matches, ("series", "no_show"), strict=True):
        winner = match.players[0]
        bracket.record_result(match.key, winner)
        rows[match.key] = row(match.key, match.players, status="decided", outcome=outcome, winner_id=winner,
                              wins=(1, 0) if outcome == "series" else (0, 0))
    first, second = semis.matches
    text = wording.summary_text(record(), bracket, semis.label, rows, {})
    assert text.splitlines() == [
        "🏁 **Cup** · **Semifinals** is over:",
        f"• <@{first.players[0]}> beat <@{first.players[1]}>",
        f"• <@{second.players[0]}> goes through: <@{second.players[1]}> didn't show up",
    ]
    final = bracket.rounds()[1].matches[0]
    bracket.record_result(final.key, final.players[1])
    rows = {final.key: row(final.key, final.players, status="decided", outcome="series", winner_id=final.players[1],
                           wins=(0, 1))}
    text = wording.summary_text(record(), bracket, final.key.split("-")[0], rows, {}, over=True,
                                champion=final.players[1])
    assert text.splitlines()[-2:] == [f"🏆 <@{final.players[1]}> is the champion of **Cup**!",
                                      f"🥈 Runner-up: <@{final.players[0]}> (lost the final)"]


def test_a_round_robin_summary_gives_the_leaders():
    bracket = Tournament.new(Format.ROUND_ROBIN, [1, 2, 3, 4], rng=random.Random(1), seeded=True)
    first = bracket.rounds()[0]
    for match in first.matches:
        bracket.record_result(match.key, match.players[0])
    rows = {m.key: row(m.key, m.players, status="decided", outcome="series", winner_id=m.players[0], wins=(1, 0))
            for m in first.matches}
    text = wording.summary_text(record(format="round_robin"), bracket, first.label, rows, {1: "Ann", 2: "Ben"})
    assert text.splitlines()[0] == "🏁 **Cup** · **Round 1 of 3** is over:"
    assert text.splitlines()[-1].startswith("Leaders: 1. ")


# --- in other languages ------------------------------------------------------------------------------------------


def test_the_channel_texts_speak_german():
    """The status message and a round's call are the German catalogue's words, line by line (none left in English)."""
    de = texts("de")
    entrants = [EntrantRecord(1, "Ann", 0.0, False), EntrantRecord(2, "Ben", 0.0, True)]
    tournament = record(status="signup", game="airwar", rules={"stack": 3}, options={
        "best_of": 3, "no_show": 600, "check_in": 0, "max_players": 8})
    signup = wording.status_text(tournament, entrants, None, [], say=de)
    assert signup.title == f"🏟️ Cup · {de('Air War')} · {de('single elimination')}" == \
        "🏟️ Cup · Luftkrieg · K.-o.-System"
    lines = signup.description.splitlines()
    closes = de("the organiser starts it with `/tournament start`")
    assert lines[0] == de("**Signup is open:** press **Join** to play ({count} of at most {most}); {closes}.",
                          count=2, most=8, closes=closes)
    assert lines[0].startswith("**Anmeldung offen:** Drücke **Beitreten**")
    assert lines[2] == "**So wird gespielt:** Best of 3 · drücke innerhalb von 10 Minuten nach dem Aufruf Bereit"
    assert lines[5] == de("**Players ({count}):** {players}", count=2, players="<@1>, <@2>")
    english = wording.status_text(tournament, entrants, None, []).description.splitlines()
    assert all(line != english_line for line, english_line in zip(lines, english, strict=True) if line)
    bracket = Tournament.new("single_elimination", [1, 2, 3, 4], seeded=True)
    rows = [row("W1-1", (1, 4)), row("W1-2", (2, 3), status="playing", wins=(1, 0))]
    call = wording.call_text(record(), wording.round_name(bracket, "W1", de), rows, first_number=1, part=(1, 1),
                             say=de)
    assert call.splitlines()[0].startswith("📣 **Cup** · **Halbfinale**: drücke bei deiner Begegnung bis <t:")
    assert call.splitlines()[1] == "1. <@1> – <@4>"
    buttons = wording.call_buttons(record(), rows, {1: "Ann", 2: "Ben", 3: "Cat", 4: "Dan"}, de)
    assert [button.label for button in buttons] == ["Bereit: Ann gegen Dan", "Ben gegen Cat: läuft"]


def test_a_summary_and_the_standings_speak_russian():
    ru = texts("ru")
    bracket = Tournament.new(Format.ROUND_ROBIN, [1, 2, 3, 4], rng=random.Random(1), seeded=True)
    first = bracket.rounds()[0]
    for match in first.matches:
        bracket.record_result(match.key, match.players[0])
    rows = {m.key: row(m.key, m.players, status="decided", outcome="series", winner_id=m.players[0], wins=(1, 0))
            for m in first.matches}
    text = wording.summary_text(record(format="round_robin"), bracket, first.label, rows, {1: "Ann", 2: "Ben"},
                                say=ru)
    lines = text.splitlines()
    assert lines[0] == "🏁 " + ru("**{name}** · **{round}** is over:", name="Cup", round="Тур 1 из 3")
    assert lines[1].startswith("• <@") and " обыграл <@" in lines[1]
    assert lines[-1].startswith("Лидеры: 1. ")
    assert english_left(text, ["Cup", "Ann", "Ben"]) == []


def test_every_channel_text_goes_through_the_catalogues():
    """In the pseudo-language (every catalogue string's letters swapped) no text of any stage shows English (an Air
    War tournament: War's rules and paces are worded by War's own texts)."""
    names = {1: "Ann", 2: "Ben", 3: "Cat", 4: "Dan"}
    airwar = {"game": "airwar", "rules": {"stack": 3},
              "options": {"best_of": 3, "no_show": 600, "check_in": 60, "max_players": 8}}
    allowed = ["Cup", *names.values()]
    with pseudo_language():
        say = texts(PSEUDO)
        entrants = [EntrantRecord(player, name, 0.0, player % 2 == 0) for player, name in names.items()]
        bracket = Tournament.new("double_elimination", [1, 2, 3, 4], seeded=True)
        for status in ("signup", "check_in", "running", "paused", "cancelled", "finished"):
            tournament = record(status=status, check_in_ends_at=5.0, champion_id=1 if status == "finished" else None,
                                **airwar)
            for state in (None, bracket):
                words = wording.status_text(tournament, entrants, state, [row("W1-1", (1, 4))], by=7, say=say)
                assert english_left(f"{words.title}\n{words.description}", allowed) == [], (status, words)
        for state in STATES:
            for status in ("running", "paused", "finished", "cancelled"):
                rows = [row("W1-1", (1, 4), **state)]
                call = wording.call_text(record(status=status, **airwar), wording.round_name(bracket, "W1", say), rows,
                                         first_number=1, part=(1, 2), bye=3, say=say)
                labels = [b.label for b in wording.call_buttons(record(status=status, **airwar), rows, names, say)]
                assert english_left("\n".join([call, *labels]), allowed) == [], (state, status, call, labels)
        for round_ in bracket.rounds():
            assert english_left(wording.round_name(bracket, round_.label, say)) == []
        assert english_left(wording.champion_text(record(), 1, say), allowed) == []
        assert english_left(wording.champion_text(record(), None, say), allowed) == []


def test_the_rules_and_the_pace_are_said_in_the_language():
    de = texts("de")
    assert wording.rules_words("airwar", {"stack": 3}, de) == airwar_rules({"stack": 3}, say=de)
    assert wording.settings_line(record(options={"best_of": 1, "no_show": 0}), de) == \
        "eine Partie pro Begegnung · Partien starten, sobald eine Begegnung aufgerufen wird"


def test_every_summary_line_goes_through_the_catalogues():
    with pseudo_language():
        say = texts(PSEUDO)
        for format, outcomes in (("single_elimination", ("series", "no_show", "double_no_show", "disqualified")),
                                 ("round_robin", ("series", "double_no_show"))):
            bracket = Tournament.new(format, [1, 2, 3, 4, 5, 6, 7, 8], rng=random.Random(1), seeded=True)
            first = bracket.rounds()[0]
            rows = {}
            for match, outcome in zip(first.matches, outcomes * 4, strict=False):
                winner = None if outcome == "double_no_show" and format == "round_robin" else match.players[0]
                bracket.record_result(match.key, winner)
                rows[match.key] = row(match.key, match.players, status="decided", outcome=outcome, winner_id=winner,
                                      wins=(2, 1))
            text = wording.summary_text(record(format=format, options={"best_of": 3}), bracket, first.label, rows,
                                        {1: "Ann"}, over=True, champion=1, say=say)
            assert english_left(text, ["Cup", "Ann"]) == [], text


def test_a_drawn_game_played_again_says_so():
    playing = row("W1-1", (1, 2), status="playing", draws=1)
    assert wording.call_state(playing, 1) == " — Game 1 was a draw: ▶️ playing game 2"
    assert wording.call_state(replace(playing, draws=2), 1) == " — Games 1–2 were draws: ▶️ playing game 3"
    series = replace(playing, wins=(1, 0), draws=1)
    assert wording.call_state(series, 3) == " — ▶️ playing game 3 (1–0, 1 draw)"
    assert wording.call_state(replace(playing, draws=0), 1) == " — ▶️ playing"
    won = replace(playing, status="decided", wins=(0, 1), winner_id=2, outcome="series")
    assert wording.call_state(won, 1) == " — 🏁 <@2> wins (after 1 drawn game)"


def event(seq: int, kind: str, **fields):
    from bot.storage.tournaments import TournamentEvent

    return TournamentEvent(tournament_id=1, seq=seq, type=kind, event={"type": kind, **fields}, shown=False)


def test_a_rounds_calls_are_one_call_even_with_the_bots_ready_between_them():
    queued = [event(1, "started"), event(2, "call", key="R1-1", round="R1"), event(3, "call", key="R1-2", round="R1"),
              event(4, "ready", key="R1-2", user_id=9, ready=[False, True]),
              event(5, "call", key="R1-3", round="R1"), event(6, "ready", key="R1-3", user_id=9, ready=[True, False]),
              event(7, "call", key="R2-1", round="R2"), event(8, "ready", key="W1-1", user_id=5, ready=[True, False])]
    assert wording.call_run(queued, 1) == 4  # the three calls of R1 (the last one's Ready is shown after)
    assert wording.call_run(queued, 6) == 6
    assert wording.call_parts(3) == [3]  # so one message, no "(1 of 2)"


def test_the_signup_says_when_the_bot_takes_an_odd_seat():
    bot = {"id": 99, "name": "Air War", "level": "medium"}
    signup = record(status="signup", game="airwar", options={**record().options, "bot": bot})
    note = ("🤖 If an odd number of players start, I play too, so that everyone has an opponent (level: medium); "
            "games against me are unrated.")
    assert wording.bot_seat_note(signup) == note
    assert note in wording.status_text(signup, [], None, []).description
    assert note in wording.status_text(replace(signup, status="check_in"), [], None, []).description
    assert wording.bot_seat_note(record(status="signup")) is None  # no bot: nothing said
    assert wording.bot_seat_note(replace(signup, status="running")) is None
    assert "🤖" not in wording.status_text(record(status="signup"), [], None, []).description
