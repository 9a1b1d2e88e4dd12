"""A game that exists only in this test's package (tests/e2e/toygame: High Card, its engine, flow, render, its cog
package and its catalogue) is found by the registry, and is challenged, played and finished end to end through the
local Discord by the real bot, with no project file naming it and no catalogue but its own holding its words: a new
game costs its own folders."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cards import STANDARD_RANKS, card_label, rank_of
from bot.i18n import SHARED, texts
from bot.i18n.check import differences, problems, read_domain
from bot.i18n.extract import sources, templates
from bot.registry import discover, registry, use_registry
from tests.e2e.live_table_checks import assert_live_table_in_v2
from tests.e2e.test_airwar import fast_bot, lift_rate_limits
from tests.e2e.toygame.engine import HighCard
from tests.localdiscord import Env, Message, User
from tests.records import match_results

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SEED = 77
TITLE = "High Card"


@pytest.fixture
def toy_registry():
    previous = use_registry(discover(["tests.e2e.toygame"]))
    yield
    use_registry(previous)


def title(message: Message) -> str:
    return message.title


def panel_of(env: Env, user: User, step: int) -> Message | None:
    return next((m for m in reversed(env.messages(user)) if title(m) == f"{TITLE} — round {step}"
                 and m.buttons), None)


async def click(env: Env, user: User, message: Message, custom_id: str) -> None:
    ix = await env.click(user, message, None, custom_id=custom_id)
    await ix.wait_response()


def test_no_project_file_names_the_toy_game():
    tracked = subprocess.run(["git", "ls-files", "bot", "cogs", "data", "pyproject.toml", "README.md"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split()
    assert tracked, "git lists the project's files"
    naming = [path for path in tracked if "highcard" in (ROOT / path).read_text(errors="ignore").lower()
              or "toygame" in (ROOT / path).read_text(errors="ignore")]
    assert naming == []


def keys(catalog) -> set[tuple[str | None, str]]:
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog if m.id}


def test_the_toy_game_brings_its_own_catalogue_and_changes_no_other(toy_registry):
    """Every word of the toy game (its code's and its commands', a shared command's choice naming it) is in its
    own domain, in its own folder and translated; registered, it leaves every other domain's template as stored:
    adding it edits nothing outside its folders."""
    folder = ROOT / "tests" / "e2e" / "toygame"
    toy = next(source for source in sources() if source.domain.name == "highcard")
    assert toy.paths == (folder,) and toy.domain.folder == folder / "locales"
    made = templates()
    for domain, template in made.items():
        assert keys(template) == keys(read_domain(domain)), f"{domain.name}'s template changed"
    own = keys(made[toy.domain])
    assert {(None, "High Card"), (None, "{game}, round {number}: score {score}; your hand {hand}."),
            ("command name", "highcard")} <= own
    assert (None, "High Card") not in keys(made[SHARED])  # (the choice naming it in /rules, /stats ... is its own)
    assert [problem for language in ("de", "ru") for problem in problems(language) + differences(language)] == []


async def test_the_toy_games_folder_alone_is_the_game_its_cog_and_its_words(make_env, tmp_path, monkeypatch):
    """A copy of the toy game's folder, anywhere, under another name, is the whole game: the registry finds it,
    the bot loads its cog from the copy, and its status answers from the copy's catalogue. Nothing outside the
    folder holds a piece of it."""
    copy = tmp_path / "elsewhere" / "highcard_copy"
    shutil.copytree(ROOT / "tests" / "e2e" / "toygame", copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.syspath_prepend(str(copy.parent))
    previous = use_registry(discover(["highcard_copy"]))
    try:
        plugin = registry().entry("highcard").plugin
        assert plugin.folder == copy and plugin.cog_extension == "highcard_copy.cog"
        env = await make_env(fast_bot(tmp_path / "copy.db", seed=SEED))
        lift_rate_limits(env)
        alice, bob = env.user("alice"), env.user("bob")
        cog = env.bot.get_cog("HighCard")
        assert Path(sys.modules[type(cog).__module__].__file__).is_relative_to(copy)
        ix = await env.slash(alice, "highcard challenge", opponent=bob)
        await ix.wait_response()
        match_id = int(ix.message.buttons[0]["custom_id"].split(":")[2])
        await click(env, bob, ix.message, f"hc:c:{match_id}:accept")
        await env.wait_for(lambda: panel_of(env, alice, 1), message="no panel for round 1")
        status = await env.slash(alice, "highcard status", locale="de")
        await status.wait_response()
        assert status.message.text.startswith("Hohe Karte, Runde 1: Stand 0-0; deine Hand ")
    finally:
        use_registry(previous)
        for name in [name for name in sys.modules if name.startswith("highcard_copy")]:
            del sys.modules[name]


async def test_a_toy_game_is_challenged_played_and_finished(toy_registry, make_env, tmp_path):
    env = await make_env(fast_bot(tmp_path / "highcard.db", seed=SEED))
    lift_rate_limits(env)
    alice, bob = env.user("alice"), env.user("bob")
    cog = env.bot.get_cog("HighCard")
    assert cog is not None, "the registry loaded the toy game's cog"

    ix = await env.slash(alice, "highcard challenge", opponent=bob)
    await ix.wait_response()
    challenge = ix.message
    assert title(challenge) == f"{TITLE} challenge" and not ix.response.ephemeral
    match_id = int(challenge.buttons[0]["custom_id"].split(":")[2])
    await click(env, bob, challenge, f"hc:c:{match_id}:accept")
    thread = await env.wait_for(lambda: challenge.thread, message="no thread for the match")

    # the engine alone, dealt from the same seed, says how it must end: alice plays her highest card each round,
    # bob his cards as dealt; in the last round each has one card left, which plays itself (no panel asks it)
    engine = HighCard.new(seed=SEED)
    hands = [list(hand) for hand in engine.hands]
    alice_order = sorted(hands[0], key=lambda card: STANDARD_RANKS.index(rank_of(card)), reverse=True)
    for step in (1, 2, 3):
        for user, card in ((alice, alice_order[step - 1]), (bob, hands[1][step - 1])):
            if step < 3:
                panel = await env.wait_for(lambda u=user, s=step: panel_of(env, u, s), message=f"no panel {step}")
                await click(env, user, panel, f"hc:p:{match_id}:{step}:pick:{card}")
            engine.apply(0 if user is alice else 1, {"type": "pick", "card": card})
        line = await env.wait_for(lambda s=step: next((m for m in env.messages(thread)
                                                       if m.text.startswith(f"Round {s}:")), None))
        assert card_label(alice_order[step - 1]) in line.text and card_label(hands[1][step - 1]) in line.text
    assert engine.outcome is not None
    result = await env.wait_for(lambda: next((m for m in env.messages(thread) if title(m).startswith(f"{TITLE} — ")
                                              and not m.buttons and "round" not in title(m)), None))
    expected = "draw" if engine.outcome.winner is None else f"{['alice', 'bob'][engine.outcome.winner]} wins"
    assert expected in title(result).lower()
    match = await cog.service.get_match(match_id)
    assert match.status == "finished" and match.result["winner"] == engine.outcome.winner
    assert len(await match_results(cog.service.db, match_id)) == 2
    assert_live_table_in_v2(env, [env.channel(), thread])
    assert not any(title(m) == f"{TITLE} — round 3" for user in (alice, bob) for m in env.messages(user))
    exported = await cog.service.export(match_id)
    assert exported["moves"] == [{"picks": [alice_order[i], hands[1][i]]} for i in range(3)]


async def test_the_toy_games_status_forfeit_and_rematch(toy_registry, make_env, tmp_path):
    """Every command a game gets from the kit works for a game added by its own folder alone: ``status`` (private,
    the player's own hand), ``forfeit`` (asked, then the match ends so) and the result's Rematch."""
    env = await make_env(fast_bot(tmp_path / "highcard.db", seed=SEED))
    lift_rate_limits(env)
    alice, bob = env.user("alice"), env.user("bob")
    cog = env.bot.get_cog("HighCard")
    ix = await env.slash(alice, "highcard challenge", opponent=bob)
    await ix.wait_response()
    challenge = ix.message
    match_id = int(challenge.buttons[0]["custom_id"].split(":")[2])
    await click(env, bob, challenge, f"hc:c:{match_id}:accept")
    await env.wait_for(lambda: panel_of(env, alice, 1), message="no panel for round 1")

    hand = [card_label(card) for card in HighCard.new(seed=SEED).hands[0]]
    status = await env.slash(alice, "highcard status")
    await status.wait_response()
    assert status.response.ephemeral
    assert status.message.text.startswith(f"{TITLE}, round 1: score 0-0; your hand ")
    assert all(card in status.message.text for card in hand)

    german = await env.slash(bob, "highcard status", locale="de")
    await german.wait_response()
    bobs_hand = " ".join(card_label(card) for card in HighCard.new(seed=SEED).hands[1])
    assert german.message.text.startswith(texts("de")("{game}, round {number}: score {score}; your hand {hand}.",
                                                      game="Hohe Karte", number=1, score="0-0", hand=bobs_hand))
    assert german.message.text.startswith("Hohe Karte, Runde 1: Stand 0-0; deine Hand ")  # (from its own catalogue)

    question = await env.slash(bob, "highcard forfeit")
    await question.wait_response()
    assert question.response.ephemeral and question.message.buttons
    await click(env, bob, question.message, f"hc:ff:{match_id}:yes")
    await env.wait_for(lambda: [b["label"] for b in challenge.buttons] == ["Rematch"], message="no Rematch")
    match = await cog.service.get_match(match_id)
    assert match.status == "finished" and match.result["winner"] == 0 and match.reason == "forfeit"

    rematch = await env.click(alice, challenge, "Rematch")
    await rematch.wait_response()
    assert not rematch.response.ephemeral and [b["label"] for b in rematch.message.buttons] == [
        "Accept", "Decline", "Withdraw"]
    again = int(rematch.message.buttons[0]["custom_id"].split(":")[2])
    assert (await cog.service.get_match(again)).user_ids == (alice.id, bob.id)


async def test_every_command_that_names_a_game_offers_a_game_registered_before_the_bot_starts(toy_registry, make_env,
                                                                                            tmp_path):
    """The choices come from the registry when the cogs load, not when their modules were first imported."""
    env = await make_env(fast_bot(tmp_path / "highcard.db", seed=SEED))

    def game_values(command: str, *path: str) -> list[str]:
        options = env.commands[command]["options"]
        for name in path:
            options = next(o for o in options if o["name"] == name)["options"]
        return [c["value"] for c in next(o for o in options if o["name"] in ("game", "variant"))["choices"]]

    for command, *path in (("rules",), ("stats",), ("h2h",), ("leaderboard",), ("settings", "rules"),
                           ("tournament", "create")):
        assert "highcard" in game_values(command, *path), command
    war_family = [entry.name for entry in registry().entries() if entry.family == "war"]
    assert game_values("war", "challenge") == war_family and "highcard" not in war_family


async def test_the_toy_games_own_setting_is_set_by_an_admin_shown_and_stored_like_every_games(toy_registry, make_env,
                                                                                              tmp_path):
    """High Card declares a server setting (round lines in the thread): its own command sets it for a member who
    manages the server (anyone else is refused, nothing changes), ``/settings show`` lists it, a match then posts no
    round lines, and it is stored in the table of every game's settings: no column, no migration of its own."""
    env = await make_env(fast_bot(tmp_path / "highcard.db", seed=SEED))
    lift_rate_limits(env)
    alice, bob = env.user("alice"), env.user("bob")
    mo = env.user("mo", roles=[env.role("Mod", permissions=1 << 5)])  # Manage Server
    cog = env.bot.get_cog("HighCard")

    refused = await env.slash(alice, "highcard rounds", shown="off")
    await refused.wait_response()
    assert refused.response.ephemeral and "Manage Server" in refused.message.text
    changed = await env.slash(mo, "highcard rounds", shown="off")
    await changed.wait_response()
    assert changed.response.ephemeral and changed.message.text == "Round lines in the thread: off"
    shown = await env.slash(mo, "settings show")
    await shown.wait_response()
    assert shown.message.text.endswith("Game settings:\n• High Card: Round lines in the thread: off")
    async with env.bot.db.read() as conn:
        rows = await conn.execute_fetchall("SELECT guild_id, game, setting, value FROM guild_game_settings")
        columns = {row["name"] for row in await conn.execute_fetchall("PRAGMA table_info(guild_settings)")}
    assert [tuple(row) for row in rows] == [(env.guild.id, "highcard", "round_lines", "off")]
    assert not any("round" in column for column in columns)

    ix = await env.slash(alice, "highcard challenge", opponent=bob)
    await ix.wait_response()
    match_id = int(ix.message.buttons[0]["custom_id"].split(":")[2])
    await click(env, bob, ix.message, f"hc:c:{match_id}:accept")
    thread = await env.wait_for(lambda: ix.message.thread, message="no thread for the match")
    hands = HighCard.new(seed=SEED).hands
    for step in (1, 2):
        for seat, user in enumerate((alice, bob)):
            panel = await env.wait_for(lambda u=user, s=step: panel_of(env, u, s), message=f"no panel {step}")
            await click(env, user, panel, f"hc:p:{match_id}:{step}:pick:{hands[seat][step - 1]}")
    await env.wait_for(lambda: next((m for m in env.messages(thread) if title(m).startswith(f"{TITLE} — ")
                                     and "round" not in title(m)), None), message="no result")
    assert (await cog.service.get_match(match_id)).status == "finished"
    assert not any(m.text.startswith("Round ") for m in env.messages(thread))
