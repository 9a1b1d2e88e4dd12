"""`/war challenge|lobby|forfeit|status` and every War button: the Discord face of War's matches (the match kernel
playing :class:`~bot.games.war.flow.WarFlow`).

The cog translates and nothing more: a command or click calls the service, answers within Discord's 3 seconds (a
refusal as an ephemeral message, nothing changed), then arms the match's timer and asks the presenter
(:mod:`cogs._war_presenter`) to show what the call queued. The server's settings (:mod:`bot.services.settings`)
decide where a game may start, the rules a game starts with (the server's defaults for the variant, overridden by
the command's own options), the pace when the command names none, and the flip-pace turn timer.

Timers: a challenge or lobby expiry and a flip-pace turn deadline run on the bot's
:class:`~bot.match.timers.Timers` at the stored deadline; an auto-pace round runs after the bot's pace sleep
(``AUTO_ROUND_SECONDS``). After a start the cog resumes its own matches once the
gateway is ready (turn deadlines that passed while away are moved, unshown events shown, timers re-armed); Air
War's resume leaves War matches alone (the services filter by their games).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import game_class, registry
from bot.games.war import render
from bot.games.war.flow import AUTO_ROUND_SECONDS, DEFAULT_PACE, FLIP
from bot.match import errors as service_errors
from bot.match.kernel import MatchKernel, MatchUpdate
from bot.render.stats import rules_text as settings_rules_text
from bot.services import USER_ERRORS
from bot.storage.records import MatchRecord
from cogs._match_common import mentions, message_link, missing_permissions, start_refusal
from cogs._stats_ui import settings_service
from cogs._war_presenter import WarPresenter
from cogs._war_ui import COG_NAME, DYNAMIC_ITEMS, NO_MENTIONS, forfeit_view
from cogs.kit.messages import Answer

if TYPE_CHECKING:
    from bot.client import CardGameBot

log = logging.getLogger("cogs.war")

RULE_KEYS = ("face_down", "short", "war_joins", "return_order", "capture_pile", "jokers", "joker_each", "aces",
             "decks", "pack", "six_beats_ace")
MAX_TARGET = 108  # two decks with their jokers


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return "none" if value is None else str(value)


def rule_choices(key: str) -> list[app_commands.Choice[str]]:
    """A rule's values as choices, the default named: "(default)" when every variant has it, else "(default in
    Drunkard)" and the like."""
    classes = [game_class(name) for name in registry().family("war")]
    option = next(o for o in classes[0].options if o.key == key)
    values = option.choices if option.choices is not None else (False, True)
    choices = []
    for value in values:
        defaults = [cls.title for cls in classes
                    if next(o for o in cls.options if o.key == key).default == value
                    and type(next(o for o in cls.options if o.key == key).default) is type(value)]
        mark = " (default)" if len(defaults) == len(classes) else (f" (default in {', '.join(defaults)})"
                                                                   if defaults else "")
        text = "true" if value is True else "false" if value is False else str(value)
        choices.append(app_commands.Choice(name=f"{_show(value)}{mark}"[:100], value=text))
    return choices


def rule_help(key: str) -> str:
    option = next(o for o in game_class("war").options if o.key == key)
    return option.help[:100]


VARIANTS = [app_commands.Choice(name="War (default)", value="war"),
            app_commands.Choice(name="Drunkard (36 cards, a 6 beats an ace)", value="drunkard"),
            app_commands.Choice(name="Tod und Leben (black against red, 2 players)", value="todundleben")]
PACES = [app_commands.Choice(name="auto: the bot plays a round every 2 s", value="auto"),
         app_commands.Choice(name="flip: every player presses Flip each round", value="flip"),
         app_commands.Choice(name="instant: played out at once", value="instant")]
PACE_HELP = "How the rounds are played (default: this server's War pace, see /settings show)"
RULE_CHOICES = {key: rule_choices(key) for key in RULE_KEYS}
RULE_DESCRIPTIONS = {key: rule_help(key) for key in RULE_KEYS}
RULE_DESCRIPTIONS["target"] = "First to hold this many cards wins (default: play for all the cards)"
RULE_DESCRIPTIONS["max_rounds"] = "After this many rounds the most cards wins (default 10,000)"

Choice = app_commands.Choice[str]


def timer_key(match_id: int) -> tuple[str, int]:
    return ("war", match_id)


def rules_from(values: dict[str, Any]) -> dict[str, Any]:
    rules: dict[str, Any] = {}
    for key in (*RULE_KEYS, "target", "max_rounds"):
        value = values.get(key)
        if value is not None:
            rules[key] = value.value if isinstance(value, app_commands.Choice) else value
    return rules


class WarCog(commands.Cog, name=COG_NAME):
    war_group = app_commands.Group(name="war", description="War, Drunkard and Tod und Leben for 2-4 players",
                                   guild_only=True)

    def __init__(self, bot: CardGameBot) -> None:
        self.bot = bot
        self.war: MatchKernel = bot.service_for("war")
        self.presenter = WarPresenter(self)
        self.pace_sleep = getattr(bot, "pace_sleep", asyncio.sleep)
        self.defer_after: float = getattr(bot, "defer_after", 1.5)
        self._armed: dict[int, float] = {}
        self._auto: dict[int, tuple[int, asyncio.Task[None]]] = {}

    async def cog_load(self) -> None:
        self.bot.displays["war"] = self

    async def cog_unload(self) -> None:
        if self.bot.displays.get("war") is self:
            del self.bot.displays["war"]
        for match_id in list(self._armed):
            self.bot.timers.cancel(timer_key(match_id))
        self._armed.clear()
        tasks = [task for _, task in self._auto.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._auto.clear()
        await self.presenter.close()

    async def resume(self) -> None:
        """After a start: move the turn deadlines that passed meanwhile, show what is unshown, re-arm the timers."""
        await self.war.resume_deadlines()
        for match_id in await self.war.matches_with_unshown_events():
            self.presenter.show(match_id)
        for match in await self.war.open_matches():
            self.arm(match)

    # --- timers ------------------------------------------------------------------------------------------------
    def arm(self, match: MatchRecord) -> None:
        """Arm (or cancel) the match's timer from its stored deadline; an auto round after the pace sleep."""
        key = timer_key(match.id)
        if not match.is_open or match.deadline_at is None or match.deadline_kind == "round":
            self.bot.timers.cancel(key)
            self._armed.pop(match.id, None)
        if not match.is_open or match.deadline_kind != "round":
            running = self._auto.pop(match.id, None)
            if running is not None and running[1] is not asyncio.current_task():
                running[1].cancel()
        if not match.is_open or match.deadline_at is None:
            return
        if match.deadline_kind == "round":
            number = match.step + 1
            running = self._auto.get(match.id)
            if running is not None and running[0] == number and not running[1].done():
                return
            task = asyncio.get_running_loop().create_task(self._auto_round(match.id, number, match.deadline_at),
                                                          name=f"war-round-{match.id}")
            self._auto[match.id] = (number, task)
            return
        if self._armed.get(match.id) == match.deadline_at and self.bot.timers.armed(key):
            return
        self._armed[match.id] = match.deadline_at
        self.bot.timers.arm(key, match.deadline_at, functools.partial(self._deadline, match.id))

    async def _auto_round(self, match_id: int, number: int, due: float) -> None:
        try:
            await self.pace_sleep(max(0.0, min(AUTO_ROUND_SECONDS, due - self.bot.clock())))
            update = await self.war.auto_step(match_id, number)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("war match %s: round %s failed", match_id, number)
            return
        finally:
            current = self._auto.get(match_id)
            if current is not None and current[1] is asyncio.current_task():
                del self._auto[match_id]
        if update is not None:
            self.after(update)

    async def _deadline(self, match_id: int) -> None:
        self._armed.pop(match_id, None)
        update = await self.war.deadline_due(match_id)
        if update is not None:
            self.after(update)
            return
        match = await self.war.get_match(match_id)
        if match.is_open and match.deadline_at is not None and match.deadline_at > self.bot.clock():
            self.arm(match)

    def after(self, update: MatchUpdate) -> None:
        self.arm(update.match)
        if update.events:
            self.presenter.show(update.match.id)

    # --- helpers -----------------------------------------------------------------------------------------------
    def answer(self, interaction: discord.Interaction, *, thinking: bool = False, ephemeral: bool = False) -> Answer:
        return Answer(interaction, thinking=thinking, ephemeral=ephemeral, defer_after=self.defer_after)

    @staticmethod
    async def tell(interaction: discord.Interaction, text: str) -> None:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
        else:
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_MENTIONS)

    async def check_player(self, interaction: discord.Interaction, match_id: int) -> bool:
        try:
            match = await self.war.get_match(match_id)
        except service_errors.MatchNotFound as error:
            await self.tell(interaction, str(error))
            return False
        if interaction.user.id not in match.user_ids:
            await self.tell(interaction, str(service_errors.NotYourMatch()))
            return False
        self.presenter.remember_name(interaction.guild_id, interaction.user)
        return True

    # --- buttons -----------------------------------------------------------------------------------------------
    async def on_button(self, interaction: discord.Interaction, match_id: int, kind: str, *args: Any) -> None:
        if kind == "forfeit":
            await self.on_forfeit_button(interaction, match_id, args[0])
            return
        user = interaction.user
        war = self.war
        async with self.answer(interaction) as answer:
            try:
                if kind == "challenge":
                    method = {"accept": war.accept, "decline": war.decline, "withdraw": war.withdraw}[args[0]]
                    update = await method(match_id, user.id)
                elif kind == "lobby":
                    action = args[0]
                    if action == "join":
                        update = await war.join(match_id, user.id, user.display_name)
                        self.presenter.remember_name(interaction.guild_id, user)
                    else:
                        method = {"leave": war.leave, "start": war.start, "cancel": war.cancel_lobby}[action]
                        update = await method(match_id, user.id)
                else:
                    number, key = args
                    if key == "flip":
                        update = await war.pick(match_id, user.id, number, FLIP)
                    else:
                        update = await war.vote(match_id, user.id, key.removeprefix("vote:"))
            except USER_ERRORS as error:
                await answer.tell(str(error))
                return
            try:
                if kind == "table" and args[1] != "flip":
                    wanted = args[1].removeprefix("vote:")
                    event = next((q.event for q in update.events if q.type == "vote"), None)
                    on = bool(event and event.get("on"))
                    switched = any(q.type == "pace" for q in update.events)
                    text = (f"Everyone agreed: the game is now at the {update.match.options.get('pace')} pace."
                            if switched else f"Your vote for the {wanted} pace is {'in' if on else 'taken back'}.")
                    await answer.tell(text)
                else:
                    await answer.acknowledge()
            finally:
                self.after(update)

    # --- commands ----------------------------------------------------------------------------------------------
    async def _server_terms(self, interaction: discord.Interaction, game: str, given: dict[str, Any],
                            pace: Choice | None) -> tuple[dict[str, Any], str, dict[str, Any]] | None:
        """What the server says about a new game here: ``None`` (the user told why) when matches may not start in
        this channel; else the rules (the server's defaults for ``game`` overridden by the command's ``given``), the
        pace (the server's War pace when the command names none) and the server's defaults that were used."""
        assert interaction.guild_id is not None
        refusal = await start_refusal(self.bot, interaction)
        if refusal is not None:
            await self.tell(interaction, refusal)
            return None
        settings = settings_service(self.bot)
        server = await settings.get(interaction.guild_id)
        rules = await settings.rules_for(interaction.guild_id, game, given)
        defaults_used = {key: value for key, value in server.default_rules.get(game, {}).items() if key not in given}
        return rules, (pace.value if pace is not None else server.war_pace), defaults_used

    async def _refuse_rules(self, interaction: discord.Interaction, game: str, rules: dict[str, Any],
                            players: int | None, defaults_used: dict[str, Any]) -> bool:
        """Refuse rules that can't be played (``players`` ``None``: a lobby's, by any number of players), naming the
        server's default rules when some were part of them."""
        try:
            if players is None:
                self.war.resolve_lobby_rules(game, rules)
            else:
                self.war.resolve_rules(game, rules, players)
        except USER_ERRORS as error:
            text = f"Those rules can't be played: {error}"
            if defaults_used:
                text += (f"\nThis server's default rules for {game_class(game).title} were added: "
                         f"{settings_rules_text(defaults_used)} "
                         "(give a rule yourself to override one).")
            await self.tell(interaction, text)
            return True
        return False

    @war_group.command(name="challenge", description="Challenge someone in this server to a game of War")
    @app_commands.describe(opponent="Who to challenge", variant="The game: War (default), Drunkard or Tod und Leben",
                           pace=PACE_HELP, **RULE_DESCRIPTIONS)
    @app_commands.choices(variant=VARIANTS, pace=PACES, **RULE_CHOICES)
    async def challenge(
        self, interaction: discord.Interaction, opponent: discord.Member | discord.User,
        variant: Choice | None = None, pace: Choice | None = None, face_down: Choice | None = None,
        short: Choice | None = None, war_joins: Choice | None = None, return_order: Choice | None = None,
        capture_pile: Choice | None = None, jokers: Choice | None = None, joker_each: Choice | None = None,
        aces: Choice | None = None, decks: Choice | None = None, pack: Choice | None = None,
        six_beats_ace: Choice | None = None, target: app_commands.Range[int, 1, MAX_TARGET] | None = None,
        max_rounds: app_commands.Range[int, 1, 1_000_000] | None = None,
    ) -> None:
        user = interaction.user
        assert interaction.guild_id is not None and interaction.channel_id is not None
        game = variant.value if variant is not None else "war"
        given = rules_from(locals())
        title = game_class(game).title
        terms = await self._server_terms(interaction, game, given, pace)
        if terms is None:
            return
        rules, chosen_pace, defaults_used = terms
        if opponent.id == user.id:
            await self.tell(interaction, str(service_errors.CannotChallengeSelf()))
            return
        if opponent.bot:
            await self.tell(interaction, f"{opponent.mention} is a bot; bots can't play {title}. Challenge a person "
                                         "instead.")
            return
        if not isinstance(opponent, discord.Member):
            await self.tell(interaction, f"{opponent.mention} isn't a member of this server; you can only challenge "
                                         "someone here.")
            return
        missing = missing_permissions(interaction)
        if missing:
            await self.tell(interaction, f"I can't run a game in this channel: I need {missing} here.")
            return
        if await self._refuse_rules(interaction, game, rules, 2, defaults_used):
            return
        try:
            await self.war.check_challenge(user.id, opponent.id, game)
        except USER_ERRORS as error:
            await self.tell(interaction, str(error))
            return
        async with self.answer(interaction, thinking=True) as answer:
            try:
                update = await self.war.challenge(
                    interaction.guild_id, interaction.channel_id, user.id, opponent.id, game=game, rules=rules,
                    pace=chosen_pace, challenger_name=user.display_name, opponent_name=opponent.display_name)
            except USER_ERRORS as error:
                await answer.tell(str(error))
                return
            self.presenter.remember_name(interaction.guild_id, user)
            self.presenter.remember_name(interaction.guild_id, opponent)
            await self._post_opening(interaction, answer, update,
                                     discord.AllowedMentions(users=[opponent]), opponent.mention)

    @war_group.command(name="lobby", description="Open a game of War for 2-4 players that anyone here can join")
    @app_commands.describe(variant="The game: War (default), Drunkard or Tod und Leben (2 players)",
                           pace=PACE_HELP, **RULE_DESCRIPTIONS)
    @app_commands.choices(variant=VARIANTS, pace=PACES, **RULE_CHOICES)
    async def lobby(
        self, interaction: discord.Interaction,
        variant: Choice | None = None, pace: Choice | None = None, face_down: Choice | None = None,
        short: Choice | None = None, war_joins: Choice | None = None, return_order: Choice | None = None,
        capture_pile: Choice | None = None, jokers: Choice | None = None, joker_each: Choice | None = None,
        aces: Choice | None = None, decks: Choice | None = None, pack: Choice | None = None,
        six_beats_ace: Choice | None = None, target: app_commands.Range[int, 1, MAX_TARGET] | None = None,
        max_rounds: app_commands.Range[int, 1, 1_000_000] | None = None,
    ) -> None:
        user = interaction.user
        assert interaction.guild_id is not None and interaction.channel_id is not None
        game = variant.value if variant is not None else "war"
        terms = await self._server_terms(interaction, game, rules_from(locals()), pace)
        if terms is None:
            return
        rules, chosen_pace, defaults_used = terms
        missing = missing_permissions(interaction)
        if missing:
            await self.tell(interaction, f"I can't run a game in this channel: I need {missing} here.")
            return
        if await self._refuse_rules(interaction, game, rules, None, defaults_used):
            return
        try:
            await self.war.check_player(user.id)
        except USER_ERRORS as error:
            await self.tell(interaction, str(error))
            return
        async with self.answer(interaction, thinking=True) as answer:
            try:
                update = await self.war.open_lobby(interaction.guild_id, interaction.channel_id, user.id, game=game,
                                                   rules=rules, pace=chosen_pace, host_name=user.display_name)
            except USER_ERRORS as error:
                await answer.tell(str(error))
                return
            self.presenter.remember_name(interaction.guild_id, user)
            await self._post_opening(interaction, answer, update, NO_MENTIONS, None)

    async def _post_opening(self, interaction: discord.Interaction, answer: Answer, update: MatchUpdate,
                            allowed: discord.AllowedMentions, content: str | None) -> None:
        match = update.match
        message_embed, view = await self.presenter.opening_message(match, [f"<@{u}>" for u in match.user_ids])
        try:
            kwargs: dict[str, Any] = {"embed": message_embed, "allowed_mentions": allowed}
            if view is not None:
                kwargs["view"] = view
            message_id = await answer.send(content, **kwargs)
            if message_id is None:
                message_id = (await interaction.original_response()).id
            await self.war.set_challenge_message(match.id, message_id)
            if update.events:
                await self.war.mark_shown(match.id, update.events[-1].seq)
        finally:
            self.after(update)

    @staticmethod
    def where(match: MatchRecord) -> str:
        """Where the game is: its thread (or channel) and a link to its table; before the deal, its message."""
        if match.status == "challenge":
            if match.challenge_message_id is None:
                return f"<#{match.channel_id}>"
            return message_link(match.guild_id, match.channel_id, match.challenge_message_id)
        table = match.messages.get("table")
        link = f" · {message_link(match.guild_id, match.play_channel_id, table)}" if table is not None else ""
        return f"<#{match.play_channel_id}>{link}"

    async def on_forfeit_button(self, interaction: discord.Interaction, match_id: int, choice: str) -> None:
        """The "really give up?" question: Yes forfeits, No changes nothing; a question about a game that ended
        (or that the player is out of) meanwhile says so."""
        user_id = interaction.user.id
        async with self.answer(interaction) as answer:
            try:
                if choice == "no":
                    await self.war.check_forfeit(match_id, user_id)
                    await answer.edit(content="Nothing changed: you're still in the game.", view=None,
                                      allowed_mentions=NO_MENTIONS)
                    return
                update = await self.war.forfeit(match_id, user_id)
            except USER_ERRORS as error:
                await answer.edit(content=str(error), view=None, allowed_mentions=NO_MENTIONS)
                return
            try:
                match = update.match
                over = match.status == "finished"
                winner = match.result.get("winner") if over and match.result else None
                await answer.edit(content=render.forfeited(match.game, mentions(match), winner, over,
                                                           f"<#{match.play_channel_id}>"),
                                  view=None, allowed_mentions=NO_MENTIONS)
            finally:
                self.after(update)

    @war_group.command(name="forfeit", description="Give up your War game (asks first; the others play on, or win)")
    async def forfeit(self, interaction: discord.Interaction) -> None:
        async with self.answer(interaction, thinking=True, ephemeral=True) as answer:
            try:
                match = await self.war.forfeit_target(interaction.user.id)
                view = await self.war.view(match.id)
            except USER_ERRORS as error:
                await answer.tell(str(error))
                return
            seat = match.seat_of(interaction.user.id)
            assert seat is not None
            text = render.forfeit_question(match.game, mentions(match), seat, view["in_game"],
                                           f"<#{match.play_channel_id}>")
            await answer.send(text, view=forfeit_view(match.id), ephemeral=True)

    @war_group.command(name="status", description="Your War game: the round, everyone's cards, the flips and votes")
    async def status(self, interaction: discord.Interaction) -> None:
        async with self.answer(interaction, thinking=True, ephemeral=True) as answer:
            try:
                status = await self.war.status(interaction.user.id)
            except USER_ERRORS as error:
                await answer.tell(str(error))
                return
            match, seat, view = status.match, status.seat, status.view
            pace = match.options.get("pace", DEFAULT_PACE)
            if view is None:
                text = render.waiting_status(mentions(match), match.game, match.rules, pace, seat=seat,
                                             lobby=bool(match.options.get("lobby")), expires_at=match.deadline_at,
                                             where=self.where(match))
            else:
                deadline = match.deadline_at if match.deadline_kind == "turn" else None
                text = render.status(view, mentions(match), match.game, pace, seat=seat,
                                     votes=match.options.get("votes", {}), deadline=deadline, where=self.where(match))
            await answer.tell(text)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(WarCog(bot))  # type: ignore[arg-type]
