"""`/army challenge|forfeit|status` and every Army button: the Discord face of Army's match service, on the kit's
match cog (:mod:`cogs.kit.match_cog`: the buttons, timers, restarts and the challenge are every game's); this
module holds Army's commands, their options and its status words. Buttons are ``army:…`` dynamic items
(:mod:`cogs._army_ui`); they keep working after a restart.

Every answer here is private, so it speaks the user's own (client's) language: ``/army status``, the forfeit
question and its answers.
"""

from __future__ import annotations

from types import MappingProxyType

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.army import render
from bot.games.army.flow import GAME
from bot.i18n import N_, Texts
from bot.match.kernel import ARRANGE_SECONDS_RANGE, MatchStatus
from bot.render.common import ENGLISH, clamp, timestamp
from bot.services import USER_ERRORS
from cogs._army_presenter import ArmyPresenter, mentions
from cogs._army_ui import BUTTONS, COG_NAME
from cogs._match_common import message_link
from cogs.kit.match_cog import DRAFT_ACTIONS, MatchCog
from cogs.kit.messages import NO_MENTIONS, private_words, said

MAX_ROUNDS_RANGE = (1, 100_000)
#: the forfeit question's buttons: yes, no
FORFEIT_LABELS = (N_("Forfeit"), N_("Keep playing"))
LEVELS = [app_commands.Choice(name="hard (default): the best card against any hand you could hold", value="hard"),
          app_commands.Choice(name="medium: a rule of thumb (attack with the highest red)", value="medium"),
          app_commands.Choice(name="easy: a random card", value="easy")]


class ArmyCog(MatchCog, name=COG_NAME):
    game = GAME
    presenter_class = ArmyPresenter
    buttons = BUTTONS
    panel_actions = MappingProxyType({**DRAFT_ACTIONS, "army:": "tap", "play:": "pick", "dealt": "as_drawn"})

    army = app_commands.Group(name="army", description="Army: armies with stamina fight with red and black cards",
                              guild_only=True)

    @army.command(name="challenge", description="Challenge someone in this server to a game of Army")
    @app_commands.describe(
        opponent="Who to challenge (me, the bot, for an unrated practice match)",
        timer="Seconds for each choice (the armies, each card), 30 to 600 (default: this server's timer)",
        rounds="Rounds before the game stops and the stamina left decides (default: this server's, else 300)",
        level="Against me: how well I play (default hard)",
    )
    @app_commands.choices(level=LEVELS)
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member | discord.User,
        timer: app_commands.Range[int, ARRANGE_SECONDS_RANGE[0], ARRANGE_SECONDS_RANGE[1]] | None = None,
        rounds: app_commands.Range[int, MAX_ROUNDS_RANGE[0], MAX_ROUNDS_RANGE[1]] | None = None,
        level: app_commands.Choice[str] | None = None,
    ) -> None:
        await self.start_challenge(interaction, opponent, rules={} if rounds is None else {"max_rounds": rounds},
                                   timer=timer, level=level and level.value)

    @army.command(name="forfeit", description="Give up your Army match (your opponent wins)")
    async def forfeit(self, interaction: discord.Interaction) -> None:
        await self.ask_forfeit(interaction)

    @army.command(name="status", description="Your Army match: the stamina, your armies and your hand")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.show_status(interaction)

    # --- the answers, in the user's language --------------------------------------------------------------
    def status_text(self, status: MatchStatus, say: Texts = ENGLISH) -> str:
        panel = status.panel
        return render.status(status.view, mentions(status.match), deadline=panel.deadline_at, draft=panel.draft,
                             step=panel.step, say=say)

    def status_reply(self, status: MatchStatus, say: Texts = ENGLISH) -> tuple[str, discord.ui.View | None]:
        """``/army status`` for a match being played: the words, and "Open my Army panel" while the seat has a
        choice to make."""
        _ = say
        match, panel = status.match, status.panel
        where = _("The match: {channel}", channel=f"<#{match.play_channel_id}>")
        text = clamp(f"{self.status_text(status, _)}\n{where}", say=_)
        if not panel.locked and not panel.finished:
            return text, self.buttons.open_panel_view(match.id, self.presenter.panel_step(panel),
                                                      _(render.OPEN_PANEL))
        return text, None

    def waiting_text(self, status: MatchStatus, say: Texts = ENGLISH) -> str:
        """``/army status`` for a challenge not answered yet."""
        _ = say
        match, seat = status.match, status.seat
        other, game = f"<@{match.user_ids[1 - seat]}>", _(render.TITLE)
        link = None
        if match.challenge_message_id is not None:
            link = message_link(match.guild_id, match.channel_id, match.challenge_message_id)
        when = timestamp(match.deadline_at) if match.deadline_at else None
        if seat == 0:
            waiting = (_("Your {game} challenge to {player} is waiting for an answer; it expires {when}.", game=game,
                         player=other, when=when) if when else
                       _("Your {game} challenge to {player} is waiting for an answer.", game=game, player=other))
            where = (_("You can withdraw it on the challenge message ({link}).", link=link) if link else
                     _("You can withdraw it on the challenge message."))
        else:
            waiting = (_("{player} challenged you to {game}; it expires {when}.", player=other, game=game, when=when)
                       if when else _("{player} challenged you to {game}.", player=other, game=game))
            where = (_("Accept or decline it on the challenge message ({link}).", link=link) if link else
                     _("Accept or decline it on the challenge message."))
        return f"{waiting} {where}"

    async def show_status(self, interaction: discord.Interaction) -> None:
        """``/army status``: the user's open match, privately and in their language; a panel not yet chosen gets
        its button."""
        _ = private_words(interaction)
        async with self.answer(interaction, thinking=True, ephemeral=True) as answer:
            try:
                status = await self.service.status(interaction.user.id, self.game)
            except USER_ERRORS as error:
                await answer.tell(said(error, interaction))
                return
            if status.view is None or status.panel is None:
                await answer.tell(self.waiting_text(status, _))
                return
            text, view = self.status_reply(status, _)
            if view is not None:
                await answer.send(text, view=view, ephemeral=True)
            else:
                await answer.tell(text)

    def forfeit_view(self, match_id: int, say: Texts = ENGLISH) -> discord.ui.View:
        """Forfeit / Keep playing, in ``say``'s language."""
        _ = say
        view = self.buttons.forfeit_view(match_id)
        for child in view.children:
            label = FORFEIT_LABELS[0] if child.answer == "yes" else FORFEIT_LABELS[1]
            child.item.label = _(label)
        return view

    async def ask_forfeit(self, interaction: discord.Interaction) -> None:
        """``/army forfeit``: asks first (privately, in the user's language), with Forfeit / Keep playing."""
        _ = private_words(interaction)
        async with self.answer(interaction, thinking=True, ephemeral=True) as answer:
            try:
                match = await self.service.forfeit_target(interaction.user.id, self.game)
                seat = match.seat_of(interaction.user.id)
                assert seat is not None
            except USER_ERRORS as error:
                await answer.tell(said(error, interaction))
                return
            question = _("Forfeit your {game} match against {player}? {player} wins and the result is recorded.",
                         game=_(render.TITLE), player=f"<@{match.user_ids[1 - seat]}>")
            await answer.send(question, view=self.forfeit_view(match.id, _), ephemeral=True)

    async def on_forfeit_button(self, interaction: discord.Interaction, match_id: int, answer_: str) -> None:
        """The "really forfeit?" question (in the user's language): Forfeit forfeits, Keep playing changes
        nothing."""
        _ = private_words(interaction)
        async with self.answer(interaction) as answer:
            try:
                if answer_ == "no":
                    await answer.edit(content=_("Good: the match goes on."), view=None, allowed_mentions=NO_MENTIONS)
                    return
                update = await self.service.forfeit(match_id, interaction.user.id)
            except USER_ERRORS as error:
                await answer.edit(content=said(error, interaction), view=None, allowed_mentions=NO_MENTIONS)
                return
            try:
                seat = update.match.seat_of(interaction.user.id)
                assert seat is not None
                done = "🏳️ " + _("You forfeited your {game} match: {player} wins.", game=_(render.TITLE),
                                 player=f"<@{update.match.user_ids[1 - seat]}>")
                await answer.edit(content=done, view=None, allowed_mentions=NO_MENTIONS)
            finally:
                self.after(update)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*BUTTONS.items)
    await bot.add_cog(ArmyCog(bot))
