"""`/tournament create|start|bracket|status|disqualify|pause|resume|cancel|history` and the tournament buttons.

The cog translates: commands and clicks call :class:`~bot.services.tournaments.TournamentService`, refusals are
ephemeral, and what the service queued for the channel (signup list, calls with a Ready button, results, the
organiser's actions, the champion) is posted in order by one background task per tournament, each event marked
shown once posted. The games of a match are real matches: each is handed to its game's cog (the one holding the
game's :class:`~bot.match.kernel.MatchKernel`), which shows it in its thread, runs its timers and records
its result. Their ends are picked up by reconciliation: after every update that dealt a game, and every
:data:`RECONCILE_SECONDS`; after a restart the cog reconciles, shows what was not shown and re-arms every
tournament's timer (signup close, check-in end, no-shows).
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

from bot.games import game_class, registry
from bot.match.kernel import MatchKernel, MatchUpdate
from bot.render import bracket as render
from bot.render.bracket import mention
from bot.render.common import clamp, timestamp
from bot.services import USER_ERRORS
from bot.services.tournaments import DEFAULT_NO_SHOW, TournamentService, TournamentUpdate, parse_rules
from bot.storage.tournaments import TournamentEvent, TournamentRecord
from bot.tournaments import Format, Tournament
from cogs._stats_ui import game_choices
from cogs._tournament_ui import COG_NAME, DYNAMIC_ITEMS, ready_view, signup_view, tell
from cogs.kit.choices import set_choices
from cogs.kit.messages import NO_MENTIONS

if TYPE_CHECKING:
    from bot.client import CardGameBot

log = logging.getLogger("cogs.tournament")

RECONCILE_SECONDS = 2.0
#: players named on the signup message (the rest are counted): an embed holds 4096 characters
SIGNUP_LISTED = 100
#: a bracket picture is redrawn at most this often while results come in (and always at the end)
BRACKET_REFRESH_SECONDS = 3.0
FORMATS = [("single elimination", "single_elimination"), ("double elimination", "double_elimination"),
           ("round robin", "round_robin"), ("Swiss", "swiss")]
PACES = [("flip: players flip each card", "flip"), ("auto: the bot plays a round every 2 s", "auto"),
         ("instant: the game is played out at once", "instant")]
TITLES = {"result": "🏁", "over": "🏆", "disqualified": "⛔", "paused": "⏸️", "resumed": "▶️", "cancelled": "✖️"}


def timer_key(tournament_id: int) -> tuple[str, int]:
    return ("tournament", tournament_id)


class TournamentCog(commands.Cog, name=COG_NAME):
    group = app_commands.Group(name="tournament", description="Tournaments of any game, played in this channel",
                               guild_only=True)

    def __init__(self, bot: CardGameBot) -> None:
        self.bot = bot
        self.service = TournamentService(bot.db, self.game_service, clock=bot.clock, seed_source=bot.seed_source)
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._refresh: dict[int, asyncio.Task[None]] = {}
        self._reconciling: asyncio.Task[None] | None = None
        self._reconcile_again = False
        self._loop: asyncio.Task[None] | None = None
        self._closed = False

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
        set_choices(self.create, game=game_choices())
        self._loop = asyncio.get_running_loop().create_task(self._run_loop(), name="tournament-loop")

    async def cog_unload(self) -> None:
        self._closed = True
        tasks = [t for t in (self._loop, self._reconciling, *self._tasks.values(), *self._refresh.values())
                 if t is not None]
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
            for tournament_id in await self.service.tournaments_with_unshown_events():
                self.show(tournament_id)
            for tournament in await self.service.open_tournaments():
                self.arm(tournament.id, await self.service.next_due(tournament.id))
                if tournament.signup_message_id is not None:
                    self.show(tournament.id)
        except Exception:
            log.exception("resuming the tournaments failed")
        while not self._closed:
            self.reconcile_soon()
            await asyncio.sleep(RECONCILE_SECONDS)

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
        """A committed update: its games to their cogs, its events to the channel, its timer."""
        for game in update.games:
            self.show_game(game)
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

    # --- showing the channel's events ----------------------------------------------------------------------
    def show(self, tournament_id: int) -> None:
        if self._closed:
            return
        self._again.add(tournament_id)
        if tournament_id not in self._tasks:
            self._tasks[tournament_id] = asyncio.get_running_loop().create_task(
                self._show_loop(tournament_id), name=f"tournament-show-{tournament_id}")

    async def _show_loop(self, tournament_id: int) -> None:
        try:
            while tournament_id in self._again and not self._closed:
                self._again.discard(tournament_id)
                await self._show_unshown(tournament_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("showing tournament %s failed; its events stay queued", tournament_id)
        finally:
            self._tasks.pop(tournament_id, None)

    def _channel(self, tournament: TournamentRecord) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(tournament.channel_id, guild_id=tournament.guild_id)

    async def _show_unshown(self, tournament_id: int) -> None:
        queued = await self.service.unshown_events(tournament_id)
        if not queued:
            return
        tournament = await self.service.get(tournament_id)
        names = await self._names(tournament)
        signup_changed = refresh = final = False
        for event in queued:
            kind = event.type
            if kind in ("created", "signup", "check_in", "started") or (kind == "cancelled"
                                                                          and tournament.started_at is None):
                signup_changed = True
            if kind == "call":
                await self._post_call(tournament, event, names)
            elif kind == "started":
                await self._send(tournament, event, self._started_line(tournament, event))
                final = True  # the first picture at once
            elif kind in ("result", "round", "disqualified", "paused", "resumed", "cancelled", "over", "waiting",
                          "check_in"):
                line = self._line(tournament, event, names)
                if line:
                    await self._send(tournament, event, line)
                refresh = refresh or kind in ("result", "disqualified", "round")
                final = final or kind == "over"
            if signup_changed and kind in ("started", "cancelled"):
                await self._show_signup(tournament)
                signup_changed = False
            await self.service.mark_shown(tournament_id, event.seq)
        if signup_changed:
            await self._show_signup(tournament)
        if final:
            await self._refresh_bracket(tournament_id)
        elif refresh:
            self._refresh_later(tournament_id)

    @staticmethod
    def _nonce(tournament: TournamentRecord, seq: int) -> str:
        """The same for the same event every time: a send repeated after a crash (sent, not marked shown) gets the
        message made the first time (Discord keeps nonces a few minutes)."""
        key = f"tournament:{tournament.id}:{tournament.created_at!r}:{seq}"
        return hashlib.blake2b(key.encode(), digest_size=12).hexdigest()

    async def _send(self, tournament: TournamentRecord, event: TournamentEvent, text: str,
                    **kwargs: Any) -> discord.Message:
        kwargs.setdefault("allowed_mentions", NO_MENTIONS)
        return await self._channel(tournament).send(text, nonce=self._nonce(tournament, event.seq), **kwargs)

    async def _names(self, tournament: TournamentRecord) -> dict[int, str]:
        return await self.service.names(tournament.id)

    def _title(self, tournament: TournamentRecord) -> str:
        fmt = render.FORMAT_NAMES[Format(tournament.format)]
        return f"{tournament.name} · {game_class(tournament.game).title} · {fmt}"

    def _started_line(self, tournament: TournamentRecord, event: TournamentEvent) -> str:
        players = event.event["players"]
        left = event.event.get("left_out") or []
        seeds = ", ".join(f"{i + 1}. {mention(p)}" for i, p in enumerate(players[:32]))
        more = f" … and {len(players) - 32} more" if len(players) > 32 else ""
        out = f" Not checked in, left out: {', '.join(f'{mention(p)}' for p in left)}." if left else ""
        return clamp(f"🎬 **{tournament.name}** starts with {len(players)} players. Seeds: {seeds}{more}.{out}", 1900)

    def _line(self, tournament: TournamentRecord, event: TournamentEvent, names: dict[int, str]) -> str:
        e = event.event
        kind = event.type
        if kind == "result":
            first, second = e["players"]
            winner = e["winner"]
            score = f" {max(e['wins'])}–{min(e['wins'])}" if sum(e["wins"]) > 1 else ""
            if winner is None:
                how = {"double_no_show": "neither player showed up: a draw"}.get(e["outcome"], "a draw")
                return f"🏁 `{e['key']}` {mention(first)} vs {mention(second)}: {how}."
            loser = second if winner == first else first
            how = {"no_show": f" ({mention(loser)} didn't show up)",
                   "double_no_show": " (neither showed up: the better seed goes through)",
                   "forfeit": " (forfeit)", "disqualified": " (forfeit)"}.get(e["outcome"], "")
            return f"🏁 `{e['key']}` {mention(winner)} beats {mention(loser)}{score}{how}."
        if kind == "round":
            return f"🔁 Round {e['round']} is paired."
        if kind == "disqualified":
            return f"⛔ {mention(e['player'])} was disqualified by {mention(e['by'])}."
        if kind == "paused":
            return (f"⏸️ {mention(e['by'])} paused **{tournament.name}**: no new games and no no-show clocks until it "
                    "goes on.")
        if kind == "resumed":
            return (f"▶️ {mention(e['by'])} resumed **{tournament.name}**. Matches waiting for Ready: press it by "
                    f"{timestamp(e['deadline_at'])}.")
        if kind == "cancelled":
            if e.get("reason") == "too_few_players":
                return f"✖️ **{tournament.name}** is cancelled: fewer than two players."
            return f"✖️ {mention(e['by'])} cancelled **{tournament.name}**."
        if kind == "waiting":
            return f"⏳ `{e['key']}` waits: {mention(e['busy'])} is still in another match of the game."
        if kind == "check_in":
            return f"📋 Check-in for **{tournament.name}** is open until {timestamp(e['ends_at'])}."
        if kind == "over":
            if e["champion"] is None:
                return f"🏆 **{tournament.name}** is over, without a champion."
            return f"🏆 **{tournament.name}** is over: {mention(e['champion'])} is the champion!"
        return ""

    async def _post_call(self, tournament: TournamentRecord, event: TournamentEvent, names: dict[int, str]) -> None:
        e = event.event
        first, second = e["players"]
        best_of = tournament.options.get("best_of", 1)
        series = f" (best of {best_of})" if best_of > 1 else ""
        if e.get("ready_check") and e.get("deadline_at") is not None:
            text = (f"📣 **{tournament.name}** · `{e['key']}`{series}: {mention(first)} vs {mention(second)} — press "
                    f"**Ready** by {timestamp(e['deadline_at'])}; who doesn't forfeits. The game starts once both "
                    "are ready.")
            view: discord.ui.View | None = ready_view(tournament.id, e["key"])
        elif e.get("ready_check"):
            text = (f"📣 **{tournament.name}** · `{e['key']}`{series}: {mention(first)} vs {mention(second)} — press "
                    "**Ready** once the tournament goes on.")
            view = ready_view(tournament.id, e["key"])
        else:
            text = (f"📣 **{tournament.name}** · `{e['key']}`{series}: {mention(first)} vs {mention(second)} — your "
                    "game starts now.")
            view = None
        kwargs: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions(users=True)}
        if view is not None:
            kwargs["view"] = view
        message = await self._send(tournament, event, text, **kwargs)
        await self.service.set_call_message(tournament.id, e["key"], message.id)

    async def _show_signup(self, tournament: TournamentRecord) -> None:
        tournament = await self.service.get(tournament.id)
        entrants = await self.service.entrants(tournament.id)
        options = tournament.options
        lines = [f"Organiser: {mention(tournament.organiser_id)} · best of {options.get('best_of', 1)} · no-show "
                 f"window {options.get('no_show', DEFAULT_NO_SHOW) // 60} min"
                 + (f" · pace {options['pace']}" if "pace" in options else "")]
        if tournament.rules:
            lines.append("Rules: " + ", ".join(f"{k}={v}" for k, v in sorted(tournament.rules.items())
                                               if k != "players"))
        if tournament.status == "signup":
            closes = (f"Signup closes {timestamp(tournament.signup_closes_at)}" if tournament.signup_closes_at
                      else "Signup is open until the organiser starts the tournament")
            lines.append(f"{closes}. Up to {options.get('max_players')} players.")
        elif tournament.status == "check_in" and tournament.check_in_ends_at is not None:
            lines.append(f"Check in by {timestamp(tournament.check_in_ends_at)}: who hasn't is left out.")
        elif tournament.status == "cancelled":
            lines.append("Cancelled.")
        else:
            lines.append("Signup is closed.")
        players = [f"{mention(p.user_id)}" + (" ✅" if tournament.status == "check_in" and p.checked_in else "")
                   for p in entrants]
        shown = players[:SIGNUP_LISTED]
        listing = ", ".join(shown) if players else "nobody yet"
        if len(players) > len(shown):
            listing += f" … and {len(players) - len(shown)} more"
        embed = discord.Embed(title=clamp(f"🏟️ {self._title(tournament)}", 256), colour=discord.Colour.gold(),
                              description=clamp(f"**Players ({len(players)}):** {listing}\n\n" + "\n".join(lines),
                                                4000))
        view = signup_view(tournament.id, tournament.status)
        channel = self._channel(tournament)
        if tournament.signup_message_id is None:
            message = await channel.send(embed=embed, view=view or discord.utils.MISSING, allowed_mentions=NO_MENTIONS)
            await self.service.set_message(tournament.id, "signup", message.id)
        else:
            try:
                await channel.get_partial_message(tournament.signup_message_id).edit(embed=embed, view=view)
            except discord.NotFound:
                message = await channel.send(embed=embed, view=view or discord.utils.MISSING,
                                             allowed_mentions=NO_MENTIONS)
                await self.service.set_message(tournament.id, "signup", message.id)

    # --- the bracket picture -------------------------------------------------------------------------------
    def _refresh_later(self, tournament_id: int) -> None:
        if tournament_id in self._refresh or self._closed:
            return

        async def later() -> None:
            try:
                await asyncio.sleep(BRACKET_REFRESH_SECONDS)
                self._refresh.pop(tournament_id, None)
                await self._refresh_bracket(tournament_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("tournament %s: the bracket picture could not be updated", tournament_id)
            finally:
                self._refresh.pop(tournament_id, None)

        self._refresh[tournament_id] = asyncio.get_running_loop().create_task(later())

    async def _refresh_bracket(self, tournament_id: int) -> None:
        pending = self._refresh.pop(tournament_id, None)
        if pending is not None and pending is not asyncio.current_task():
            pending.cancel()
        tournament = await self.service.get(tournament_id)
        if not tournament.has_state:
            return
        bracket = Tournament.from_json(tournament.state)
        names = await self._names(tournament)
        picture = await asyncio.to_thread(render.picture, bracket, names, self._title(tournament))
        file = discord.File(io.BytesIO(picture.png), filename=picture.filename, description=picture.alt)
        content = self._bracket_caption(tournament, bracket)
        channel = self._channel(tournament)
        if tournament.bracket_message_id is not None:
            try:
                await channel.get_partial_message(tournament.bracket_message_id).edit(
                    content=content, attachments=[file], allowed_mentions=NO_MENTIONS)
                return
            except discord.NotFound:
                pass
        message = await channel.send(content, file=file, allowed_mentions=NO_MENTIONS)
        await self.service.set_message(tournament_id, "bracket", message.id)

    @staticmethod
    def _bracket_caption(tournament: TournamentRecord, bracket: Tournament) -> str:
        what = "Bracket" if bracket.is_elimination else "Standings"
        if bracket.is_over:
            champion = mention(bracket.champion)
            return f"📊 **{tournament.name}** — final {what.lower()}. Champion: {champion}."
        round_ = bracket.current_round()
        return f"📊 **{tournament.name}** — {what.lower()}" + (f", playing {round_.label}." if round_ else ".")

    # --- buttons --------------------------------------------------------------------------------------------
    async def check_player(self, interaction: discord.Interaction, tournament_id: int, key: str) -> bool:
        row = await self.service.bracket_match(tournament_id, key)
        if row is None or interaction.user.id not in row.players:
            await tell(interaction, "This isn't your match.")
            return False
        return True

    async def on_signup_button(self, interaction: discord.Interaction, tournament_id: int, action: str) -> None:
        user = interaction.user
        try:
            if action == "join":
                if user.bot:
                    raise_text = "Bots can't play in tournaments."
                    await tell(interaction, raise_text)
                    return
                update = await self.service.join(tournament_id, user.id, user.display_name)
                text = "You're in. Good luck!"
            elif action == "leave":
                update = await self.service.leave(tournament_id, user.id)
                text = "You've left the tournament."
            else:
                update = await self.service.check_in(tournament_id, user.id)
                text = "You're checked in."
        except USER_ERRORS as error:
            await tell(interaction, str(error))
            return
        await tell(interaction, text)
        self.after(update)

    async def on_ready_button(self, interaction: discord.Interaction, tournament_id: int, key: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            update = await self.service.ready(tournament_id, key, interaction.user.id)
        except USER_ERRORS as error:
            await interaction.followup.send(str(error), ephemeral=True, allowed_mentions=NO_MENTIONS)
            return
        ready = next(e.event["ready"] for e in update.events if e.type == "ready")
        text = "Ready! Your game starts now." if all(ready) else "Ready! Waiting for your opponent."
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
        self.after(update)

    # --- commands -------------------------------------------------------------------------------------------
    async def _current(self, interaction: discord.Interaction) -> TournamentRecord | None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        tournament = await self.service.in_channel(interaction.guild_id, interaction.channel_id)
        if tournament is None:
            await tell(interaction, "There's no tournament in this channel. Start one with `/tournament create`.")
        return tournament

    @group.command(name="create", description="Create a tournament in this channel: players sign up with Join")
    @app_commands.describe(
        name="The tournament's name", game="The game played", format="How players meet",
        rules="Game rules as key=value pairs, like: face_down=3 aces=low",
        max_players="At most this many players (2-256)", signup_closes="Minutes until signup closes by itself",
        best_of="Games per match (1, 3, 5 or 7)", check_in="Minutes of check-in before the start (0: none)",
        no_show="Minutes a player has to press Ready when called (default 10; 0: games start at once)",
        pace="War games: how cards are flipped (default auto)", rounds="Swiss: the number of rounds",
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
                     rounds: app_commands.Range[int, 1, 20] | None = None) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        now = self.bot.clock()
        try:
            update = await self.service.create(
                interaction.guild_id, interaction.channel_id, interaction.user.id, name, game.value, format.value,
                rules=parse_rules(rules), max_players=max_players,
                signup_closes_at=None if signup_closes is None else now + signup_closes * 60,
                best_of=best_of.value if best_of else 1, check_in=(check_in or 0) * 60,
                no_show=DEFAULT_NO_SHOW if no_show is None else no_show * 60, rounds=rounds,
                pace=pace.value if pace else None, organiser_name=interaction.user.display_name)
        except USER_ERRORS as error:
            await tell(interaction, str(error))
            return
        await interaction.response.send_message(
            f"🏟️ <@{interaction.user.id}> opened **{update.tournament.name}**: press **Join** below to play.",
            allowed_mentions=NO_MENTIONS)
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
            await interaction.followup.send(str(error), ephemeral=True, allowed_mentions=NO_MENTIONS)
            return
        done = {"start": "Started.", "pause": "Paused.", "resume": "Resumed.", "cancel": "Cancelled.",
                "disqualify": "Disqualified."}[action]
        await interaction.followup.send(done, ephemeral=True)
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
        if not tournament.has_state:
            await tell(interaction, f"**{tournament.name}** hasn't started yet: no bracket so far.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        bracket = Tournament.from_json(tournament.state)
        names = await self._names(tournament)
        picture = await asyncio.to_thread(render.picture, bracket, names, self._title(tournament))
        text = render.bracket_text(bracket, names, limit=1800) if bracket.is_elimination else \
            render.standings_text(bracket, names, limit=1800)
        file = discord.File(io.BytesIO(picture.png), filename=picture.filename, description=picture.alt)
        await interaction.followup.send(clamp(f"**{tournament.name}**\n{text}"), file=file, ephemeral=True,
                                        allowed_mentions=NO_MENTIONS)

    @group.command(name="status", description="Where the tournament in this channel stands")
    async def status(self, interaction: discord.Interaction) -> None:
        tournament = await self._current(interaction)
        if tournament is None:
            return
        entrants = await self.service.entrants(tournament.id)
        lines = [f"**{self._title(tournament)}** — {tournament.status.replace('_', ' ')}",
                 f"Organiser: {mention(tournament.organiser_id)} · {len(entrants)} players signed up"]
        if tournament.has_state:
            bracket = Tournament.from_json(tournament.state)
            names = await self._names(tournament)
            rows = [row for row in await self.service.bracket_matches(tournament.id) if row.status != "decided"]
            for row in rows[:15]:
                state = {"called": "waiting for Ready", "waiting": "next game about to start",
                         "playing": "playing"}[row.status]
                score = f" ({row.wins[0]}–{row.wins[1]})" if sum(row.wins) else ""
                due = f", by {timestamp(row.deadline_at)}" if row.status == "called" and row.deadline_at else ""
                lines.append(f"`{row.key}` {mention(row.players[0])} vs {mention(row.players[1])}{score}: {state}{due}")
            if len(rows) > 15:
                lines.append(f"… and {len(rows) - 15} more matches under way")
            lines.append("")
            lines.append(render.standings_text(bracket, names, limit=1000, top=10))
        elif tournament.status == "signup" and tournament.signup_closes_at:
            lines.append(f"Signup closes {timestamp(tournament.signup_closes_at)}.")
        await tell(interaction, clamp("\n".join(lines)))

    @group.command(name="history", description="Past tournaments of this server and their champions")
    @app_commands.describe(page="Page (10 per page)")
    async def history(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 1000] = 1) -> None:
        assert interaction.guild_id is not None
        rows, pages = await self.service.history(interaction.guild_id, page)
        if not rows:
            await tell(interaction, "No tournament has ended in this server yet.")
            return
        lines = [f"**Past tournaments** (page {min(page, pages)} of {pages})"]
        for t in rows:
            when = datetime.fromtimestamp(t.finished_at or t.updated_at, UTC)
            outcome = (f"🏆 {mention(t.champion_id)}" if t.champion_id is not None else "no champion") \
                if t.status == "finished" else "cancelled"
            lines.append(f"• **{t.name}** — {game_class(t.game).title}, "
                         f"{render.FORMAT_NAMES[Format(t.format)]} — {outcome} — {timestamp(when, 'd')}")
        await tell(interaction, clamp("\n".join(lines)))


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(TournamentCog(bot))  # type: ignore[arg-type]
