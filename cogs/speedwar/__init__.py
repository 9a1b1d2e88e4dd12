"""`/speedwar challenge|forfeit|status`: Speed War on the kit's match cog. A press on a round's button is timed by
Discord's clock, from when the round appeared (its live message's last edit, or its creation: a block's first round)
to the interaction (a snowflake), and sent to the match kernel as the seat's press; the press is acknowledged by a
deferred update (no message: the round's message shows each press and its time once the round is settled), a refused
one privately, in the presser's language (and so is the status command's answer)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.speedwar import render
from bot.games.speedwar.flow import GAME
from bot.i18n import Texts
from bot.match.kernel import MatchStatus, MatchUpdate
from bot.render.common import ENGLISH
from cogs.kit.match_cog import MatchCog
from cogs.kit.match_common import mentions
from cogs.speedwar.presenter import SpeedWarPresenter
from cogs.speedwar.ui import BUTTONS, COG_NAME

ROUNDS_RANGE = (1, 10_000)


def reaction_ms(interaction: discord.Interaction) -> int:
    """Milliseconds from the round appearing to the press, both by Discord's clock: the round is shown by an edit of
    the block's live message (Discord's ``edited_timestamp``; nothing else edits it while a round is open), or by
    the message's creation for a block's first round (its snowflake); the press is the interaction's snowflake. Both
    players' presses of a round are timed from the same moment, in whole milliseconds."""
    assert interaction.message is not None
    shown = interaction.message.edited_at or discord.utils.snowflake_time(interaction.message.id)
    # (a snowflake counts whole milliseconds: the edit's time is counted the same way, or a press would lose up to
    # one against the other player's)
    shown = shown.replace(microsecond=shown.microsecond // 1000 * 1000)
    pressed = discord.utils.snowflake_time(interaction.id)
    return max(0, round((pressed - shown).total_seconds() * 1000))


class SpeedWarCog(MatchCog, name=COG_NAME):
    game = GAME
    presenter_class = SpeedWarPresenter
    buttons = BUTTONS

    speedwar = app_commands.Group(name="speedwar", description="Speed War: the fastest right press takes the cards")

    @speedwar.command(name="challenge", description="Challenge someone to Speed War")
    @app_commands.describe(opponent="Who to challenge",
                           rounds="Rounds before the most cards wins (default: this server's, else 100)")
    async def challenge(self, interaction: discord.Interaction, opponent: discord.Member | discord.User,
                        rounds: app_commands.Range[int, ROUNDS_RANGE[0], ROUNDS_RANGE[1]] | None = None) -> None:
        await self.start_challenge(interaction, opponent, rules={} if rounds is None else {"max_rounds": rounds})

    @speedwar.command(name="forfeit", description="Give up your Speed War game (your opponent wins)")
    async def forfeit(self, interaction: discord.Interaction) -> None:
        await self.ask_forfeit(interaction)

    @speedwar.command(name="status", description="Your Speed War game: the round and the cards")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.show_status(interaction)

    def status_text(self, status: MatchStatus, *, say: Texts = ENGLISH) -> str:
        return render.status(status.view, mentions(status.match), say=say)

    async def on_table_button(self, interaction: discord.Interaction, match_id: int, step: int, key: str) -> None:
        action = {"type": "press", "choice": key, "ms": reaction_ms(interaction)}

        async def press() -> MatchUpdate:
            return await self.service.choose(match_id, interaction.user.id, step, action)

        await self.act(interaction, press)

async def setup(bot: commands.Bot) -> None:
    bot.route_clicks(*BUTTONS.items)
    await bot.add_cog(SpeedWarCog(bot))
