"""`/war challenge|lobby|forfeit|status` and the War table's buttons: the Discord face of War's matches (the match
kernel playing :class:`~bot.games.war.flow.WarFlow`), on the kit's match cog (:mod:`cogs.kit.match_cog`: the
buttons of challenges, lobbies and the forfeit question, timers, auto-played rounds, restarts and the opening
message are every game's). This module holds War's commands, their options, the table's Flip and pace votes, and
its own words. The server's settings (:mod:`bot.services.settings`) decide where a game may start, the rules a game
starts with (the server's defaults for the variant, overridden by the command's own options), the pace when the
command names none, and the flip-pace turn timer. The variant and rule choices are made from the registry when the
cog loads.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import game_class, registry
from bot.games.war import render
from bot.games.war.engine import War
from bot.games.war.flow import DEFAULT_PACE, FLIP
from bot.match.kernel import MatchStatus, MatchUpdate
from bot.render.stats import rules_text as settings_rules_text
from bot.services import USER_ERRORS
from bot.services.settings import SettingsService
from bot.storage.records import MatchRecord
from cogs._match_common import mentions, message_link
from cogs._war_presenter import WarPresenter
from cogs._war_ui import BUTTONS, COG_NAME
from cogs.kit.choices import set_choices
from cogs.kit.match_cog import MatchCog

RULE_KEYS = ("face_down", "short", "war_joins", "return_order", "capture_pile", "jokers", "joker_each", "aces",
             "decks", "pack", "six_beats_ace")
MAX_TARGET = 108  # two decks with their jokers
#: what the variant choices add to a game's title
VARIANT_NOTES = {"war": "default", "drunkard": "36 cards, a 6 beats an ace",
                 "todundleben": "black against red, 2 players"}


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


def variant_choices() -> list[app_commands.Choice[str]]:
    """War and its variants, as the registry has them."""
    choices = []
    for name in registry().family("war"):
        note = VARIANT_NOTES.get(name)
        title = game_class(name).title
        choices.append(app_commands.Choice(name=f"{title} ({note})" if note else title, value=name))
    return choices


def rule_help(key: str) -> str:
    option = next(o for o in War.options if o.key == key)
    return option.help[:100]


PACES = [app_commands.Choice(name="auto: the bot plays a round every 2 s", value="auto"),
         app_commands.Choice(name="flip: every player presses Flip each round", value="flip"),
         app_commands.Choice(name="instant: played out at once", value="instant")]
PACE_HELP = "How the rounds are played (default: this server's War pace)"
RULE_DESCRIPTIONS = {key: rule_help(key) for key in RULE_KEYS}
RULE_DESCRIPTIONS["target"] = "First to hold this many cards wins (default: play for all the cards)"
RULE_DESCRIPTIONS["max_rounds"] = "After this many rounds the most cards wins (default 10,000)"

Choice = app_commands.Choice[str]


def rules_from(values: dict[str, Any]) -> dict[str, Any]:
    rules: dict[str, Any] = {}
    for key in (*RULE_KEYS, "target", "max_rounds"):
        value = values.get(key)
        if value is not None:
            rules[key] = value.value if isinstance(value, app_commands.Choice) else value
    return rules


class WarCog(MatchCog, name=COG_NAME):
    game = "war"
    presenter_class = WarPresenter
    buttons = BUTTONS

    war_group = app_commands.Group(name="war", description="War, Drunkard and Tod und Leben for 2-4 players",
                                   guild_only=True)

    async def cog_load(self) -> None:
        await super().cog_load()
        choices = {"variant": variant_choices(), **{key: rule_choices(key) for key in RULE_KEYS}}
        set_choices(self.challenge, **choices)
        set_choices(self.lobby, **choices)

    # --- the table's buttons -----------------------------------------------------------------------------------
    async def on_table_button(self, interaction: discord.Interaction, match_id: int, number: int, key: str) -> None:
        """Flip (round ``number``), or a vote for a faster pace (answered privately)."""
        user_id = interaction.user.id
        if key == FLIP:
            await self.act(interaction, lambda: self.service.pick(match_id, user_id, number, FLIP))
            return
        wanted = key.removeprefix("vote:")
        await self.act(interaction, lambda: self.service.vote(match_id, user_id, wanted),
                       functools.partial(self.vote_note, wanted))

    @staticmethod
    def vote_note(wanted: str, update: MatchUpdate) -> str:
        if any(q.type == "pace" for q in update.events):
            return f"Everyone agreed: the game is now at the {update.match.options.get('pace')} pace."
        event = next((q.event for q in update.events if q.type == "vote"), None)
        on = bool(event and event.get("on"))
        return f"Your vote for the {wanted} pace is {'in' if on else 'taken back'}."

    # --- commands ----------------------------------------------------------------------------------------------
    async def _server_terms(self, interaction: discord.Interaction, game: str, given: dict[str, Any],
                            pace: Choice | None, check: Awaitable[None],
                            ) -> tuple[dict[str, Any], str, dict[str, Any]] | None:
        """What the server says about a new game here (read side by side with the service's ``check`` of the
        players): ``None`` (the user told why) when matches may not start in this channel or the check refuses;
        else the rules (the server's defaults for ``game`` overridden by the command's ``given``), the pace (the
        server's War pace when the command names none) and the server's defaults that were used."""
        server = await self.server_for_start(interaction, check)
        if server is None:
            return None
        rules = SettingsService.rules_from(server, game, given)
        defaults_used = {key: value for key, value in server.default_rules.get(game, {}).items() if key not in given}
        return rules, (pace.value if pace is not None else server.war_pace), defaults_used

    async def _refuse_rules(self, interaction: discord.Interaction, game: str, rules: dict[str, Any],
                            players: int | None, defaults_used: dict[str, Any]) -> bool:
        """Refuse rules that can't be played (``players`` ``None``: a lobby's, by any number of players), naming the
        server's default rules when some were part of them."""
        try:
            if players is None:
                self.service.resolve_lobby_rules(game, rules)
            else:
                self.service.resolve_rules(game, rules, players)
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
    @app_commands.choices(pace=PACES)
    async def challenge(
        self, interaction: discord.Interaction, opponent: discord.Member | discord.User,
        variant: Choice | None = None, pace: Choice | None = None, face_down: Choice | None = None,
        short: Choice | None = None, war_joins: Choice | None = None, return_order: Choice | None = None,
        capture_pile: Choice | None = None, jokers: Choice | None = None, joker_each: Choice | None = None,
        aces: Choice | None = None, decks: Choice | None = None, pack: Choice | None = None,
        six_beats_ace: Choice | None = None, target: app_commands.Range[int, 1, MAX_TARGET] | None = None,
        max_rounds: app_commands.Range[int, 1, 1_000_000] | None = None,
    ) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        game = variant.value if variant is not None else "war"
        given = rules_from(locals())
        title = game_class(game).title
        if await self.refuse_opponent(interaction, opponent, title) or await self.refuse_channel(interaction):
            return
        terms = await self._server_terms(interaction, game, given, pace,
                                         self.service.check_challenge(interaction.user.id, opponent.id, game))
        if terms is None:
            return
        rules, chosen_pace, defaults_used = terms
        if await self._refuse_rules(interaction, game, rules, 2, defaults_used):
            return
        await self.issue_challenge(interaction, opponent, game=game, rules=rules, pace=chosen_pace)

    @war_group.command(name="lobby", description="Open a game of War for 2-4 players that anyone here can join")
    @app_commands.describe(variant="The game: War (default), Drunkard or Tod und Leben (2 players)",
                           pace=PACE_HELP, **RULE_DESCRIPTIONS)
    @app_commands.choices(pace=PACES)
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
        given = rules_from(locals())
        if await self.refuse_channel(interaction):
            return
        terms = await self._server_terms(interaction, game, given, pace, self.service.check_player(user.id))
        if terms is None:
            return
        rules, chosen_pace, defaults_used = terms
        if await self._refuse_rules(interaction, game, rules, None, defaults_used):
            return
        async with self.answer(interaction, thinking=True) as answer:
            try:
                update = await self.service.open_lobby(interaction.guild_id, interaction.channel_id, user.id, game=game,
                                                   rules=rules, pace=chosen_pace, host_name=user.display_name)
            except USER_ERRORS as error:
                await answer.tell(str(error))
                return
            self.presenter.remember_name(interaction.guild_id, user)
            await self.post_opening(interaction, answer, update)

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

    # --- forfeit and status --------------------------------------------------------------------------------------
    async def kept_playing_text(self, match_id: int, user_id: int) -> str:
        await self.service.check_forfeit(match_id, user_id)  # a game that ended (or left) meanwhile says so
        return "Nothing changed: you're still in the game."

    def forfeited_text(self, match: MatchRecord, user_id: int) -> str:
        over = match.status == "finished"
        winner = match.result.get("winner") if over and match.result else None
        return render.forfeited(match.game, mentions(match), winner, over, f"<#{match.play_channel_id}>")

    async def forfeit_question(self, match: MatchRecord, seat: int) -> str:
        view = await self.service.view(match.id)
        return render.forfeit_question(match.game, mentions(match), seat, view["in_game"],
                                       f"<#{match.play_channel_id}>")

    def waiting_text(self, status: MatchStatus) -> str:
        match = status.match
        return render.waiting_status(mentions(match), match.game, match.rules, match.options.get("pace", DEFAULT_PACE),
                                     seat=status.seat, lobby=bool(match.options.get("lobby")),
                                     expires_at=match.deadline_at, where=self.where(match))

    def status_reply(self, status: MatchStatus) -> tuple[str, discord.ui.View | None]:
        match = status.match
        assert status.view is not None
        deadline = match.deadline_at if match.deadline_kind == "turn" else None
        return render.status(status.view, mentions(match), match.game, match.options.get("pace", DEFAULT_PACE),
                             seat=status.seat, votes=match.options.get("votes", {}), deadline=deadline,
                             where=self.where(match)), None

    @war_group.command(name="forfeit", description="Give up your War game (asks first; the others play on, or win)")
    async def forfeit(self, interaction: discord.Interaction) -> None:
        await self.ask_forfeit(interaction)

    @war_group.command(name="status", description="Your War game: the round, everyone's cards, the flips and votes")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.show_status(interaction)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*BUTTONS.items)
    await bot.add_cog(WarCog(bot))
