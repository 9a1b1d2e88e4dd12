"""The floor discord.py sets: a minimal bot that answers the Air War benchmark's interactions, for
``tests.bench.airwar_matches --baseline``.

    python -m tests.bench.airwar_baseline_bot API GATEWAY TOKEN GUILD ENGAGEMENTS

No database, no rules, no rendering, no pictures: ``/airwar challenge`` is answered with a fixed challenge message
(the real bot's custom ids, so the benchmark's players read it the same way); **Accept** edits it with a fixed text,
opens a thread on it and sends each player one DM panel of five fixed cards; every panel click edits the clicked
message with a fixed text and the same buttons, and **Lock in** turns it into the next engagement's panel, until
``ENGAGEMENTS`` are played, when the panel loses its buttons and the second player to finish posts a fixed result in
the thread. Each interaction is answered by editing (or sending) one message from the interaction's own callback,
as cheaply as discord.py lets a bot do it: the per-interaction CPU of this process is what the benchmark divides
the real bot's by (``cpu_ratio_to_baseline``).

It speaks the benchmark's protocol (:mod:`tests.bench.bot_protocol`), connects to the local Discord only (the
loopback guard of the tests) and prints
``{"ready": true}`` once its commands are synced.
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass, field
from typing import Any

import discord
import discord.gateway
import discord.http
from discord import app_commands

from tests.bench.bot_protocol import Guards, serve, start

TITLE = "Air War"
STACK = ("QS", "10D", "AH", "4C", "3S")
PANEL_KEYS = ("undo", "reset", "random", "drawn", "confirm")


@dataclass
class Match:
    players: tuple[int, int]
    finished_seats: set[int] = field(default_factory=set)
    thread: discord.Thread | None = None


def panel(match_id: int, engagement: int) -> tuple[discord.Embed, discord.ui.View]:
    """A fixed panel: the real panel's title (which the benchmark's players look for) and its buttons."""
    embed = discord.Embed(title=f"{TITLE} — engagement {engagement}: your battle order",
                          description="Tap your cards in the order to play them.")
    view = discord.ui.View(timeout=None)
    for card in STACK:
        view.add_item(discord.ui.Button(label=card, custom_id=f"aw:p:{match_id}:{engagement}:card:{card}"))
    for key in PANEL_KEYS:
        view.add_item(discord.ui.Button(label=key, custom_id=f"aw:p:{match_id}:{engagement}:{key}", row=1))
    return embed, view


class BaselineBot(discord.Client):
    def __init__(self, guild_id: int, engagements: int) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.guild_id = guild_id
        self.engagements = engagements
        self.matches: dict[int, Match] = {}
        group = app_commands.Group(name="airwar", description="Air War")

        @group.command(name="challenge", description="Challenge someone")
        async def challenge(interaction: discord.Interaction, opponent: discord.User) -> None:
            match_id = len(self.matches) + 1
            self.matches[match_id] = Match((interaction.user.id, opponent.id))
            view = discord.ui.View(timeout=None)
            for action in ("accept", "decline", "withdraw"):
                view.add_item(discord.ui.Button(label=action.title(), custom_id=f"aw:c:{match_id}:{action}"))
            await interaction.response.send_message(embed=discord.Embed(title=f"{TITLE} challenge"), view=view)

        self.tree.add_command(group)

    async def setup_hook(self) -> None:
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        _, kind, match_id, *rest = str((interaction.data or {}).get("custom_id", "")).split(":")
        match = self.matches[int(match_id)]
        if kind == "c":
            await self.accept(interaction, int(match_id), match)
        elif kind == "p":
            await self.panel_click(interaction, int(match_id), match, int(rest[0]), rest[1])

    async def accept(self, interaction: discord.Interaction, match_id: int, match: Match) -> None:
        await interaction.response.edit_message(embed=discord.Embed(title=f"{TITLE} — accepted"), view=None)
        message = await interaction.original_response()
        match.thread = await message.create_thread(name=f"{TITLE} {match_id}")
        embed, view = panel(match_id, 1)
        for user_id in match.players:
            user = self.get_user(user_id) or await self.fetch_user(user_id)
            await user.send(embed=embed, view=view)

    async def panel_click(self, interaction: discord.Interaction, match_id: int, match: Match, engagement: int,
                          key: str) -> None:
        if key != "confirm":
            embed, view = panel(match_id, engagement)
            await interaction.response.edit_message(embed=embed, view=view)
            return
        if engagement < self.engagements:
            embed, view = panel(match_id, engagement + 1)
            await interaction.response.edit_message(embed=embed, view=view)
            return
        await interaction.response.edit_message(embed=discord.Embed(title=f"{TITLE} — locked in"), view=None)
        match.finished_seats.add(match.players.index(interaction.user.id))
        if len(match.finished_seats) == len(match.players) and match.thread is not None:
            await match.thread.send(embed=discord.Embed(title=f"{TITLE} — the challenger wins"))


async def main(argv: list[str]) -> None:
    api, gateway, token, guild, engagements = argv
    guards = Guards(api, gateway)
    bot = BaselineBot(int(guild), int(engagements))
    running = await start(bot, token)

    async def stored(match_id: int) -> bool:
        return match_id in bot.matches

    async def unshown() -> int:
        return 0

    async def report(match_ids: list[int]) -> dict[str, Any]:
        return {"finished": sum(len(bot.matches[m].finished_seats) == 2 for m in match_ids), "arrange_timeouts": 0,
                "errors": guards.problems()}

    await serve(bot, running, stored=stored, unshown=unshown, report=report)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
