"""Every server in its own language, end to end: the slash commands carry their names and descriptions in each
language the bot speaks (Discord shows a member the ones of their client's language); a private reply speaks the
member's language (``interaction.locale``); a public message speaks the server's (``/settings language``), English
until it is set, whoever's command made it, and the next public message follows a change."""

from __future__ import annotations

import pytest

from bot.games.airwar import render as airwar_render
from bot.i18n import texts
from bot.registry import game_names
from bot.rules_text import rules_text
from cogs.rules import rules_pages
from tests.e2e.test_airwar import TITLE, click, match_id_of, slash, start, stored, title
from tests.localdiscord import Env, Message, User

pytestmark = pytest.mark.e2e

GERMAN, FRENCH, ENGLISH = texts("de"), texts("fr"), texts("en")


def command(env: Env, name: str) -> dict:
    return next(c for c in env.guild_commands if c["name"] == name)


def option(node: dict, name: str) -> dict:
    return next(o for o in node["options"] if o["name"] == name)


def button_labels(message: Message) -> list[str]:
    return [button["label"] for button in message.buttons]


def panel_of(env: Env, user: User, match_id: int, step: int) -> Message | None:
    """The player's DM panel while it has the buttons of ``step`` (found by its buttons, whatever its words)."""
    for message in reversed(env.messages(user)):
        if any(button["custom_id"].split(":")[2:4] == [str(match_id), str(step)] for button in message.buttons):
            return message
    return None


def challenge_title(words) -> str:
    return words("{game} challenge", game=words(TITLE))


async def test_a_german_member_sees_german_commands_and_replies_while_the_server_speaks_its_language(make_env,
                                                                                                     tmp_path):
    env = await start(make_env, tmp_path)
    anna = env.user("anna", locale="de")
    ben = env.user("ben", locale="en-US")
    chloe = env.user("chloe", locale="fr")

    # the commands as Discord has them: German names and descriptions beside the English ones
    airwar = command(env, "airwar")
    challenge = option(airwar, "challenge")
    assert airwar["description_localizations"]["de"] == GERMAN("Air War: a card battle for 2-4 pilots")
    assert challenge["name_localizations"]["de"] == GERMAN.pgettext("command name", "challenge") != "challenge"
    assert option(challenge, "opponent")["name_localizations"]["fr"] == FRENCH.pgettext("command name", "opponent")
    language = option(command(env, "settings"), "language")
    assert language["description_localizations"]["de"] == GERMAN("The language of this server's public messages")
    # a language's own name is never translated
    assert [c["name"] for c in option(language, "language")["choices"]][:2] == ["English", "Deutsch"]
    assert not any(c.get("name_localizations") for c in option(language, "language")["choices"])

    # a private refusal: in the member's own language
    ix = await slash(env, anna, "airwar challenge", opponent=anna)
    assert ix.response.ephemeral and ix.message.text == GERMAN("You can't challenge yourself.")
    assert ix.message.text != "You can't challenge yourself."
    ix = await slash(env, ben, "airwar challenge", opponent=ben)
    assert ix.response.ephemeral and ix.message.text == "You can't challenge yourself."

    # the public challenge: the server's language (English: not set), not the challenger's
    ix = await slash(env, anna, "airwar challenge", opponent=ben)
    assert not ix.response.ephemeral
    public = ix.message
    assert title(public) == "Air War challenge"
    assert button_labels(public) == ["Accept", "Decline", "Withdraw"]
    assert "challenges" in public.body
    match_id = match_id_of(public)
    await stored(env, match_id)

    # the server's language changes (privately confirmed, in the admin's own language) ...
    env.owner.locale = "de"
    ix = await slash(env, env.owner, "settings language", language="fr")
    assert ix.response.ephemeral
    assert ix.message.text == GERMAN("Saved: this server's public messages are in {language} from now on. "
                                        "Private replies follow each member's own Discord language.",
                                        language="Français")
    # ... a member without Manage Server (the server let everyone reach /settings) is refused in their language,
    # and nothing changes
    env.commands["settings"]["default_member_permissions"] = None
    ix = await slash(env, anna, "settings language", language="ru")
    assert ix.response.ephemeral
    assert ix.message.text == GERMAN("Changing the server's settings needs the Manage Server permission.")
    assert await env.bot.guild_settings.language(env.guild.id) == "fr"

    # ... and the next public message speaks it, even when a German member makes it, while private replies stay in
    # each member's language
    emil = env.user("emil", locale="de")
    ix = await slash(env, emil, "airwar challenge", opponent=env.user("dora"))
    assert not ix.response.ephemeral
    french = ix.message
    assert title(french) == challenge_title(FRENCH) != "Air War challenge"
    assert button_labels(french) == [FRENCH("Accept"), FRENCH("Decline"), FRENCH("Withdraw")]
    assert FRENCH("Rules: {rules}", rules="").split(":")[0] in french.body

    # the challenge posted before the change keeps its words; no public message is in a member's own language
    assert title(public) == "Air War challenge"
    german_words = {GERMAN("Accept"), GERMAN("Decline"), challenge_title(GERMAN)} - {"Accept", "Decline"}
    for message in env.messages():
        if message.ephemeral_to is None:
            shown = {title(message), *button_labels(message)}
            assert not shown & german_words, shown
    ix = await slash(env, chloe, "airwar challenge", opponent=anna)
    assert ix.response.ephemeral
    assert ix.message.text == FRENCH("{player} is already in a match of {game}.", player=f"<@{anna.id}>",
                                        game=FRENCH(TITLE))

    # the challenge's life in the channel follows the server's language too: withdrawn, accepted and linked
    await click(env, anna, public, "withdraw")
    await env.wait_for(lambda: not public.buttons, message="the withdrawn challenge kept its buttons")
    assert public.text == "↩️ " + FRENCH("**{challenger}** withdrew the {game} challenge to **{opponent}**.",
                                            challenger=f"<@{anna.id}>", opponent=f"<@{ben.id}>",
                                            game=FRENCH(TITLE))
    dora = env.user("dora")
    french_id = match_id_of(french)
    await stored(env, french_id)
    await click(env, dora, french, "accept")
    thread = await env.wait_for(lambda: french.thread, message="no thread for the match")
    # a private refusal in the member's own language: emil is playing already
    ix = await slash(env, emil, "airwar challenge", opponent=chloe)
    assert ix.response.ephemeral
    assert ix.message.text == GERMAN("You're already in a match of {game}; finish it (or withdraw your "
                                        "challenge) first.", game=GERMAN(TITLE))
    match = await env.bot.matches.get_match(french_id)
    await env.wait_for(lambda: f"<#{thread.id}>" in (french.text or ""), message="no link to the thread")
    assert french.text == "⚔️ " + FRENCH("**{game}:** {players} · {rules} — follow the match in {thread}.",
                                            game=FRENCH(TITLE),
                                            players=FRENCH("{first} vs {second}", first=f"<@{emil.id}>",
                                                           second=f"<@{dora.id}>"),
                                            rules=airwar_render.rules_text(match.rules, say=FRENCH),
                                            thread=f"<#{thread.id}>")

    # the match's first board in its thread: French words and button
    board_title = FRENCH("{game} — engagement {number}", game=FRENCH(TITLE), number=1)
    board = await env.wait_for(lambda: next((m for m in env.messages(thread) if title(m) == board_title), None),
                               message="no French board")
    assert board_title != f"{TITLE} — engagement 1"
    assert button_labels(board) == [FRENCH("Arrange")] != ["Arrange"]
    assert FRENCH("⏳ arranging") in board.body
    stack_line = FRENCH("Stack as drawn: {cards}").split("{cards}")[0]
    assert stack_line in board.body and "Stack as drawn" not in board.body

    # once both lock in, the same message shows the flips, in French
    for user in (emil, dora):
        panel = await env.wait_for(lambda u=user: panel_of(env, u, french_id, 1), message="no DM panel")
        for key in ("drawn", "confirm"):
            await click(env, user, panel, key)
    flips_title = FRENCH("{game} — engagement {number}: flips", game=FRENCH(TITLE), number=1)
    await env.wait_for(lambda: title(board) == flips_title, message="no French flips")
    header = FRENCH("**{first}** vs **{second}** — both orders are locked in; flipping side by side.")
    assert header.split("{second}**")[1] in board.body
    assert "both orders are locked in" not in board.body


async def test_rules_are_read_in_the_readers_language(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    anna = env.user("anna", locale="de")
    ix = await env.slash(anna, "rules", game="airwar")
    await ix.wait_response()
    message = ix.message
    german = rules_text("airwar", "de")
    assert message.ephemeral_to is anna
    assert message.title == german.title != rules_text("airwar").title
    # in pages of at most 3,000 characters (Next page until the last), cut between paragraphs
    assert len(german.body) > 3000 and len(message.embeds) == 1
    assert message.buttons[0]["label"] == GERMAN("◀ Previous page")
    assert message.buttons[1]["label"] == GERMAN("Next page ▶")
    assert [b["label"] for b in message.buttons[2:]] == [rules_text(game, "de").title for game in game_names()]
    assert await read_every_page(env, anna, message) == german.body
    pages = len(rules_pages("airwar", "de"))
    assert message.embeds[0]["footer"]["text"] == " · ".join([GERMAN("Page {page} of {pages}", page=pages, pages=pages),
                                                              GERMAN("Use the buttons to read another game's rules.")])

    click = await env.click(anna, message, rules_text("army", "de").title)
    await click.wait_response()
    assert message.title == rules_text("army", "de").title
    assert await read_every_page(env, anna, message) == rules_text("army", "de").body

    # an English reader of the same game: the English text, whatever the server's language
    await env.bot.guild_settings.set_language(env.guild.id, "ru")
    ben = env.user("ben", locale="en-GB")
    ix = await env.slash(ben, "rules", game="airwar")
    await ix.wait_response()
    assert ix.message.title == rules_text("airwar").title
    assert await read_every_page(env, ben, ix.message) == rules_text("airwar").body


async def read_every_page(env, user, message) -> str:
    """The rules a /rules message shows, read from its page to the last with the Next page button."""
    pages = [message.embeds[0]["description"]]
    while len(message.buttons) > 1 and ":" in message.buttons[1]["custom_id"][6:] \
            and not message.buttons[1].get("disabled"):
        await (await env.click(user, message, custom_id=message.buttons[1]["custom_id"])).wait_response()
        assert len(message.text) <= 3000
        pages.append(message.embeds[0]["description"])
    return "\n\n".join(pages)


async def test_a_lobby_speaks_the_servers_language_through_its_life(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    await env.bot.guild_settings.set_language(env.guild.id, "pl")
    polish = texts("pl")
    alice, bob = env.user("alice", locale="de"), env.user("bob")

    ix = await slash(env, alice, "airwar lobby")
    assert not ix.response.ephemeral
    lobby = ix.message
    assert title(lobby) == polish("{game} lobby", game=polish(TITLE))
    assert button_labels(lobby) == [polish("Join"), polish("Leave"), polish("Start"), polish("Cancel")]
    assert polish("{player} (host)", player=f"**<@{alice.id}>**") in lobby.body
    await click(env, bob, lobby, "join")
    await env.wait_for(lambda: "(2/4)" in lobby.body, message="bob never appeared")
    assert button_labels(lobby) == [polish("Join"), polish("Leave"), polish("Start"), polish("Cancel")]

    await click(env, alice, lobby, "cancel")
    await env.wait_for(lambda: not lobby.buttons, message="the cancelled lobby kept its buttons")
    assert lobby.text == "↩️ " + polish("The {game} lobby of **{host}** was cancelled by its host.",
                                          game=polish(TITLE), host=f"<@{alice.id}>")


async def test_a_dm_panel_speaks_its_players_own_language_whatever_the_servers(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    await env.bot.guild_settings.set_language(env.guild.id, "fr")
    anna, ben = env.user("anna", locale="de"), env.user("ben", locale="pl")
    polish, russian = texts("pl"), texts("ru")

    ix = await slash(env, anna, "airwar challenge", opponent=ben, stack=3)
    match_id = match_id_of(ix.message)
    await stored(env, match_id)
    await click(env, ben, ix.message, "accept")
    thread = await env.wait_for(lambda: ix.message.thread, message="no thread for the match")

    # each DM panel in its player's client language (as their last interaction showed it), the board the server's
    panels = await env.wait_for(lambda: all(found := [panel_of(env, user, match_id, 1) for user in (anna, ben)])
                                and found, message="no DM panels")
    for panel, words in zip(panels, (GERMAN, polish), strict=True):
        line = words("Engagement {number} of your match in {channel}.", number=1, channel=f"<#{thread.id}>")
        assert line != "Engagement 1 of your match in " + f"<#{thread.id}>."
        assert panel.body.endswith("-# " + line)
    board = await env.wait_for(lambda: next((m for m in env.messages(thread) if m.buttons), None),
                               message="no board")
    assert button_labels(board) == [FRENCH("Arrange")]
    # the same panel opened from the board's button: ephemeral, in the presser's language
    await click(env, anna, board)
    mine = env.ephemerals(anna)[-1]
    assert mine.body.endswith("-# " + GERMAN("Engagement {number} of your match in {channel}.",
                                                                 number=1, channel=f"<#{thread.id}>"))

    # anna's client now speaks Russian: a click on her DM panel is answered in Russian, and is remembered
    anna.locale = "ru"
    await click(env, anna, panels[0], "drawn")
    assert panels[0].body.endswith("-# " + russian(
        "Engagement {number} of your match in {channel}.", number=1, channel=f"<#{thread.id}>"))
    assert (await env.bot.player_languages.of([anna.id, ben.id])) == {anna.id: "ru", ben.id: "pl"}
    # nothing public in a member's own language
    for message in env.messages(thread) + env.messages():
        for text in (message.text, *(embed.get("description") or "" for embed in message.embeds)):
            assert "Gefecht" not in text and "starcie" not in text.lower()
