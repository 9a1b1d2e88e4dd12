"""The kit's Components V2 layouts (cogs/kit/layout.py): classic message parts in, Discord's V2 components out, with
the cards as the app's emoji where the set is known."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest

from bot.emoji import CARD_EMOJI
from bot.render.card_emoji import NAMES, card_of
from bot.render.common import Button
from cogs.kit.items import MatchButtons
from cogs.kit.layout import MAX_TEXT, LiveLayout, as_layout, with_card_emoji

BUTTONS = MatchButtons("tl", cog_name="Test", title="Test", panel_key=r"card:[0-9A-Z]{1,3}|confirm")


@pytest.fixture
def card_emoji(monkeypatch):
    """The card emoji set as if synced: ids 1000.. in the order of the set."""
    known = {card_of(name): SimpleNamespace(name=name, id=1000 + i) for i, name in enumerate(NAMES)}
    monkeypatch.setattr(CARD_EMOJI, "_by_card", known)
    monkeypatch.setattr(CARD_EMOJI, "version", CARD_EMOJI.version + 1000)
    yield known
    monkeypatch.setattr(CARD_EMOJI, "version", CARD_EMOJI.version + 1)  # (what was made from it is out of date)


@pytest.fixture
def no_card_emoji(monkeypatch):
    """No card emoji known (an app whose emoji are not synced), whatever a test before this one synced."""
    monkeypatch.setattr(CARD_EMOJI, "_by_card", {})
    monkeypatch.setattr(CARD_EMOJI, "version", CARD_EMOJI.version + 1000)
    yield
    monkeypatch.setattr(CARD_EMOJI, "version", CARD_EMOJI.version + 1)


def components(kwargs: dict) -> list[dict]:
    view = kwargs["view"]
    assert isinstance(view, LiveLayout) and view.has_components_v2()
    return view.to_components()


def test_an_embed_and_buttons_become_a_container_with_its_heading_text_and_rows(no_card_emoji):
    embed = discord.Embed(title="Air War — engagement 1", description="Stack: 10♣ A♦", colour=0x123456)
    view = BUTTONS.panel_view(7, 1, SimpleNamespace(buttons=[
        Button(f"card:{c}", c, True, "secondary", 0, c) for c in ("10C", "AD", "QS", "2H", "3H", "4H")]))
    out = components(as_layout({"embed": embed, "view": view}, edit=False))
    [container] = out
    assert container["type"] == 17 and container["accent_color"] == 0x123456
    text, *rows = container["components"]
    assert text == {"type": 10, "content": "### Air War — engagement 1\nStack: 10♣ A♦"}  # (no emoji set: notation)
    assert [[b["custom_id"] for b in row["components"]] for row in rows] == [
        [f"tl:p:7:1:card:{c}" for c in ("10C", "AD", "QS", "2H", "3H")], ["tl:p:7:1:card:4H"]]  # five a row


def test_an_edit_is_v2_and_clears_the_classic_parts_and_content_alone_is_a_text_display():
    out = as_layout({"content": "⚔️ <@1> vs <@2>", "view": None}, edit=True)
    assert out["content"] is None and out["embeds"] == []
    assert components(out) == [{"type": 10, "content": "⚔️ <@1> vs <@2>"}]
    with pytest.raises(ValueError, match="needs the message's text"):
        as_layout({"view": None}, edit=True)  # (the buttons alone: the presenter keeps the text itself)


def test_a_plain_new_note_stays_plain_with_its_cards_as_emoji(card_emoji):
    out = as_layout({"content": "Round 1: Q♠ vs 10♦", "view": discord.utils.MISSING}, edit=False)
    queen, ten = card_emoji["QS"], card_emoji["10D"]
    assert out == {"content": f"Round 1: <:c_QS:{queen.id}> vs <:c_10D:{ten.id}>"}


def test_cards_in_notation_become_the_apps_emoji_and_nothing_else_does(card_emoji):
    text = "Q♠ 10♦ 21★ 0★ P♥ · 🃏 · Q♠x? A10♠ · 2024★"
    shown = with_card_emoji(text)
    assert shown.startswith(" ".join(f"<:{card_emoji[c].name}:{card_emoji[c].id}>"
                                     for c in ("QS", "10D", "21T", "0T", "PH")))
    assert shown.endswith(" · 🃏 · " + f"<:c_QS:{card_emoji['QS'].id}>" + "x? A10♠ · 2024★")


def test_a_text_too_long_with_emoji_keeps_its_notation(card_emoji):
    long = "Q♠ " * (MAX_TEXT // 4)  # (under the limit as notation, over it as emoji)
    [text] = components(as_layout({"content": long, "view": BUTTONS.rematch_view(1)}, edit=False))[:1]
    assert text["content"] == long


def test_a_button_stands_for_its_card_with_the_emoji(card_emoji):
    view = BUTTONS.panel_view(7, 1, SimpleNamespace(buttons=[Button("card:QS", "Q♠", True, "primary", 0, "QS"),
                                                           Button("confirm", "Lock in", False, "success", 1)]))
    [queen, confirm] = [b.to_component_dict() for b in view.children]
    assert queen == {"type": 2, "style": 1, "label": "Q♠", "custom_id": "tl:p:7:1:card:QS",
                     "emoji": {"id": str(card_emoji["QS"].id), "name": "c_QS"}}
    assert confirm == {"type": 2, "style": 3, "label": "Lock in", "custom_id": "tl:p:7:1:confirm", "disabled": True}


def test_more_components_than_discord_allows_is_refused_before_sending():
    embed = discord.Embed(title="t", description="d")
    view = BUTTONS.panel_view(7, 1, SimpleNamespace(buttons=[
        Button(f"card:{n}", str(n), True, "secondary", n // 5) for n in range(25)]))
    assert len(components(as_layout({"embed": embed, "view": view}, edit=False))[0]["components"]) == 6
    # (a container, its text, 5 rows, 25 buttons: 32 components, within Discord's 40)
    pictured = [discord.Embed(title=f"t{n}", description="d").set_image(url=f"attachment://p{n}.png")
                for n in range(4)]
    with pytest.raises(ValueError, match="a V2 message holds 40"):  # + 4 x (container, text, gallery) = 42
        as_layout({"content": "x", "embeds": pictured, "view": view}, edit=False)


def test_text_below_the_buttons_comes_after_the_rows_in_the_container(card_emoji):
    # a live message: the round being played and its buttons on top, the settled rounds under them
    embed = discord.Embed(title="Speed War — round 2", description="Q♠ · 10♦")
    view = BUTTONS.panel_view(7, 2, SimpleNamespace(buttons=[Button("confirm", "OK", True, "primary")]))
    for edit in (False, True):
        [container] = components(as_layout({"embed": embed, "view": view, "below": "**1.** K♣ · 3♦"}, edit=edit))
        text, row, below = container["components"]
        assert text["type"] == 10 and row["type"] == 1 and row["components"][0]["custom_id"] == "tl:p:7:2:confirm"
        assert below == {"type": 10, "content": f"**1.** <:c_KC:{card_emoji['KC'].id}> · "
                                                f"<:c_3D:{card_emoji['3D'].id}>"}
    [container] = components(as_layout({"embed": embed, "view": None, "below": "**1.** K♣"}, edit=True))
    assert [c["type"] for c in container["components"]] == [10, 10]  # no buttons: the text under the top
