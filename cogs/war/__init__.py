"""`/war challenge|lobby|forfeit|status` and the War table's buttons: the Discord face of War's matches (the match
kernel playing :class:`~bot.games.war.flow.WarFlow`), on the kit's match cog (:mod:`cogs.kit.match_cog`: the
buttons of challenges, lobbies and the forfeit question, timers, auto-played rounds, restarts and the opening
message are every game's). This module holds War's commands, their options, the table's Flip and pace votes, and
its own words. The server's settings (:mod:`bot.services.settings`) decide where a game may start, the rules a game
starts with (the server's defaults for the variant, overridden by the command's ``rules`` text), the pace when the
command names none, and the flip-pace turn timer. The variant choices are made from the registry when the cog
loads; the ``rules`` option offers the variant's rules as they are typed (:mod:`bot.services.rules_input`).

The table's buttons keep their ids for the whole game (:mod:`cogs.war.ui`), so a click may arrive after the table
moved on: a Flip (or a vote to go to the next war) counts for the round the table showed being played when the
click came (the presenter's :meth:`~cogs.war.presenter.WarPresenter.table_round`); when that round is over, the
click is answered privately with what happened, and nothing changes.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.war import PLUGIN, render
from bot.games.war.flow import DEFAULT_PACE, FLIP, NEXT_WAR
from bot.i18n import N_, Texts
from bot.i18n.commands import naming_variants
from bot.match.kernel import MatchStatus, MatchUpdate
from bot.registry import game_class, registry
from bot.render.common import ENGLISH
from bot.render.stats import rules_text as settings_rules_text
from bot.services import USER_ERRORS
from bot.services.rules_input import read_rules, suggestions
from bot.services.settings import SettingsService
from bot.storage.records import MatchRecord
from cogs.kit.choices import plugin_choices, set_choices, set_description, set_descriptions
from cogs.kit.match_cog import MatchCog
from cogs.kit.match_common import mentions, message_link
from cogs.kit.messages import private_words, said
from cogs.war.presenter import WarPresenter
from cogs.war.ui import BUTTONS, COG_NAME

#: what the variant choices add to a game's title
VARIANT_NOTES = {"war": "default", "drunkard": "36 cards, a 6 beats an ace",
                 "todundleben": "black against red, 2 players", "doublewar": "a standing prize in the centre"}
#: values the rules option offers for the rules that take any number
RULE_EXAMPLES = {"max_rounds": (100, 300, 1000), "target": (30, 40)}
#: a vote's private answer, by the pace voted for
AGREED = {"auto": N_("Everyone agreed: the game is now at the auto pace."),
          "instant": N_("Everyone agreed: the game is now at the instant pace.")}
VOTES_IN = {"auto": N_("Your vote for the auto pace is in."), "instant": N_("Your vote for the instant pace is in.")}
VOTES_BACK = {"auto": N_("Your vote for the auto pace is taken back."),
              "instant": N_("Your vote for the instant pace is taken back.")}


def variant_choices() -> list[app_commands.Choice[str]]:
    """War and its variants, as the registry has them."""
    choices = []
    for name in registry().family("war"):
        note = VARIANT_NOTES.get(name)
        title = game_class(name).title
        choices.append(app_commands.Choice(name=f"{title} ({note})" if note else title, value=name))
    return choices


PACES = plugin_choices(PLUGIN, "pace")
PACE_HELP = "How the rounds are played (default: this server's War pace)"
#: the variant option's and the command group's descriptions: every variant the registry has (filled at load)
VARIANT_HELP = N_("The game: {games} (War by default)")
GROUP_HELP = N_("{games} for 2-4 players")
RULES_HELP = 'Rules as key=value, e.g. "face_down=3 pack=32" (pick them from the list as you type)'

Choice = app_commands.Choice[str]


class WarCog(MatchCog, name=COG_NAME):
    game = "war"
    presenter_class = WarPresenter
    buttons = BUTTONS

    war_group = app_commands.Group(name="war", description=GROUP_HELP)

    async def cog_load(self) -> None:
        await super().cog_load()
        variants = variant_choices()
        set_choices(self.challenge, variant=variants)
        set_choices(self.lobby, variant=variants)
        set_descriptions(self.challenge, variant=naming_variants(VARIANT_HELP, "war"))
        set_descriptions(self.lobby, variant=naming_variants(VARIANT_HELP, "war"))
        set_description(self.war_group, naming_variants(GROUP_HELP, "war", either=False))

    # --- the table's buttons -----------------------------------------------------------------------------------
    async def on_table_button(self, interaction: discord.Interaction, match_id: int, _step: int, key: str) -> None:
        """Flip, or a vote for a faster pace (answered privately), for the round the table showed (the id's step
        names none: see :mod:`cogs.war.ui`)."""
        user_id = interaction.user.id
        if key == FLIP:
            async def flip() -> MatchUpdate:
                return await self.service.pick(match_id, user_id, await self._round_meant(match_id), FLIP)

            await self.act(interaction, flip)
            return
        wanted = key.removeprefix("vote:")

        async def vote() -> MatchUpdate:
            if wanted == NEXT_WAR:
                await self._round_meant(match_id)
            return await self.service.vote(match_id, user_id, wanted)

        await self.act(interaction, vote, functools.partial(self.vote_note, wanted, say=private_words(interaction)))

    async def _round_meant(self, match_id: int) -> int:
        """The round a Flip on the table is for: the one being played, unless the table still showed an earlier one
        being played at flip pace when the click came (then that round is over: refused, the flow's stale round)."""
        match = await self.service.get_match(match_id)
        playing = self.service.flow.due_step(match.step)
        shown = self.presenter.table_round(match_id)
        if match.status == "active" and match.options.get("pace") == "flip" and shown is not None and shown < playing:
            raise self.service.flow.stale(shown, playing)
        return playing

    @staticmethod
    def vote_note(wanted: str, update: MatchUpdate, *, say: Texts = ENGLISH) -> str:
        """The voter's private answer (in their language)."""
        _ = say
        if any(q.type == "pace" for q in update.events):
            if wanted == NEXT_WAR:
                return _("Everyone agreed: the rounds up to the next war are played; see the table.")
            return _(AGREED.get(wanted, AGREED["auto"]))
        event = next((q.event for q in update.events if q.type == "vote"), None)
        on = bool(event and event.get("on"))
        if wanted == NEXT_WAR:
            return (_("Your vote to go to the next war is in: it goes once everyone still in presses it.") if on
                    else _("Your vote to go to the next war is taken back."))
        votes = VOTES_IN if on else VOTES_BACK
        return _(votes.get(wanted, votes["auto"]))

    async def rules_choices(self, interaction: discord.Interaction, current: str) -> list[Choice]:
        """The ``rules`` option as it is typed: the variant's rules, completed (the players are set by who plays)."""
        variant = getattr(interaction.namespace, "variant", None)
        game = variant if isinstance(variant, str) and variant in registry().family("war") else "war"
        return [app_commands.Choice(name=name, value=value)
                for name, value in suggestions(game, current, left_out=("players",), examples=RULE_EXAMPLES,
                                               say=private_words(interaction))]

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
            _ = private_words(interaction)
            text = _("Those rules can't be played: {reason}", reason=said(error, interaction))
            if defaults_used:
                text += "\n" + _("This server's default rules for {game} were added: {rules} (give a rule yourself "
                                 "to override one).", game=_(game_class(game).title),
                                 rules=settings_rules_text(defaults_used))
            await self.tell(interaction, text)
            return True
        return False

    async def _given_rules(self, interaction: discord.Interaction, game: str, text: str | None
                           ) -> dict[str, Any] | None:
        """The rules the command's text gives; ``None`` (the user told why, privately) when it can't be read."""
        try:
            return read_rules(game, text, left_out=("players",))
        except USER_ERRORS as error:
            _ = private_words(interaction)
            await self.tell(interaction, _("Those rules can't be played: {reason}", reason=said(error, interaction)))
            return None

    @war_group.command(name="challenge", description="Challenge someone to a game of War")
    @app_commands.describe(opponent="Who to challenge", variant=VARIANT_HELP,
                           pace=PACE_HELP, rules=RULES_HELP)
    @app_commands.choices(pace=PACES)
    async def challenge(self, interaction: discord.Interaction, opponent: discord.Member | discord.User,
                        variant: Choice | None = None, pace: Choice | None = None, rules: str | None = None) -> None:
        assert interaction.channel_id is not None
        game = variant.value if variant is not None else "war"
        given = await self._given_rules(interaction, game, rules)
        if given is None:
            return
        title = game_class(game).title
        if await self.refuse_opponent(interaction, opponent, title) or await self.refuse_channel(interaction):
            return
        terms = await self._server_terms(interaction, game, given, pace,
                                         self.service.check_challenge(interaction.user.id, opponent.id, game))
        if terms is None:
            return
        resolved, chosen_pace, defaults_used = terms
        if await self._refuse_rules(interaction, game, resolved, 2, defaults_used):
            return
        await self.issue_challenge(interaction, opponent, game=game, rules=resolved, pace=chosen_pace)

    @war_group.command(name="lobby", description="Open a game of War for 2-4 players that anyone here can join")
    @app_commands.describe(variant=VARIANT_HELP,
                           pace=PACE_HELP, rules=RULES_HELP)
    @app_commands.choices(pace=PACES)
    async def lobby(self, interaction: discord.Interaction, variant: Choice | None = None, pace: Choice | None = None,
                    rules: str | None = None) -> None:
        user = interaction.user
        assert interaction.channel_id is not None
        game = variant.value if variant is not None else "war"
        given = await self._given_rules(interaction, game, rules)
        if given is None or await self.refuse_channel(interaction):
            return
        terms = await self._server_terms(interaction, game, given, pace, self.service.check_player(user.id))
        if terms is None:
            return
        resolved, chosen_pace, defaults_used = terms
        if await self._refuse_rules(interaction, game, resolved, None, defaults_used):
            return
        await self.issue_lobby(interaction, game=game, rules=resolved, pace=chosen_pace)

    challenge.autocomplete("rules")(rules_choices)
    lobby.autocomplete("rules")(rules_choices)

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

    # --- forfeit and status (in the asking player's words, ``say``) ------------------------------------------
    async def kept_playing_text(self, match_id: int, user_id: int, *, say: Texts = ENGLISH) -> str:
        await self.service.check_forfeit(match_id, user_id)  # a game that ended (or left) meanwhile says so
        _ = say
        return _("Nothing changed: you're still in the game.")

    def forfeited_text(self, match: MatchRecord, user_id: int, *, say: Texts = ENGLISH) -> str:
        over = match.status == "finished"
        winner = match.result.get("winner") if over and match.result else None
        return render.forfeited(match.game, mentions(match), winner, over, f"<#{match.play_channel_id}>", say)

    async def forfeit_question(self, match: MatchRecord, seat: int, *, say: Texts = ENGLISH) -> str:
        view = await self.service.view(match.id)
        return render.forfeit_question(match.game, mentions(match), seat, view["in_game"],
                                       f"<#{match.play_channel_id}>", say)

    def waiting_text(self, status: MatchStatus, *, say: Texts = ENGLISH) -> str:
        match = status.match
        return render.waiting_status(mentions(match), match.game, match.rules, match.options.get("pace", DEFAULT_PACE),
                                     seat=status.seat, lobby=bool(match.options.get("lobby")),
                                     expires_at=match.deadline_at, where=self.where(match), say=say)

    def status_reply(self, status: MatchStatus, *, say: Texts = ENGLISH) -> tuple[str, discord.ui.View | None]:
        match = status.match
        assert status.view is not None
        deadline = match.deadline_at if match.deadline_kind == "turn" else None
        return render.status(status.view, mentions(match), match.game, match.options.get("pace", DEFAULT_PACE),
                             seat=status.seat, votes=match.options.get("votes", {}), deadline=deadline,
                             where=self.where(match), say=say), None

    @war_group.command(name="forfeit", description="Give up your War game (asks first; the others play on, or win)")
    async def forfeit(self, interaction: discord.Interaction) -> None:
        await self.ask_forfeit(interaction)

    @war_group.command(name="status", description="Your War game: the round, everyone's cards, the flips and votes")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.show_status(interaction)


async def setup(bot: commands.Bot) -> None:
    bot.route_clicks(*BUTTONS.items)
    await bot.add_cog(WarCog(bot))
