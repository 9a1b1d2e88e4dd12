"""Air War end to end: the real bot (cogs/airwar/) against the local Discord, players clicking real buttons.

The helpers here (a fast bot, finding the DM panels and boards, playing an engagement through the panel
buttons, the engine's reference run and the leak scan) are shared with ``test_airwar_restart.py`` and
``test_panels.py``. A player's DM panel is one message per match, edited for each engagement: :func:`dm_panel`
finds it while it shows an engagement, :func:`dm_shown` finds what it showed of an engagement after it moved on.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from bot.cards import SUIT_SYMBOLS, card_label
from bot.games.airwar.engine import AirWar
from bot.games.airwar.render import engagement_summary
from bot.i18n import LANGUAGES, texts
from bot.services.settings import SettingsService
from tests.localdiscord import CommandNotPermitted, Env, InvalidOptions, Message, User
from tests.localdiscord.airwar import airwar_bot_factory, read_cards
from tests.localdiscord.state import CREATE_PUBLIC_THREADS, IS_COMPONENTS_V2, VIEW_CHANNEL, Overwrite, walk_components
from tests.records import match_results, rating_of

pytestmark = pytest.mark.e2e

SEED = 1234
PACE_MS = 1000  # the fastest pace the service allows (Discord: 5 edits per 5 s per channel)
TITLE = "Air War"


# --- the bot, fast ------------------------------------------------------------------------------------------


def fast_bot(database: Path, *, pace_log: list[float] | None = None, seed: int = SEED,
             seeds: Sequence[int] | None = None, real_pace: bool = False, **bot_options: Any) -> Callable[[Env], Any]:
    """The real bot on ``database`` with the local Discord's clock (a test can jump it), the seed pinned (``seeds``:
    one per match, in turn), timers that look at the clock every 20 ms and flips that do not really wait (the pace
    asked for goes to ``pace_log``; ``real_pace``: they do wait). ``bot_options`` go to ``CardGameBot``."""

    def factory(env: Env):
        async def pace_sleep(seconds: float) -> None:
            if pace_log is not None:
                pace_log.append(seconds)
            await asyncio.sleep(seconds if real_pace else 0)

        async def timer_sleep(seconds: float) -> None:
            await asyncio.sleep(min(seconds, 0.02))

        deal = itertools.cycle(seeds or [seed])
        return airwar_bot_factory(database, clock=env.clock.time, seed_source=lambda: next(deal),
                                  timer_sleep=timer_sleep, pace_sleep=pace_sleep, **bot_options)(env)

    return factory


def lift_rate_limits(env: Env) -> None:
    """Flips are edits: at a test's pace Discord's 5 edits per 5 s would only slow the test down."""
    env.rate_limit("edits", limit=10_000, per=1.0)
    env.rate_limit("messages", limit=10_000, per=1.0)


async def start(make_env, tmp_path: Path, **options: Any) -> Env:
    env = await make_env(fast_bot(tmp_path / "airwar.db", **options))
    lift_rate_limits(env)
    await SettingsService(env.bot.matches.db).set_flip_pace_ms(env.guild.id, PACE_MS)
    return env


# --- finding things ------------------------------------------------------------------------------------------


def title(message: Message) -> str:
    return message.title


def match_id_of(challenge: Message) -> int:
    return int(challenge.buttons[0]["custom_id"].split(":")[2])


def panel_titles(engagement: int) -> set[str]:
    """The title of a panel of ``engagement`` in every language (a panel speaks its player's)."""
    return {texts(language)("{game} — engagement {number}: your battle order", game=texts(language)(TITLE),
                            number=engagement) for language in LANGUAGES}


def panel_in(messages: Sequence[Message], engagement: int) -> Message | None:
    titles = panel_titles(engagement)
    for message in reversed(messages):
        if title(message) in titles:
            return message
    return None


def dm_panel(env: Env, user: User, engagement: int) -> Message | None:
    """The player's DM panel while it shows ``engagement``."""
    return panel_in(env.messages(user), engagement)


def versions(message: Message) -> list[Message]:
    """Every state a message was in, oldest first, each as a message whose :func:`appeared_at` says when it
    appeared; the last one is the message itself (live)."""
    earlier = [Message(message.id, message.channel, message.author, content=v.content, embeds=v.embeds,
                       components=v.components, attachments=v.attachments, flags=v.flags,
                       timestamp=v.edited_timestamp or message.timestamp) for v in message.history]
    return [*earlier, message]


def appeared_at(version: Message) -> float:
    return _when(version.edited_timestamp or version.timestamp)


def shown_panels(messages: Sequence[Message], engagement: int) -> list[Message]:
    """Every state of ``messages`` that showed the panel of ``engagement``, oldest first."""
    titles = panel_titles(engagement)
    return [version for message in messages for version in versions(message) if title(version) in titles]


def dm_shown(env: Env, user: User, engagement: int) -> Message | None:
    """The last state of the player's DM panel that showed ``engagement`` (the message itself while it still does)."""
    shown = shown_panels(env.messages(user), engagement)
    return shown[-1] if shown else None


def board(env: Env, where, engagement: int) -> Message | None:
    for message in env.messages(where):
        if re.fullmatch(rf"{TITLE} — engagement {engagement}(: flips)?", title(message)):
            return message
    return None


def results(env: Env, where) -> list[Message]:
    """The results posted there (a winner named like the game: "won by the player named ...")."""
    return [m for m in env.messages(where)
            if re.fullmatch(rf"{TITLE} — (draw|.+ wins|won by the player named .+)", title(m))]


def stack_of(panel: Message) -> list[str]:
    """The stack as drawn: the card buttons, in order."""
    return [b["custom_id"].split(":card:")[1] for b in panel.buttons if ":card:" in b["custom_id"]]


def button_id(message: Message, key: str) -> str:
    for button in message.buttons:
        if button["custom_id"].endswith(f":{key}"):
            return button["custom_id"]
    raise AssertionError(f"no button {key!r} on {message!r}: {[b['custom_id'] for b in message.buttons]}")


async def click(env: Env, user: User, message: Message, key: str | None = None, *, label: str | None = None):
    ix = await env.click(user, message, label, custom_id=None if key is None else button_id(message, key))
    await ix.wait_response()
    return ix


def last_ephemeral(env: Env, user: User) -> Message:
    return env.ephemerals(user)[-1]


async def slash(env: Env, user: User, command: str, **options: Any):
    ix = await env.slash(user, command, **options)
    await ix.wait_response()
    return ix


async def challenge(env: Env, challenger: User, opponent: User, **options: Any) -> Message:
    ix = await slash(env, challenger, "airwar challenge", opponent=opponent, **options)
    assert not ix.response.ephemeral, ix.message.text
    await stored(env, match_id_of(ix.message))
    return ix.message


async def settled(env: Env, match_id: int) -> None:
    """Wait until every event of the match has been shown (and marked so)."""
    for _ in range(500):
        if not await env.bot.matches.outbox.unshown_events(match_id):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"match {match_id} still has events to show")


async def stored(env: Env, match_id: int) -> None:
    """Wait until the bot has stored the challenge message (it does so right after answering)."""
    for _ in range(500):
        if (await env.bot.matches.get_match(match_id)).challenge_message_id is not None:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the challenge message was never stored")


async def accept(env: Env, opponent: User, message: Message):
    await click(env, opponent, message, label="Accept")
    return await env.wait_for(lambda: message.thread, message="no thread for the match")


# --- playing -------------------------------------------------------------------------------------------------


def reverse(stack: Sequence[str]) -> list[str]:
    return list(reversed(stack))


def weave(stack: Sequence[str]) -> list[str]:
    """Odd places first, then even ones (5 cards: 2nd, 4th, 1st, 5th, 3rd): no two neighbours stay in order."""
    order = {3: [1, 0, 2], 4: [1, 3, 0, 2], 5: [1, 3, 0, 4, 2], 6: [1, 3, 5, 0, 2, 4], 7: [1, 3, 5, 0, 2, 6, 4]}
    return [stack[i] for i in order[len(stack)]]


def as_drawn(stack: Sequence[str]) -> list[str]:
    return list(stack)


POLICIES = (reverse, weave)


async def lock_in(env: Env, user: User, panel: Message, order: Sequence[str]) -> None:
    """Tap the cards in ``order`` on the panel (DM or ephemeral), then lock in (the stack as drawn: its button)."""
    if list(order) == stack_of(panel):
        await click(env, user, panel, "drawn")
    else:
        for card in order:
            await click(env, user, panel, f"card:{card}")
    await click(env, user, panel, "confirm")
    assert not panel.buttons  # locked in (in the player's language: the panel's words may be any)


@dataclass
class Played:
    """What the players did: the orders they locked in, per engagement (seat 0's, seat 1's)."""

    orders: dict[int, list[list[str]]] = field(default_factory=dict)
    engagements: int = 0


async def play(env: Env, players: Sequence[User], thread, *, first: int = 1, played: Played | None = None,
               panels: Callable[[User, int], Any] | None = None, until: int | None = None,
               policies: Sequence[Callable[[Sequence[str]], list[str]]] = POLICIES) -> Played:
    """Play engagements from ``first`` on through the DM panels (or ``panels(user, n)``), the ``policies``' orders
    (one per seat), until the result is posted (or engagement ``until`` is locked in)."""
    played = played or Played()
    find = panels or (lambda user, n: dm_panel(env, user, n))
    number = first
    while True:
        def ready(n: int = number):
            if results(env, thread):
                return "over"
            found = [find(user, n) for user in players]
            return found if all(found) else None

        found = await env.wait_for(ready, timeout=20, message=f"no panels for engagement {number}")
        if found == "over":
            return played
        orders = []
        for seat, (user, panel) in enumerate(zip(players, found, strict=True)):
            order = policies[seat](stack_of(panel)) if panel.buttons else None
            if order is None:  # locked in before (a restart): the order is on the panel
                order = played.orders[number][seat]
            else:
                await lock_in(env, user, panel, order)
            orders.append(order)
        played.orders[number] = orders
        played.engagements = number
        if until is not None and number >= until:
            return played
        number += 1


def reference(orders: dict[int, list[list[str]]], rules: dict[str, Any] | None = None, seed: int = SEED):
    """The engine alone, same seed, same orders: the game and all its events (up to the last engagement with
    orders, for a match that ended otherwise)."""
    game = AirWar.new(rules or {}, seed=seed)
    events = list(game.opening_events)
    number = 1
    while not game.is_over and number in orders:
        view = game.view(None)
        for seat in range(game.num_players):
            if not game.in_game[seat]:  # 3-4 players: out of the game, no order
                continue
            assert orders[number][seat] is not None
            assert sorted(orders[number][seat]) == sorted(view["stacks"][seat]), "the bot dealt other stacks"
            events += game.apply(seat, {"type": "order", "cards": list(orders[number][seat])})
        number += 1
    return game, events


def engine_at(orders: dict[int, list[list[str]]], number: int, rules: dict[str, Any] | None = None,
              seed: int = SEED) -> AirWar:
    """The engine alone at the start of engagement ``number``, after the players' orders before it."""
    game, _ = reference({n: orders[n] for n in range(1, number)}, rules, seed)
    assert game.engagement == number and not game.is_over
    return game


DECK_LINE = re.compile(r"^(Your deck|<@\d+>'s deck): (\d+) cards?, (?:all unknown|all known: (.+)"
                       r"|(\d+) unknown, then (.+) at the bottom) · discards \d+$", re.MULTILINE)


def known_bottoms(text: str) -> dict[str, dict[str, Any]]:
    """What a DM panel says is known about each deck: ``{"Your deck" | "<@id>'s deck": {"count", "unknown_above",
    "cards"}}``, the cards top to bottom as the panel shows them (``Q♠``)."""
    found = {}
    for label, total, all_known, unknown, cards in DECK_LINE.findall(text):
        listed = (all_known or cards).split()
        found[label] = {"count": int(total), "unknown_above": int(unknown) if unknown else int(total) - len(listed),
                        "cards": listed}
    return found


async def assert_finished_like_reference(env: Env, match_id: int, played: Played, thread, channel,
                                         players: Sequence[User], *, rules: dict[str, Any] | None = None,
                                         seed: int = SEED, games: int = 1) -> AirWar:
    game, _ = reference(played.orders, rules, seed)
    matches = env.bot.matches
    match = await matches.get_match(match_id)
    assert match.status == "finished"
    final = await matches.view(match_id)
    expected = game.view(None)
    assert final["deck_counts"] == expected["deck_counts"]
    assert final["engagement"] == expected["engagement"] == played.engagements
    assert match.result["winner"] == game.outcome.winner
    assert match.result["reason"] == game.outcome.reason
    # the result, once in the thread and once in the channel, naming the winner and the final counts
    [in_thread] = await env.wait_for(lambda: results(env, thread) or None)
    [in_channel] = await env.wait_for(lambda: [m for m in results(env, channel) if f"<#{thread.id}>" in m.text]
                                      or None)
    decks = expected["deck_counts"]
    for message in (in_thread, in_channel):
        if game.outcome.winner is None:
            assert "It's a draw" in message.text
        else:
            assert f"**<@{players[game.outcome.winner].id}>** wins!" in message.text
        assert f"Decks: <@{players[0].id}> {decks[0]} · <@{players[1].id}> {decks[1]}" in message.text
    # recorded once
    rows = await match_results(matches.db, match_id)
    assert sorted(r.user_id for r in rows) == sorted(p.id for p in players)
    for player in players:
        rating = await rating_of(matches.db, env.guild.id, player.id)
        assert rating is not None and rating.games == games
    await settled(env, match_id)
    return game


def assert_flips_shown_once(env: Env, thread, engagements: int) -> None:
    """Each board went through its flips in order: the flip count never went back, and no frame repeats except
    one re-shown after a restart (the same content again)."""
    for number in range(1, engagements + 1):
        message = board(env, thread, number)
        assert message is not None, f"no board for engagement {number}"
        counts = [flip_lines(text) for text in version_texts(message)]
        flipping = [c for c in counts if c]
        assert flipping == sorted(flipping), f"engagement {number}: flips went back {counts}"
        repeats = len(flipping) - len(set(flipping))
        assert repeats <= 1, f"engagement {number}: frames shown again {counts}"
        assert flipping and flipping[-1] == max(flipping)


def version_texts(message: Message) -> list[str]:
    texts = [_text(v.content, v.embeds, v.components) for v in message.history]
    return [*texts, _text(message.content, message.embeds, message.components)]


def flip_lines(text: str) -> int:
    """Flip lines on a board: ``1. A♠ vs K♥``, or with 3-4 players ``1. <@1> A♠ · <@2> K♥ · <@3> 4♦``."""
    return len(re.findall(r"^\d+\. (?:\S+ vs \S+|<@\d+> \S+ · )", text, flags=re.MULTILINE))


# --- the leak scan -------------------------------------------------------------------------------------------

RANK_WORDS = {"jack": "J", "queen": "Q", "king": "K", "ace": "A"}
SUIT_WORDS = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}
SUIT_LETTERS = {symbol: letter for letter, symbol in SUIT_SYMBOLS.items()}
#: a card as texts and buttons show it (``Q♠``) or in notation (``QS``: custom ids, the kernel's refusals)
CARD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([CDHS♣♦♥♠])(?![0-9A-Za-z])")
CARD_WORDS = re.compile(r"\b(10|[2-9]|jack|queen|king|ace) of (clubs|diamonds|hearts|spades)\b", re.IGNORECASE)


def _text(content: str, embeds: list[dict], components: list[dict]) -> str:
    parts = [content]
    for embed in embeds:
        parts += [embed.get("title", ""), embed.get("description", "")]
        parts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
        parts.append(embed.get("footer", {}).get("text", ""))
    stack = list(components)
    while stack:
        component = stack.pop(0)
        parts += [str(component.get("label", "")), str(component.get("custom_id", "")),
                  str(component.get("content", "")), _emoji_card(component.get("emoji"))]
        stack += component.get("components", [])
    return read_cards("\n".join(parts))


def _emoji_card(emoji: dict | None) -> str:
    """A button's card emoji read as its card (``Q♠``)."""
    if not emoji or not emoji.get("id"):
        return ""
    return read_cards(f"<:{emoji['name']}:{emoji['id']}>")


SEPARATORS = re.compile(r"\s*(?:·|—|;|:|→|\.|\bvs\b|\bagainst\b)\s*")


#: a numbered place of an order: ``2 10♥`` in ``1 7♠ · 2 10♥ · 3 —``
ORDER_SLOT = re.compile(r"(?<![0-9A-Za-z.])\d+ (10|[2-9JQKA])([CDHS♣♦♥♠])(?![0-9A-Za-z])")


def card_runs(text: str) -> list[list[str]]:
    """The lists of cards a text names one after the other: per line and per part of a line (one player's cards
    are never split by ``·``, ``—``, ``;``, ``:``, ``→``, ``vs``, ``against``), in notation and, separately, in
    words; and per line, the cards of an order's numbered places (``1 7♠ · 2 10♥``), in order."""
    runs = []
    for line in text.splitlines():
        runs.append([rank + SUIT_LETTERS.get(suit, suit) for rank, suit in ORDER_SLOT.findall(line)])
        for part in SEPARATORS.split(line):
            runs.append([rank + SUIT_LETTERS.get(suit, suit) for rank, suit in CARD.findall(part)])
            runs.append([RANK_WORDS.get(rank.lower(), rank) + SUIT_WORDS[suit.lower()]
                         for rank, suit in CARD_WORDS.findall(part)])
    return [run for run in runs if len(run) >= 2]


def contains(run: Sequence[str], sequence: Sequence[str]) -> bool:
    n = len(sequence)
    return any(list(run[i:i + n]) == list(sequence) for i in range(len(run) - n + 1))


def _when(stamp: str | None) -> float:
    return datetime.fromisoformat(stamp).timestamp() if stamp else 0.0


@dataclass
class Version:
    at: float
    text: str
    audience: str  # "public", or the name of the only user who sees it
    runs: list[list[str]] = field(default_factory=list)
    channel_id: int = 0


def every_version(env: Env) -> list[Version]:
    """Every version of every message the bot sent anywhere, with when it appeared and who could see it."""
    found = []
    for message in env.world.messages.values():
        if message.author is not env.bot_user:
            continue
        if message.ephemeral_to is not None:
            audience = message.ephemeral_to.name
        elif message.channel.recipient is not None:
            audience = message.channel.recipient.name
        else:
            audience = "public"
        stamps = [message.timestamp, *[v.edited_timestamp for v in message.history[1:]],
                  message.edited_timestamp] if message.history else [message.timestamp]
        texts = version_texts(message)
        attachments = [*[v.attachments for v in message.history], message.attachments]
        for stamp, text, files in zip(stamps, texts, attachments, strict=True):
            extra = "\n".join(f"{a.filename}\n{a.description or ''}" for a in files)
            found.append(Version(_when(stamp), f"{text}\n{extra}", audience, card_runs(f"{text}\n{extra}"),
                                 message.channel.id))
    return found


def flips_shown_at(env: Env, where, number: int) -> dict[int, float]:
    """When each flip of engagement ``number`` first showed on a board in ``where`` (a channel, or several: a match
    that moved from its thread to its channel has a board in each)."""
    shown_at: dict[int, float] = {}
    for place in where if isinstance(where, list | tuple) else [where]:
        message = board(env, place, number)
        if message is None:
            continue
        stamps = [message.timestamp, *[v.edited_timestamp for v in message.history[1:]],
                  message.edited_timestamp] if message.history else [message.timestamp]
        for stamp, text in zip(stamps, version_texts(message), strict=True):
            for k in range(1, flip_lines(text) + 1):
                shown_at[k] = min(shown_at.get(k, _when(stamp)), _when(stamp))
    return shown_at


def assert_no_order_leaked(env: Env, thread, orders: dict[int, list[list[str]]], players: Sequence[User], *,
                           scope: Sequence[Any] | None = None, rules: dict[str, Any] | None = None,
                           seed: int = SEED, drawn: Sequence[tuple[int, int]] = ()) -> int:
    """No version of any message anyone but the player could see named the player's not yet flipped cards in
    their locked order (two or more of them), before those flips were shown (on a board in ``thread``: a channel,
    or a list of them). ``scope``: only the public messages in these channels and the players' private ones (other
    matches deal the same card names); ``drawn``: (engagement, seat) of stacks played as drawn at a deadline (no
    secret: everyone saw the stack). Returns how many versions were checked."""
    _, events = reference(orders, rules, seed)
    versions = every_version(env)
    if scope is not None:
        names = {player.name for player in players}
        versions = [v for v in versions if v.audience in names or (v.audience == "public" and v.channel_id in
                                                                    {place.id for place in scope})]
    for number, seat_orders in orders.items():
        flips = [e for e in events if e["type"] == "flip" and e["engagement"] == number]
        shown_at = flips_shown_at(env, thread, number)
        assert shown_at or not flips, f"engagement {number}: no board showed its flips"
        for seat, player in enumerate(players):
            if (number, seat) in drawn:
                continue
            order = seat_orders[seat] or []  # (none: a seat out of the game)
            for version in versions:
                if version.audience == player.name:
                    continue
                public = sum(1 for k in shown_at if shown_at[k] <= version.at)
                flipped = {f["cards"][seat] for f in flips[:public] if f["sources"][seat] == "stack"}
                hidden = [card for card in order if card not in flipped]
                if len(hidden) < 2:
                    continue
                for run in version.runs:
                    assert not contains(run, hidden), (
                        f"engagement {number}: {player.name}'s hidden order {hidden} shown to {version.audience} "
                        f"before its flips: {version.text[:600]}")
    return len(versions)


# --- the tests -------------------------------------------------------------------------------------------------


async def test_a_full_match_from_challenge_to_result(make_env, tmp_path):
    pace: list[float] = []
    env = await start(make_env, tmp_path, pace_log=pace)
    alice, bob = env.user("alice"), env.user("bob")
    channel = env.channel()

    message = await challenge(env, alice, bob)
    match_id = match_id_of(message)
    assert f"<@{bob.id}>" in message.text and bob in message.mentions
    assert "expires <t:" in message.text
    assert [b["label"] for b in message.buttons] == ["Accept", "Decline", "Withdraw"]
    assert [b["custom_id"] for b in message.buttons] == [f"aw:c:{match_id}:{a}" for a in
                                                          ("accept", "decline", "withdraw")]

    thread = await accept(env, bob, message)
    assert thread.parent is channel and thread.type == 11
    # the challenge message is now the match's live message in the channel: who plays, the link to the thread
    await env.wait_for(lambda: f"<#{thread.id}>" in message.text and not message.buttons)
    assert "follow the match" in message.text
    assert f"<@{alice.id}>" in message.text and f"<@{bob.id}>" in message.text

    first = await env.wait_for(lambda: board(env, thread, 1))
    assert not first.mentions  # each player's one notification is their DM panel
    panel = await env.wait_for(lambda: dm_panel(env, alice, 1))
    # the DM: the opponent's stack, the known decks, the deadline; the buttons to build the order
    assert f"**<@{bob.id}>'s stack:**" in panel.text and "Your deck: 47 cards, all unknown" in panel.text
    assert re.search(r"Deadline: <t:\d+:R>", panel.text)
    # a Components V2 message, no picture: the cards are the app's emoji, in the text and on the buttons
    assert panel.flags & IS_COMPONENTS_V2 and not panel.attachments and not panel.embeds
    assert re.search(r"<:c_[0-9A-Z]+:\d+>", panel.raw_text)
    assert all(b["emoji"]["name"] == f"c_{b['custom_id'].split(':card:')[1]}" for b in panel.buttons
               if ":card:" in b["custom_id"])
    keys = [b["custom_id"].split(":", 4)[4] for b in panel.buttons]
    assert keys[-5:] == ["undo", "reset", "random", "drawn", "confirm"]
    # the board: both stacks as drawn (card emoji), counts, the deadline as a relative timestamp; no picture
    for user in (alice, bob):
        assert f"**<@{user.id}>** — ⏳ arranging" in first.text
    assert re.search(r"orders lock in <t:\d+:R>", first.text)
    assert "Deck 47 cards · discards 0" in first.text
    assert first.flags & IS_COMPONENTS_V2 and not first.attachments
    assert "Stack as drawn: " + " ".join(card_label(c) for c in stack_of(panel)) in first.text
    assert "<:c_" in first.raw_text

    # undo / reset / as drawn / random change the draft before it is locked in
    edits = len(panel.history)
    stack = stack_of(panel)
    await click(env, alice, panel, f"card:{stack[2]}")
    assert f"1 {card_label(stack[2])} · 2 —" in panel.text
    await click(env, alice, panel, "undo")
    assert "1 — · 2 —" in panel.text
    await click(env, alice, panel, "drawn")
    assert "Lock in" in [b["label"] for b in panel.buttons]
    await click(env, alice, panel, "random")
    await click(env, alice, panel, "reset")
    assert "**Your order:** 1 — · 2 —" in panel.text
    # each click is one edit of the text and buttons, nothing uploaded
    await settled(env, match_id)
    assert len(panel.history) == edits + 5
    assert not any(version.attachments for version in panel.history) and not panel.attachments

    played = await play(env, (alice, bob), thread)
    game = await assert_finished_like_reference(env, match_id, played, thread, channel, (alice, bob))
    # after lock-in the panel says so: the first to lock in waits, the second sees the flips start
    locked = dm_shown(env, alice, 1)
    assert "🔒 **Your order is locked in:**" in locked.text
    assert f"Waiting for **<@{bob.id}>** to lock in." in locked.text
    assert "Both orders are in: watch the flips in" in dm_shown(env, bob, 1).text
    assert not locked.buttons
    # one DM per player for the whole match, edited from engagement to engagement
    for player in (alice, bob):
        [dm] = env.messages(player)
        assert [n for n in range(1, played.engagements + 1) if shown_panels([dm], n)] == \
            list(range(1, played.engagements + 1))
    # from engagement 2 on, the DM says first how the engagement before ended (what each kept and lost, the decks
    # after, as the engine has it): a player in their DMs never needs the thread to know the score
    _, events = reference(played.orders)
    shown_names = [f"<@{alice.id}>", f"<@{bob.id}>"]
    for number in range(2, played.engagements + 1):
        before = engagement_summary(events, shown_names, engagement=number - 1)
        assert before.startswith(f"**Engagement {number - 1} over:**")
        for player in (alice, bob):
            assert dm_shown(env, player, number).body.startswith(before + "\n\n"), (number, player.name)
    # from engagement 2 on, the panel knows what went back under each deck, in order: what the engine knows
    later = dm_shown(env, alice, 2).text
    assert "at the bottom · discards" in later
    assert played.engagements > 3
    for number in (2, 3, played.engagements):
        view = engine_at(played.orders, number)
        for seat, (player, other) in enumerate(((alice, bob), (bob, alice))):
            known = known_bottoms(dm_shown(env, player, number).text)
            assert set(known) == {"Your deck", f"<@{other.id}>'s deck"}
            for label, deck in (("Your deck", seat), (f"<@{other.id}>'s deck", 1 - seat)):
                expected = view.view(seat)["deck_bottoms"][deck]
                assert known[label]["cards"] == [card_label(card) for card in expected["cards"]], \
                    (number, player.name, label)
                assert known[label]["unknown_above"] == expected["unknown_above"]
                assert known[label]["count"] == view.view(None)["deck_counts"][deck]
            if number == 2:
                assert known["Your deck"]["cards"] and known[f"<@{other.id}>'s deck"]["cards"]
    assert_flips_shown_once(env, thread, played.engagements)

    # the flips: one message per engagement, edited flip by flip, ties visible, then the summary
    last = board(env, thread, 2)
    assert title(last) == f"{TITLE} — engagement 2: flips"
    texts = version_texts(last)
    counts = [flip_lines(t) for t in texts]
    assert counts[-1] >= 5 and counts[-1] == max(counts)
    assert [c for c in counts if c] == list(range(1, counts[-1] + 1))
    assert "**Engagement 2 over:**" in last.text and "kept" in last.text and "lost" in last.text
    assert not last.attachments and last.flags & IS_COMPONENTS_V2
    assert game.stats.wars  # this seed has ties: shown as such, then broken
    assert any(re.search(r"^\d+\. \S+ vs \S+: tie$", board(env, thread, n).text, flags=re.MULTILINE)
               for n in range(1, played.engagements + 1))
    # the pace is the server's setting: one wait between two flips of an engagement
    total_flips = sum(counts_of(env, thread, n) for n in range(1, played.engagements + 1))
    assert pace and set(pace) == {PACE_MS / 1000}
    assert len(pace) == total_flips - played.engagements

    checked = assert_no_order_leaked(env, thread, played.orders, (alice, bob))
    assert checked > 200
    from tests.e2e.live_table_checks import assert_live_table_in_v2

    # the channel's one message, the two DMs, the boards, the result in the thread
    assert assert_live_table_in_v2(env, [channel, thread]) == 1 + 2 + played.engagements + 1
    # the scan would see an order: each player's own panel shows theirs, locked in
    for seat, player in enumerate((alice, bob)):
        own = dm_shown(env, player, 1)
        assert any(contains(run, played.orders[1][seat]) for run in card_runs(own.text)), own.text
    # no picture on the live table: not on a panel, a board or its flips
    for player in (alice, bob):
        assert not any(version.attachments for version in versions(env.messages(player)[0]))
    for number in range(1, played.engagements + 1):
        assert not any(version.attachments for version in versions(board(env, thread, number)))


def counts_of(env: Env, thread, number: int) -> int:
    return flip_lines(board(env, thread, number).text)


async def test_challenges_are_refused_with_a_clear_message(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob, carol = env.user("alice"), env.user("bob"), env.user("carol")
    robot = env.user("robot")
    robot.bot = True
    stranger = env.user("stranger", member=False)

    async def refused(challenger: User, opponent: User) -> str:
        ix = await slash(env, challenger, "airwar challenge", opponent=opponent)
        assert ix.response.ephemeral
        return ix.message.text

    assert await refused(alice, alice) == "You can't challenge yourself."
    assert "bots can't play Air War" in await refused(alice, robot)
    assert "isn't a member of this server" in await refused(alice, stranger)
    await challenge(env, alice, bob)
    assert await refused(carol, bob) == f"<@{bob.id}> is already in an Air War match."
    assert await refused(carol, alice) == f"<@{alice.id}> is already in an Air War match."
    assert "You're already in an Air War match" in await refused(bob, carol)
    assert len(env.messages()) == 1  # the one challenge
    assert not env.threads


async def test_a_challenge_refused_after_a_deferral_stays_private(make_env, tmp_path):
    """A bot that defers every answer at once (``defer_after=0``): a refused challenge is still private. The
    service's refusals are asked before anything goes out; one that only comes after the public "thinking" (a
    challenge made in between) removes that message and answers privately."""
    env = await start(make_env, tmp_path, defer_after=0.0)
    alice, bob, carol, dave, erin, finn = (env.user(n) for n in ("alice", "bob", "carol", "dave", "erin", "finn"))
    channel = env.channel()
    first = await slash(env, alice, "airwar challenge", opponent=bob)
    await env.wait_for(lambda: first.message.buttons)
    ix = await slash(env, carol, "airwar challenge", opponent=bob)
    assert ix.response.type == 4 and ix.response.ephemeral  # refused before any deferral
    assert ix.message.text == f"<@{bob.id}> is already in an Air War match."

    def refusal(ix) -> Message | None:
        if ix.response.type == 4 and ix.response.ephemeral:
            return ix.message
        return next((m for m in ix.followups if m.ephemeral), None)

    # two challenges to dave at once: both pass the first question, and their challenges wait for a read in flight
    # (a transaction waits for the reads, a one-statement check does not) while their "thinking…" goes out; the
    # service then takes one and refuses the other
    database, free = env.bot.matches.db, asyncio.Event()

    async def read_in_flight() -> None:
        async with database.read() as conn:
            await conn.execute_fetchall("SELECT 1")
            await free.wait()

    reader = asyncio.create_task(read_in_flight())
    one, two = await asyncio.gather(env.slash(erin, "airwar challenge", opponent=dave),
                                    env.slash(finn, "airwar challenge", opponent=dave))
    for ix in (one, two):
        await ix.wait_response()
        assert ix.response.type == 5  # both asked and passed the first question, then deferred
    free.set()
    await reader
    await env.wait_for(lambda: any(refusal(ix) for ix in (one, two)) and any(ix.message.buttons for ix in (one, two)))
    [refused] = [ix for ix in (one, two) if refusal(ix)]
    assert refusal(refused).text == f"<@{dave.id}> is already in an Air War match."
    assert refused.response.type == 5 and not refused.response.ephemeral  # it had said "thinking…" in public ...
    assert refused.original.deleted  # ... and that message is gone
    public = env.messages(channel)
    assert not [m for m in public if "already in" in m.text or m.loading]
    assert len([m for m in public if m.buttons]) == 2  # alice's challenge and one to dave
    for ix in (first, one if refused is two else two):
        await settled(env, match_id_of(ix.message))


async def test_decline_withdraw_and_clicks_by_the_wrong_people(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob, dave = env.user("alice"), env.user("bob"), env.user("dave")

    message = await challenge(env, alice, bob)
    ix = await click(env, dave, message, label="Accept")  # someone else: told who may accept
    assert ix.response.ephemeral and ix.message.text == f"Only <@{bob.id}> can accept this challenge."
    ix = await click(env, alice, message, label="Accept")
    assert ix.response.ephemeral and ix.message.text == f"Only <@{bob.id}> can accept this challenge."
    ix = await click(env, bob, message, label="Withdraw")
    assert ix.message.text == f"Only <@{alice.id}> can withdraw this challenge."
    await click(env, bob, message, label="Decline")
    await env.wait_for(lambda: "declined" in message.text)
    assert not message.buttons and not message.embeds

    message = await challenge(env, alice, bob, stack=3, aces="low")
    assert "stacks of 3 · aces low" in message.text
    match_id = match_id_of(message)
    await click(env, alice, message, label="Withdraw")
    await env.wait_for(lambda: "withdrew" in message.text)
    assert not message.buttons
    match = await env.bot.matches.get_match(match_id)
    assert (match.status, match.reason) == ("cancelled", "withdrawn")
    assert not env.threads
    assert await match_results(env.bot.matches.db, match_id) == []


async def test_a_challenge_expires_after_five_minutes_and_says_so(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    message = await challenge(env, alice, bob)
    env.clock.advance(299)
    await asyncio.sleep(0.1)
    assert message.buttons
    env.clock.advance(2)
    await env.wait_for(lambda: "expired" in message.text)
    assert message.text == (f"⌛ The Air War challenge from **<@{alice.id}>** to **<@{bob.id}>** expired: "
                               "nobody accepted in time.")
    assert not message.buttons
    # both are free again
    again = await challenge(env, bob, alice)
    assert again.buttons


async def test_forfeit_ends_the_match_and_records_the_result_once(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    channel = env.channel()
    ix = await slash(env, alice, "airwar forfeit")
    assert ix.message.text == "You're not in an Air War match."

    message = await challenge(env, alice, bob)
    match_id = match_id_of(message)
    ix = await slash(env, bob, "airwar forfeit")
    assert "hasn't started yet" in ix.message.text and "decline" in ix.message.text
    thread = await accept(env, bob, message)
    await env.wait_for(lambda: dm_panel(env, bob, 1) and dm_panel(env, alice, 1))

    ix = await slash(env, bob, "airwar forfeit")
    assert ix.response.ephemeral and "Forfeit your Air War match against" in ix.message.text
    await click(env, bob, ix.message, label="Keep playing")
    assert ix.message.text == "Good: the match goes on." and not ix.message.buttons
    ix = await slash(env, bob, "airwar forfeit")
    await click(env, bob, ix.message, label="Forfeit")
    assert ix.message.text == f"🏳️ You forfeited your Air War match: <@{alice.id}> wins."

    [result] = await env.wait_for(lambda: results(env, thread) or None)
    assert f"**<@{alice.id}>** wins! <@{bob.id}> forfeited." in result.text
    await env.wait_for(lambda: results(env, channel))
    first = board(env, thread, 1)
    await env.wait_for(lambda: "Game over before this engagement was played" in first.text)
    assert not first.buttons and "arranging" not in first.text and "— not locked in" in first.text
    panel = dm_panel(env, alice, 1)
    await env.wait_for(lambda: not panel.buttons)
    rows = await match_results(env.bot.matches.db, match_id)
    assert sorted((r.user_id, r.outcome) for r in rows) == sorted([(alice.id, "win"), (bob.id, "loss")])
    ix = await slash(env, bob, "airwar forfeit")
    assert ix.message.text == "You're not in an Air War match."


async def test_missed_deadlines_play_as_drawn_then_forfeit(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    message = await challenge(env, alice, bob, timer=30)
    assert "stacks of 5" in message.text
    thread = await accept(env, bob, message)
    match_id = match_id_of(message)

    panel = await env.wait_for(lambda: dm_panel(env, alice, 1))
    await lock_in(env, alice, panel, reverse(stack_of(panel)))
    bob_panel = await env.wait_for(lambda: dm_panel(env, bob, 1))
    stack = stack_of(bob_panel)
    await click(env, bob, bob_panel, f"card:{stack[1]}")  # a draft that never gets locked in

    env.clock.advance(31)
    note = await env.wait_for(lambda: next((m for m in env.messages(thread) if m.text.startswith("⏰")), None))
    assert note.text == (f"⏰ Time's up in engagement 1: **<@{bob.id}>** did not lock in an order, so "
                            f"<@{bob.id}>'s stack plays as drawn.\n-# A second missed deadline in a row forfeits "
                            "the game.")
    assert bob in note.mentions
    await env.wait_for(lambda: not dm_shown(env, bob, 1).buttons)
    flips = await env.wait_for(lambda: "Engagement 1 over" in board(env, thread, 1).text and board(env, thread, 1))
    first_flip = re.search(r"^1\. (\S+) vs ([^\s:]+)", flips.text, flags=re.MULTILINE)
    assert first_flip.group(2) == card_label(stack[0])  # as drawn, not the draft

    panel = await env.wait_for(lambda: dm_panel(env, alice, 2))
    await lock_in(env, alice, panel, reverse(stack_of(panel)))
    await env.wait_for(lambda: dm_panel(env, bob, 2))
    match = await env.bot.matches.get_match(match_id)
    env.clock.advance(match.deadline_at - env.clock.time() + 1)
    [result] = await env.wait_for(lambda: results(env, thread) or None)
    assert f"**<@{alice.id}>** wins! <@{bob.id}> missed two deadlines in a row and forfeited." in result.text
    notes = [m.text for m in env.messages(thread) if m.text.startswith("⏰")]
    assert notes[-1] == (f"⏰ Time's up in engagement 2: **<@{bob.id}>** missed a second deadline in a row and "
                         f"forfeits. **<@{alice.id}>** wins!")
    assert len(notes) == 2
    rows = await match_results(env.bot.matches.db, match_id)
    assert sorted((r.user_id, r.outcome) for r in rows) == sorted([(alice.id, "win"), (bob.id, "loss")])


async def test_a_click_answered_as_the_deadline_passes_leaves_the_panel_closed(make_env, tmp_path):
    """Bob's tap is applied just before the deadline, but its answer (his panel, with buttons) reaches Discord only
    after the timer played his stack as drawn: it can't put the buttons back, and the panel says what happened."""
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    message = await challenge(env, alice, bob, timer=30)
    match_id = match_id_of(message)
    thread = await accept(env, bob, message)
    panel = await env.wait_for(lambda: dm_panel(env, alice, 1))
    await lock_in(env, alice, panel, reverse(stack_of(panel)))
    bob_panel = await env.wait_for(lambda: dm_panel(env, bob, 1))
    await settled(env, match_id)
    match = await env.bot.matches.get_match(match_id)
    env.clock.advance(match.deadline_at - env.clock.time() - 0.5)  # half a second to go

    hold = env.hold(lambda r: r.template.endswith("/callback") and (r.body or {}).get("type") == 7)
    stack = stack_of(bob_panel)
    card = stack[0]
    ix = await env.click(bob, bob_panel, custom_id=button_id(bob_panel, f"card:{card}"))
    await hold.wait()  # the tap is applied; its answer is on its way
    env.clock.advance(1.0)  # the deadline passes: bob's stack plays as drawn
    await env.wait_for(lambda: any(m.text.startswith("⏰") for m in env.messages(thread)))
    await asyncio.sleep(0.2)  # (time for the presenter to close bob's panel, were it not waiting for the click)
    hold.release()
    assert (await ix.wait_response()).type == 7
    await settled(env, match_id)
    await asyncio.sleep(0.2)
    shown = shown_panels(env.messages(bob), 1)  # (the DM went on to engagement 2 since)
    closed = shown[-1]
    assert not closed.buttons  # closed for good ...
    assert f"1 {card_label(card)} · 2 —" in shown[-2].text  # ... after the tap's answer
    assert "⏰ **Time's up:** you did not lock in an order, so your stack was played as drawn." in closed.text
    assert "Tap your cards" not in closed.text and "Deadline" not in closed.text
    assert f"**Your order:** {' · '.join(f'{i + 1} {card_label(c)}' for i, c in enumerate(stack))}" in closed.text


async def test_closed_dms_get_the_panel_from_the_board(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, carol, dave = env.user("alice"), env.user("carol", dms_open=False), env.user("dave")
    message = await challenge(env, alice, carol)
    thread = await accept(env, carol, message)

    first = await env.wait_for(lambda: board(env, thread, 1))
    assert f"📪 <@{carol.id}>'s DMs are closed" in first.text
    assert [b["label"] for b in first.buttons] == ["Arrange"]
    assert carol in first.mentions
    assert env.messages(carol) == []
    # someone else's click: not theirs
    ix = await click(env, dave, first, label="Arrange")
    assert ix.response.ephemeral and ix.message.text == "This isn't your match."

    def ephemeral_panel(user: User, number: int):
        return panel_in(env.ephemerals(user), number)

    async def open_panel(user: User, number: int):
        board_message = await env.wait_for(lambda: board(env, thread, number))
        if board_message.buttons:
            ix = await click(env, user, board_message, label="Arrange")
            assert ix.response.ephemeral

    await open_panel(carol, 1)
    panel = ephemeral_panel(carol, 1)
    assert panel is not None and panel.ephemeral_to is carol
    assert panel.flags & IS_COMPONENTS_V2 and f"**<@{alice.id}>'s stack:**" in panel.text

    async def both(user: User, number: int):
        if user is carol:
            await open_panel(carol, number)
            return ephemeral_panel(carol, number)
        return dm_panel(env, user, number)

    # two engagements through the ephemeral panel, then a forfeit
    for number in (1, 2):
        alice_panel = await env.wait_for(lambda n=number: dm_panel(env, alice, n))
        carol_panel = await both(carol, number)
        await lock_in(env, carol, carol_panel, reverse(stack_of(carol_panel)))
        assert "Waiting for" in carol_panel.text or "Both orders are in" in carol_panel.text
        await lock_in(env, alice, alice_panel, weave(stack_of(alice_panel)))
    await env.wait_for(lambda: board(env, thread, 3))
    assert "📪" in board(env, thread, 3).text
    assert not board(env, thread, 2).buttons  # gone once flipped
    ix = await slash(env, carol, "airwar forfeit")
    await click(env, carol, ix.message, label="Forfeit")
    await env.wait_for(lambda: results(env, thread))


async def test_two_clicks_at_once_give_one_action(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    message = await challenge(env, alice, bob)
    one, two = await asyncio.gather(env.click(bob, message, "Accept"), env.click(bob, message, "Accept"))
    answers = [await one.wait_response(), await two.wait_response()]
    refusals = [ix for ix in (one, two) if ix.response.ephemeral]
    assert len(refusals) == 1
    assert refusals[0].message.text == "This challenge is no longer open: it was already accepted."
    assert sorted(a.type for a in answers) == [4, 6]
    thread = await env.wait_for(lambda: message.thread)
    assert len(env.threads) == 1

    panel = await env.wait_for(lambda: dm_panel(env, alice, 1))
    stack = stack_of(panel)
    for card in reverse(stack):
        await click(env, alice, panel, f"card:{card}")
    one, two = await asyncio.gather(env.click(alice, panel, custom_id=button_id(panel, "confirm")),
                                    env.click(alice, panel, custom_id=button_id(panel, "confirm")))
    await one.wait_response()
    await two.wait_response()
    refusals = [ix for ix in (one, two) if ix.response.ephemeral]
    assert [ix.message.text for ix in refusals] == [
        "Already done: your battle order for engagement 1 is locked in."]
    assert "Your order is locked in" in panel.text

    # a card tapped twice at once: placed once
    bob_panel = await env.wait_for(lambda: dm_panel(env, bob, 1))
    card = stack_of(bob_panel)[0]
    one, two = await asyncio.gather(env.click(bob, bob_panel, custom_id=button_id(bob_panel, f"card:{card}")),
                                    env.click(bob, bob_panel, custom_id=button_id(bob_panel, f"card:{card}")))
    await one.wait_response()
    await two.wait_response()
    refusals = [ix for ix in (one, two) if ix.response.ephemeral]
    assert [ix.message.text for ix in refusals] == [f"{card_label(card)} is already placed."]
    assert f"1 {card_label(card)} · 2 —" in bob_panel.text
    board_message = await env.wait_for(lambda: board(env, thread, 1))
    await env.wait_for(lambda: f"**<@{alice.id}>** — ✅ locked in" in board_message.text)
    assert f"**<@{bob.id}>** — ⏳ arranging" in board_message.text


async def test_status_shows_your_match_privately(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    ix = await slash(env, alice, "airwar status")
    assert ix.response.ephemeral and ix.message.text == "You're not in an Air War match."
    message = await challenge(env, alice, bob)
    ix = await slash(env, bob, "airwar status")
    assert f"<@{alice.id}> challenged you to Air War; it expires <t:" in ix.message.text
    thread = await accept(env, bob, message)
    panel = await env.wait_for(lambda: dm_panel(env, alice, 1))
    await env.wait_for(lambda: board(env, thread, 1))
    stack = stack_of(panel)
    await click(env, alice, panel, f"card:{stack[3]}")
    ix = await slash(env, alice, "airwar status")
    text = ix.message.text
    assert ix.response.ephemeral
    assert f"**Your Air War match** against **<@{bob.id}>** · engagement 1" in text
    assert "(1 of 5 placed)" in text
    assert "Your deck: 47 cards, all unknown · discards 0" in text and f"<#{thread.id}>" in text
    assert [b["label"] for b in ix.message.buttons] == ["Open my battle-order panel"]
    ix = await slash(env, bob, "airwar status")
    assert f"<@{alice.id}>: ⏳ arranging" in ix.message.text
    assert card_label(stack[3]) not in " ".join(re.findall(r"locked in: (.*)", ix.message.text))


async def test_only_members_who_manage_the_server_change_the_settings(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice = env.user("alice")
    dana = env.user("dana", admin=True)
    mo = env.user("mo", roles=[env.role("Mod", permissions=1 << 5)])  # Manage Server, nothing else
    matches = env.bot.matches
    before = await matches.get_settings(env.guild.id)
    assert (before.arrange_seconds, before.flip_pace_ms) == (120, PACE_MS)

    for command, options in (("settings timer", {"seconds": 60}), ("settings pace", {"seconds": 2.0})):
        with pytest.raises(CommandNotPermitted):  # Discord hides /settings from her
            await env.slash(alice, command, **options)
    assert await matches.get_settings(env.guild.id) == before  # nothing changed
    ix = await slash(env, mo, "settings show")
    assert ix.response.ephemeral and "120" in ix.message.text

    ix = await slash(env, dana, "settings timer", seconds=60)
    assert ix.response.ephemeral and ix.message.text.startswith("Saved.")
    ix = await slash(env, mo, "settings pace", seconds=2.5)
    assert ix.message.text.startswith("Saved.")
    after = await matches.get_settings(env.guild.id)
    assert (after.arrange_seconds, after.flip_pace_ms) == (60, 2500)
    # faster than a flip a second is refused (by the option's range): Discord allows 5 edits per 5 s per channel
    with pytest.raises(InvalidOptions, match="outside"):
        await env.slash(dana, "settings pace", seconds=0.5)
    assert await matches.get_settings(env.guild.id) == after
    assert env.messages() == []  # all of it private


async def test_without_thread_permission_the_match_runs_in_the_channel(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    channel = env.channel("no-threads")
    channel.overwrites.append(Overwrite(target=env.world.bot_role, deny=CREATE_PUBLIC_THREADS))
    ix = await slash(env, alice, "airwar challenge", opponent=bob, where=channel)
    message = ix.message
    await click(env, bob, message, label="Accept")
    await env.wait_for(lambda: "the match is on right here" in message.text)
    first = await env.wait_for(lambda: board(env, channel, 1))
    assert first.channel is channel and not env.threads
    assert not [m for m in env.messages(channel) if "follow the match" in m.text]
    ix = await slash(env, alice, "airwar forfeit")
    await click(env, alice, ix.message, label="Forfeit")
    assert len(await env.wait_for(lambda: results(env, channel))) == 1


async def test_many_matches_in_one_channel_stay_within_the_rate_limits(make_env, tmp_path):
    """Discord's own limits (5 messages and 5 edits per 5 s per channel) kept, four matches at once through their
    first engagement's flips, really paced: no 429, and no board's flips closer together than the server's pace."""
    pace: list[float] = []
    env = await make_env(fast_bot(tmp_path / "airwar.db", pace_log=pace, real_pace=True))
    ix = await slash(env, env.owner, "settings pace", seconds=1.0)  # the fastest pace the setting allows
    assert ix.message.text.startswith("Saved.")
    players = [env.user(f"p{i}") for i in range(8)]
    channel = env.channel()
    messages = await asyncio.gather(*[challenge(env, players[i], players[i + 1], stack=3) for i in range(0, 8, 2)])
    await asyncio.gather(*[click(env, players[i + 1], messages[i // 2], label="Accept") for i in range(0, 8, 2)])
    threads = await env.wait_for(lambda: [m.thread for m in messages] if all(m.thread for m in messages) else None)
    assert len(set(threads)) == 4
    await env.wait_for(lambda: all(board(env, t, 1) for t in threads), timeout=10)
    await env.wait_for(lambda: all(dm_panel(env, p, 1) for p in players), timeout=10)
    assert all("follow the match" in m.text for m in messages)
    assert len([m for m in env.messages(channel) if m.author is env.bot_user]) == 4  # one message per match

    await asyncio.gather(*[play(env, players[i:i + 2], threads[i // 2], until=1) for i in range(0, 8, 2)])
    await env.wait_for(lambda: all("Engagement 1 over" in board(env, t, 1).text for t in threads), timeout=30)
    await env.wait_for(lambda: all(dm_panel(env, p, 2) for p in players), timeout=10)
    assert env.http_429 == 0
    assert pace and set(pace) == {1.0}
    for thread in threads:
        message = board(env, thread, 1)
        stamps = [message.timestamp, *[v.edited_timestamp for v in message.history[1:]], message.edited_timestamp]
        shown = [(flip_lines(text), _when(stamp)) for text, stamp in zip(version_texts(message), stamps, strict=True)]
        flips = [at for count, at in shown if count]  # one version per flip
        assert len(flips) >= 3 and [count for count, _ in shown if count] == list(range(1, len(flips) + 1))
        gaps = [later - earlier for earlier, later in itertools.pairwise(flips)]
        assert min(gaps) >= 0.95, f"flips {gaps} apart; the pace is 1 s"


async def test_an_answer_that_takes_long_is_deferred_in_time(make_env, tmp_path):
    """A bot built to defer every answer at once (``defer_after=0``, no patching): each first response is the
    deferral -- in time, or the local Discord fails the test -- and the real answer follows it."""
    env = await start(make_env, tmp_path, defer_after=0.0)
    alice, bob = env.user("alice"), env.user("bob")
    ix = await slash(env, alice, "airwar challenge", opponent=bob)
    assert ix.response.type == 5 and not ix.response.ephemeral  # "thinking", in public ...
    message = await env.wait_for(lambda: ix.message if ix.message.buttons else None)  # ... then the challenge
    assert "challenges" in message.text and not message.loading and not message.ephemeral
    await stored(env, match_id_of(message))
    accepted = await click(env, bob, message, label="Accept")
    assert accepted.response.type == 6
    await env.wait_for(lambda: message.thread)
    panel = await env.wait_for(lambda: dm_panel(env, alice, 1))
    card = stack_of(panel)[0]
    ix = await click(env, alice, panel, f"card:{card}")
    assert ix.response.type == 6  # deferred first ...
    await env.wait_for(lambda: f"1 {card_label(card)} · 2 —" in panel.text)  # ... then the panel is edited
    # a refusal after the deferral comes as an ephemeral followup
    second = stack_of(panel)[1]
    custom_id = button_id(panel, f"card:{second}")
    clicks = await asyncio.gather(*[env.click(alice, panel, custom_id=custom_id) for _ in range(2)])
    for ix in clicks:
        assert (await ix.wait_response()).type == 6
    await env.wait_for(lambda: any(ix.followups for ix in clicks))
    [refusal] = [m for ix in clicks for m in ix.followups]
    assert refusal.ephemeral and refusal.text == f"{card_label(second)} is already placed."
    await env.wait_for(lambda: f"1 {card_label(card)} · 2 {card_label(second)} · 3 —" in panel.text)
    # commands that answer privately defer privately
    ix = await slash(env, bob, "airwar status")
    assert ix.response.type == 5 and ix.response.ephemeral
    await env.wait_for(lambda: not ix.message.loading)
    assert "**Your Air War match**" in ix.message.text and ix.message.ephemeral
    assert all(i.responded and not i.late for i in env.interactions)


def assert_panels_wait_for_flips(env: Env, where, orders: dict[int, list[list[str]]], players: Sequence[User]) -> None:
    """A DM panel of engagement n + 1 knows what engagement n's flips put under the decks: it may only appear once
    every flip of engagement n has been shown in public (on a board in ``where``)."""
    _, events = reference(orders)
    for number in orders:
        count = len([e for e in events if e["type"] == "flip" and e["engagement"] == number])
        shown_at = flips_shown_at(env, where, number)
        for player in players:
            shown = shown_panels(env.messages(player), number + 1)
            if not shown:
                continue
            assert len(shown_at) == count, (f"{player.name}'s panel for engagement {number + 1} went out, but only "
                                            f"{len(shown_at)} of engagement {number}'s {count} flips were ever shown")
            assert appeared_at(shown[0]) >= max(shown_at.values()), (
                f"{player.name}'s panel for engagement {number + 1} went out before engagement {number}'s flips")


async def test_one_broken_match_does_not_touch_another(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob, carol, dave = (env.user(name) for name in ("alice", "bob", "carol", "dave"))
    channel = env.channel()
    broken_message = await challenge(env, alice, bob)
    broken = await accept(env, bob, broken_message)
    fine = await accept(env, dave, await challenge(env, carol, dave))
    await env.wait_for(lambda: board(env, broken, 1) and board(env, fine, 1))
    env.world.delete_channel(broken)  # a moderator deletes the thread mid-match: everything there now fails

    played = await play(env, (alice, bob), broken, until=1)
    fine_played = await play(env, (carol, dave), fine, until=1)
    await env.wait_for(lambda: "Engagement 1 over" in board(env, fine, 1).text)
    await env.wait_for(lambda: dm_panel(env, carol, 2) and dm_panel(env, dave, 2))
    # the next panels know the deck bottoms engagement 1's flips made: not before those flips are public
    await env.wait_for(lambda: dm_panel(env, alice, 2) and dm_panel(env, bob, 2))
    assert_panels_wait_for_flips(env, [broken, channel], played.orders, (alice, bob))
    # the broken match goes on in the channel: a note, the flips on a new board there, then the next engagement
    note = await env.wait_for(lambda: next((m for m in env.messages(channel) if "is gone" in m.text), None))
    assert note.text == (f"⚠️ The thread of the Air War match **<@{alice.id}>** vs **<@{bob.id}>** is gone, so "
                            "the match goes on here.")
    await env.wait_for(lambda: board(env, channel, 1) and "Engagement 1 over" in board(env, channel, 1).text)
    assert flip_lines(board(env, broken, 1).text) == 0
    played = await play(env, (alice, bob), channel, first=2, played=played, until=2)
    await env.wait_for(lambda: board(env, channel, 2) and "Engagement 2 over" in board(env, channel, 2).text)
    await env.wait_for(lambda: dm_panel(env, alice, 3))
    # and it ends with its result in the channel, once
    ix = await slash(env, bob, "airwar forfeit")
    await click(env, bob, ix.message, label="Forfeit")
    [result] = await env.wait_for(lambda: results(env, channel) or None)
    assert f"**<@{alice.id}>** wins!" in result.text
    match_id = match_id_of_message(broken_message)
    await settled(env, match_id)
    assert (await env.bot.matches.get_match(match_id)).thread_id is None
    # no order was seen before its flips, and no panel went out before the flips it derives from
    assert_no_order_leaked(env, [broken, channel], played.orders, (alice, bob), scope=[broken, channel])
    assert_panels_wait_for_flips(env, [broken, channel], played.orders, (alice, bob))
    assert_no_order_leaked(env, fine, fine_played.orders, (carol, dave), scope=[fine])
    assert_panels_wait_for_flips(env, fine, fine_played.orders, (carol, dave))


async def test_flips_that_cannot_be_shown_anywhere_hold_back_the_match(make_env, tmp_path):
    """Neither the thread nor its channel can be shown in: the flips wait, and so does everything after them (the
    next panels, /airwar status); once the channel is back, the match goes on where it was, in its thread."""
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    channel = env.channel()
    message = await challenge(env, alice, bob)
    match_id = match_id_of(message)
    thread = await accept(env, bob, message)
    await env.wait_for(lambda: board(env, thread, 1) and dm_panel(env, alice, 1) and dm_panel(env, bob, 1))
    await settled(env, match_id)
    hidden = Overwrite(target=env.world.bot_role, deny=VIEW_CHANNEL)
    channel.overwrites.append(hidden)  # the bot sees neither the channel nor its thread

    played = await play(env, (alice, bob), thread, until=1)
    await env.wait_for(lambda: any(r.status == 403 and r.method == "PATCH" for r in env.requests))  # refused ...
    await asyncio.sleep(0.3)  # ... and the bot has had time to go on, if it did
    assert dm_panel(env, alice, 2) is None and dm_panel(env, bob, 2) is None
    assert [q.type for q in await env.bot.matches.outbox.unshown_events(match_id)].count("flip") >= 3
    assert flip_lines(board(env, thread, 1).text) == 0 and not board(env, channel, 1)
    ix = await slash(env, alice, "airwar status")
    assert ix.response.ephemeral and ix.message.text == (
        f"The flips of engagement 1 are being shown in <#{thread.id}> right now; ask again in a moment.")
    match = await env.bot.matches.get_match(match_id)
    assert match.thread_id == thread.id and "moved" not in match.messages

    from cogs.kit.presenter import RETRY_LATER

    assert env.bot.timers.armed(env.bot.get_cog("AirWar").presenter.retry_key(match_id))  # it tries again later
    channel.overwrites.remove(hidden)
    for _ in range(12):  # the next try is due after a few of RETRY_LATER's first steps (a try per failed update)
        env.clock.advance(RETRY_LATER[0])
        with contextlib.suppress(TimeoutError):
            await env.wait_for(lambda: "Engagement 1 over" in board(env, thread, 1).text, timeout=0.25)
            break
    assert "Engagement 1 over" in board(env, thread, 1).text
    await env.wait_for(lambda: dm_panel(env, alice, 2) and dm_panel(env, bob, 2))
    await settled(env, match_id)
    assert not [m for m in env.messages(channel) if "is gone" in m.text]
    assert_no_order_leaked(env, thread, played.orders, (alice, bob))
    assert_panels_wait_for_flips(env, thread, played.orders, (alice, bob))


def match_id_of_message(message: Message) -> int:
    for version in [*message.history, message]:
        for button in walk_components(version.components):
            if button.get("custom_id"):
                return int(button["custom_id"].split(":")[2])
    raise AssertionError("no buttons on the message, ever")
