"""`/airwar challenge|lobby|forfeit|status` and every Air War button: the Discord face of Air War's match service, on
the kit's match cog (:mod:`cogs.kit.match_cog`: the buttons' handlers, timers, restarts, the challenge, forfeit and
status are every game's); this module holds Air War's commands, their options, its presenter and its words.

Everything public -- boards, flips, notes, results, DMs -- is shown by the presenter (:mod:`cogs._airwar_presenter`)
in a background task per match, never inside an interaction. Buttons are :mod:`cogs._airwar_ui`'s dynamic items
(custom ids ``aw:c:…``, ``aw:l:…``, ``aw:p:…``, ``aw:open:…``, ``aw:ff:…``); they keep working after a restart.
"""

from __future__ import annotations

import asyncio
import logging
from types import MappingProxyType

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.airwar import PLUGIN, practice, render
from bot.i18n import Texts, texts
from bot.match.kernel import ARRANGE_SECONDS_RANGE, OPPONENT_OPTION, MatchStatus, MatchUpdate
from bot.render.common import ENGLISH
from bot.services import USER_ERRORS
from bot.services.settings import SettingsService
from bot.storage.records import MatchRecord, Status
from cogs._airwar_presenter import AirWarPresenter
from cogs._airwar_ui import BUTTONS, COG_NAME, HINT_KEY
from cogs._match_common import mentions
from cogs.kit.choices import plugin_choices
from cogs.kit.match_cog import DRAFT_ACTIONS, MatchCog
from cogs.kit.messages import NO_MENTIONS, nonce, private_words, said

log = logging.getLogger(__name__)

#: a match against the bot that ended at most this long before a start still gets its accuracy posted then
ACCURACY_LATE = 3600.0

ACES = plugin_choices(PLUGIN, "aces")
DECKS = plugin_choices(PLUGIN, "deck")
LEVELS = [app_commands.Choice(name="expert: the equilibrium, leaning on the habits you show", value="expert"),
          app_commands.Choice(name="hard (default): the engagement's equilibrium", value="hard"),
          app_commands.Choice(name="medium: greedy, beats the order as drawn", value="medium"),
          app_commands.Choice(name="easy: a random order", value="easy")]


class AirWarCog(MatchCog, name=COG_NAME):
    game = "airwar"
    presenter_class = AirWarPresenter
    buttons = BUTTONS
    panel_actions = MappingProxyType({**DRAFT_ACTIONS, "card:": "tap", "random": "random_order", "drawn": "as_drawn"})

    def __init__(self, bot: commands.Bot) -> None:
        super().__init__(bot)
        self._accuracy_tasks: set[asyncio.Task[None]] = set()
        self._accuracy_matches: set[int] = set()  # whose accuracy is being posted

    airwar = app_commands.Group(name="airwar", description="Air War: a card battle for 2-4 pilots", guild_only=True)

    # --- commands --------------------------------------------------------------------------------------
    @airwar.command(name="challenge", description="Challenge someone in this server to a game of Air War")
    @app_commands.describe(
        opponent="Who to challenge (me, the bot, for an unrated practice match)",
        aces="Aces high (default) or low",
        deck="Each player's deck (default: standard, 52 cards)",
        stack="Cards in each engagement's stack, 3 to 7 (default 5)",
        timer="Seconds to arrange each stack, 30 to 600 (default: this server's timer)",
        level="Against me: how well I play (default hard)",
    )
    @app_commands.choices(aces=ACES, deck=DECKS, level=LEVELS)
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member | discord.User,
        aces: app_commands.Choice[str] | None = None,
        deck: app_commands.Choice[str] | None = None,
        stack: app_commands.Range[int, 3, 7] | None = None,
        timer: app_commands.Range[int, ARRANGE_SECONDS_RANGE[0], ARRANGE_SECONDS_RANGE[1]] | None = None,
        level: app_commands.Choice[str] | None = None,
    ) -> None:
        rules = {key: value for key, value in (("aces", aces and aces.value), ("deck", deck and deck.value),
                                                ("stack", stack)) if value is not None}
        await self.start_challenge(interaction, opponent, rules=rules, timer=timer, level=level and level.value)

    @airwar.command(name="lobby", description="Open a game of Air War for 3-4 players that anyone here can join")
    @app_commands.describe(aces="Aces high (default) or low", deck="Each player's deck (default: standard, 52 cards)",
                           stack="Cards in each engagement's stack, 3 to 7 (default 5)",
                           level="I take a seat myself and play at this level (an unrated game)")
    @app_commands.choices(aces=ACES, deck=DECKS, level=LEVELS)
    async def lobby(self, interaction: discord.Interaction, aces: app_commands.Choice[str] | None = None,
                    deck: app_commands.Choice[str] | None = None,
                    stack: app_commands.Range[int, 3, 7] | None = None,
                    level: app_commands.Choice[str] | None = None) -> None:
        given = {key: value for key, value in (("aces", aces and aces.value), ("deck", deck and deck.value),
                                               ("stack", stack)) if value is not None}
        if await self.refuse_channel(interaction):
            return
        server = await self.server_for_start(interaction, self.service.check_player(interaction.user.id))
        if server is None:
            return
        await self.issue_lobby(interaction, game=self.game, rules=SettingsService.rules_from(server, self.game, given),
                               pace=None, level=level and level.value)

    async def on_lobby_button(self, interaction: discord.Interaction, match_id: int, action: str) -> None:
        """A lobby starts with three or four players (two play a challenge)."""
        if action == "start":
            match = await self.service.get_match(match_id)
            if match.status == "challenge" and match.options.get("lobby") and len(match.seats) < 3 \
                    and match.seats[0].user_id == interaction.user.id:
                _ = private_words(interaction)
                await self.tell(interaction, _.ngettext(
                    "A {game} lobby starts with 3 or 4 players: wait for {count} more to join (two play a "
                    "`/airwar challenge`).",
                    "A {game} lobby starts with 3 or 4 players: wait for {count} more to join (two play a "
                    "`/airwar challenge`).", 3 - len(match.seats), game=_(render.TITLE)))
                return
        await super().on_lobby_button(interaction, match_id, action)

    # --- private answers, in the asker's language (``say``) ---------------------------------------------
    def forfeited_text(self, match: MatchRecord, user_id: int, *, say: Texts = ENGLISH) -> str:
        if len(match.seats) == 2:
            return super().forfeited_text(match, user_id, say=say)
        _ = say
        winner = (match.result or {}).get("winner") if match.status == "finished" else None
        winner_mention = "" if winner is None else f"<@{match.user_ids[winner]}>"
        wins = _("{player} wins.", player=winner_mention) if winner is not None else _("The others play on.")
        return "🏳️ " + _("You forfeited your {game} match: you are out.", game=_(render.TITLE)) + " " + wins

    async def forfeit_question(self, match: MatchRecord, seat: int, *, say: Texts = ENGLISH) -> str:
        if len(match.seats) == 2:
            return await super().forfeit_question(match, seat, say=say)
        _ = say
        where = f"<#{match.play_channel_id}>"
        return _("Forfeit your {game} match in {channel}? You are out at once and the others play on; the last one "
                 "standing wins.", game=_(render.TITLE), channel=where)

    @airwar.command(name="forfeit", description="Give up your Air War match (your opponent wins)")
    async def forfeit(self, interaction: discord.Interaction) -> None:
        await self.ask_forfeit(interaction)

    @airwar.command(name="status", description="Your Air War match: the stacks, the counts and what is known")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.show_status(interaction)  # refused while flips are to be shown

    # --- against the bot: the hint and the accuracy ------------------------------------------------------
    async def on_panel_button(self, interaction: discord.Interaction, match_id: int, step: int, key: str) -> None:
        if key == HINT_KEY:
            await self.show_hint(interaction, match_id, step)
        else:
            await super().on_panel_button(interaction, match_id, step, key)

    async def show_hint(self, interaction: discord.Interaction, match_id: int, step: int) -> None:
        """The equilibrium's advice for the presser's stack, privately (from public facts only)."""
        _ = private_words(interaction)
        async with self.answer(interaction, thinking=True, ephemeral=True) as answer:
            try:
                panel = await self.service.panel_for(match_id, interaction.user.id, step)
            except USER_ERRORS as error:
                await answer.tell(said(error, interaction))
                return
            if panel.view is None or panel.locked or panel.ended or panel.deadline_at is None:
                await answer.tell(_("Engagement {number} is not yours to order any more: no hint for it.",
                                    number=step))
                return
            match = await self.service.get_match(match_id)
            if not match.options.get(OPPONENT_OPTION) or match.options.get("tournament") or len(match.seats) != 2:
                await answer.tell(_("Hints are for practice against me only."))
                return
            data = await self.bot.thinking.run("bot.ai.review:hint_data", panel.view, panel.seat, list(panel.draft))
            await answer.tell(practice.hint(step, data, _))

    def after(self, update: MatchUpdate) -> None:
        super().after(update)
        if update.finished and self.service.owns(update.match.guild_id):
            self._accuracy_if_due(update.match)

    def changed_elsewhere(self, match: MatchRecord) -> None:
        super().changed_elsewhere(match)
        if match.status == Status.FINISHED:
            self._accuracy_if_due(match)

    def _accuracy_if_due(self, match: MatchRecord) -> None:
        if match.options.get(OPPONENT_OPTION) and "accuracy" not in match.messages:
            self._accuracy_later(match.id)

    async def resume(self) -> None:
        """After a start: the accuracy of a match against the bot that ended in the last hour and never got one
        (the bot stopped before it was posted) is posted now."""
        await super().resume()
        for match_id in await self.service.finished_against_the_bot_without("accuracy",
                                                                             self.bot.clock() - ACCURACY_LATE):
            if self.service.owns((await self.service.get_match(match_id)).guild_id):
                self._accuracy_later(match_id)

    def _accuracy_later(self, match_id: int) -> None:
        if match_id in self._accuracy_matches:
            return
        self._accuracy_matches.add(match_id)
        task = asyncio.get_running_loop().create_task(self._post_accuracy(match_id),
                                                      name=f"airwar-accuracy-{match_id}")
        self._accuracy_tasks.add(task)
        task.add_done_callback(self._accuracy_tasks.discard)
        task.add_done_callback(lambda _: self._accuracy_matches.discard(match_id))

    async def cog_unload(self) -> None:
        """Closing: an accuracy still being worked out is dropped (the bot is leaving the channel anyway; a start
        within :data:`ACCURACY_LATE` posts it)."""
        tasks = list(self._accuracy_tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await super().cog_unload()

    async def _post_accuracy(self, match_id: int) -> None:
        """After a match against the bot, in its thread (once the result is shown): each player's accuracy and the
        costliest engagement."""
        try:
            match = await self.service.get_match(match_id)
            if len(match.seats) != 2 or "accuracy" in match.messages:  # the accuracy is a two-player measure
                return
            export = await self.service.export(match_id)
            summary = await self.bot.thinking.run("bot.ai.review:summary", export)
            for _ in range(600):  # the result first
                if not await self.service.unshown_events(match_id):
                    break
                await asyncio.sleep(0.05)
            match = await self.service.get_match(match_id)
            if "accuracy" in match.messages:  # posted meanwhile
                return
            channel = self.bot.get_channel(match.play_channel_id)
            if channel is None:
                return
            # with the message's nonce: posted again after a crash before its id was stored, it is not doubled
            say = texts(await self.presenter.language(match))  # (posted in the match: the server's language)
            message = await channel.send(practice.accuracy(summary, mentions(match), say),
                                         allowed_mentions=NO_MENTIONS, nonce=nonce(match, "accuracy", channel.id))
            await self.service.set_message(match_id, "accuracy", message.id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("Air War match %s: the accuracy could not be posted", match_id)

    def status_text(self, status: MatchStatus, *, say: Texts = ENGLISH) -> str:
        panel = status.panel
        return render.status(status.view, mentions(status.match), deadline=panel.deadline_at, draft=panel.draft,
                             say=say)


async def setup(bot: commands.Bot) -> None:
    bot.route_clicks(*BUTTONS.items)
    await bot.add_cog(AirWarCog(bot))
