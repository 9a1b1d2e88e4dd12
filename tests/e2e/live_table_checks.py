"""What every game's live table must be on the local Discord, checked after a whole match (each game's e2e test):
Components V2 messages with the cards as the app's emoji, and no label showing markup raw."""

from __future__ import annotations

import re
from collections.abc import Sequence

from tests.localdiscord import Env
from tests.localdiscord.state import IS_COMPONENTS_V2, Channel, text_of, walk_components

#: a card in the notation the bot writes where it has no emoji (``Q♠``, ``10♦``, ``21★``)
NOTATION = re.compile(r"(?<![0-9A-Za-z])(?:(?:10|[2-9JQKAPN])[♣♦♥♠]|(?:2[01]|1[0-9]|[0-9])★)")
#: markup a button's label shows raw (Discord renders no mention, channel, timestamp or custom emoji in a label)
RAW_IN_LABEL = re.compile(r"<(?:@[!&]?|#|t:|a?:)")


def assert_live_table_in_v2(env: Env, places: Sequence[Channel], *, cards_shown: bool = True) -> int:
    """Every message the bot made in ``places`` (the match's channel and thread) and in any DM that has buttons or a
    title is a
    Components V2 message in every version (no embeds, the flag never dropped), within Discord's V2 limits; its
    cards, in every text a player reads, are the app's emoji, never the notation; and (``cards_shown``: a game that
    shows its cards before its result) at least one card emoji was shown. Returns how many such messages there were."""
    surfaces = 0
    emoji = 0
    dms = [channel for channel in env.world.channels.values() if channel.recipient is not None]
    for place in [*places, *dms]:
        for message in env.messages(place):
            if message.author is not env.bot_user:
                continue
            history = [*message.history, message]
            if not any(version.components or version.embeds for version in history):
                assert not NOTATION.search(message.content), f"a note shows cards in notation: {message.content}"
                emoji += message.content.count("<:c_")
                continue
            surfaces += 1
            v2_from = next(i for i, v in enumerate(history) if v.components or v.embeds)
            for version in history[v2_from:]:
                assert version.flags & IS_COMPONENTS_V2 and not version.embeds, (place, message.raw_text[:200])
                assert_labels_plain(version.components)
                sent = text_of(version.content, version.embeds, version.components)
                assert not NOTATION.search(sent), f"cards in notation in {place}: {sent[:300]}"
                emoji += sent.count("<:c_")
    for user in env.world.users.values():  # the private panels and answers too
        for message in env.ephemerals(user, include_deleted=True):
            for version in [*message.history, message]:
                assert_labels_plain(version.components)
    assert surfaces and (emoji or not cards_shown), (surfaces, emoji)
    return surfaces


def assert_labels_plain(components: list[dict]) -> None:
    """No button or select option label holds markup Discord would show raw (a mention, a custom emoji)."""
    for component in walk_components(components):
        labels = [component.get("label") or "", *(option.get("label", "") for option in component.get("options", []))]
        for label in labels:
            assert not RAW_IN_LABEL.search(label), f"a label shows raw markup: {label!r}"
