"""Discord pieces any game's match display can share: the match's public thread, plain names, a message link, and
the server settings every game's start obeys (where matches may start, a thread per match or not).

Nothing here knows a game: a function takes the match record and a service with the shared setters
(:meth:`~bot.match.outbox.Outbox.set_thread` / ``set_message``).
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.i18n import Texts
from bot.render.common import ENGLISH, clamp_line
from bot.storage.records import MatchRecord
from cogs.kit.items import GameItem
from cogs.kit.messages import tell_privately
from cogs.kit.stats_ui import settings_service

log = logging.getLogger("cogs.matches")

THREAD_ALREADY_CREATED = 160004
THREAD_ARCHIVE_MINUTES = 1440


def message_link(guild_id: int, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


def mentions(match: MatchRecord) -> list[str]:
    return [f"<@{user_id}>" for user_id in match.user_ids]


async def fetch_name(bot: discord.Client, guild_id: int, user_id: int) -> str | None:
    """A member's display name from the cache or Discord (their user name where the bot can't read the server's
    members: a server that did not add it); ``None`` when Discord can't say."""
    guild = bot.get_guild(guild_id)
    try:
        if guild is not None:
            try:
                member = guild.get_member(user_id) or await guild.fetch_member(user_id)
                return member.display_name
            except discord.Forbidden:
                pass
        user = bot.get_user(user_id) or await bot.fetch_user(user_id)
        return user.display_name
    except discord.HTTPException:
        return None


async def ensure_thread(bot: discord.Client, service: Any, match: MatchRecord,
                        name: str) -> tuple[MatchRecord, int | None]:
    """The match's public thread, made the first time from its challenge message (or on its own when that message
    is gone), named ``name``; stored with ``service.set_thread``. ``None``: the match is played in its channel
    (the server turned thread per match off, the command was used in a thread, or threads are refused there;
    message ``in_channel`` says so). Returns the match as stored after it and the thread id. A thread made before a
    restart is found again: a message's thread has the message's id."""
    if match.thread_id is not None:
        return match, match.thread_id
    if "in_channel" in match.messages:
        return match, None
    if not (await settings_service(bot).get(match.guild_id)).thread_per_match:
        return await service.outbox.set_message(match.id, "in_channel", match.channel_id), None
    channel = bot.get_channel(match.channel_id)
    if channel is None:
        try:
            channel = await bot.fetch_channel(match.channel_id)
        except discord.HTTPException:
            channel = None
    thread_id: int | None = None
    if isinstance(channel, discord.TextChannel):
        title = clamp_line(name, 100)
        try:
            if match.challenge_message_id is not None:
                try:
                    thread = await channel.get_partial_message(match.challenge_message_id).create_thread(
                        name=title, auto_archive_duration=THREAD_ARCHIVE_MINUTES)
                except discord.NotFound:
                    thread = await channel.create_thread(name=title, type=discord.ChannelType.public_thread,
                                                         auto_archive_duration=THREAD_ARCHIVE_MINUTES)
            else:
                thread = await channel.create_thread(name=title, type=discord.ChannelType.public_thread,
                                                     auto_archive_duration=THREAD_ARCHIVE_MINUTES)
            thread_id = thread.id
        except discord.Forbidden as error:
            log.info("match %s: no thread in channel %s (%s); playing in the channel", match.id, channel.id, error)
        except discord.HTTPException as error:
            if error.code != THREAD_ALREADY_CREATED or match.challenge_message_id is None:
                raise
            thread_id = match.challenge_message_id
    if thread_id is None:
        return await service.outbox.set_message(match.id, "in_channel", match.channel_id), None
    return await service.outbox.set_thread(match.id, thread_id), thread_id


def missing_permissions(interaction: discord.Interaction, say: Texts = ENGLISH) -> str:
    """The permissions a match needs in the command's channel that the bot lacks, in words ("" when none), as
    Discord names them in ``say``'s language."""
    _ = say
    perms = interaction.app_permissions
    in_thread = isinstance(interaction.channel, discord.Thread)
    needed = [(_("Send Messages"), perms.send_messages_in_threads if in_thread else perms.send_messages),
              (_("Embed Links"), perms.embed_links), (_("Attach Files"), perms.attach_files)]
    return ", ".join(name for name, ok in needed if not ok)


__all__ = ["GameItem", "ensure_thread", "fetch_name", "mentions", "message_link", "missing_permissions",
           "tell_privately"]
