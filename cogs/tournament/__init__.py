"""`/tournament create|start|bracket|status|disqualify|pause|resume|cancel|history` and the tournament buttons.

The cog translates: commands and clicks call :class:`~bot.services.tournaments.TournamentService`, refusals are
ephemeral, and what the service queued for the channel is shown by one background task per tournament, each event
marked shown once shown. The channel gets few messages (texts: :mod:`bot.render.tournament`):

* **one status message** per tournament, edited through its life: signup (Join / Leave), check-in, then what is
  being played with the bracket's pictures (one per region of a large bracket, each readable at Discord's preview
  width; redrawn at most every :data:`BRACKET_REFRESH_SECONDS`, uploaded again only
  when it changed), pauses, disqualifications, the champion;
* **one Ready call per round** (a round is called as a whole, see the service): its pairings, the players pinged,
  one Ready button per match (a round of more than 16 matches takes several messages); each line and button is
  edited as its match goes: a match whose game is under way or over has its button disabled, and a click that
  beats that edit is answered privately;
* **one summary per round** once it is over (the last one names the champion).

The channel's messages speak the server's language (``/settings language``); the commands' and buttons' private
answers the member's own (their client's).

The games of a match are real matches: each is handed to its game's cog (the one holding the game's
:class:`~bot.match.kernel.MatchKernel`), which shows it in its thread, runs its timers and records its result.
Their ends are picked up by reconciliation: after every update that dealt a game, and every
:data:`RECONCILE_SECONDS`; after a restart the cog reconciles, shows what was not shown, brings the status message
and the open calls up to date and re-arms every tournament's timer (signup close, check-in end, no-shows).
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import N_, Texts, texts
from bot.match.kernel import MatchKernel, MatchUpdate
from bot.registry import game_class, registry
from bot.render import bracket as render
from bot.render import tournament as wording
from bot.render.bracket import mention
from bot.render.common import Picture, clamp, timestamp
from bot.services import USER_ERRORS
from bot.services.tournaments import DEFAULT_NO_SHOW, TournamentService, TournamentUpdate, parse_rules
from bot.storage.records import MatchRecord
from bot.storage.tournaments import BracketMatchRecord, TournamentEvent, TournamentRecord
from bot.tournaments import Format, Tournament
from cogs.kit.choices import set_choices
from cogs.kit.layout import as_layout, layout
from cogs.kit.messages import NO_MENTIONS, private_words, said
from cogs.kit.places import require_server
from cogs.kit.presenter import ShowLoop
from cogs.kit.stats_ui import game_choices, settings_service
from cogs.kit.web_links import with_bracket
from cogs.tournament.ui import COG_NAME, DYNAMIC_ITEMS, call_view, signup_view, tell

if TYPE_CHECKING:
    from bot.client import CardGameBot

log = logging.getLogger("cogs.tournament")

RECONCILE_SECONDS = 2.0
#: a bracket picture is redrawn at most this often while results come in (and always at the end)
BRACKET_REFRESH_SECONDS = 3.0
#: a tournament's stage, as ``/tournament status`` names it
STATUS_NAMES = {"signup": N_("signup"), "check_in": N_("check-in"), "running": N_("running"), "paused": N_("paused"),
                "finished": N_("finished"), "cancelled": N_("cancelled")}
#: where an open bracket match stands, as ``/tournament status`` says it
MATCH_STATES = {"called": N_("waiting for Ready"), "waiting": N_("next game about to start"), "playing": N_("playing")}
#: what an organiser's command answers once done
DONE = {"start": N_("Started."), "pause": N_("Paused."), "resume": N_("Resumed."), "cancel": N_("Cancelled."),
        "disqualify": N_("Disqualified.")}
FORMATS = [("single elimination", "single_elimination"), ("double elimination", "double_elimination"),
           ("round robin", "round_robin"), ("Swiss", "swiss")]
PACES = [("flip: players flip each card", "flip"), ("auto: the bot plays, pausing on every war", "auto"),
         ("instant: the game is played out at once", "instant")]


def timer_key(tournament_id: int) -> tuple[str, int]:
    return ("tournament", tournament_id)


def bot_level_choices() -> list[app_commands.Choice[str]]:
    """Every level the bot plays any game at, strongest first (the tournament's game checks its own)."""
    levels: list[str] = []
    for entry in registry().entries():
        levels += [level for level in entry.plugin.levels if level not in levels]
    return [app_commands.Choice(name=level, value=level) for level in levels]


class TournamentCog(ShowLoop, commands.Cog, name=COG_NAME):
    group = app_commands.Group(name="tournament", description="Tournaments of any game, played in this channel")
    prefix = "tournament"  # ShowLoop's task and retry-timer names
    title = "tournament"
    owner_word = "tournament"

    def __init__(self, bot: CardGameBot) -> None:
        super().__init__(bot)
        self.service = TournamentService(bot.db, self.game_service, clock=bot.clock, seed_source=bot.seed_source)
        #: the channel events to show and the ids of the messages that show them (the show loop's outbox)
        self.outbox = self.service.outbox
        self.outbox.owns = bot.cluster.owns
        self._refresh: dict[int, asyncio.Task[None]] = {}
        self._stale_calls: dict[int, set[str]] = {}  # call lines a click found out of date
        self._resync: set[int] = set()  # tournaments whose messages are brought up to date whatever was queued
        self._pictures: dict[int, str | None] = {}  # what the status message's bracket picture shows (a digest)
        self._picture_names: dict[int, list[str]] = {}  # the file names of the status message's pictures
        self._status_locks: dict[int, asyncio.Lock] = {}
        self._reconciling: asyncio.Task[None] | None = None
        self._reconcile_again = False
        self._loop: asyncio.Task[None] | None = None

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        """Tournaments are a server's (a channel of their own, threads, messages posted on their own): refused
        where the bot is no member."""
        return require_server(interaction, N_("Tournaments"))

    # --- the games' services and displays -----------------------------------------------------------------
    def _display(self, game: str) -> Any:
        """The cog that shows the game's matches (``after(update)``), while it is loaded."""
        return self.bot.displays.get(registry().entry(game).family)

    def game_service(self, game: str) -> MatchKernel | None:
        return self.bot.service_for(game) if self._display(game) is not None else None

    def show_game(self, update: MatchUpdate) -> None:
        display = self._display(update.match.game)
        if display is not None:
            display.after(update)

    # --- life ----------------------------------------------------------------------------------------------
    async def cog_load(self) -> None:
        set_choices(self.create, game=game_choices(), bot=bot_level_choices())
        self._loop = asyncio.get_running_loop().create_task(self._run_loop(), name="tournament-loop")

    async def cog_unload(self) -> None:
        await self.close()  # the show loop's tasks and retry timers
        tasks = [t for t in (self._loop, self._reconciling, *self._refresh.values()) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for tournament in await self._safe(self.service.open_tournaments, []):
            self.bot.timers.cancel(timer_key(tournament.id))

    async def _safe(self, call, default):
        try:
            return await call()
        except Exception:
            return default

    async def _run_loop(self) -> None:
        await self.bot.wait_until_ready()
        await self.bot.resumed.wait()  # the games' own resume first
        try:
            await self.show_pending()
            for tournament in await self.service.open_tournaments():
                if not self.bot.cluster.owns(tournament.guild_id):
                    continue  # another process's (bot.cluster)
                self.arm(tournament.id, await self.service.next_due(tournament.id))
                if tournament.signup_message_id is not None:
                    self._resync.add(tournament.id)
                    self.show(tournament.id)
        except Exception:
            log.exception("resuming the tournaments failed")
        while not self._closed:
            self.reconcile_soon()
            await asyncio.sleep(RECONCILE_SECONDS)

    @commands.Cog.listener()
    async def on_match_over_elsewhere(self, match: MatchRecord) -> None:
        """A match another process ended (:mod:`bot.cluster`): its tournament goes on now, not at the next
        reconcile."""
        if "tournament" in match.options:
            self.reconcile_soon()

    def reconcile_soon(self) -> None:
        if self._closed:
            return
        if self._reconciling is not None and not self._reconciling.done():
            self._reconcile_again = True
            return
        self._reconciling = asyncio.get_running_loop().create_task(self._reconcile(), name="tournament-reconcile")

    async def _reconcile(self) -> None:
        again = True
        while again and not self._closed:
            self._reconcile_again = False
            try:
                for update in await self.service.reconcile():
                    self.after(update, reconcile=False)
            except Exception:
                log.exception("reconciling the tournaments failed")
                return
            again = self._reconcile_again

    def after(self, update: TournamentUpdate, *, reconcile: bool = True) -> None:
        """A committed update: its games to their cogs, its events to the channel, its timer (the tournament's own
        if its server is this process's to look after: :mod:`bot.cluster`)."""
        for game in update.games:
            self.show_game(game)
        if not self.bot.cluster.owns(update.tournament.guild_id):
            return
        if update.events:
            self.show(update.tournament.id)
        self.arm(update.tournament.id, update.next_due)
        if any(game.finished for game in update.games):
            if reconcile:
                self.reconcile_soon()
            else:
                self._reconcile_again = True

    def arm(self, tournament_id: int, at: float | None) -> None:
        key = timer_key(tournament_id)
        if at is None:
            self.bot.timers.cancel(key)
            return

        async def due() -> None:
            self.after(await self.service.tick(tournament_id))

        self.bot.timers.arm(key, at, due)

    # --- showing the channel's events (the kit's show loop: one task per tournament, retried when it fails) ---
    async def _words(self, tournament: TournamentRecord) -> Texts:
        """The words of the tournament's server (its channel's messages are public)."""
        return texts(await settings_service(self.bot).language(tournament.guild_id))

    def _channel(self, tournament: TournamentRecord) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(tournament.channel_id, guild_id=tournament.guild_id)

    async def _show_unshown(self, tournament_id: int) -> None:
        """Bring the channel up to date with the tournament's queued events: the status message edited, each round's
        Ready call and each round's summary posted once, the calls' lines and buttons edited as their matches go."""
        queued = await self.outbox.unshown_events(tournament_id)
        keys = self._stale_calls.pop(tournament_id, set())
        every_call = tournament_id in self._resync
        self._resync.discard(tournament_id)
        if not queued and not keys and not every_call:
            return
        tournament = await self.service.get(tournament_id)
        names = await self._player_names(tournament)
        say = await self._words(tournament)
        status_now = every_call  # after a restart: the status message as things stand
        status_later = told_over = False
        index = 0
        while index < len(queued):
            event = queued[index]
            kind = event.type
            if kind in ("call", "round_over", "over") and status_now:  # the status message comes first
                await self._refresh_status(tournament_id)
                status_now = False
            if kind == "call":
                run = queued[index:wording.call_run(queued, index) + 1]
                keys.update(later.event["key"] for later in run if later.type == "ready")
                await self._post_calls(tournament_id, [later for later in run if later.type == "call"], names, say)
                index += len(run) - 1
                status_later = True
            elif kind == "round_over":
                over = next((later for later in queued[index + 1:] if later.type == "over"), None)
                await self._post_summary(tournament_id, event, names, over, say)
                told_over = told_over or over is not None
                status_later = True
            elif kind == "over":
                if not told_over:
                    await self._send(tournament, event,
                                     wording.champion_text(tournament, event.event["champion"], say))
                every_call = status_now = True
            elif kind in ("ready", "game", "waiting", "game_over", "result"):
                keys.add(event.event["key"])
                status_later = status_later or kind == "result"
            elif kind in ("paused", "resumed", "cancelled"):
                every_call = status_now = True
            elif kind == "disqualified":
                status_later = True
            elif kind in ("created", "signup", "check_in", "started"):
                status_now = True
            await self.outbox.mark_shown(tournament_id, queued[index].seq)
            index += 1
        if keys or every_call:
            await self._refresh_calls(tournament_id, keys, every=every_call)
        if status_now:
            await self._refresh_status(tournament_id)
        elif status_later:
            self._refresh_later(tournament_id)

    @staticmethod
    def _nonce(tournament: TournamentRecord, seq: int, part: int = 0) -> str:
        """The same for the same event (and part of it) every time: a send repeated after a crash (sent, not marked
        shown) gets the message made the first time (Discord keeps nonces a few minutes)."""
        key = f"tournament:{tournament.id}:{tournament.created_at!r}:{seq}" + (f":{part}" if part else "")
        return hashlib.blake2b(key.encode(), digest_size=12).hexdigest()

    async def _send(self, tournament: TournamentRecord, event: TournamentEvent, content: str, *, part: int = 0,
                    **kwargs: Any) -> discord.Message:
        kwargs.setdefault("allowed_mentions", NO_MENTIONS)
        return await self._channel(tournament).send(nonce=self._nonce(tournament, event.seq, part),
                                                    **as_layout({"content": content, **kwargs}, edit=False))

    async def _player_names(self, tournament: TournamentRecord) -> dict[int, str]:
        return await self.service.names(tournament.id)

    # --- a round's Ready call --------------------------------------------------------------------------------
    async def _post_calls(self, tournament_id: int, events: list[TournamentEvent], names: dict[int, str],
                          say: Texts) -> None:
        """A round's call: its matches on one message (several for a big round, see
        :func:`bot.render.tournament.call_parts`), the players pinged, one Ready button per match."""
        tournament = await self.service.get(tournament_id)
        label = events[0].event["round"]
        of_round = await self.service.bracket_matches(tournament_id, round=label)
        by_key = {row.key: row for row in of_round}
        rows = [by_key[event.event["key"]] for event in events if event.event["key"] in by_key]
        bracket = Tournament.from_json(tournament.state or {})
        sizes = wording.call_parts(len(rows))
        start = 0
        for part, size in enumerate(sizes):
            chunk, start = rows[start:start + size], start + size
            if not chunk or all(row.call_message_id is not None for row in chunk):
                continue  # posted before a restart
            content, view = self._call_message(tournament, bracket, chunk, of_round, (part + 1, len(sizes)), names,
                                               say)
            message = await self._send(tournament, events[0], content, part=part, view=view or discord.utils.MISSING,
                                       allowed_mentions=discord.AllowedMentions(users=True))
            await self.outbox.set_call_message(tournament_id, [row.key for row in chunk], message.id)

    async def _refresh_calls(self, tournament_id: int, keys: set[str], *, every: bool = False) -> None:
        """Edit the call messages of these matches (``every``: of every match still open or called off) to say
        where each match stands; a spent or ended match's button is disabled."""
        tournament = await self.service.get(tournament_id)
        if not tournament.has_state:
            return
        rows = await self.service.bracket_matches(tournament_id)
        messages = list(dict.fromkeys(
            row.call_message_id for row in rows if row.call_message_id is not None
            and (row.key in keys or (every and (row.status != "decided" or row.outcome == "cancelled")))))
        if not messages:
            return
        names = await self._player_names(tournament)
        say = await self._words(tournament)
        bracket = Tournament.from_json(tournament.state or {})
        channel = self._channel(tournament)
        for message_id in messages:
            on = [row for row in rows if row.call_message_id == message_id]
            of_round = [row for row in rows if row.round == on[0].round]
            parts = list(dict.fromkeys(row.call_message_id for row in of_round if row.call_message_id is not None))
            part = (parts.index(message_id) + 1, len(parts))
            content, view = self._call_message(tournament, bracket, on, of_round, part, names, say)
            try:
                await channel.get_partial_message(message_id).edit(**as_layout(
                    {"content": content, "view": view, "allowed_mentions": NO_MENTIONS}, edit=True))
            except discord.NotFound:
                log.info("tournament %s: call message %s is gone", tournament_id, message_id)

    @staticmethod
    def _call_message(tournament: TournamentRecord, bracket: Tournament, rows: list[BracketMatchRecord],
                      of_round: list[BracketMatchRecord], part: tuple[int, int], names: dict[int, str],
                      say: Texts) -> tuple[str, discord.ui.View | None]:
        """The text and buttons of one call message holding ``rows`` (of the round's ``of_round``), ``part``
        (this message, of how many the round takes)."""
        label = rows[0].round
        bye = wording.bye_of(bracket, label) if part[0] == 1 else None
        content = wording.call_text(tournament, wording.round_name(bracket, label, say), rows,
                                    first_number=of_round.index(rows[0]) + 1, part=part, bye=bye, say=say)
        return content, call_view(tournament.id, wording.call_buttons(tournament, rows, names, say))

    def refresh_call_soon(self, tournament_id: int, key: str) -> None:
        """A click found a call out of date (its edit lost or still on its way): edit it again."""
        self._stale_calls.setdefault(tournament_id, set()).add(key)
        self.show(tournament_id)

    # --- a round's summary -------------------------------------------------------------------------------------
    async def _post_summary(self, tournament_id: int, event: TournamentEvent, names: dict[int, str],
                            over: TournamentEvent | None, say: Texts) -> None:
        tournament = await self.service.get(tournament_id)
        label = event.event["round"]
        bracket = Tournament.from_json(tournament.state or {})
        rows = {row.key: row for row in await self.service.bracket_matches(tournament_id, round=label)}
        content = wording.summary_text(tournament, bracket, label, rows, names, over=over is not None,
                                    champion=None if over is None else over.event["champion"], say=say)
        await self._send(tournament, event, content)

    # --- the status message ------------------------------------------------------------------------------------
    def _refresh_later(self, tournament_id: int) -> None:
        """The status message (and its bracket picture, redrawn at most every :data:`BRACKET_REFRESH_SECONDS`)
        updated a moment later, once for results that come together."""
        if tournament_id in self._refresh or self._closed:
            return

        async def later() -> None:
            try:
                await asyncio.sleep(BRACKET_REFRESH_SECONDS)
                self._refresh.pop(tournament_id, None)
                await self._refresh_status(tournament_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("tournament %s: the status message could not be updated", tournament_id)
            finally:
                self._refresh.pop(tournament_id, None)

        self._refresh[tournament_id] = asyncio.get_running_loop().create_task(later())

    async def _refresh_status(self, tournament_id: int) -> None:
        """The tournament's one status message, posted the first time and edited ever after: signup (Join, Leave),
        check-in, then what is being played with the bracket picture (uploaded again only when it changed), the
        end. Its id is kept as the tournament's signup message."""
        pending = self._refresh.pop(tournament_id, None)
        if pending is not None and pending is not asyncio.current_task():
            pending.cancel()
        async with self._status_locks.setdefault(tournament_id, asyncio.Lock()):  # one edit at a time, in order
            await self._edit_status(tournament_id)

    async def _edit_status(self, tournament_id: int) -> None:
        tournament = await self.service.get(tournament_id)
        entrants = await self.service.entrants(tournament_id)
        bracket = Tournament.from_json(tournament.state) if tournament.has_state else None
        open_rows = [] if bracket is None else [row for row in await self.service.bracket_matches(tournament_id)
                                               if row.status != "decided"]
        by = None
        if tournament.status in ("paused", "cancelled"):
            last = await self.outbox.last_event(tournament_id, tournament.status)
            by = None if last is None else last.event.get("by")
        say = await self._words(tournament)
        words = wording.status_text(tournament, entrants, bracket, open_rows, by=by, say=say)
        embed = discord.Embed(title=words.title, description=words.description, colour=discord.Colour.gold())
        view = await with_bracket(self.bot, tournament.guild_id, tournament_id,
                                  signup_view(tournament_id, tournament.status, say), say)
        pictures: list[Picture] | None = None
        digest = None
        if bracket is not None:
            names = await self._player_names(tournament)
            digest = hashlib.blake2b(repr((tournament.state_text, sorted(names.items()), words.title,
                                           say.language)).encode(), digest_size=16).hexdigest()
            if self._pictures.get(tournament_id) != digest:
                pictures = await asyncio.to_thread(render.pictures, bracket, names, wording.title(tournament, say), say)
        channel = self._channel(tournament)
        if tournament.signup_message_id is not None:
            # (a V2 message shows the pictures its layout names: those kept from before are named again)
            kept = self._picture_names.get(tournament_id, []) if pictures is None else []
            files = [] if pictures is None else [self._file(picture) for picture in pictures]
            edit: dict[str, Any] = {"view": layout(embeds=[embed], view=view, files=files, gallery=kept),
                                    "content": None, "embeds": [], "allowed_mentions": NO_MENTIONS}
            if pictures is not None:
                edit["attachments"] = files
            try:
                await channel.get_partial_message(tournament.signup_message_id).edit(**edit)
                self._remember_pictures(tournament_id, digest, pictures)
                return
            except discord.NotFound:  # deleted: posted again
                if bracket is not None and pictures is None:
                    pictures = await asyncio.to_thread(render.pictures, bracket, names, wording.title(tournament, say),
                                                       say)
        files = [self._file(picture) for picture in pictures] if pictures else []
        message = await channel.send(view=layout(embeds=[embed], view=view, files=files), files=files,
                                     allowed_mentions=NO_MENTIONS)
        self._remember_pictures(tournament_id, digest, pictures)
        await self.outbox.set_message(tournament_id, "signup", message.id)

    def _remember_pictures(self, tournament_id: int, digest: str | None, pictures: list[Picture] | None) -> None:
        """What the status message's pictures show now (``pictures``: drawn and uploaded; ``None``: kept)."""
        self._pictures[tournament_id] = digest
        if pictures is not None:
            self._picture_names[tournament_id] = [picture.filename for picture in pictures]

    @staticmethod
    def _file(picture: Picture) -> discord.File:
        return discord.File(io.BytesIO(picture.png), filename=picture.filename, description=picture.alt)

    # --- buttons --------------------------------------------------------------------------------------------
    async def check_player(self, interaction: discord.Interaction, tournament_id: int, key: str) -> bool:
        row = await self.service.bracket_match(tournament_id, key)
        _ = private_words(interaction)
        if row is None:  # a call from a bracket that changed (a cancelled tournament, a match replayed anew)
            await tell(interaction, _("That match is no longer in the tournament; nothing was changed."))
            return False
        if interaction.user.id not in row.players:
            await tell(interaction, _("This isn't your match: press the Ready button with your name on it."))
            return False
        return True

    async def on_signup_button(self, interaction: discord.Interaction, tournament_id: int, action: str) -> None:
        user = interaction.user
        _ = private_words(interaction)
        try:
            if action == "join":
                if user.bot:
                    await tell(interaction, _("Bots can't play in tournaments."))
                    return
                update = await self.service.join(tournament_id, user.id, user.display_name)
                text = _("You're in. Good luck!")
            elif action == "leave":
                update = await self.service.leave(tournament_id, user.id)
                text = _("You've left the tournament.")
            else:
                update = await self.service.check_in(tournament_id, user.id)
                text = _("You're checked in.")
        except USER_ERRORS as error:
            await tell(interaction, said(error, interaction))
            return
        await tell(interaction, text)
        self.after(update)

    async def on_ready_button(self, interaction: discord.Interaction, tournament_id: int, key: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            update = await self.service.ready(tournament_id, key, interaction.user.id)
        except USER_ERRORS as error:
            await interaction.followup.send(said(error, interaction), ephemeral=True, allowed_mentions=NO_MENTIONS)
            row = await self.service.bracket_match(tournament_id, key)
            if row is not None and row.status != "called":  # a late click: the button should be off by now
                self.refresh_call_soon(tournament_id, key)
            return
        ready = next(e.event["ready"] for e in update.events if e.type == "ready")
        _ = private_words(interaction)
        answer = _("Ready! Your game starts now.") if all(ready) else _("Ready! Waiting for your opponent.")
        await interaction.followup.send(answer, ephemeral=True, allowed_mentions=NO_MENTIONS)
        self.after(update)

    # --- commands -------------------------------------------------------------------------------------------
    async def _current(self, interaction: discord.Interaction) -> TournamentRecord | None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        tournament = await self.service.in_channel(interaction.guild_id, interaction.channel_id)
        if tournament is None:
            _ = private_words(interaction)
            await tell(interaction, _("There's no tournament in this channel. Start one with `/tournament create`."))
        return tournament

    @group.command(name="create", description="Create a tournament in this channel: players sign up with Join")
    @app_commands.describe(
        name="The tournament's name", game="The game played", format="How players meet",
        rules="Game rules as key=value pairs, like: face_down=3 aces=low",
        max_players="At most this many players (2-256)", signup_closes="Minutes until signup closes by itself",
        best_of="Games per match (1, 3, 5 or 7)", check_in="Minutes of check-in before the start (0: none)",
        no_show="Minutes a player has to press Ready when called (default 10; 0: games start at once)",
        pace="War games: how cards are flipped (default auto)", rounds="Swiss: the number of rounds",
        bot="If an odd number of players start, I play too (at this level), so everyone has an opponent",
    )
    @app_commands.choices(format=[app_commands.Choice(name=n, value=v) for n, v in FORMATS],
                          pace=[app_commands.Choice(name=n, value=v) for n, v in PACES],
                          best_of=[app_commands.Choice(name=str(n), value=n) for n in (1, 3, 5, 7)])
    async def create(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 100],
                     game: app_commands.Choice[str], format: app_commands.Choice[str], rules: str | None = None,
                     max_players: app_commands.Range[int, 2, 256] | None = None,
                     signup_closes: app_commands.Range[int, 1, 10080] | None = None,
                     best_of: app_commands.Choice[int] | None = None,
                     check_in: app_commands.Range[int, 0, 60] | None = None,
                     no_show: app_commands.Range[int, 0, 60] | None = None,
                     pace: app_commands.Choice[str] | None = None,
                     rounds: app_commands.Range[int, 1, 20] | None = None,
                     bot: app_commands.Choice[str] | None = None) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        now = self.bot.clock()
        try:
            update = await self.service.create(
                interaction.guild_id, interaction.channel_id, interaction.user.id, name, game.value, format.value,
                rules=parse_rules(rules), max_players=max_players,
                signup_closes_at=None if signup_closes is None else now + signup_closes * 60,
                best_of=best_of.value if best_of else 1, check_in=(check_in or 0) * 60,
                no_show=DEFAULT_NO_SHOW if no_show is None else no_show * 60, rounds=rounds,
                pace=pace.value if pace else None, organiser_name=interaction.user.display_name,
                bot=None if bot is None or self.bot.user is None else
                {"id": self.bot.user.id, "name": self.bot.user.display_name, "level": bot.value})
        except USER_ERRORS as error:
            await tell(interaction, said(error, interaction))
            return
        _ = private_words(interaction)
        await tell(interaction, _("**{name}** is open: its signup is posted in this channel (players press **Join**). "
                                  "Start it with `/tournament start` once everyone is in.",
                                  name=update.tournament.name))
        self.after(update)

    async def _organiser_action(self, interaction: discord.Interaction, action: str, **kwargs: Any) -> None:
        tournament = await self._current(interaction)
        if tournament is None:
            return
        manager = bool(interaction.permissions.manage_guild)
        method = getattr(self.service, action)
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            update = await method(tournament.id, interaction.user.id, manager=manager, **kwargs)
        except USER_ERRORS as error:
            await interaction.followup.send(said(error, interaction), ephemeral=True, allowed_mentions=NO_MENTIONS)
            return
        await interaction.followup.send(private_words(interaction)(DONE[action]), ephemeral=True)
        self.after(update)

    @group.command(name="start", description="Close the signup (check-in first, if the tournament has one)")
    async def start(self, interaction: discord.Interaction) -> None:
        await self._organiser_action(interaction, "start")

    @group.command(name="pause", description="Pause the tournament: no new games, no no-show clocks")
    async def pause(self, interaction: discord.Interaction) -> None:
        await self._organiser_action(interaction, "pause")

    @group.command(name="resume", description="Let a paused tournament go on")
    async def resume(self, interaction: discord.Interaction) -> None:
        await self._organiser_action(interaction, "resume")

    @group.command(name="cancel", description="Cancel the tournament in this channel")
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self._organiser_action(interaction, "cancel")

    @group.command(name="disqualify", description="Disqualify a player: their matches are forfeits")
    @app_commands.describe(player="The player to disqualify")
    async def disqualify(self, interaction: discord.Interaction, player: discord.Member | discord.User) -> None:
        await self._organiser_action(interaction, "disqualify", player_id=player.id)

    @group.command(name="bracket", description="The bracket or the standings, as a picture and as text")
    async def bracket(self, interaction: discord.Interaction) -> None:
        tournament = await self._current(interaction)
        if tournament is None:
            return
        say = private_words(interaction)
        _ = say
        if not tournament.has_state:
            await tell(interaction, _("**{name}** hasn't started yet: no bracket so far.", name=tournament.name))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        bracket = Tournament.from_json(tournament.state)
        names = await self._player_names(tournament)
        pictures = await asyncio.to_thread(render.pictures, bracket, names, wording.title(tournament, say), say)
        text = render.bracket_text(bracket, names, limit=1800, say=say) if bracket.is_elimination else \
            render.standings_text(bracket, names, limit=1800, say=say)
        await interaction.followup.send(clamp(f"**{tournament.name}**\n{text}", say=say),
                                        files=[self._file(picture) for picture in pictures], ephemeral=True,
                                        allowed_mentions=NO_MENTIONS)

    @group.command(name="status", description="Where the tournament in this channel stands")
    async def status(self, interaction: discord.Interaction) -> None:
        tournament = await self._current(interaction)
        if tournament is None:
            return
        say = private_words(interaction)
        _ = say
        entrants = await self.service.entrants(tournament.id)
        stage = say(STATUS_NAMES[tournament.status]) if tournament.status in STATUS_NAMES else tournament.status
        organiser = mention(tournament.organiser_id, say)
        rules = wording.rules_words(tournament.game, tournament.rules, say)
        lines = [f"**{wording.title(tournament, say)}** — {stage}",
                 _.ngettext("Organiser: {player} · {count} player signed up",
                            "Organiser: {player} · {count} players signed up", len(entrants), player=organiser),
                 _("Rules: {rules}", rules=rules)]
        if tournament.signup_message_id is not None:
            link = (f"https://discord.com/channels/{tournament.guild_id}/{tournament.channel_id}/"
                    f"{tournament.signup_message_id}")
            lines.append(_("Bracket and results: {link}", link=link))
        if tournament.has_state:
            bracket = Tournament.from_json(tournament.state)
            names = await self._player_names(tournament)
            rows = [row for row in await self.service.bracket_matches(tournament.id) if row.status != "decided"]
            for row in rows[:15]:
                state = say(MATCH_STATES[row.status])
                score = f" ({row.wins[0]}–{row.wins[1]})" if sum(row.wins) else ""
                if row.status == "playing":  # which game, and how the ones before it went (a draw played again)
                    state, score = wording.playing_words(row, say), ""
                if row.status == "called" and row.deadline_at:
                    state = _("{state}, by {time}", state=state, time=timestamp(row.deadline_at))
                lines.append(_("{round}: {first} vs {second}{score}: {state}",
                               round=wording.round_name(bracket, row.round, say), first=mention(row.players[0], say),
                               second=mention(row.players[1], say), score=score, state=state))
            if len(rows) > 15:
                lines.append(_.ngettext("… and {count} more match under way", "… and {count} more matches under way",
                                        len(rows) - 15))
            lines.append("")
            lines.append(render.standings_text(bracket, names, limit=1000, top=10, say=say))
        elif tournament.status == "signup" and tournament.signup_closes_at:
            lines.append(_("Signup closes {time}.", time=timestamp(tournament.signup_closes_at)))
        await tell(interaction, clamp("\n".join(lines), say=say))

    @group.command(name="history", description="Past tournaments of this server and their champions")
    @app_commands.describe(page="Page (10 per page)")
    async def history(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 1000] = 1) -> None:
        assert interaction.guild_id is not None
        say = private_words(interaction)
        _ = say
        rows, pages = await self.service.history(interaction.guild_id, page)
        if not rows:
            await tell(interaction, _("No tournament has ended in this server yet."))
            return
        lines = [_("**Past tournaments** (page {page} of {pages})", page=min(page, pages), pages=pages)]
        for t in rows:
            when = datetime.fromtimestamp(t.finished_at or t.updated_at, UTC)
            if t.status != "finished":
                outcome = _("cancelled")
            elif t.champion_id is not None:
                outcome = f"🏆 {mention(t.champion_id, say)}"
            else:
                outcome = _("no champion")
            lines.append(f"• **{t.name}** — {say(game_class(t.game).title)}, "
                         f"{say(render.FORMAT_NAMES[Format(t.format)])} — {outcome} — {timestamp(when, 'd')}")
        await tell(interaction, clamp("\n".join(lines), say=say))


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(TournamentCog(bot))  # type: ignore[arg-type]
