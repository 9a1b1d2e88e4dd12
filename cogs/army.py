"""`/army challenge|forfeit|status` and every Army button: the Discord face of Army's match service.

The cog translates and nothing more: a command or a click calls the service, answers within Discord's 3 seconds (a
refusal -- any of ``USER_ERRORS`` -- as an ephemeral message, nothing changed), re-arms the match's deadline timer
and asks the presenter (:mod:`cogs._army_presenter`) to show the events the call queued. The server's settings
decide where a match may start, its rules (the server's defaults for Army, overridden by the command's own) and the
timer when the command names none. Buttons are
:mod:`cogs._army_ui`'s dynamic items (``army:…`` custom ids); they keep working after a restart.

Restarts: once the gateway is ready the cog moves the Army deadlines that passed while the bot was away, shows every
Army match's unshown events and re-arms each open Army match's timer (:meth:`ArmyCog.resume`); Air War's own resume
(``bot.client``) is for Air War's matches.
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

from bot.games.army import render
from bot.games.army.flow import GAME
from bot.match import errors as service_errors
from bot.render.common import clamp, timestamp
from bot.services import USER_ERRORS
from bot.services.matches import ARRANGE_SECONDS_RANGE, MatchService, MatchUpdate
from bot.storage.records import MatchRecord
from cogs._airwar_ui import DEFER_AFTER, NO_MENTIONS, Answer, embed_of, message_kwargs
from cogs._army_presenter import ArmyPresenter, mentions
from cogs._army_ui import (
    COG_NAME,
    COLOUR,
    DYNAMIC_ITEMS,
    challenge_view,
    forfeit_view,
    open_panel_view,
    panel_view,
)
from cogs._match_common import start_refusal
from cogs._stats_ui import settings_service

if TYPE_CHECKING:
    from bot.client import AirWarBot

log = logging.getLogger("cogs.army")

PLAYERS_CACHED = 4096
MAX_ROUNDS_RANGE = (1, 100_000)


def timer_key(match_id: int) -> tuple[str, int]:
    return ("army", match_id)


class ArmyCog(commands.Cog, name=COG_NAME):
    army = app_commands.Group(name="army", description="Army: armies with stamina fight with red and black cards",
                              guild_only=True)

    def __init__(self, bot: AirWarBot) -> None:
        self.bot = bot
        self.service: MatchService = bot.service_for(GAME)
        self.presenter = ArmyPresenter(bot, self.service)
        self.defer_after: float = getattr(bot, "defer_after", DEFER_AFTER)
        self._armed: dict[int, float] = {}
        self._players: OrderedDict[int, tuple[int, ...]] = OrderedDict()
        self._resume_task: asyncio.Task[None] | None = None
        #: set once the start's resume is over
        self.resumed = asyncio.Event()

    async def cog_load(self) -> None:
        self.bot.displays[GAME] = self
        self._resume_task = asyncio.get_running_loop().create_task(self._resume_when_ready(), name="army-resume")

    async def cog_unload(self) -> None:
        if self.bot.displays.get(GAME) is self:
            del self.bot.displays[GAME]
        if self._resume_task is not None and not self._resume_task.done():
            self._resume_task.cancel()
        for match_id in list(self._armed):
            self.bot.timers.cancel(timer_key(match_id))
        self._armed.clear()
        await self.presenter.close()

    async def _resume_when_ready(self) -> None:
        await self.bot.wait_until_ready()
        try:
            await self.resume()
        except Exception:
            log.exception("resuming the Army matches after the start failed")
        finally:
            self.resumed.set()

    async def resume(self) -> None:
        """After a start: move the deadlines that passed meanwhile, show unshown events, re-arm the timers."""
        moved = await self.service.resume_deadlines()
        pending = await self.service.matches_with_unshown_events()
        for match_id in pending:
            self.presenter.show(match_id)
        open_matches = await self.service.open_matches()
        for match in open_matches:
            self.arm(match)
        if moved or pending or open_matches:
            log.info("Army: moved %d deadlines, %d matches with events to show, %d open", len(moved), len(pending),
                     len(open_matches))

    # --- timers and showing ------------------------------------------------------------------------------
    def arm(self, match: MatchRecord) -> None:
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
        update = await self.service.deadline_due(match_id)
        if update is not None:
            self.after(update)
            return
        match = await self.service.get_match(match_id)
        if match.is_open and match.deadline_at is not None and match.deadline_at > self.bot.clock():
            self.arm(match)

    def after(self, update: MatchUpdate) -> None:
        self.arm(update.match)
        if update.events:
            self.presenter.show(update.match.id)

    # --- helpers -----------------------------------------------------------------------------------------
    @staticmethod
    async def tell(interaction: discord.Interaction, text: str) -> None:
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
                match = await self.service.get_match(match_id)
            except service_errors.MatchNotFound as error:
                await self.tell(interaction, str(error))
                return False
            if match.game != GAME:
                await self.tell(interaction, str(service_errors.MatchNotFound(match_id)))
                return False
            players = self._players[match_id] = match.user_ids
            while len(self._players) > PLAYERS_CACHED:
                self._players.popitem(last=False)
        if interaction.user.id not in players:
            await self.tell(interaction, str(service_errors.NotYourMatch()))
            return False
        self.presenter.remember_name(interaction.guild_id, interaction.user)
        return True

    # --- buttons -----------------------------------------------------------------------------------------
    async def on_challenge_button(self, interaction: discord.Interaction, match_id: int, action: str) -> None:
        method = {"accept": self.service.accept, "decline": self.service.decline,
                  "withdraw": self.service.withdraw}[action]
        async with self.answer(interaction) as answer:
            try:
                update = await method(match_id, interaction.user.id)
            except USER_ERRORS as error:
                await answer.tell(str(error))
                return
            try:
                await answer.acknowledge()
            finally:
                self.after(update)

    async def on_panel_button(self, interaction: discord.Interaction, match_id: int, step: int, key: str) -> None:
        user_id = interaction.user.id
        service = self.service
        update: MatchUpdate | None = None
        async with self.answer(interaction) as answer:
            try:
                async with self.presenter.panel_lock(match_id, user_id):
                    try:
                        if key.startswith("army:"):
                            update = await service.tap(match_id, user_id, step, key.removeprefix("army:"))
                        elif key.startswith("play:"):
                            update = await service.pick(match_id, user_id, step, key.removeprefix("play:"))
                        else:
                            action = {"undo": service.undo, "reset": service.reset,
                                      "dealt": service.as_drawn, "confirm": service.confirm}[key]
                            update = await action(match_id, user_id, step)
                        panel = await service.panel_for(match_id, user_id, step)
                    except USER_ERRORS as error:
                        await answer.tell(str(error))
                        return
                    await answer.edit(**self.presenter.panel_kwargs(update.match, panel))
            finally:
                if update is not None:
                    self.after(update)

    async def on_open_panel(self, interaction: discord.Interaction, match_id: int, step: int) -> None:
        async with self.answer(interaction, thinking=True, ephemeral=True) as answer:
            try:
                panel = await self.service.open_panel(match_id, interaction.user.id, step)
                match = await self.service.get_match(match_id)
            except USER_ERRORS as error:
                await answer.tell(str(error))
                return
            surface = render.panel(panel, mentions(match))
            kwargs = message_kwargs(surface, extra=self.presenter.panel_footer(match), colour=COLOUR,
                                    view=panel_view(match_id, step, surface))
            del kwargs["files"]
            await answer.send(ephemeral=True, **kwargs)

    async def on_forfeit_button(self, interaction: discord.Interaction, match_id: int, answer_: str) -> None:
        async with self.answer(interaction) as answer:
            if answer_ == "no":
                await answer.edit(content="Good: the match goes on.", view=None)
                return
            try:
                update = await self.service.forfeit(match_id, interaction.user.id)
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

    # --- commands ----------------------------------------------------------------------------------------
    @army.command(name="challenge", description="Challenge someone in this server to a game of Army")
    @app_commands.describe(
        opponent="Who to challenge",
        timer="Seconds for each choice (the armies, each card), 30 to 600 (default: this server's timer)",
        rounds="Rounds before the game stops and the stamina left decides (default: this server's, else 300)",
    )
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member | discord.User,
        timer: app_commands.Range[int, ARRANGE_SECONDS_RANGE[0], ARRANGE_SECONDS_RANGE[1]] | None = None,
        rounds: app_commands.Range[int, MAX_ROUNDS_RANGE[0], MAX_ROUNDS_RANGE[1]] | None = None,
    ) -> None:
        user = interaction.user
        assert interaction.guild_id is not None and interaction.channel_id is not None
        refusal = await start_refusal(self.bot, interaction)
        if refusal is not None:
            await self.tell(interaction, refusal)
            return
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
        try:
            await self.service.check_challenge(user.id, opponent.id, GAME)
        except USER_ERRORS as error:
            await self.tell(interaction, str(error))
            return
        rules = await settings_service(self.bot).rules_for(interaction.guild_id, GAME,
                                                           {} if rounds is None else {"max_rounds": rounds})
        async with self.answer(interaction, thinking=True) as answer:
            try:
                update = await self.service.challenge(
                    interaction.guild_id, interaction.channel_id, user.id, opponent.id, game=GAME, rules=rules,
                    arrange_seconds=timer, challenger_name=user.display_name, opponent_name=opponent.display_name,
                )
            except USER_ERRORS as error:
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
                await self.service.set_challenge_message(match.id, message_id)
                if update.events:
                    await self.service.mark_shown(match.id, update.events[-1].seq)
            finally:
                self.after(update)

    @staticmethod
    def _missing_permissions(interaction: discord.Interaction) -> str:
        perms = interaction.app_permissions
        in_thread = isinstance(interaction.channel, discord.Thread)
        needed = [("Send Messages", perms.send_messages_in_threads if in_thread else perms.send_messages),
                  ("Embed Links", perms.embed_links)]
        return ", ".join(name for name, ok in needed if not ok)

    @army.command(name="forfeit", description="Give up your Army match (your opponent wins)")
    async def forfeit(self, interaction: discord.Interaction) -> None:
        async with self.answer(interaction, thinking=True, ephemeral=True) as answer:
            try:
                match = await self.service.forfeit_target(interaction.user.id, GAME)
            except USER_ERRORS as error:
                await answer.tell(str(error))
                return
            seat = match.seat_of(interaction.user.id)
            assert seat is not None
            other = match.user_ids[1 - seat]
            await answer.send(f"Forfeit your {render.TITLE} match against <@{other}>? <@{other}> wins and the "
                              "result is recorded.", view=forfeit_view(match.id), ephemeral=True)

    @army.command(name="status", description="Your Army match: the stamina, your armies and your hand")
    async def status(self, interaction: discord.Interaction) -> None:
        async with self.answer(interaction, thinking=True, ephemeral=True) as answer:
            try:
                status = await self.service.status(interaction.user.id, GAME)
            except USER_ERRORS as error:
                await answer.tell(str(error))
                return
            match, seat = status.match, status.seat
            other = match.user_ids[1 - seat]
            if status.view is None or status.panel is None:
                expires = f"; it expires {timestamp(match.deadline_at)}" if match.deadline_at else ""
                if seat == 0:
                    text = (f"Your {render.TITLE} challenge to <@{other}> is waiting for an answer{expires}. "
                            "You can withdraw it on the challenge message.")
                else:
                    text = (f"<@{other}> challenged you to {render.TITLE}{expires}. Accept or decline it on the "
                            "challenge message.")
                await answer.tell(text)
                return
            panel = status.panel
            text = render.status(status.view, mentions(match), deadline=panel.deadline_at, draft=panel.draft,
                                 step=panel.step)
            text = clamp(f"{text}\nThe match: <#{match.play_channel_id}>")
            if not panel.locked and not panel.finished:
                await answer.send(text, view=open_panel_view(match.id, panel.step), ephemeral=True)
            else:
                await answer.tell(text)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(ArmyCog(bot))  # type: ignore[arg-type]
