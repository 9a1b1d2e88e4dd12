"""No English left in the stats area: finished matches, then every command of the area asked in the pseudo-language
(every catalogue string's letters swapped, see :mod:`tests.bot.i18n.pseudo`), the server's public messages set to
it and the members' clients speaking it: `/stats`, `/history` (its pages and Export), `/h2h`, `/leaderboard` (a
game's board and its pages, all games, a past season, against the bot, the chips board, the empty hints and the
refusals), `/help`, `/settings` (show, every setter, their refusals, a new season), `/season list`, `/privacy
delete` and `/preferences panels`, each private and, where it can be, shared. Then every version of every message
the bot showed anyone is read for plain English words: a string that never went through a catalogue. Buttons are
pressed by their custom ids, never by their (pseudo) labels."""

from __future__ import annotations

import sys

import pytest

from bot.i18n import texts
from bot.registry import registry
from bot.rules_text import rules_text
from tests.bot.i18n.pseudo import PSEUDO, english_in_messages, pseudo_language
from tests.e2e.test_stats import Matches, slash
from tests.localdiscord import Env, Message, User
from tests.localdiscord.airwar import airwar_bot_factory

pytestmark = pytest.mark.e2e

#: what a member types as it is, whatever the language: the rules a server sets, a season's own name
TYPED = ("pack=36", "'nonsense'", "Spring")


def every_message(env: Env) -> list[Message]:
    """Everything the bot showed: every channel's, thread's and DM's messages, the ephemeral answers too."""
    return [message for message in env.world.messages.values() if message.author.id == env.bot.user.id]


def button(message: Message, prefix: str, index: int = 0) -> str:
    """The custom id of the ``index``-th button whose custom id starts with ``prefix``."""
    return [b["custom_id"] for b in message.buttons if b["custom_id"].startswith(prefix)][index]


async def press(env: Env, user: User, message: Message, custom_id: str):
    click = await env.click(user, message, custom_id=custom_id)
    await click.wait_response()
    return click


async def bot_match(env: Env, matches: Matches, player: User, level: str) -> None:
    """A practice match against the bot at ``level``, which the player forfeits (unrated: only the board of
    matches against the bot counts it)."""
    service = matches.service
    update = await service.challenge(env.guild.id, env.channel().id, player.id, env.bot_user.id,
                                     options={"opponent": {"seat": 1, "level": level}})
    match_id = update.match.id
    await service.accept(match_id, env.bot_user.id)
    await service.forfeit(match_id, player.id)
    events = await service.outbox.unshown_events(match_id)
    if events:
        await service.outbox.mark_shown(match_id, events[-1].seq)


async def test_the_stats_area_shows_no_english_in_the_pseudo_language(make_env, tmp_path, monkeypatch):
    with pseudo_language():
        env = await make_env(airwar_bot_factory(tmp_path / "airwar.db"))
        monkeypatch.setattr(sys.modules["cogs.leaderboard"], "PER_PAGE", 1)  # (as the bot loaded it) boards page
        await env.bot.guild_settings.set_language(env.guild.id, PSEUDO)
        anna, ben, cleo, dave = (env.user(name, locale=PSEUDO) for name in ("anna", "ben", "cleo", "dave"))
        mo = env.user("mo", locale=PSEUDO, roles=[env.role("Mod", permissions=1 << 5)])  # Manage Server
        matches = Matches(env)
        await matches.play_out(anna, ben)
        for winner, loser in ((anna, ben), (ben, anna), (anna, ben), (anna, cleo), (cleo, anna), (ben, cleo)):
            await matches.forfeit(winner, loser)
        await bot_match(env, matches, anna, "easy")
        await bot_match(env, matches, ben, "expert")

        # /stats, /history, /h2h: private (the member's language) and shared (the server's)
        for share in (False, True):
            await slash(env, anna, "stats", share=share)
            await slash(env, anna, "stats", player=ben, game="airwar", share=share)
            await slash(env, anna, "stats", player=dave, share=share)
            await slash(env, anna, "h2h", player=ben, share=share)
            await slash(env, anna, "h2h", player=dave, share=share)
            await slash(env, anna, "history", player=dave, share=share)
            history = (await slash(env, ben, "history", player=anna, share=share)).message
            await press(env, ben, history, button(history, "hist:", 1))  # ▶
            await press(env, ben, history, button(history, "hx:"))  # Export, privately
        await slash(env, anna, "h2h", player=anna)  # refused

        # /leaderboard: public boards in the server's language, hints and refusals in the member's
        for options in ({}, {"game": "all"}, {"vs_bot": True}):
            board = (await slash(env, ben, "leaderboard", **options)).message
            await press(env, cleo, board, button(board, "lb:", 1))  # ▶, by someone else
            assert len(board.history) == 1 and board.embeds
        for options in ({"game": "war"}, {"game": "war", "vs_bot": True}, {"game": "all", "vs_bot": True},
                        {"game": "casinowar"}, {"season": 4}):
            await slash(env, ben, "leaderboard", **options)

        await slash(env, dave, "help")

        # /settings: every setter, then its refusals (nothing changed)
        for command, options in (("settings show", {}), ("settings timer", {"seconds": 90}),
                                 ("settings pace", {"seconds": 2.5}), ("settings warpace", {"pace": "instant"}),
                                 ("settings threads", {"enabled": False}), ("settings threads", {"enabled": True}),
                                 ("settings rules", {"game": "war", "rules": "pack=36"}),
                                 ("settings rules", {"game": "war", "rules": "nonsense"}),
                                 ("settings channels", {"action": "add", "channel": env.channel()}),
                                 ("settings channels", {"action": "add", "channel": env.channel()}),
                                 ("settings channels", {"action": "clear"}),
                                 ("settings channels", {"action": "remove", "channel": env.channel()}),
                                 ("settings channels", {"action": "add"})):
            await slash(env, mo, command, **options)
        env.commands["settings"]["default_member_permissions"] = None  # as if the server let everyone use it
        await slash(env, dave, "settings timer", seconds=60)
        await slash(env, dave, "settings newseason")

        # a new season (public), its old board, the seasons (private)
        await slash(env, mo, "settings newseason")
        await slash(env, mo, "settings newseason", name="Spring")
        await slash(env, ben, "leaderboard", season=1)
        await slash(env, ben, "leaderboard")  # nobody ranked yet this season
        await slash(env, ben, "season list")

        # /preferences panels: as it is, then changed
        await slash(env, cleo, "preferences panels")
        await slash(env, cleo, "preferences panels", options={"where": "here"})

        # /privacy delete: asked, cancelled, asked again and done, then nothing left
        ask = (await slash(env, cleo, "privacy delete")).message
        await press(env, cleo, ask, button(ask, "privacy:", 1))  # Cancel
        ask = (await slash(env, cleo, "privacy delete")).message
        await press(env, cleo, ask, button(ask, "privacy:"))  # Delete my data
        await slash(env, cleo, "privacy delete")
        await slash(env, ben, "history", player=anna)  # a deleted player among the opponents

        shown = every_message(env)
        assert len(shown) > 45
        replays = [f"`python -m bot replay match-{match_id}.json`" for match_id in matches.ids]
        names = [f"<@{user.id}>" for user in (anna, ben, cleo, dave, mo)] + [
            user.name for user in (anna, ben, cleo, dave, mo)]
        # /help names each game with its rules text's first line, which has no pseudo-language translation
        taglines = [rules_text(plugin.name).tagline for plugin in registry().plugins]
        assert english_in_messages(shown, [*names, *replays, *TYPED, "Pseudo", *taglines]) == []


async def test_a_private_answer_speaks_the_members_language_and_a_shared_one_the_servers(make_env, tmp_path):
    with pseudo_language():
        env = await make_env(airwar_bot_factory(tmp_path / "airwar.db"))
        await env.bot.guild_settings.set_language(env.guild.id, "de")
        anna, ben = env.user("anna", locale=PSEUDO), env.user("ben", locale=PSEUDO)
        matches = Matches(env)
        for _ in range(6):
            await matches.forfeit(anna, ben)
        de = texts("de")

        private = (await slash(env, anna, "stats")).message
        shared = (await slash(env, anna, "stats", share=True)).message
        assert private.title == texts(PSEUDO)("Stats — {game}", game=texts(PSEUDO)("All games"))
        assert shared.title == de("Stats — {game}", game=de("All games")) == "Statistik — Alle Spiele"
        assert shared.attachments[0].description.startswith("Verlauf der Wertung: ")

        for share, words in ((False, texts(PSEUDO)), (True, de)):
            history = (await slash(env, ben, "history", share=share)).message
            await press(env, anna if share else ben, history, button(history, "hist:", 1))  # ▶: the same words
            assert history.title == words("Match history")
            assert words("Page {page} of {pages}", page=2, pages=2) in history.body
            assert [b["label"] for b in history.buttons][2:] == [words("Export {number}", number=6)]

        board = (await slash(env, anna, "leaderboard")).message  # public: the server's
        assert board.title == "Rangliste: Luftkrieg" and not board.ephemeral
        hint = (await slash(env, anna, "leaderboard", game="war")).message  # only hers: her own
        assert hint.ephemeral and hint.text == texts(PSEUDO)("No ranked players yet: play {games} to be ranked.",
                                                                 games=texts(PSEUDO).ngettext("{count} game",
                                                                                              "{count} games", 3))
