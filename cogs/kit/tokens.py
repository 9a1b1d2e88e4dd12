"""Interaction-token delivery: how a match is shown where the bot is no member (a DM, a group DM, a server that did
not add it, reached through a user's install of the app).

There the bot cannot post, make threads or read the channel: the only way in is an interaction's token, which lets
it answer and edit the application's messages in the interaction's channel for 15 minutes (:data:`TOKEN_LIFE`), with
at most 5 followups. So such a match is one message, the answer to the challenge command (the *table*): every
message the presenter would post where the match is played becomes an edit of the table, made with the newest token
heard in its channel (each click's own: :meth:`InteractionDelivery.heard`); the players' panels open privately from
the table's button (never by DM); plain notes (a time-out, a moved deadline) are left out: the table shows the match
as it goes on.

Paced steps (flips, War's auto pace) and deadlines go on while a token is fresh. A minute before the newest token of
a channel runs out (:data:`PAUSE_MARGIN`), each open match there is *paused*: its table gets a line saying so and a
**Continue** button (:meth:`InteractionDelivery.pause_channel`); nothing more is played or shown (a deadline that
comes meanwhile waits: :meth:`InteractionDelivery.holds`). The next click in the channel -- Continue or any other
button of the match -- brings a fresh token: the match resumes (:meth:`InteractionDelivery.resume`): the line and the
button go, the deadlines that passed meanwhile are applied and what is unshown is shown, as after a restart.

Tokens live in memory only: after a restart a match waits for its next click the same way.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context

from bot.i18n import N_, texts
from bot.storage.records import MatchRecord
from cogs.kit.layout import as_layout
from cogs.kit.messages import NO_MENTIONS
from cogs.kit.places import by_interactions

log = logging.getLogger("cogs.kit")

#: the per-match option (``matches.options``) of a match shown through interaction tokens
BY_INTERACTIONS = "by_interactions"
#: how long Discord lets an interaction's token answer, edit and follow up (seconds)
TOKEN_LIFE = 15 * 60.0
#: seconds before the newest token's end at which the channel's matches pause (their tables say so while they can)
PAUSE_MARGIN = 60.0
#: a token older than this is not used: a request made with it could arrive after its end
USABLE_FOR = TOKEN_LIFE - PAUSE_MARGIN / 2
#: the interactions whose token can edit and follow up (an autocomplete's can only suggest)
CAN_EDIT = frozenset({discord.InteractionType.application_command, discord.InteractionType.component,
                      discord.InteractionType.modal_submit})
IS_COMPONENTS_V2 = 1 << 15
TEXT_DISPLAY, ACTION_ROW, BUTTON, PRIMARY = 10, 1, 2, 1
#: the custom id of a paused match's Continue button
CONTINUE_PREFIX = "continue:"
PAUSED = N_("⏸️ Paused: Discord lets me update this message only for 15 minutes after the last click. Press "
            "**Continue** to go on; nothing is lost.")
CONTINUE = N_("Continue")


def delivered_by_interactions(match: MatchRecord) -> bool:
    """Whether the match is shown through interaction tokens (it is played where the bot is no member)."""
    return bool(match.options.get(BY_INTERACTIONS))


class TokensExpired(discord.Forbidden):
    """No token of the channel is fresh enough to use: what would be shown waits for the next click (the presenter
    treats it as a refusal: the event stays unshown)."""

    def __init__(self, channel_id: int) -> None:
        response = SimpleNamespace(status=401, reason="interaction tokens expired")
        super().__init__(response, {"code": 50027, "message": f"no fresh interaction token in channel {channel_id}"})


@dataclass(frozen=True, slots=True)
class Heard:
    """What the bot keeps of the newest interaction heard in a channel: its token (with its application and the
    HTTP session that answers it), and when it came (the bot's clock). Not the interaction: that would keep its
    message and every component of it alive as long as the channel is known."""

    application_id: int
    token: str
    session: Any
    at: float


def interaction_delivery(bot: Any) -> InteractionDelivery:
    """The bot's one :class:`InteractionDelivery` (made at the first need: the cogs that use it load in any order)."""
    delivery = getattr(bot, "interaction_delivery", None)
    if delivery is None:
        delivery = bot.interaction_delivery = InteractionDelivery(bot)
    return delivery


class InteractionDelivery:
    """The newest interaction token of each channel where the bot is no member, the matches shown there, and which
    of them are paused. See the module docstring."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self._newest: dict[int, Heard] = {}
        #: channel id -> {match id: game} of the open matches shown there, and each one's channel
        self._matches: dict[int, dict[int, str]] = {}
        self._channel_of: dict[int, int] = {}
        #: match id -> its channel id, for each paused match
        self.paused: dict[int, int] = {}
        #: the paused matches whose table says so (with its Continue button)
        self._marked: set[int] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    # --- hearing tokens ----------------------------------------------------------------------------------
    def heard(self, interaction: discord.Interaction) -> None:
        """An interaction came (a command, a click): where the bot is no member its token is the channel's newest;
        the channel's matches pause a minute before it runs out, and those paused resume now."""
        channel_id = interaction.channel_id
        if channel_id is None or interaction.type not in CAN_EDIT or not by_interactions(interaction):
            return
        now = self.bot.clock()
        known = self._newest.get(channel_id)
        if known is not None and known.at > now:
            return
        self._newest[channel_id] = Heard(interaction.application_id, interaction.token, interaction._session, now)
        self.bot.timers.arm(("pause", channel_id), now + TOKEN_LIFE - PAUSE_MARGIN,
                            functools.partial(self.pause_channel, channel_id))
        waiting = [match_id for match_id, channel in self.paused.items() if channel == channel_id]
        for match_id in waiting:
            self._spawn(self.resume(match_id), f"resume-{match_id}")

    def serves(self, channel_id: int) -> bool:
        """Whether what is shown in the channel goes through interaction tokens."""
        return channel_id in self._newest or channel_id in self._matches

    def pausing(self, channel_id: int) -> bool:
        """Whether the channel's matches are to pause: no token heard there, or the newest is less than
        :data:`PAUSE_MARGIN` from its end (what a step would show could not be shown in time)."""
        heard = self._newest.get(channel_id)
        return heard is None or self.bot.clock() >= heard.at + TOKEN_LIFE - PAUSE_MARGIN

    def fresh(self, channel_id: int) -> Heard | None:
        """The channel's newest token while it may still be used (``None``: none is)."""
        heard = self._newest.get(channel_id)
        if heard is None or self.bot.clock() - heard.at > USABLE_FOR:
            return None
        return heard

    def track(self, match: MatchRecord) -> None:
        """A match shown through tokens, as it stands: kept while open (its channel's pause concerns it)."""
        if not delivered_by_interactions(match):
            return
        in_channel = self._matches.setdefault(match.channel_id, {})
        if match.is_open:
            in_channel[match.id] = match.game
            self._channel_of[match.id] = match.channel_id
            return
        in_channel.pop(match.id, None)
        self._channel_of.pop(match.id, None)
        self.paused.pop(match.id, None)
        self._marked.discard(match.id)
        if not in_channel:
            del self._matches[match.channel_id]

    def tracks(self, match_id: int) -> bool:
        """Whether the match is one shown through tokens that this process knows (:meth:`track`)."""
        return match_id in self._channel_of

    def holds(self, match: MatchRecord) -> bool:
        """Whether the match waits for a click before anything more is played (a deadline, a paced step): it is
        paused, or its channel's tokens are running out (:meth:`pausing`: it is paused now)."""
        if not delivered_by_interactions(match):
            return False
        if match.id in self.paused:
            return True
        if self.pausing(match.channel_id):
            log.info("match %s: its interaction tokens in channel %s run out; paused until the next click", match.id,
                     match.channel_id)
            self.track(match)
            self.paused[match.id] = match.channel_id
            return True
        return False

    # --- showing -----------------------------------------------------------------------------------------
    async def edit(self, channel_id: int, message_id: int, **kwargs: Any) -> dict[str, Any]:
        """Edit the application's message in the channel with its newest token (``kwargs``: an edit's, laid out
        already); Discord's payload of the message. :class:`TokensExpired`: no token is fresh."""
        heard = self._token(channel_id)
        state = self.bot._connection
        with handle_message_parameters(previous_allowed_mentions=state.allowed_mentions, **kwargs) as params:
            return await async_context.get().edit_webhook_message(
                heard.application_id, heard.token, message_id, session=heard.session,
                proxy=state.http.proxy, proxy_auth=state.http.proxy_auth, payload=params.payload,
                multipart=params.multipart, files=params.files)

    async def post(self, channel_id: int, **kwargs: Any) -> dict[str, Any]:
        """A new message in the channel, as a followup with its newest token (a match whose table's id was
        lost, the accuracy after a practice match); Discord's payload of it."""
        heard = self._token(channel_id)
        state = self.bot._connection
        with handle_message_parameters(previous_allowed_mentions=state.allowed_mentions, **kwargs) as params:
            return await async_context.get().execute_webhook(
                heard.application_id, heard.token, session=heard.session,
                proxy=state.http.proxy, proxy_auth=state.http.proxy_auth, payload=params.payload,
                multipart=params.multipart, files=params.files, wait=True)

    async def fetch(self, channel_id: int, message_id: int) -> discord.Message:
        """The application's message in the channel, read with its newest token."""
        heard = self._token(channel_id)
        data = await async_context.get().get_webhook_message(
            heard.application_id, heard.token, message_id, session=heard.session,
            proxy=self.bot.http.proxy, proxy_auth=self.bot.http.proxy_auth)
        return self.message(channel_id, data)

    def message(self, channel_id: int, data: dict[str, Any]) -> discord.Message:
        """A message payload as discord.py's message."""
        channel = self.bot.get_partial_messageable(channel_id)
        return discord.Message(state=self.bot._connection, channel=channel, data=data)  # type: ignore[arg-type]

    async def replace(self, match: MatchRecord, channel_id: int, **kwargs: Any) -> discord.Message:
        """What the presenter would post where the match is played, shown as the match's table (its one message):
        edited, or posted as a followup when the match has none. A plain note (no buttons, no picture, no embed)
        is left out: the table keeps showing the match."""
        table_id = match.challenge_message_id
        plain = not kwargs.get("view") and not kwargs.get("embed") and not kwargs.get("embeds") \
            and not kwargs.get("files")
        if table_id is not None and plain:
            return await self.fetch(channel_id, table_id)
        if table_id is None:
            return self.message(channel_id, await self.post(channel_id, **as_layout(kwargs, edit=False)))
        kwargs = {"allowed_mentions": NO_MENTIONS, **kwargs}
        if "files" in kwargs:
            kwargs["attachments"] = kwargs.pop("files")
        return self.message(channel_id, await self.edit(channel_id, table_id, **as_layout(kwargs, edit=True)))

    def _token(self, channel_id: int) -> Heard:
        heard = self.fresh(channel_id)
        if heard is None:
            raise TokensExpired(channel_id)
        return heard

    # --- pausing and resuming ----------------------------------------------------------------------------
    async def pause_channel(self, channel_id: int) -> None:
        """The channel's newest token is about to run out: each open match there pauses, its table saying so (with
        a Continue button) while the token can still edit it. A channel with no match shown in it is forgotten (a
        player's DM with the bot, say: the next click there is heard again)."""
        if not self._matches.get(channel_id):
            self._newest.pop(channel_id, None)
            return
        for match_id, game in list(self._matches.get(channel_id, {}).items()):
            try:
                match = await self.bot.service_for(game).get_match(match_id)
                self.track(match)
                if not match.is_open or match_id in self._marked:
                    continue
                self.paused[match_id] = channel_id
                if match.challenge_message_id is not None:
                    await self._mark(match, paused=True)
                    self._marked.add(match_id)
            except discord.HTTPException as error:
                log.info("match %s: could not show that it is paused: %s", match_id, error)

    async def resume(self, match_id: int) -> None:
        """A click brought a fresh token: the paused match's table loses its pause line, and the match goes on as
        after a restart: its deadlines (those that passed meanwhile at once) and paced steps armed again, what is
        unshown shown."""
        channel_id = self.paused.pop(match_id, None)
        game = self._matches.get(channel_id or 0, {}).get(match_id)
        if channel_id is None or game is None:
            return
        try:
            match = await self.bot.service_for(game).get_match(match_id)
            if match_id in self._marked and match.challenge_message_id is not None:
                self._marked.discard(match_id)
                await self._mark(match, paused=False)
        except discord.HTTPException as error:
            log.info("match %s: could not take its pause line away: %s", match_id, error)
            match = await self.bot.service_for(game).get_match(match_id)
        display = self.bot.displays.get(game)
        if display is not None:
            display.changed_elsewhere(match)

    async def _mark(self, match: MatchRecord, *, paused: bool) -> None:
        """The table with (``paused``) or without the pause line and its Continue button; the rest as it is."""
        assert match.challenge_message_id is not None
        heard = self._token(match.channel_id)
        adapter = async_context.get()
        http = self.bot.http
        shown = await adapter.get_webhook_message(heard.application_id, heard.token,
                                                  match.challenge_message_id, session=heard.session,
                                                  proxy=http.proxy, proxy_auth=http.proxy_auth)
        components = [c for c in shown.get("components") or [] if not _is_pause_part(c)]
        v2 = bool(int(shown.get("flags") or 0) & IS_COMPONENTS_V2)
        payload: dict[str, Any] = {"allowed_mentions": {"parse": []}}
        if paused:
            _ = texts(await self._language(match))
            button = {"type": BUTTON, "style": PRIMARY, "label": _(CONTINUE),
                      "custom_id": f"{CONTINUE_PREFIX}{match.id}"}
            line = _(PAUSED)
            if v2:
                components += [{"type": TEXT_DISPLAY, "content": line}]
            else:
                payload["content"] = f"{shown.get('content') or ''}\n{line}".strip()
            components += [{"type": ACTION_ROW, "components": [button]}]
        elif not v2:
            payload["content"] = "\n".join(part for part in (shown.get("content") or "").split("\n")
                                           if not part.startswith("⏸️"))
        payload["components"] = components
        await adapter.edit_webhook_message(heard.application_id, heard.token, match.challenge_message_id,
                                           session=heard.session, proxy=http.proxy,
                                           proxy_auth=http.proxy_auth, payload=payload)

    async def _language(self, match: MatchRecord) -> str:
        from cogs.kit.stats_ui import settings_service

        return await settings_service(self.bot).language(match.guild_id)

    def _spawn(self, work: Any, name: str) -> None:
        task = asyncio.get_running_loop().create_task(work, name=f"tokens-{name}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


def _is_pause_part(component: dict[str, Any]) -> bool:
    """The pause line or the row of its Continue button."""
    if component.get("type") == TEXT_DISPLAY:
        return str(component.get("content", "")).startswith("⏸️")
    return any(str(child.get("custom_id", "")).startswith(CONTINUE_PREFIX)
               for child in component.get("components") or [])


__all__ = ["BY_INTERACTIONS", "CONTINUE_PREFIX", "InteractionDelivery", "TokensExpired", "delivered_by_interactions",
           "interaction_delivery"]
