"""`/casinowar table|leave|status|chips`: Casino War's tables against the house, on the kit's match cog
(:mod:`cogs.kit.match_cog`: the lobby's buttons, the panels, timers, restarts and the result are every game's).
The table's rules are the server's defaults for Casino War (``/settings rules``: among them the starting ``stake``
and the ``daily_topup``, which only the server sets) with the command's own table limits over them. Buttons are
``cw:…`` dynamic items (:mod:`cogs.casinowar.ui`); they keep working after a restart.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.casinowar import render
from bot.games.casinowar.flow import GAME
from bot.i18n import N_, Texts
from bot.match.kernel import MatchKernel, MatchStatus, MatchUpdate
from bot.render.common import ENGLISH, timestamp
from bot.services import USER_ERRORS
from bot.services.settings import SettingsService
from bot.storage.records import MatchRecord
from cogs.casinowar.presenter import CasinoWarPresenter
from cogs.casinowar.ui import BUTTONS, COG_NAME
from cogs.kit.match_cog import MatchCog, PanelCall
from cogs.kit.match_common import message_link
from cogs.kit.messages import private_words, said
from cogs.kit.places import require_server

#: what only the server sets (``/settings rules``), never a table's command
SERVER_RULES = ("stake", "daily_topup", "stacks")
LEAVE_QUESTION = N_("Leave your Casino War table? A bet not dealt yet is not played; a tie not decided yet "
                    "surrenders.")
LEFT = N_("🚪 You left the Casino War table.")
STAYED = N_("Good: you stay at the table.")


class CasinoWarCog(MatchCog, name=COG_NAME):
    game = GAME
    presenter_class = CasinoWarPresenter
    buttons = BUTTONS

    casinowar = app_commands.Group(name="casinowar", description="Casino War: one card each against the house, "
                                   "for this server's chips")

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        """Casino War plays for a server's chips: refused where the bot is no member."""
        return require_server(interaction, N_("Casino War (it plays for a server's chips)"))

    def _panel_call(self, key: str) -> tuple[PanelCall, tuple[str, ...]]:
        return MatchKernel.pick, (key,)  # every panel button picks its key (bet:20, tie:20, sit, war, surrender)

    @casinowar.command(name="table", description="Open a Casino War table (1-4 players) that anyone here can join")
    @app_commands.describe(min_bet="The smallest bet (default: this server's, else 10)",
                           max_bet="The largest bet (default: this server's, else 100)",
                           hands="Hands before the table closes (default: this server's, else 20)",
                           tie_bet="The tie bet's amount, 0 for none (default: this server's, else 10)")
    async def table(self, interaction: discord.Interaction,
                    min_bet: app_commands.Range[int, 1, 100_000] | None = None,
                    max_bet: app_commands.Range[int, 1, 1_000_000] | None = None,
                    hands: app_commands.Range[int, 1, 1000] | None = None,
                    tie_bet: app_commands.Range[int, 0, 100_000] | None = None) -> None:
        given = {key: value for key, value in (("min_bet", min_bet), ("max_bet", max_bet), ("hands", hands),
                                                ("tie_bet", tie_bet)) if value is not None}
        if await self.refuse_channel(interaction):
            return
        server = await self.server_for_start(interaction, self.service.check_player(interaction.user.id))
        if server is None:
            return
        defaults = {k: v for k, v in SettingsService.rules_from(server, GAME).items() if k != "stacks"}
        rules: dict[str, Any] = {**defaults, **given}
        try:
            self.service.resolve_lobby_rules(GAME, rules)
        except USER_ERRORS as error:
            _ = private_words(interaction)
            await self.tell(interaction, _("That table can't be opened: {error}", error=said(error, interaction)))
            return
        await self.issue_lobby(interaction, game=GAME, rules=rules, pace=None)

    @casinowar.command(name="leave", description="Leave your Casino War table (a bet not dealt yet is not played)")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.ask_forfeit(interaction)

    @casinowar.command(name="status", description="Your Casino War table: the hand and your chips")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.show_status(interaction)

    @casinowar.command(name="chips", description="Your Casino War chips on this server")
    async def chips(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        async with self.service.db.statement() as conn:
            balances = await self.service.db.chips.balances(conn, interaction.guild_id, [interaction.user.id])
        balance = balances.get(interaction.user.id)
        _ = private_words(interaction)
        if balance is None:
            text = _("You have no chips here yet: you get the starting stake when you first sit at a table.")
        else:
            text = _.ngettext("You have **{count}** chip on this server.", "You have **{count}** chips on this server.",
                              balance)
        await self.tell(interaction, text)

    # --- words (a private answer: in the user's language) ----------------------------------------------------------
    def status_text(self, status: MatchStatus, *, say: Texts = ENGLISH) -> str:
        assert status.view is not None
        return render.status(status.view, status.seat, say)

    def waiting_text(self, status: MatchStatus, *, say: Texts = ENGLISH) -> str:
        """A table not dealt yet: the host deals it (or cancels it) on its message, the others wait."""
        match = status.match
        _ = say
        game = _(render.TITLE)
        text = (_("Your {game} table hasn't been dealt yet: deal it or cancel it on its message.", game=game)
                if status.seat == 0 else _("Your {game} table hasn't been dealt yet: its host deals it.", game=game))
        if match.deadline_at:
            text += " " + _("It closes {time} if nobody joins or leaves before then.",
                            time=timestamp(match.deadline_at))
        if match.challenge_message_id is not None:
            text += "\n" + _("The table: {thread}", thread=message_link(match.guild_id, match.channel_id,
                                                                       match.challenge_message_id))
        return text

    async def _rematch_challenge(self, interaction: discord.Interaction, match: MatchRecord) -> MatchUpdate | None:
        """Casino War has tables, never challenges: the rematch of a table of two is a new table too (hosted by the
        clicker, the other player invited)."""
        return await self._rematch_lobby(interaction, match)

    async def forfeit_question(self, match: MatchRecord, seat: int, *, say: Texts = ENGLISH) -> str:
        return say(LEAVE_QUESTION)

    def forfeited_text(self, match: MatchRecord, user_id: int, *, say: Texts = ENGLISH) -> str:
        return say(LEFT)

    async def kept_playing_text(self, match_id: int, user_id: int, *, say: Texts = ENGLISH) -> str:
        return say(STAYED)


async def setup(bot: commands.Bot) -> None:
    bot.route_clicks(*BUTTONS.items)
    await bot.add_cog(CasinoWarCog(bot))
