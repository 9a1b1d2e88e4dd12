"""Where a command is used, and what the bot may do there.

The app can be installed to a server (the bot is a member there: it posts, makes threads, reads the channel) or to
a user ("user install": its commands follow the user into DMs, group DMs and servers that allow external apps,
where the bot is no member and can only answer interactions). Discord tells which in every interaction:
``authorizing_integration_owners`` (``0``: the server that installed the app; ``1``: the user who did) and
``context`` (``0`` a server, ``1`` the DM with the bot, ``2`` a group DM or a DM between users).

A *place* is where a match's results count: the server, or the DM / group DM itself (its channel id; Discord's
ids never collide), so a group DM has its own small board and a server's boards count only what was played there.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import N_, Texts

SERVER_ONLY = N_("{feature} works only in a server that added me (with **Add to Server**). Here you can play the "
                 "two-player games: `/airwar challenge`, `/war challenge`, `/speedwar challenge`, `/army challenge`.")
NO_EXTERNAL_APPS = N_("This server does not let members use external apps here, so Discord shows my answers to you "
                      "alone and a game can't be played. Play in a DM or a group DM with your friends instead, or ask "
                      "the server to add me (or to allow **Use External Apps**).")


def place_id(interaction: discord.Interaction) -> int:
    """Where the interaction's results count: its server, else its DM / group DM channel."""
    if interaction.guild_id is not None:
        return interaction.guild_id
    assert interaction.channel_id is not None
    return interaction.channel_id


def bot_is_member(interaction: discord.Interaction) -> bool:
    """Whether the bot is a member where the interaction came from (a server that installed the app): it may post,
    make threads and read the channel there."""
    return interaction.is_guild_integration()


def by_interactions(interaction: discord.Interaction) -> bool:
    """Whether what the bot shows here goes through interaction responses only (a DM, a group DM, a server without
    the bot): see :mod:`cogs.kit.tokens`."""
    return not bot_is_member(interaction)


def external_apps_refused(interaction: discord.Interaction) -> bool:
    """A server without the bot whose member may not use external apps here: Discord turns every answer ephemeral,
    so nobody else would see a game."""
    return (interaction.guild_id is not None and not bot_is_member(interaction)
            and not interaction.permissions.use_external_apps)


class NotHere(app_commands.CheckFailure):
    """A command refused where it is used (a server-only feature elsewhere), with words for the user."""

    def __init__(self, template: str, **params: str) -> None:
        super().__init__(template)
        self.template = template
        self.params = params

    def said(self, say: Texts) -> str:
        return say(self.template, **{key: say(value) for key, value in self.params.items()})


def require_server(interaction: discord.Interaction, feature: str) -> bool:
    """A cog's ``interaction_check`` for server-only commands: ``True`` where the bot is a member, else
    :class:`NotHere` (the bot's command error handler answers it privately)."""
    if bot_is_member(interaction):
        return True
    raise NotHere(SERVER_ONLY, feature=feature)


__all__ = ["NO_EXTERNAL_APPS", "SERVER_ONLY", "NotHere", "bot_is_member", "by_interactions", "external_apps_refused",
           "place_id", "require_server"]
