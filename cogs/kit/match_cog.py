"""The match cog base: what every secret-choice game's cog does the same way, so a game's own cog holds only its
slash commands (with its own options) and its own words.

The cog translates and nothing more: a command or a click calls the game's match service (built at start-up,
``bot.service_for``), answers within Discord's 3 seconds (a refusal -- any of ``USER_ERRORS`` -- as an ephemeral
message, nothing changed), re-arms the match's deadline timer and asks the presenter to show the events the call
queued. The server's settings decide where a match may start and its rules (the server's defaults for the game,
overridden by the command's own). Buttons are the game's :class:`~cogs.kit.items.MatchButtons`.

Timers: a match's deadline runs on the bot's :class:`~bot.match.timers.Timers`; a step the game's flow plays by
itself (its ``auto_deadline_kind``, War's auto pace) is played after the bot's ``pace_sleep`` instead.

Restarts: once the gateway is ready the bot asks the cog (its display) to move the game's deadlines that passed
while the bot was away, show every one of its matches' unshown events and re-arm each open match's timer
(:meth:`MatchCog.resume`).

A subclass sets ``game``, ``presenter_class``, ``buttons`` and ``panel_actions`` (panel button key, or key prefix
ending in ``:``, -> the match kernel's method it calls: :meth:`MatchKernel.tap`, ``pick``, ``undo``, ``reset``,
``as_drawn``, ``random_order``, ``confirm``), and defines its ``app_commands.Group`` whose commands call
:meth:`start_challenge`, :meth:`ask_forfeit` and :meth:`show_status` (with its :meth:`status_text`). A game with
lobbies gets their buttons handled here (:meth:`MatchCog.on_lobby_button`); one with buttons on a public table
handles them itself
(``on_table_button``, with :meth:`MatchCog.act`). Every game's result has a Rematch button, handled here too
(:meth:`MatchCog.on_rematch_button`: a new challenge, the same game and rules). Its own words go in the hooks:
:meth:`~MatchCog.forfeit_question`, :meth:`~MatchCog.forfeited_text`, :meth:`~MatchCog.kept_playing_text`,
:meth:`~MatchCog.waiting_text`, :meth:`~MatchCog.status_reply`, :meth:`~MatchCog.rematch_spent_text`.

One open match per player and game family, but a challenge its sender made that nobody has answered yet (a
Rematch's too) does not count: their next challenge or lobby withdraws it (:meth:`MatchCog.withdraw_sent_challenge`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

import discord
from discord.ext import commands

from bot.errors import GameError
from bot.i18n import N_, Texts, texts
from bot.match import errors as service_errors
from bot.match.kernel import OPPONENT_OPTION, MatchKernel, MatchStatus, MatchUpdate
from bot.registry import GamePlugin, registry
from bot.render.common import ENGLISH, clamp, timestamp
from bot.services import USER_ERRORS
from bot.services.settings import SettingsService
from bot.storage.records import MatchRecord
from bot.storage.settings import GuildSettings
from cogs.kit.items import MatchButtons, RoutedView
from cogs.kit.layout import shows_buttons
from cogs.kit.match_common import message_link, missing_permissions
from cogs.kit.messages import DEFER_AFTER, NO_MENTIONS, Answer, private_words, said
from cogs.kit.places import NO_EXTERNAL_APPS, by_interactions, external_apps_refused, place_id
from cogs.kit.presenter import Presenter, dm_name
from cogs.kit.stats_ui import settings_service
from cogs.kit.tokens import BY_INTERACTIONS

log = logging.getLogger("cogs.kit")

PLAYERS_CACHED = 4096
#: a panel button's call: the match kernel's method, called ``(kernel, match_id, user_id, step, *item)``
PanelCall = Callable[..., Awaitable[MatchUpdate]]
#: the match kernel's methods that lock in a seat's choice (the step may be played by them)
CHOICES: frozenset[PanelCall] = frozenset({MatchKernel.confirm, MatchKernel.pick})
#: the panel keys of a draft that every drafting game's panel has
DRAFT_ACTIONS: Mapping[str, PanelCall] = MappingProxyType(
    {"undo": MatchKernel.undo, "reset": MatchKernel.reset, "confirm": MatchKernel.confirm})
#: a lobby opened where the bot is no member
LOBBY_NEEDS_SERVER = N_("A {game} lobby works only in a server that added me. Here, challenge one player with "
                        "`challenge`.")
#: the answer to a second click on a question answered already
ANSWERED_ALREADY = N_("You answered this already; nothing more was changed.")


class MatchCog(commands.Cog):
    """See the module docstring."""

    game: ClassVar[str]
    presenter_class: ClassVar[type[Presenter]]
    buttons: ClassVar[MatchButtons]
    panel_actions: ClassVar[Mapping[str, PanelCall]] = MappingProxyType({})

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.service: MatchKernel = bot.service_for(self.game)
        self.presenter = self.make_presenter()
        self.presenter.on_update = self.after  # (a deadline the presenter moved is armed)
        self.defer_after: float = getattr(bot, "defer_after", DEFER_AFTER)
        self._armed: dict[int, float] = {}
        self.pace_sleep = getattr(bot, "pace_sleep", asyncio.sleep)
        #: match id -> (step, task) of the auto-played step waiting for its time
        self._auto: dict[int, tuple[int, asyncio.Task[None]]] = {}
        self._players: OrderedDict[int, tuple[int, ...]] = OrderedDict()
        #: set once the start's resume (the bot's, :meth:`resume`) is over
        self.resumed = asyncio.Event()
        #: matches whose rematch is being made (a second click meanwhile is told so)
        self._rematching: set[int] = set()
        #: forfeit questions (message ids) whose answer is being handled (a second click meanwhile is told so)
        self._answering: set[int] = set()
        #: (match, step) pairs the bot's own seat is choosing for
        self._thinking: set[tuple[int, int]] = set()

    def make_presenter(self) -> Any:
        """The presenter that shows this game's matches."""
        return self.presenter_class(self.bot, self.service)

    @property
    def title(self) -> str:
        return self.presenter.title

    def show(self, match_id: int) -> None:
        """Show the match's unshown events (in the background)."""
        self.presenter.show(match_id)

    def _timer_key(self, match_id: int) -> tuple[str, int]:
        return (self.game, match_id)

    async def cog_load(self) -> None:
        self.bot.displays[self.game] = self

    async def cog_unload(self) -> None:
        if self.bot.displays.get(self.game) is self:
            del self.bot.displays[self.game]
        for match_id in list(self._armed):
            self.bot.timers.cancel(self._timer_key(match_id))
        self._armed.clear()
        tasks = [task for _, task in self._auto.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._auto.clear()
        await self.presenter.close()

    async def resume(self) -> None:
        """After a start (the bot calls it once the gateway is ready): move the deadlines that passed meanwhile,
        show unshown events, re-arm the timers."""
        try:
            moved = await self.service.resume_deadlines()  # before the timers: what passed while away isn't missed
            pending = await self.presenter.show_pending()
            open_matches = await self.service.open_matches()
            for match in open_matches:
                self.arm(match)
                self.think_later(match)
            if moved or pending or open_matches:
                log.info("%s: moved %d deadlines, %d matches with events to show, %d open", self.title, len(moved),
                         len(pending), len(open_matches))
        finally:
            self.resumed.set()

    # --- timers and showing ------------------------------------------------------------------------------
    def arm(self, match: MatchRecord) -> None:
        """Arm (or cancel) the match's timer from its stored deadline; a step the flow plays by itself
        (``auto_deadline_kind``) is played after the bot's pace sleep instead."""
        key = self._timer_key(match.id)
        self.presenter.tokens.track(match)
        auto_kind = self.service.flow.auto_deadline_kind
        auto = bool(auto_kind) and match.is_open and match.deadline_at is not None and match.deadline_kind == auto_kind
        if self._auto and not auto:
            self._stop_auto(match.id)
        if auto or not match.is_open or match.deadline_at is None:
            self.bot.timers.cancel(key)
            self._armed.pop(match.id, None)
            if auto:
                self._play_auto_later(match)
            return
        if self._armed.get(match.id) == match.deadline_at and self.bot.timers.armed(key):
            return
        self._armed[match.id] = match.deadline_at
        self.bot.timers.arm(key, match.deadline_at, functools.partial(self._deadline, match.id))

    def _stop_auto(self, match_id: int) -> None:
        running = self._auto.pop(match_id, None)
        if running is not None and running[1] is not asyncio.current_task():
            running[1].cancel()

    def _play_auto_later(self, match: MatchRecord) -> None:
        step = self.service.flow.due_step(match.step)
        running = self._auto.get(match.id)
        if running is not None and running[0] == step and not running[1].done():
            return
        assert match.deadline_at is not None
        task = asyncio.get_running_loop().create_task(self._play_auto(match.id, step, match.deadline_at),
                                                      name=f"{self.game}-auto-{match.id}")
        self._auto[match.id] = (step, task)

    async def _play_auto(self, match_id: int, step: int, due: float) -> None:
        try:
            await self.pace_sleep(max(0.0, due - self.bot.clock()))
            if await self._held(match_id):
                return  # (paused: played once a click resumes it)
            update = await self.service.auto_step(match_id, step)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("%s match %s: playing step %s failed", self.title, match_id, step)
            return
        finally:
            current = self._auto.get(match_id)
            if current is not None and current[1] is asyncio.current_task():
                del self._auto[match_id]
        if update is not None:
            self.after(update)

    async def _held(self, match_id: int) -> bool:
        """Whether the match, shown through interaction tokens, is paused until a click (:mod:`cogs.kit.tokens`)."""
        tokens = self.presenter.tokens
        return tokens.tracks(match_id) and tokens.holds(await self.service.get_match(match_id))

    async def _deadline(self, match_id: int) -> None:
        self._armed.pop(match_id, None)
        if await self._held(match_id):
            return  # (paused: the deadline is applied once a click resumes it)
        update = await self.service.deadline_due(match_id)
        if update is not None:
            self.after(update)
            return
        match = await self.service.get_match(match_id)
        if match.is_open and match.deadline_at is not None and match.deadline_at > self.bot.clock():
            self.arm(match)

    def after(self, update: MatchUpdate) -> None:
        """A committed update: arm the match's timer, show its events, let the bot's seat play -- if the match is
        this process's to look after (:mod:`bot.cluster`); else its owner heard of the change and does it."""
        if not self.service.owns(update.match.guild_id):
            return
        self.arm(update.match)
        if update.events:
            self.presenter.show(update.match.id)
        self.think_later(update.match)

    def changed_elsewhere(self, match: MatchRecord) -> None:
        """Another process changed the match, which is this one's to look after."""
        self.arm(match)
        self.presenter.show(match.id)
        self.think_later(match)

    # --- the bot's own seat --------------------------------------------------------------------------------
    @property
    def plugin(self) -> GamePlugin:
        return registry().entry(self.game).plugin

    def think_later(self, match: MatchRecord) -> None:
        """In a match against the bot, let its seat choose when the step waits for it (in the bot's thinking
        process, so the event loop never waits on a solve); once per match and step."""
        if not match.options.get(OPPONENT_OPTION) or match.status != "active":
            return
        key = (match.id, match.step)
        if key in self._thinking:
            return
        self._thinking.add(key)
        task = asyncio.get_running_loop().create_task(self._think(match.id), name=f"{self.game}-think-{match.id}")
        task.add_done_callback(lambda _: self._thinking.discard(key))

    async def _think(self, match_id: int) -> None:
        try:
            turn = await self.service.program_turn(match_id)
            if turn is None:
                return
            step, seat, view, key = turn
            match = await self.service.get_match(match_id)
            level = str(match.options[OPPONENT_OPTION]["level"])
            assert self.plugin.opponent is not None
            action = await self.bot.thinking.run(self.plugin.opponent, view, seat, level, key)
            update = await self.service.choose(match_id, match.seats[seat].user_id, step, action)
        except asyncio.CancelledError:
            raise
        except (*USER_ERRORS, GameError) as error:  # the step moved on meanwhile (a forfeit, a deadline)
            log.info("%s match %s: the bot's choice was not taken: %s", self.title, match_id, error)
            return
        except Exception:
            log.exception("%s match %s: the bot's seat failed to choose", self.title, match_id)
            return
        self.after(update)

    # --- helpers -----------------------------------------------------------------------------------------
    @staticmethod
    async def tell(interaction: discord.Interaction, text: str) -> None:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
        else:
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_MENTIONS)

    def answer(self, interaction: discord.Interaction, *, thinking: bool = False, ephemeral: bool = False) -> Answer:
        self.presenter.tokens.heard(interaction)  # (where the bot is no member, its token shows what the call does)
        return Answer(interaction, thinking=thinking, ephemeral=ephemeral, defer_after=self.defer_after)

    async def check_player(self, interaction: discord.Interaction, match_id: int) -> bool:
        """Every button's ``interaction_check``: only the match's players get further. A match's players are kept
        once they are settled: a lobby's change until it starts."""
        players = self._players.get(match_id)
        if players is None:
            try:
                match = await self.service.get_match(match_id)
            except service_errors.MatchNotFound as error:
                await self.tell(interaction, said(error, interaction))
                return False
            if match.game not in self.service.games:
                await self.tell(interaction, said(service_errors.MatchNotFound(match_id), interaction))
                return False
            players = match.user_ids
            if not (match.status == "challenge" and match.options.get("lobby")):
                self._players[match_id] = players
                while len(self._players) > PLAYERS_CACHED:
                    self._players.popitem(last=False)
        if interaction.user.id not in players:
            await self.tell(interaction, said(service_errors.NotYourMatch(), interaction))
            return False
        self.presenter.remember_name(place_id(interaction), interaction.user)
        return True

    # --- buttons -----------------------------------------------------------------------------------------
    async def act(self, interaction: discord.Interaction, call: Callable[[], Awaitable[MatchUpdate]],
                  reply: Callable[[MatchUpdate], str] | None = None) -> None:
        """A click on a public message: ``call`` the match service (a refusal answered privately), answer with
        ``reply``'s note (privately), or else by letting the message change by itself, then show what it queued."""
        async with self.answer(interaction) as answer:
            try:
                update = await call()
            except USER_ERRORS as error:
                await answer.tell(said(error, interaction))
                return
            try:
                if reply is not None:
                    await answer.tell(reply(update))
                else:
                    await answer.acknowledge()
            finally:
                self.after(update)

    async def on_challenge_button(self, interaction: discord.Interaction, match_id: int, action: str) -> None:
        """Accept, Decline (the opponent) or Withdraw (the challenger); anyone else is told who may (the service)."""
        method = {"accept": self.service.accept, "decline": self.service.decline,
                  "withdraw": self.service.withdraw}[action]
        await self.act(interaction, self._remembering(interaction, lambda: method(match_id, interaction.user.id)))

    async def on_lobby_button(self, interaction: discord.Interaction, match_id: int, action: str) -> None:
        """Join (anyone), Leave, Start (the host) or Cancel (the host) a lobby; anyone else is told who may."""
        user = interaction.user
        if action == "join":
            call = functools.partial(self.service.join, match_id, user.id, user.display_name)
        else:
            call = functools.partial({"leave": self.service.leave, "start": self.service.start,
                                      "cancel": self.service.cancel_lobby}[action], match_id, user.id)
        await self.act(interaction, self._remembering(interaction, call))

    def _remembering(self, interaction: discord.Interaction,
                     call: Callable[[], Awaitable[MatchUpdate]]) -> Callable[[], Awaitable[MatchUpdate]]:
        """``call``, then the clicker's name remembered (it was taken: they are in the match)."""

        async def remembering() -> MatchUpdate:
            update = await call()
            self.presenter.remember_name(place_id(interaction), interaction.user)
            return update

        return remembering

    def _panel_call(self, key: str) -> tuple[PanelCall, tuple[str, ...]]:
        """The match kernel's method a panel key calls, and its extra argument (the item of a ``prefix:`` key)."""
        if key in self.panel_actions:
            return self.panel_actions[key], ()
        prefix, _, item = key.partition(":")
        return self.panel_actions[f"{prefix}:"], (item,)

    async def on_panel_button(self, interaction: discord.Interaction, match_id: int, step: int, key: str) -> None:
        user_id = interaction.user.id
        method, extra = self._panel_call(key)
        update: MatchUpdate | None = None
        async with self.answer(interaction) as answer:
            try:
                # The player's panel lock (the presenter's): the click is applied and answered before the presenter
                # may close the panel (a deadline), so a late answer never puts the buttons of a closed panel back.
                async with self.presenter.panel_lock(match_id, user_id):
                    try:
                        update = await method(self.service, match_id, user_id, step, *extra)
                        panel = update.panel
                        if (method in CHOICES or panel is None
                                or self.presenter.panel_step(panel) != step):
                            # a choice may have played the step: its panel as it ended (nothing of the next one)
                            panel = await self.service.panel_for(match_id, user_id, step)
                    except USER_ERRORS as error:
                        await answer.tell(said(error, interaction))
                        return
                    await answer.edit(**await self.presenter.panel_answer(update.match, panel, interaction.message,
                                                                              say=private_words(interaction)))
                    if method in CHOICES:
                        await self._close_other_panel(update.match, user_id, step, interaction.message)
            finally:
                if update is not None:
                    self.after(update)

    async def _close_other_panel(self, match: MatchRecord, user_id: int, step: int,
                                 clicked: discord.Message | None) -> None:
        """A choice made on the panel opened in the thread: the player's DM message of the same step shows it too,
        without its buttons, which mean nothing any more."""
        seat = match.seat_of(user_id)
        if seat is None or clicked is None or clicked.id == match.messages.get(dm_name(step, seat)):
            return
        await self.presenter.refresh_dm_panel(match, seat, step)

    async def on_open_panel(self, interaction: discord.Interaction, match_id: int, step: int) -> None:
        async with self.answer(interaction, thinking=True, ephemeral=True) as answer:
            try:
                panel = await self.service.open_panel(match_id, interaction.user.id, step)
                match = await self.service.get_match(match_id)
            except USER_ERRORS as error:
                await answer.tell(said(error, interaction))
                return
            await answer.send(ephemeral=True, **await self.presenter.panel_message(match, panel,
                                                                                   say=private_words(interaction)))

    async def on_forfeit_button(self, interaction: discord.Interaction, match_id: int, answer_: str) -> None:
        """The "really forfeit?" question: Forfeit forfeits, the other button changes nothing. A second click on
        the same question (a double-click, or a screen that still shows the buttons of a question answered) gets a
        note of its own and leaves the answer shown."""
        question = interaction.message
        if question is not None and (question.id in self._answering or not shows_buttons(question)):
            await self.tell(interaction, private_words(interaction)(ANSWERED_ALREADY))
            return
        if question is not None:
            self._answering.add(question.id)
        try:
            await self._answer_forfeit(interaction, match_id, answer_)
        finally:
            if question is not None:
                self._answering.discard(question.id)

    async def _answer_forfeit(self, interaction: discord.Interaction, match_id: int, answer_: str) -> None:
        async with self.answer(interaction) as answer:
            try:
                if answer_ == "no":
                    await answer.edit(content=await self.kept_playing_text(match_id, interaction.user.id,
                                                                           say=private_words(interaction)),
                                      view=None, allowed_mentions=NO_MENTIONS)
                    return
                update = await self.service.forfeit(match_id, interaction.user.id)
            except USER_ERRORS as error:
                await answer.edit(content=said(error, interaction), view=None, allowed_mentions=NO_MENTIONS)
                return
            try:
                await answer.edit(content=self.forfeited_text(update.match, interaction.user.id,
                                                              say=private_words(interaction)),
                                  view=None, allowed_mentions=NO_MENTIONS)
            finally:
                self.after(update)

    def worded(self, say: Texts, templates: Mapping[str, str], **params: Any) -> str:
        """One of ``templates`` (by what the game's words call a match: ``match``, ``game``, ``table``), in ``say``'s
        language: each language words them apart."""
        return say(templates.get(self.presenter.match_word, templates["match"]), **params)

    async def kept_playing_text(self, match_id: int, user_id: int, *, say: Texts = ENGLISH) -> str:
        """The forfeit question's answer to "keep playing" (a refusal -- ``USER_ERRORS`` -- answers instead), in
        ``say``'s language (the player's)."""
        return self.worded(say, {"match": N_("Good: the match goes on."), "game": N_("Good: the game goes on."),
                                 "table": N_("Good: the table goes on.")})

    def forfeited_text(self, match: MatchRecord, user_id: int, *, say: Texts = ENGLISH) -> str:
        """The forfeit question's answer once the user forfeited ``match`` (as it stands after it)."""
        _ = say
        seat = match.seat_of(user_id)
        assert seat is not None
        return "🏳️ " + _("You forfeited your {game} match: {player} wins.", game=_(self.title),
                          player=f"<@{match.user_ids[1 - seat]}>")

    # --- what the commands share -------------------------------------------------------------------------
    async def start_challenge(self, interaction: discord.Interaction, opponent: discord.Member | discord.User, *,
                              rules: Mapping[str, Any] | None = None, timer: int | None = None,
                              level: str | None = None) -> None:
        """A challenge in the command's channel: refuses (privately) what can't start here, then posts the challenge
        with Accept / Decline / Withdraw. ``rules`` overlay the server's defaults for the game. A challenge to the
        bot itself (a game with an ``opponent``) is a practice match at ``level``: accepted at once, unrated."""
        if external_apps_refused(interaction):
            await self.tell(interaction, private_words(interaction)(NO_EXTERNAL_APPS))
            return
        me = self.bot.user
        if me is not None and opponent.id == me.id and self.plugin.opponent is not None:
            await self.start_practice(interaction, rules=rules, timer=timer, level=level or self.plugin.level)
            return
        if level is not None:
            _ = private_words(interaction)
            await self.tell(interaction, _("`level` is for a match against me; {player} picks their own moves. "
                                           "Challenge me to practise at a level.", player=opponent.mention))
            return
        if await self.refuse_opponent(interaction, opponent, self.title) or await self.refuse_channel(interaction):
            return
        server = await self.server_for_start(
            interaction, self.service.check_challenge(interaction.user.id, opponent.id, self.game))
        if server is None:
            return
        await self.issue_challenge(interaction, opponent, game=self.game,
                                   rules=SettingsService.rules_from(server, self.game, rules), arrange_seconds=timer)

    async def start_practice(self, interaction: discord.Interaction, *, rules: Mapping[str, Any] | None,
                             timer: int | None, level: str) -> None:
        """A match against the bot at ``level``: challenged and accepted at once, unrated."""
        if level not in self.plugin.levels:
            _ = private_words(interaction)
            await self.tell(interaction, _("I play {game} at these levels: {levels}.", game=_(self.title),
                                           levels=", ".join(self.plugin.levels)))
            return
        if await self.refuse_channel(interaction):
            return
        me = self.bot.user
        server = await self.server_for_start(
            interaction, self.service.check_player(interaction.user.id))
        if server is None:
            return
        update = await self.issue_challenge(
            interaction, me, game=self.game, rules=SettingsService.rules_from(server, self.game, rules),
            arrange_seconds=timer, options={OPPONENT_OPTION: {"seat": 1, "level": level}})
        if update is not None:
            self.after(await self.service.accept(update.match.id, me.id))

    async def server_for_start(self, interaction: discord.Interaction, check: Awaitable[None]) -> GuildSettings | None:
        """The server's settings for a match the command starts, read side by side with the service's ``check`` of
        the players (so a burst of commands waits on the database once before its answer); ``None`` when refused,
        the user told why privately: a channel where the server lets no match start, else the check's refusal."""
        assert interaction.channel_id is not None
        server, checked = await asyncio.gather(settings_service(self.bot).get(place_id(interaction)), check,
                                               return_exceptions=True)
        if isinstance(server, BaseException):
            raise server
        channel = interaction.channel
        parent_id = channel.parent_id if isinstance(channel, discord.Thread) else None
        refusal = SettingsService.start_refusal(server, interaction.channel_id, parent_id) or checked
        if isinstance(refusal, USER_ERRORS):
            await self.tell(interaction, said(refusal, interaction))
            return None
        if isinstance(refusal, BaseException):
            raise refusal
        return server

    async def issue_challenge(self, interaction: discord.Interaction, opponent: discord.Member | discord.User, *,
                              game: str, rules: Mapping[str, Any], **options: Any) -> MatchUpdate | None:
        """The challenge made (``options``: the match service's for it; the players checked already, by
        :meth:`server_for_start`) and posted as the command's answer; the service's refusals answered privately
        (``None``)."""
        user = interaction.user
        assert interaction.channel_id is not None
        if by_interactions(interaction):  # (shown through the interactions' tokens: cogs.kit.tokens)
            options["options"] = {**options.get("options", {}), BY_INTERACTIONS: True}
        async with self.answer(interaction, thinking=True) as answer:
            try:
                self.service.resolve_rules(game, dict(rules), 2)  # (bad rules refuse before anything is withdrawn)
                await self.withdraw_sent_challenge(user.id)
                update = await self.service.challenge(
                    place_id(interaction), interaction.channel_id, user.id, opponent.id, game=game, rules=dict(rules),
                    challenger_name=user.display_name, opponent_name=opponent.display_name, **options)
            except USER_ERRORS as error:  # (made in between: a public "thinking" is removed, the note is private)
                await answer.tell(said(error, interaction))
                return None
            self.presenter.remember_name(place_id(interaction), user)
            self.presenter.remember_name(place_id(interaction), opponent)
            await self.post_opening(interaction, answer, update)
            return update

    async def withdraw_sent_challenge(self, user_id: int) -> None:
        """Withdraw the challenge the user sent that nobody has answered yet (a Rematch's too), as they send a new
        challenge or open a lobby: a player who challenges again means the new one. Its message says it was
        withdrawn and loses its buttons, as when they press Withdraw."""
        match_id = await self.service.sent_challenge(user_id)
        if match_id is None:
            return
        try:
            update = await self.service.withdraw(match_id, user_id)
        except USER_ERRORS:  # (answered or expired meanwhile: the new challenge is checked as ever)
            return
        self.after(update)

    async def refuse_opponent(self, interaction: discord.Interaction, opponent: discord.Member | discord.User,
                              title: str) -> bool:
        """Refuse (privately) a challenge to oneself, a bot, someone outside the server, or someone who can't see the
        DM or group DM it is made in; ``True``: refused."""
        channel = interaction.channel
        if opponent.id == interaction.user.id:
            refusal = said(service_errors.CannotChallengeSelf(), interaction)
        elif opponent.bot:
            _ = private_words(interaction)
            refusal = _("{player} is a bot; bots can't play {game}. Challenge a person instead.",
                        player=opponent.mention, game=_(title))
        elif not isinstance(opponent, discord.Member) and not by_interactions(interaction):
            _ = private_words(interaction)
            refusal = _("{player} isn't a member of this server; you can only challenge someone here.",
                        player=opponent.mention)
        elif isinstance(channel, discord.GroupChannel) and opponent.id not in {r.id for r in channel.recipients}:
            _ = private_words(interaction)
            refusal = _("{player} isn't in this group DM; challenge someone who is.", player=opponent.mention)
        elif interaction.context.dm_channel:  # (the DM with the bot: nobody else sees it)
            _ = private_words(interaction)
            refusal = _("Only you and I are in this DM: challenge me to practise, or challenge {player} in a group DM "
                        "or a server.", player=opponent.mention)
        else:
            return False
        await self.tell(interaction, refusal)
        return True

    async def refuse_channel(self, interaction: discord.Interaction) -> bool:
        """Refuse (privately) a channel where the bot lacks the permissions a match needs; ``True``: refused."""
        _ = private_words(interaction)
        missing = missing_permissions(interaction, _)
        if missing:
            await self.tell(interaction, self.worded(
                _, {"match": N_("I can't run a match in this channel: I need {permissions} here."),
                    "game": N_("I can't run a game in this channel: I need {permissions} here."),
                    "table": N_("I can't run a table in this channel: I need {permissions} here.")},
                permissions=missing))
        return bool(missing)

    async def post_opening(self, interaction: discord.Interaction, answer: Answer, update: MatchUpdate,
                           invited: Sequence[int] = ()) -> None:
        """The command's answer: the new challenge (or lobby) message (``invited`` players pinged on it), its id
        stored, the events it shows marked shown."""
        match = update.match
        try:
            opening = self.presenter.opening_message(match, await self.presenter.language(match))
            if invited:
                _ = texts(await self.presenter.language(match))
                opening["content"] = _("Rematch: {players}, join in!",
                                       players=" ".join(f"<@{user_id}>" for user_id in invited))
                opening["allowed_mentions"] = discord.AllowedMentions(
                    users=[discord.Object(user_id) for user_id in invited])
            message_id = await answer.send(**opening)
            if message_id is None:
                message_id = (await interaction.original_response()).id
            await self.service.outbox.set_challenge_message(match.id, message_id)
            if update.events:
                await self.service.outbox.mark_shown(match.id, update.events[-1].seq)
        finally:
            self.after(update)  # an event left unshown (the answer was lost): the presenter posts it

    async def on_rematch_button(self, interaction: discord.Interaction, match_id: int) -> None:
        """Rematch on a finished match's result (any of its players): a challenge from the clicker to the other
        player (a game of more players: a new lobby hosted by the clicker, the others invited), with the match's
        game, rules, timer and pace, refused (privately) as the command would be. Once it is made the Rematch is
        spent: the result loses the button, and a click that comes late is told so."""
        _ = private_words(interaction)
        if match_id in self._rematching:
            await self.tell(interaction, self.worded(
                _, {"match": N_("A rematch of this match is being made right now."),
                    "game": N_("A rematch of this game is being made right now."),
                    "table": N_("A rematch of this table is being made right now.")}))
            return
        self._rematching.add(match_id)
        try:
            match = await self.service.get_match(match_id)
            if "rematch" in match.messages:
                await self.tell(interaction, self.rematch_spent_text(match, say=_))
                return
            if (match.status != "finished" or match.seat_of(interaction.user.id) is None
                    or not self.presenter.can_rematch(match)):
                await self.tell(interaction, self.worded(
                    _, {"match": N_("This match can't be played again from here."),
                        "game": N_("This game can't be played again from here."),
                        "table": N_("This table can't be played again from here.")}))
                return
            update = await (self._rematch_lobby(interaction, match) if len(match.seats) != 2
                            else self._rematch_challenge(interaction, match))
            if update is None:
                return
            made = await self.service.get_match(update.match.id)
            await self.service.outbox.set_message(match_id, "rematch", made.challenge_message_id or 0)
        finally:
            self._rematching.discard(match_id)
        if interaction.message is not None and interaction.channel_id is not None:
            await self.presenter.remove_rematch(interaction.channel_id, interaction.message.id)

    async def _rematch_challenge(self, interaction: discord.Interaction, match: MatchRecord) -> MatchUpdate | None:
        """A two-player match's rematch: the clicker challenges the other player (``None``: refused, told why)."""
        seat = match.seat_of(interaction.user.id)
        assert seat is not None
        opponent = await self._member(interaction, match.user_ids[1 - seat])
        if opponent is None:
            _ = private_words(interaction)
            await self.tell(interaction, _("{player} isn't a member of this server any more.",
                                           player=f"<@{match.user_ids[1 - seat]}>"))
            return None
        if await self.refuse_opponent(interaction, opponent, self.title) or await self.refuse_channel(interaction):
            return None
        check = self.service.check_challenge(interaction.user.id, opponent.id, match.game)
        if await self.server_for_start(interaction, check) is None:
            return None
        options: dict[str, Any] = {}
        low, high = self.service.flow.timer_range
        if match.arrange_seconds is not None and low <= match.arrange_seconds <= high:
            options["arrange_seconds"] = match.arrange_seconds
        if "pace" in match.options:
            options["pace"] = match.options["pace"]
        return await self.issue_challenge(interaction, opponent, game=match.game, rules=match.rules, **options)

    async def _rematch_lobby(self, interaction: discord.Interaction, match: MatchRecord) -> MatchUpdate | None:
        """A game of more players' rematch: a lobby hosted by the clicker, the other players invited by mention
        (``None``: refused, told why)."""
        if await self.refuse_channel(interaction) or await self.server_for_start(
                interaction, self.service.check_player(interaction.user.id)) is None:
            return None
        others = [user_id for user_id in match.user_ids if user_id != interaction.user.id]
        return await self.issue_lobby(interaction, game=match.game, rules=match.rules,
                                      pace=match.options.get("pace"), invited=others)

    async def issue_lobby(self, interaction: discord.Interaction, *, game: str, rules: Mapping[str, Any],
                          pace: str | None, invited: Sequence[int] = (),
                          level: str | None = None) -> MatchUpdate | None:
        """A lobby hosted by the user (checked already, by :meth:`server_for_start`), posted as the command's
        answer, ``invited`` players mentioned under it; the service's refusals answered privately (``None``).
        ``level``: the bot takes the second seat and plays at that level."""
        user = interaction.user
        if by_interactions(interaction):  # (anyone may join a lobby: its players can't be known ahead there)
            _ = private_words(interaction)
            await self.tell(interaction, _(LOBBY_NEEDS_SERVER, game=_(self.title)))
            return None
        assert interaction.guild_id is not None and interaction.channel_id is not None
        async with self.answer(interaction, thinking=True) as answer:
            try:
                me = self.bot.user
                bot = None if level is None or me is None else {"id": me.id, "name": me.display_name, "level": level}
                self.service.resolve_lobby_rules(game, dict(rules))  # (bad rules refuse before anything is withdrawn)
                await self.withdraw_sent_challenge(user.id)
                update = await self.service.open_lobby(interaction.guild_id, interaction.channel_id, user.id, game=game,
                                                       rules=dict(rules), pace=pace, host_name=user.display_name,
                                                       bot=bot)
            except USER_ERRORS as error:
                await answer.tell(said(error, interaction))
                return None
            self.presenter.remember_name(place_id(interaction), user)
            await self.post_opening(interaction, answer, update, invited)
        return update

    def rematch_spent_text(self, match: MatchRecord, *, say: Texts = ENGLISH) -> str:
        """The answer to a click on a Rematch that was used already."""
        message_id = match.messages.get("rematch")
        text = self.worded(say, {"match": N_("The rematch of this match was asked for already."),
                                 "game": N_("The rematch of this game was asked for already."),
                                 "table": N_("The rematch of this table was asked for already.")})
        return f"{text} {message_link(match.guild_id, match.channel_id, message_id)}" if message_id else text

    @staticmethod
    async def _member(interaction: discord.Interaction, user_id: int) -> discord.Member | None:
        """A member of the interaction's server (``None``: not one, or Discord can't say)."""
        guild = interaction.guild
        if guild is None:
            return None
        try:
            return guild.get_member(user_id) or await guild.fetch_member(user_id)
        except discord.HTTPException:
            return None

    async def ask_forfeit(self, interaction: discord.Interaction) -> None:
        """The forfeit command: asks first (privately), with Forfeit / Keep playing."""
        async with self.answer(interaction, thinking=True, ephemeral=True) as answer:
            try:
                match = await self.service.forfeit_target(interaction.user.id, self.game)
                seat = match.seat_of(interaction.user.id)
                assert seat is not None
                question = await self.forfeit_question(match, seat, say=private_words(interaction))
            except USER_ERRORS as error:
                await answer.tell(said(error, interaction))
                return
            await answer.send(question, view=self.buttons.forfeit_view(match.id, say=private_words(interaction)),
                              ephemeral=True)

    async def forfeit_question(self, match: MatchRecord, seat: int, *, say: Texts = ENGLISH) -> str:
        """The forfeit command's question to the player in ``seat``, in ``say``'s language (the player's)."""
        _ = say
        other = f"<@{match.user_ids[1 - seat]}>"
        return _("Forfeit your {game} match against {player}? {player} wins and the result is recorded.",
                   game=say(self.title), player=other)

    def status_text(self, status: MatchStatus, *, say: Texts = ENGLISH) -> str:
        """The status command's words for a match being played (the seat's own view and panel), in ``say``'s
        language (the player's)."""
        raise NotImplementedError

    def status_reply(self, status: MatchStatus, *, say: Texts = ENGLISH) -> tuple[str, RoutedView | None]:
        """The status command's answer for a match being played: its words, and the "Open my panel" button while
        the seat has a choice to make (a game with private panels)."""
        match, panel = status.match, status.panel
        where = self.presenter.where_line(match.play_channel_id, say)
        text = clamp(f"{self.status_text(status, say=say)}\n{where}", say=say)
        if self.buttons.OpenPanelButton is not None and not panel.locked and not panel.finished:
            return text, self.buttons.open_panel_view(match.id, self.presenter.panel_step(panel), say=say)
        return text, None

    def waiting_text(self, status: MatchStatus, *, say: Texts = ENGLISH) -> str:
        """The status command's words for a match not started yet, in ``say``'s language (the player's)."""
        _ = say
        match, seat = status.match, status.seat
        other = f"<@{match.user_ids[1 - seat]}>"
        link = ""
        if match.challenge_message_id is not None:
            link = f" ({message_link(match.guild_id, match.channel_id, match.challenge_message_id)})"
        game = say(self.title)
        if seat == 0:
            if match.deadline_at:
                text = _("Your {game} challenge to {player} is waiting for an answer; it expires {when}.",
                           game=game, player=other, when=timestamp(match.deadline_at))
            else:
                text = _("Your {game} challenge to {player} is waiting for an answer.", game=game, player=other)
            return text + " " + _("You can withdraw it on the challenge message{link}.", link=link)
        if match.deadline_at:
            text = _("{player} challenged you to {game}; it expires {when}.", game=game, player=other,
                       when=timestamp(match.deadline_at))
        else:
            text = _("{player} challenged you to {game}.", game=game, player=other)
        return text + " " + _("Accept or decline it on the challenge message{link}.", link=link)

    async def show_status(self, interaction: discord.Interaction) -> None:
        """The status command: the user's open match, privately; a panel not yet chosen gets its button."""
        async with self.answer(interaction, thinking=True, ephemeral=True) as answer:
            try:
                status = await self.service.status(interaction.user.id, self.game)
            except USER_ERRORS as error:
                await answer.tell(said(error, interaction))
                return
            if status.view is None or status.panel is None:
                await answer.tell(self.waiting_text(status, say=private_words(interaction)))
                return
            text, view = self.status_reply(status, say=private_words(interaction))
            if view is not None:
                await answer.send(text, view=view, ephemeral=True)
            else:
                await answer.tell(text)
