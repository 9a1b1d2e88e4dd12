"""A match against the bot, on any game's match cog: in practice (not a tournament's game) the panel's **Hint**
button (the best play and why, privately); after any two-player match against it, the accuracy of its human player
(never the bot's) in the match.

A game's cog mixes in :class:`PracticeCog` and says where its words come from: :attr:`PracticeCog.hint_target` and
:attr:`PracticeCog.review_target` (``"module:function"``, run in the thinking process: a solve can take a second),
:meth:`PracticeCog.hint_text` and :attr:`PracticeCog.review_unit`; its presenter adds the button with
:func:`with_hint`. The panel's key regex must take :data:`HINT_KEY`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Mapping
from typing import Any

import discord

from bot.i18n import Texts, texts
from bot.match.kernel import OPPONENT_OPTION
from bot.render import practice
from bot.render.common import ENGLISH, Button, ButtonSurface
from bot.services import USER_ERRORS
from bot.storage.records import MatchRecord, Status
from cogs.kit.match_common import mentions
from cogs.kit.messages import NO_MENTIONS, nonce, private_words, said
from cogs.kit.presenter import program_seats
from cogs.kit.tokens import delivered_by_interactions

log = logging.getLogger(__name__)

#: the panel's Hint button's key (a practice match only)
HINT_KEY = "hint"
#: a match against the bot that ended at most this long before a start still gets its accuracy posted then
ACCURACY_LATE = 3600.0


def is_practice(match: MatchRecord) -> bool:
    """A two-player match against the bot outside a tournament: it gets a Hint button and an accuracy."""
    return bool(match.options.get(OPPONENT_OPTION)) and not match.options.get("tournament") and len(match.seats) == 2


def graded(match: MatchRecord) -> bool:
    """A two-player match against the bot (a tournament's too): its human player gets an accuracy after it."""
    return bool(match.options.get(OPPONENT_OPTION)) and len(match.seats) == 2


def with_hint(match: MatchRecord, surface: ButtonSurface, say: Texts = ENGLISH) -> ButtonSurface:
    """A panel with its buttons gets **Hint** in a practice match (:func:`is_practice`), on a row of its own."""
    if not is_practice(match) or not surface.buttons:
        return surface
    _ = say
    row = max(button.row for button in surface.buttons) + 1
    hint = Button(HINT_KEY, "💡 " + _("Hint"), True, "secondary", row)
    return dataclasses.replace(surface, buttons=[*surface.buttons, hint])


class PracticeCog:
    """The Hint and the accuracy for a :class:`~cogs.kit.match_cog.MatchCog` (mixed in before it)."""

    hint_target: str
    review_target: str
    #: what the accuracy calls one step: ``engagement`` or ``round``
    review_unit: str

    bot: Any
    service: Any

    def __init__(self, bot: Any) -> None:
        super().__init__(bot)  # type: ignore[call-arg]
        self._accuracy_tasks: set[asyncio.Task[None]] = set()
        self._accuracy_matches: set[int] = set()  # whose accuracy is being posted

    def hint_text(self, data: Mapping[str, Any], say: Texts) -> str:
        """The hint's words from :attr:`hint_target`'s data, in ``say``'s language (the asker's)."""
        raise NotImplementedError

    def hint_args(self, panel: Any) -> tuple[Any, ...]:
        """What :attr:`hint_target` is called with: the panel's view and seat."""
        return panel.view, panel.seat

    # --- the hint --------------------------------------------------------------------------------------------
    async def on_panel_button(self, interaction: discord.Interaction, match_id: int, step: int, key: str) -> None:
        if key == HINT_KEY:
            await self.show_hint(interaction, match_id, step)
        else:
            await super().on_panel_button(interaction, match_id, step, key)  # type: ignore[misc]

    async def show_hint(self, interaction: discord.Interaction, match_id: int, step: int) -> None:
        """The best play for the presser's panel, privately (from what the presser may see only)."""
        _ = private_words(interaction)
        async with self.answer(interaction, thinking=True, ephemeral=True) as answer:  # type: ignore[attr-defined]
            try:
                panel = await self.service.panel_for(match_id, interaction.user.id, step)
            except USER_ERRORS as error:
                await answer.tell(said(error, interaction))
                return
            if panel.view is None or panel.locked or panel.ended or panel.deadline_at is None:
                await answer.tell(_("This choice is no longer yours to make: no hint for it."))
                return
            if not is_practice(await self.service.get_match(match_id)):
                await answer.tell(_("Hints are for practice against me only."))
                return
            data = await self.bot.thinking.run(self.hint_target, *self.hint_args(panel))
            await answer.tell(self.hint_text(data, _))

    # --- the accuracy ----------------------------------------------------------------------------------------
    def after(self, update: Any) -> None:
        super().after(update)  # type: ignore[misc]
        if update.finished and self.service.owns(update.match.guild_id):
            self._accuracy_if_due(update.match)

    def changed_elsewhere(self, match: MatchRecord) -> None:
        super().changed_elsewhere(match)  # type: ignore[misc]
        if match.status == Status.FINISHED:
            self._accuracy_if_due(match)

    def _accuracy_if_due(self, match: MatchRecord) -> None:
        if graded(match) and "accuracy" not in match.messages:
            self._accuracy_later(match.id)

    async def resume(self) -> None:
        """After a start: the accuracy of a match against the bot that ended in the last hour and never got one
        (the bot stopped before it was posted) is posted now."""
        await super().resume()  # type: ignore[misc]
        for match_id in await self.service.finished_against_the_bot_without("accuracy",
                                                                             self.bot.clock() - ACCURACY_LATE):
            if self.service.owns((await self.service.get_match(match_id)).guild_id):
                self._accuracy_later(match_id)

    def _accuracy_later(self, match_id: int) -> None:
        if match_id in self._accuracy_matches:
            return
        self._accuracy_matches.add(match_id)
        task = asyncio.get_running_loop().create_task(self._post_accuracy(match_id),
                                                      name=f"accuracy-{match_id}")
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
        await super().cog_unload()  # type: ignore[misc]

    async def _post_accuracy(self, match_id: int) -> None:
        """After a match against the bot, in its thread (once the result is shown): the human player's accuracy and
        costliest step (the bot's own seat is not graded)."""
        try:
            match = await self.service.get_match(match_id)
            if not graded(match) or "accuracy" in match.messages:
                return
            humans = [seat for seat in range(len(match.seats)) if seat not in program_seats(match)]
            export = await self.service.export(match_id)
            summary = await self.bot.thinking.run(self.review_target, export, humans)
            for _ in range(600):  # the result first
                if not await self.service.outbox.unshown_events(match_id):
                    break
                await asyncio.sleep(0.05)
            match = await self.service.get_match(match_id)
            if "accuracy" in match.messages:  # posted meanwhile
                return
            say = texts(await self.presenter.language(match))  # type: ignore[attr-defined]  # (the server's)
            text = practice.accuracy(summary["players"], mentions(match), self.review_unit, say)
            if delivered_by_interactions(match):  # (no posting there: a followup of the players' last click)
                tokens = self.presenter.tokens  # type: ignore[attr-defined]
                sent = await tokens.post(match.play_channel_id, content=text, allowed_mentions=NO_MENTIONS)
                await self.service.outbox.set_message(match_id, "accuracy", int(sent["id"]))
                return
            channel = self.bot.get_channel(match.play_channel_id)
            if channel is None:
                return
            # with the message's nonce: posted again after a crash before its id was stored, it is not doubled
            message = await channel.send(text, allowed_mentions=NO_MENTIONS,
                                         nonce=nonce(match, "accuracy", channel.id))
            await self.service.outbox.set_message(match_id, "accuracy", message.id)
        except asyncio.CancelledError:
            raise
        except discord.HTTPException as error:  # (no fresh token where the bot is no member: it is left out)
            log.info("Match %s: the accuracy could not be posted: %s", match_id, error)
        except Exception:
            log.exception("Match %s: the accuracy could not be posted", match_id)
