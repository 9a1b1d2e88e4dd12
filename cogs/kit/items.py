"""The match buttons of every game, made by one factory per custom-id prefix (:class:`MatchButtons`).

Each button is a :class:`discord.ui.DynamicItem` whose custom id names what it acts on, so a button in a message
sent before a restart still works (nothing about it lives in memory):

* ``<prefix>:c:<match>:<accept|decline|withdraw>`` -- the challenge message;
* ``<prefix>:p:<match>:<step>:<key>`` -- a seat's panel (DM or ephemeral); ``key`` is the render's button key,
  matching the game's ``panel_key`` pattern;
* ``<prefix>:open:<match>:<step>`` -- the button that opens the player's panel of the step as an ephemeral message
  where it is pressed: on the step's public board (in the game's word, ``board_label``: "Arrange", "Choose"), and
  "Open my panel" in the status command's answer;
* ``<prefix>:ff:<match>:<yes|no>`` -- the ephemeral "really forfeit?" question;
* ``<prefix>:l:<match>:<join|leave|start|cancel>`` -- a lobby's message (a game with lobbies; anyone may Join);
* ``<prefix>:t:<match>:<step>:<key>`` -- the match's public table (a game with one), ``key`` matching the game's
  ``table_key`` pattern;
* ``<prefix>:rm:<match>`` -- "Rematch" on a finished match's result.

The bot routes their clicks by custom id (``bot.route_clicks(*buttons.items)``, in the views of
:class:`RoutedView`). The items only parse their custom id and hand the click to the game's cog (found by name), to
the handler each kind of button names (:data:`ClickHandler`):
``interaction_check`` answers a click by someone outside the match with an ephemeral "This isn't your match." (the
cog's ``check_player``) -- but on a challenge's or a lobby's buttons, where the match service says who may press
it ("Only the host deals.") -- and an error is answered privately, never raised. No rules and no
state here.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import discord

from bot.emoji import CARD_EMOJI
from bot.i18n import N_, Texts
from bot.render.common import ENGLISH, Button, ButtonSurface
from cogs.kit.messages import SORRY, STYLES, private_words, tell_privately

log = logging.getLogger("cogs.kit")

CHALLENGE_ACTIONS = ("accept", "decline", "withdraw")
LOBBY_ACTIONS = ("join", "leave", "start", "cancel")
REMATCH_LABEL = N_("Rematch")
ROW_WIDTH = 5  # buttons in one action row (Discord's limit)
MAX_ROWS = 5  # action rows in one message

#: what a kind of button hands its clicks to: the game's cog -> its handler, called ``(interaction, match_id, *the
#: button's parts)``
ClickHandler = Callable[[Any], Callable[..., Awaitable[None]]]


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """One match button as Discord shows it: its custom id (which the bot routes by: :class:`MatchButtons`'
    items), words, style, state, card emoji and action row. Only its component is built: no discord.py item per
    button of every message sent (the item is made when a click comes, from its custom id)."""

    custom_id: str
    label: str
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    disabled: bool = False
    row: int | None = None
    emoji: dict[str, str] | None = None

    def to_component_dict(self) -> dict[str, Any]:
        component: dict[str, Any] = {"type": 2, "style": self.style.value, "label": self.label,
                                     "custom_id": self.custom_id}
        if self.disabled:
            component["disabled"] = True
        if self.emoji is not None:
            component["emoji"] = self.emoji
        return component


@dataclass(frozen=True, slots=True)
class LinkSpec:
    """A link button (it opens ``url``; Discord sends the bot no click)."""

    label: str
    url: str
    emoji: dict[str, str] | None = None
    row: int | None = None

    def to_component_dict(self) -> dict[str, Any]:
        component: dict[str, Any] = {"type": 2, "style": discord.ButtonStyle.link.value, "label": self.label,
                                     "url": self.url}
        if self.emoji is not None:
            component["emoji"] = self.emoji
        return component


class RoutedView:
    """Match buttons whose clicks the bot routes itself by their custom ids
    (:meth:`bot.client.CardGameBot.route_clicks`): a message's buttons as Discord components, which the kit lays
    out in its V2 layout (:func:`cogs.kit.layout.as_layout`); discord.py keeps nothing of them."""

    def __init__(self, buttons: Sequence[ButtonSpec | LinkSpec] = ()) -> None:
        self.children: list[ButtonSpec | LinkSpec] = list(buttons)

    def add_item(self, button: ButtonSpec | LinkSpec) -> RoutedView:
        self.children.append(button)
        return self


class RoutedButtons(discord.ui.View):
    """A classic message's buttons and menus (dynamic items: rules, help, stats, leaderboard, privacy, tournament)
    whose clicks the bot routes itself by their custom ids (:meth:`bot.client.CardGameBot.route_clicks`, where their
    cogs register them): discord.py keeps nothing of it per message sent, so no click is handled twice and every
    click is answered in one place."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False

    def is_finished(self) -> bool:  # (what keeps discord.py from storing it: an interaction's answer checks only this)
        return True


def fit_rows(wanted: Sequence[int]) -> list[int]:
    """The action row of each button, in order, from the rows a render asked for: a button goes on its row or a
    later one, never before the button ahead of it, and a full row (five buttons) sends it to the next. A render
    that asks for six buttons on one row gets two rows, not a view that cannot be built; over five rows (more than
    25 buttons) raises ``ValueError``, a render's bug."""
    rows: list[int] = []
    row = used = 0
    for want in wanted:
        if want > row:
            row, used = want, 0
        if used == ROW_WIDTH:
            row, used = row + 1, 0
        rows.append(row)
        used += 1
    if rows and rows[-1] >= MAX_ROWS:
        raise ValueError(f"{len(rows)} buttons need {rows[-1] + 1} rows; a message holds {MAX_ROWS}")
    return rows


class GameItem:
    """What every game's match button shares (mixed into its ``DynamicItem``): a match id, the player check (the
    cog's ``check_player``), and errors answered privately, never raised. A subclass names its cog (``cog_name``)
    and game (``title``); ``open_to_all``: anyone may press it (a challenge's, a lobby's buttons)."""

    match_id: int
    cog_name: ClassVar[str]
    title: ClassVar[str]
    open_to_all: bool = False

    def _cog(self, interaction: discord.Interaction) -> Any:
        return interaction.client.get_cog(self.cog_name)  # type: ignore[attr-defined]

    async def _gone(self, interaction: discord.Interaction) -> None:
        _ = private_words(interaction)
        await tell_privately(interaction, _("{game} is restarting; please try again in a moment.", game=_(self.title)))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        cog = self._cog(interaction)
        if cog is None:
            await self._gone(interaction)
            return False
        if self.open_to_all:
            return True
        try:
            return await cog.check_player(interaction, self.match_id)
        except Exception:
            log.exception("checking a click on %s match %s failed", self.title, self.match_id)
            await tell_privately(interaction, private_words(interaction)(SORRY))
            return False

    async def _run(self, interaction: discord.Interaction, handler: ClickHandler, *args: Any) -> None:
        """The cog's ``handler``, called ``(interaction, match_id, *args)``."""
        cog = self._cog(interaction)
        if cog is None:
            await self._gone(interaction)
            return
        handle = handler(cog)
        try:
            await handle(interaction, self.match_id, *args)
        except Exception:
            log.exception("a click on %s match %s (%s %s) failed", self.title, self.match_id, handle.__name__, args)
            await tell_privately(interaction, private_words(interaction)(SORRY))


class MatchButtons:
    """One game's match buttons (see the module docstring) and the views that hold them. ``prefix``: the custom
    ids' first part; ``cog_name``: the cog the clicks go to (its handlers ``on_challenge_button``,
    ``on_panel_button``, ``on_open_panel``, ``on_forfeit_button``, ``on_lobby_button``, ``on_table_button``,
    ``on_rematch_button``);
    ``panel_key``: a regular expression for the panel's button keys (``None``: the game has no private panels);
    ``open_label``: the "Open my panel" button's words; ``board_label``: the same button's on the step's public
    board, the game's word for making the choice ("Arrange"); ``forfeit_labels``: the forfeit question's two buttons'
    words (yes, no); ``lobby``: the game has lobbies; ``table_key``: a regular expression for the keys of the buttons
    on the match's public table (``None``: it has none)."""

    def __init__(self, prefix: str, *, cog_name: str, title: str, panel_key: str | None = None,
                 open_label: str = N_("Open my panel"), board_label: str = N_("Choose"),
                 forfeit_labels: tuple[str, str] = (N_("Forfeit"), N_("Keep playing")), lobby: bool = False,
                 table_key: str | None = None) -> None:
        self.prefix = prefix
        self.open_label = open_label
        self.board_label = board_label
        self.forfeit_labels = forfeit_labels

        class Item(GameItem):
            pass

        Item.cog_name = cog_name
        Item.title = title

        def action_button(kind: str, actions: Sequence[str], handler: ClickHandler,
                          open_actions: Sequence[str] = ()) -> Any:
            """``<prefix>:<kind>:<match>:<action>``, handed to the cog's ``handler(interaction, match, action)``;
            ``open_actions`` may be pressed by anyone."""

            class ActionButton(Item, discord.ui.DynamicItem[discord.ui.Button],
                               template=rf"{prefix}:{kind}:(?P<match>[0-9]{{1,19}}):(?P<action>{'|'.join(actions)})"):
                def __init__(self, match_id: int, action: str, *, label: str | None = None,
                             style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                             disabled: bool = False) -> None:
                    super().__init__(discord.ui.Button(label=label or action.title(), style=style, disabled=disabled,
                                                       custom_id=f"{prefix}:{kind}:{match_id}:{action}"))
                    self.match_id = match_id
                    self.action = action
                    self.open_to_all = action in open_actions

                @classmethod
                async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                                         match: re.Match[str]) -> Any:
                    return cls(int(match["match"]), match["action"], label=item.label, style=item.style)

                async def callback(self, interaction: discord.Interaction) -> None:
                    await self._run(interaction, handler, self.action)

            return ActionButton

        def step_button(kind: str, key: str, digits: int, handler: ClickHandler) -> Any:
            """``<prefix>:<kind>:<match>:<step>:<key>``, handed to the cog's ``handler(interaction, match, step,
            key)``."""

            class StepButton(Item, discord.ui.DynamicItem[discord.ui.Button],
                             template=rf"{prefix}:{kind}:(?P<match>[0-9]{{1,19}}):(?P<step>[0-9]{{1,{digits}}})"
                                      rf":(?P<key>{key})"):
                def __init__(self, match_id: int, step: int, key: str, *, label: str | None = None,
                             style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False,
                             row: int | None = None, emoji: discord.PartialEmoji | None = None) -> None:
                    super().__init__(discord.ui.Button(label=label or key, style=style, disabled=disabled, row=row,
                                                       emoji=emoji,
                                                       custom_id=f"{prefix}:{kind}:{match_id}:{step}:{key}"))
                    self.match_id = match_id
                    self.step = step
                    self.key = key

                @classmethod
                async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                                         match: re.Match[str]) -> Any:
                    return cls(int(match["match"]), int(match["step"]), match["key"], label=item.label,
                               style=item.style, emoji=item.emoji)

                async def callback(self, interaction: discord.Interaction) -> None:
                    await self._run(interaction, handler, self.step, self.key)

            return StepButton

        class OpenPanelButton(Item, discord.ui.DynamicItem[discord.ui.Button],
                              template=rf"{prefix}:open:(?P<match>[0-9]{{1,19}}):(?P<step>[0-9]{{1,6}})"):
            def __init__(self, match_id: int, step: int, label: str | None = None) -> None:
                super().__init__(discord.ui.Button(label=label or open_label, style=discord.ButtonStyle.primary,
                                                   custom_id=f"{prefix}:open:{match_id}:{step}"))
                self.match_id = match_id
                self.step = step

            @classmethod
            async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                                     match: re.Match[str]) -> Any:
                return cls(int(match["match"]), int(match["step"]), item.label)

            async def callback(self, interaction: discord.Interaction) -> None:
                await self._run(interaction, lambda cog: cog.on_open_panel, self.step)

        class ForfeitButton(Item, discord.ui.DynamicItem[discord.ui.Button],
                            template=rf"{prefix}:ff:(?P<match>[0-9]{{1,19}}):(?P<answer>yes|no)"):
            def __init__(self, match_id: int, answer: str, label: str | None = None) -> None:
                yes = answer == "yes"
                super().__init__(discord.ui.Button(
                    label=label or (forfeit_labels[0] if yes else forfeit_labels[1]),
                    style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
                    custom_id=f"{prefix}:ff:{match_id}:{answer}",
                ))
                self.match_id = match_id
                self.answer = answer

            @classmethod
            async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                                     match: re.Match[str]) -> Any:
                return cls(int(match["match"]), match["answer"], item.label)

            async def callback(self, interaction: discord.Interaction) -> None:
                await self._run(interaction, lambda cog: cog.on_forfeit_button, self.answer)

        class RematchButton(Item, discord.ui.DynamicItem[discord.ui.Button],
                            template=rf"{prefix}:rm:(?P<match>[0-9]{{1,19}})"):
            def __init__(self, match_id: int, label: str | None = None) -> None:
                super().__init__(discord.ui.Button(label=label or REMATCH_LABEL, emoji="🔁",
                                                   style=discord.ButtonStyle.primary,
                                                   custom_id=f"{prefix}:rm:{match_id}"))
                self.match_id = match_id

            @classmethod
            async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                                     match: re.Match[str]) -> Any:
                return cls(int(match["match"]), item.label)

            async def callback(self, interaction: discord.Interaction) -> None:
                await self._run(interaction, lambda cog: cog.on_rematch_button)

        # anyone may press a challenge's or a lobby's buttons: the match service tells someone else who can
        self.ChallengeButton = action_button("c", CHALLENGE_ACTIONS, lambda cog: cog.on_challenge_button,
                                             open_actions=CHALLENGE_ACTIONS)
        self.ForfeitButton = ForfeitButton
        self.RematchButton = RematchButton
        items: list[type[Any]] = [self.ChallengeButton, ForfeitButton, RematchButton]
        self.PanelButton: Any = None
        self.OpenPanelButton: Any = None
        if panel_key is not None:
            self.PanelButton = step_button("p", panel_key, 6, lambda cog: cog.on_panel_button)
            self.OpenPanelButton = OpenPanelButton
            items += [self.PanelButton, OpenPanelButton]
        self.LobbyButton: Any = None
        if lobby:
            self.LobbyButton = action_button("l", LOBBY_ACTIONS, lambda cog: cog.on_lobby_button,
                                             open_actions=LOBBY_ACTIONS)
            items.append(self.LobbyButton)
        self.TableButton: Any = None
        if table_key is not None:
            self.TableButton = step_button("t", table_key, 7, lambda cog: cog.on_table_button)
            items.append(self.TableButton)
        #: for ``bot.route_clicks``
        self.items: tuple[type[Any], ...] = tuple(items)

    def opening_id_prefixes(self, match_id: int) -> tuple[str, ...]:
        """How the custom id of each button of the match's challenge (or lobby) message begins."""
        kinds = ("c", "l") if self.LobbyButton is not None else ("c",)
        return tuple(f"{self.prefix}:{kind}:{match_id}:" for kind in kinds)

    @staticmethod
    def _view(buttons: Sequence[ButtonSpec]) -> RoutedView | None:
        """A view of ``buttons``; ``None`` when there are none (the message loses its buttons)."""
        return RoutedView(buttons) if buttons else None

    def _id(self, kind: str, match_id: int, *parts: object) -> str:
        return ":".join([self.prefix, kind, str(match_id), *map(str, parts)])

    def challenge_view(self, match_id: int, buttons: Sequence[Button]) -> RoutedView | None:
        return self._view([ButtonSpec(self._id("c", match_id, button.key), button.label, STYLES[button.style],
                                      not button.enabled)
                           for button in buttons if button.key in CHALLENGE_ACTIONS])

    def lobby_view(self, match_id: int, buttons: Sequence[Button]) -> RoutedView | None:
        return self._view([ButtonSpec(self._id("l", match_id, button.key), button.label,
                                      STYLES.get(button.style, discord.ButtonStyle.secondary), not button.enabled)
                           for button in buttons if button.key in LOBBY_ACTIONS])

    def panel_view(self, match_id: int, step: int, surface: ButtonSurface) -> RoutedView | None:
        """The panel's buttons (``None`` when there are none: chosen, or over)."""
        return self._step_view("p", match_id, step, surface.buttons)

    def table_view(self, match_id: int, step: int, buttons: Sequence[Button]) -> RoutedView | None:
        """The buttons of the match's public table at ``step`` (``None`` when there are none)."""
        return self._step_view("t", match_id, step, buttons)

    def _step_view(self, kind: str, match_id: int, step: int, buttons: Sequence[Button]) -> RoutedView | None:
        return self._view([ButtonSpec(self._id(kind, match_id, step, button.key), button.label or button.key,
                                      STYLES.get(button.style, discord.ButtonStyle.secondary), not button.enabled,
                                      row, None if button.card is None else CARD_EMOJI.component(button.card))
                           for button, row in zip(buttons, fit_rows([b.row for b in buttons]), strict=True)])

    def open_panel_view(self, match_id: int, step: int, label: str | None = None, *,
                        say: Texts = ENGLISH) -> RoutedView:
        """The button that opens the presser's panel of ``step`` (``label``: its words, else the game's
        ``open_label`` in ``say``'s language)."""
        return RoutedView([ButtonSpec(self._id("open", match_id, step), label or say(self.open_label),
                                      discord.ButtonStyle.primary)])

    def rematch_view(self, match_id: int, *, say: Texts = ENGLISH) -> RoutedView:
        return RoutedView([ButtonSpec(self._id("rm", match_id), say(REMATCH_LABEL), discord.ButtonStyle.primary,
                                      emoji={"name": "🔁"})])

    def board_view(self, match_id: int, step: int, label: str | None = None, *,
                   say: Texts = ENGLISH) -> RoutedView:
        """The button on the step's public board that opens each player's panel in the thread (``label``, else the
        game's ``board_label`` in ``say``'s language: the server's); anyone else who presses it is told privately
        that it isn't their match."""
        return self.open_panel_view(match_id, step, label or say(self.board_label))

    def forfeit_view(self, match_id: int, *, say: Texts = ENGLISH) -> RoutedView:
        """The forfeit question's two buttons, in ``say``'s language (the player's)."""
        return RoutedView([
            ButtonSpec(self._id("ff", match_id, "yes"), say(self.forfeit_labels[0]), discord.ButtonStyle.danger),
            ButtonSpec(self._id("ff", match_id, "no"), say(self.forfeit_labels[1])),
        ])
