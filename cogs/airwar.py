"""`/airwar challenge|forfeit|status|settings` and every Air War button: the Discord face of the match service.

The cog translates and nothing more: a command or a click calls :class:`~bot.services.matches.MatchService`
(``bot.matches``), answers the interaction within Discord's 3 seconds (a refusal -- any of ``USER_ERRORS`` --
as an ephemeral message, nothing changed), then re-arms the match's deadline timer and asks the presenter
(:mod:`cogs._airwar_presenter`) to show the events the call queued. Everything public -- boards, flips, notes,
results, DMs -- is shown by the presenter in a background task per match, never inside an interaction.

Buttons are :mod:`cogs._airwar_ui`'s dynamic items (custom ids ``aw:c:…``, ``aw:p:…``, ``aw:open:…``,
``aw:ff:…``); they keep working after a restart.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import OrderedDict
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.airwar import render
from bot.match import errors as service_errors
from bot.render.common import clamp, timestamp
from bot.services import USER_ERRORS
from bot.services.matches import ARRANGE_SECONDS_RANGE, MatchUpdate
from bot.storage.records import MatchRecord
from cogs._airwar_presenter import Presenter, mentions
from cogs._airwar_ui import (
    COG_NAME,
    COLOUR,
    DEFER_AFTER,
    DYNAMIC_ITEMS,
    NO_MENTIONS,
    Answer,
    challenge_view,
    embed_of,
    forfeit_view,
    message_kwargs,
    open_panel_view,
    panel_view,
)
from cogs._match_common import start_refusal
from cogs._stats_ui import settings_service

if TYPE_CHECKING:
    from bot.client import AirWarBot

log = logging.getLogger("cogs.airwar")

ACES = [app_commands.Choice(name="high (default): the ace beats the king", value="high"),
        app_commands.Choice(name="low: the ace is below the 2", value="low")]
DECKS = [app_commands.Choice(name="standard, 52 cards (default)", value="standard"),
         app_commands.Choice(name="with two jokers, 54 cards", value="jokers"),
         app_commands.Choice(name="tarot, 78 cards", value="tarot")]


def timer_key(match_id: int) -> tuple[str, int]:
    return ("airwar", match_id)


PLAYERS_CACHED = 4096  # matches whose players a click's check knows without asking the database


def message_link(guild_id: int, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


class AirWarCog(commands.Cog, name=COG_NAME):
    airwar = app_commands.Group(name="airwar", description="Air War: a card battle between two pilots",
                                guild_only=True)

    def __init__(self, bot: AirWarBot) -> None:
        self.bot = bot
        self.presenter = Presenter(bot, pace_sleep=getattr(bot, "pace_sleep", asyncio.sleep))
        self.defer_after: float = getattr(bot, "defer_after", DEFER_AFTER)
        self._armed: dict[int, float] = {}
        #: match id -> its players (seats never change): a click's check asks the database once per match
        self._players: OrderedDict[int, tuple[int, ...]] = OrderedDict()

    @property
    def matches(self):
        return self.bot.matches

    async def cog_load(self) -> None:
        self.bot.displays["airwar"] = self

    async def cog_unload(self) -> None:
        if self.bot.displays.get("airwar") is self:
            del self.bot.displays["airwar"]
        for match_id in list(self._armed):
            self.bot.timers.cancel(timer_key(match_id))
        self._armed.clear()
        await self.presenter.close()

    # --- what the bot calls after a restart, and after every update -------------------------------------
    def show(self, match_id: int) -> None:
        """Show the match's unshown events (background)."""
        self.presenter.show(match_id)

    def arm(self, match: MatchRecord) -> None:
        """Arm (or cancel) the match's deadline timer from its stored deadline."""
        key = timer_key(match.id)
        if not match.is_open or match.deadline_at is None:
            self.bot.timers.cancel(key)
            self._armed.pop(match.id, None)
            return
        if self._armed.get(match.id) == match.deadline_at and self.bot.timers.armed(key):
            return
        self._armed[match.id] = match.deadline_at
        self.bot.timers.arm(key, match.deadline_at, functools.partial(self._deadline, match.id))

    async def _deadline(self, match_id: int) -> None:
        self._armed.pop(match_id, None)
        update = await self.matches.deadline_due(match_id)
        if update is not None:
            self.after(update)
            return
        match = await self.matches.get_match(match_id)
        if match.is_open and match.deadline_at is not None and match.deadline_at > self.bot.clock():
            self.arm(match)

    def after(self, update: MatchUpdate) -> None:
        """A committed update: its timer, then its events on their way to Discord."""
        self.arm(update.match)
        if update.events:
            self.presenter.show(update.match.id)

    # --- small helpers ---------------------------------------------------------------------------------
    @staticmethod
    async def tell(interaction: discord.Interaction, text: str) -> None:
        """An ephemeral answer (a followup if the interaction was answered already)."""
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
        else:
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_MENTIONS)

    def answer(self, interaction: discord.Interaction, *, thinking: bool = False, ephemeral: bool = False) -> Answer:
        return Answer(interaction, thinking=thinking, ephemeral=ephemeral, defer_after=self.defer_after)

    async def check_player(self, interaction: discord.Interaction, match_id: int) -> bool:
        """Every button's ``interaction_check``: only the match's players get further."""
        players = self._players.get(match_id)
        if players is None:
            try:
                match = await self.matches.get_match(match_id)
            except service_errors.MatchNotFound as error:
                await self.tell(interaction, str(error))
                return False
            players = self._players[match_id] = match.user_ids
            while len(self._players) > PLAYERS_CACHED:
                self._players.popitem(last=False)
        if interaction.user.id not in players:
            await self.tell(interaction, str(service_errors.NotYourMatch()))
            return False
        if interaction.guild_id is not None:
            self.presenter.remember_name(interaction.guild_id, interaction.user)
        return True

    # --- buttons ---------------------------------------------------------------------------------------
    async def on_challenge_button(self, interaction: discord.Interaction, match_id: int, action: str) -> None:
        method = {"accept": self.matches.accept, "decline": self.matches.decline,
                  "withdraw": self.matches.withdraw}[action]
        async with self.answer(interaction) as answer:
            try:
                update = await method(match_id, interaction.user.id)
            except USER_ERRORS as error:
                await answer.tell(str(error))
                return
            try:
                await answer.acknowledge()  # the presenter edits the challenge message
            finally:
                self.after(update)

    async def on_panel_button(self, interaction: discord.Interaction, match_id: int, engagement: int,
                              key: str) -> None:
        user_id = interaction.user.id
        update: MatchUpdate | None = None
        async with self.answer(interaction) as answer:
            try:
                # The player's panel lock (the presenter's): the click is applied and answered before the presenter
                # may close the panel (a deadline), so a late answer never puts the buttons of a closed panel back.
                async with self.presenter.panel_lock(match_id, user_id):
                    try:
                        if key == "confirm":
                            update = await self.matches.confirm(match_id, user_id, engagement)
                        elif key.startswith("card:"):
                            card = key.removeprefix("card:")
                            update = await self.matches.tap(match_id, user_id, engagement, card)
                        else:
                            action = {"undo": self.matches.undo, "reset": self.matches.reset,
                                      "random": self.matches.random_order, "drawn": self.matches.as_drawn}[key]
                            update = await action(match_id, user_id, engagement)
                        panel = update.panel
                        if key == "confirm" or panel is None or panel.engagement != engagement:
                            # the second lock-in has played the engagement: its panel as it ended (nothing of the
                            # next one shows here)
                            panel = await self.matches.panel_for(match_id, user_id, engagement)
                    except USER_ERRORS as error:
                        await answer.tell(str(error))
                        return
                    # the panel's picture is fixed for its engagement: the answer keeps the one the message shows
                    await answer.edit(**await self.presenter.panel_answer(update.match, panel, interaction.message))
            finally:
                if update is not None:
                    self.after(update)

    async def on_open_panel(self, interaction: discord.Interaction, match_id: int, engagement: int) -> None:
        async with self.answer(interaction, thinking=True, ephemeral=True) as answer:
            try:
                panel = await self.matches.open_panel(match_id, interaction.user.id, engagement)
                match = await self.matches.get_match(match_id)
            except USER_ERRORS as error:
                await answer.tell(str(error))
                return
            surface, extra = await self.presenter.panel_surface(match, panel, answering=True)
            kwargs = message_kwargs(surface, extra=extra, view=panel_view(match_id, engagement, surface), colour=COLOUR)
            if not kwargs["files"]:
                del kwargs["files"]
            await answer.send(ephemeral=True, **kwargs)

    async def on_forfeit_button(self, interaction: discord.Interaction, match_id: int, answer_: str) -> None:
        async with self.answer(interaction) as answer:
            if answer_ == "no":
                await answer.edit(content="Good: the match goes on.", view=None)
                return
            try:
                update = await self.matches.forfeit(match_id, interaction.user.id)
            except USER_ERRORS as error:
                await answer.edit(content=str(error), view=None, allowed_mentions=NO_MENTIONS)
                return
            try:
                seat = update.match.seat_of(interaction.user.id)
                assert seat is not None
                other = update.match.user_ids[1 - seat]
                await answer.edit(content=f"🏳️ You forfeited your {render.TITLE} match: <@{other}> wins.",
                                  view=None, allowed_mentions=NO_MENTIONS)
            finally:
                self.after(update)

    # --- commands --------------------------------------------------------------------------------------
    @airwar.command(name="challenge", description="Challenge someone in this server to a game of Air War")
    @app_commands.describe(
        opponent="Who to challenge",
        aces="Aces high (default) or low",
        deck="Each player's deck (default: standard, 52 cards)",
        stack="Cards in each engagement's stack, 3 to 7 (default 5)",
        timer="Seconds to arrange each stack, 30 to 600 (default: this server's timer)",
    )
    @app_commands.choices(aces=ACES, deck=DECKS)
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member | discord.User,
        aces: app_commands.Choice[str] | None = None,
        deck: app_commands.Choice[str] | None = None,
        stack: app_commands.Range[int, 3, 7] | None = None,
        timer: app_commands.Range[int, ARRANGE_SECONDS_RANGE[0], ARRANGE_SECONDS_RANGE[1]] | None = None,
    ) -> None:
        user = interaction.user
        assert interaction.guild_id is not None and interaction.channel_id is not None
        if opponent.id == user.id:
            await self.tell(interaction, str(service_errors.CannotChallengeSelf()))
            return
        if opponent.bot:
            await self.tell(interaction, f"{opponent.mention} is a bot; bots can't play {render.TITLE}. "
                                         "Challenge a person instead.")
            return
        if not isinstance(opponent, discord.Member):
            await self.tell(interaction, f"{opponent.mention} isn't a member of this server; you can only "
                                         "challenge someone here.")
            return
        missing = self._missing_permissions(interaction)
        if missing:
            await self.tell(interaction, f"I can't run a match in this channel: I need {missing} here.")
            return
        refusal = await start_refusal(self.bot, interaction)
        if refusal is not None:
            await self.tell(interaction, refusal)
            return
        try:  # the service's refusals before anything goes out: the deferral below would be public
            await self.matches.check_challenge(user.id, opponent.id)
        except USER_ERRORS as error:
            await self.tell(interaction, str(error))
            return
        rules = {key: value for key, value in (("aces", aces and aces.value), ("deck", deck and deck.value),
                                                ("stack", stack)) if value is not None}
        try:  # the server's default rules under the challenge's own
            rules = await settings_service(self.bot).rules_for(interaction.guild_id, "airwar", rules)
        except USER_ERRORS as error:
            await self.tell(interaction, str(error))
            return
        async with self.answer(interaction, thinking=True) as answer:
            try:
                update = await self.matches.challenge(
                    interaction.guild_id, interaction.channel_id, user.id, opponent.id, rules=rules,
                    arrange_seconds=timer, challenger_name=user.display_name, opponent_name=opponent.display_name,
                )
            except USER_ERRORS as error:  # (made in between: a public "thinking" is removed, the note is private)
                await answer.tell(str(error))
                return
            self.presenter.remember_name(interaction.guild_id, user)
            self.presenter.remember_name(interaction.guild_id, opponent)
            match = update.match
            assert match.deadline_at is not None
            surface = render.challenge(user.mention, opponent.mention, match.rules, expires_at=match.deadline_at)
            try:
                message_id = await answer.send(
                    opponent.mention, embed=embed_of(surface, colour=COLOUR),
                    view=challenge_view(match.id, surface.buttons),
                    allowed_mentions=discord.AllowedMentions(users=[opponent]),
                )
                if message_id is None:
                    message_id = (await interaction.original_response()).id
                await self.matches.set_challenge_message(match.id, message_id)
                if update.events:
                    await self.matches.mark_shown(match.id, update.events[-1].seq)
            finally:
                self.after(update)  # an event left unshown (the answer was lost): the presenter posts it

    @staticmethod
    def _missing_permissions(interaction: discord.Interaction) -> str:
        perms = interaction.app_permissions
        in_thread = isinstance(interaction.channel, discord.Thread)
        needed = [("Send Messages", perms.send_messages_in_threads if in_thread else perms.send_messages),
                  ("Embed Links", perms.embed_links), ("Attach Files", perms.attach_files)]
        lacking = [name for name, ok in needed if not ok]
        return ", ".join(lacking)

    @airwar.command(name="forfeit", description="Give up your Air War match (your opponent wins)")
    async def forfeit(self, interaction: discord.Interaction) -> None:
        async with self.answer(interaction, thinking=True, ephemeral=True) as answer:
            try:
                match = await self.matches.forfeit_target(interaction.user.id)
            except USER_ERRORS as error:
                await answer.tell(str(error))
                return
            seat = match.seat_of(interaction.user.id)
            assert seat is not None
            other = match.user_ids[1 - seat]
            await answer.send(f"Forfeit your {render.TITLE} match against <@{other}>? <@{other}> wins and the "
                              "result is recorded.", view=forfeit_view(match.id), ephemeral=True)

    @airwar.command(name="status", description="Your Air War match: the stacks, the counts and what is known")
    async def status(self, interaction: discord.Interaction) -> None:
        async with self.answer(interaction, thinking=True, ephemeral=True) as answer:
            try:
                status = await self.matches.status(interaction.user.id)  # refused while flips are to be shown
            except USER_ERRORS as error:
                await answer.tell(str(error))
                return
            match, seat = status.match, status.seat
            other = match.user_ids[1 - seat]
            if status.view is None or status.panel is None:
                link = ""
                if match.challenge_message_id is not None:
                    link = f" ({message_link(match.guild_id, match.channel_id, match.challenge_message_id)})"
                expires = f"; it expires {timestamp(match.deadline_at)}" if match.deadline_at else ""
                if seat == 0:
                    text = (f"Your {render.TITLE} challenge to <@{other}> is waiting for an answer{expires}. "
                            f"You can withdraw it on the challenge message{link}.")
                else:
                    text = (f"<@{other}> challenged you to {render.TITLE}{expires}. Accept or decline it on the "
                            f"challenge message{link}.")
                await answer.tell(text)
                return
            panel = status.panel
            text = render.status(status.view, mentions(match), deadline=panel.deadline_at, draft=panel.draft)
            text = clamp(f"{text}\nThe match: <#{match.play_channel_id}>")
            if not panel.locked and not panel.finished:
                await answer.send(text, view=open_panel_view(match.id, panel.engagement), ephemeral=True)
            else:
                await answer.tell(text)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(AirWarCog(bot))  # type: ignore[arg-type]
