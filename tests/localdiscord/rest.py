"""Discord's REST API v10 as the bot uses it: the route handlers.

Each handler gets a :class:`Call` (path parameters, query, the parsed and already spec-validated body, the
uploaded files) and returns ``(status, body)`` or raises :class:`~.errors.ApiError`.  The server does routing,
authentication, validation, rate limits and the response checks around them (see ``server.py``).
"""

from __future__ import annotations

import mimetypes
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import command_limits, emoji_limits, errors
from .emoji_limits import AppEmoji
from .state import (
    APPLICATION_COMMAND,
    ATTACH_FILES,
    AUTOCOMPLETE,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DM,
    EPHEMERAL,
    GROUP_DM,
    GUILD_TEXT,
    HAS_THREAD,
    IS_COMPONENTS_V2,
    LOADING,
    MANAGE_CHANNELS,
    MANAGE_MESSAGES,
    MANAGE_THREADS,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    MSG_CHAT_INPUT_COMMAND,
    MSG_CONTEXT_MENU_COMMAND,
    MSG_DEFAULT,
    MSG_THREAD_CREATED,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    Channel,
    Interaction,
    Message,
    ResponseRecord,
    Upload,
    iso,
)

if TYPE_CHECKING:
    from multidict import MultiDictProxy

    from .server import LocalDiscord

Handler = Callable[["Call"], Awaitable[tuple[int, Any]]]
ROUTES: dict[tuple[str, str], str] = {}


def route(method: str, template: str):
    def deco(fn):
        ROUTES[(method, template)] = fn.__name__
        return fn

    return deco


@dataclass
class Call:
    method: str
    template: str
    params: dict[str, str]
    query: MultiDictProxy
    body: Any
    uploads: list[Upload]

    def flag(self, name: str) -> bool:
        return self.query.get(name, "").lower() in {"1", "true"}


def sniff_content_type(filename: str, data: bytes, declared: str | None) -> str | None:
    """Discord detects an upload's type; discord.py always declares application/octet-stream."""
    if declared and declared != "application/octet-stream":
        return declared
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "image/png"
    if data[:3] == b"\xff\xd8\xff":
        return "image/jpeg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    guessed, _ = mimetypes.guess_type(filename)
    if guessed:
        return guessed + ("; charset=utf-8" if guessed.startswith("text/") else "")
    return declared


class Rest:
    def __init__(self, server: LocalDiscord) -> None:
        self.server = server
        self.handlers: dict[tuple[str, str], Handler] = {key: getattr(self, name) for key, name in ROUTES.items()}
        self.nonces: dict[tuple[int, str], tuple[Message, float]] = {}  # (author, nonce) -> message, when
        self.nonce_hits = 0  # sends answered with the message an earlier send of the same nonce created

    @property
    def world(self):
        return self.server.world

    @property
    def hub(self):
        return self.server.hub

    # ===================================================================================== session & meta
    @route("GET", "/gateway")
    async def get_gateway(self, call: Call):
        return 200, {"url": self.server.gateway_url}

    @route("GET", "/gateway/bot")
    async def get_gateway_bot(self, call: Call):
        return 200, {"url": self.server.gateway_url, "shards": self.server.shard_count,
                     "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 14_400_000,
                                             "max_concurrency": 1}}

    @route("GET", "/users/@me")
    async def get_me(self, call: Call):
        return 200, {**self.world.bot_user.payload(), "mfa_enabled": False, "locale": "en-US", "verified": True,
                     "email": None, "premium_type": 0}

    @route("GET", "/users/{user_id}")
    async def get_user(self, call: Call):
        user = self.world.users.get(int(call.params["user_id"]))
        if user is None:
            raise errors.unknown_user()
        return 200, user.payload()

    @route("GET", "/oauth2/applications/@me")
    async def get_application(self, call: Call):
        world = self.world
        return 200, {
            "id": str(world.application_id),
            "name": world.bot_user.name,
            "icon": None,
            "description": "",
            "type": None,
            "bot": world.bot_user.payload(),
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": self.server.application_flags,
            "flags_new": str(self.server.application_flags),
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "owner": world.application_owner.payload(),
            "approximate_guild_count": len(world.guilds),
            "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0,
            "explicit_content_filter": 0,
            "team": None,
            "eligible_oauth2_scopes": ["bot", "applications.commands"],
            "rpc_origins": [],
            "integration_types_config": {str(kind): {} for kind in sorted(world.enabled_installs)},
        }

    # ============================================================================================= users
    @route("POST", "/users/@me/channels")
    async def create_dm(self, call: Call):
        recipient = call.body.get("recipient_id")
        user = self.world.users.get(int(recipient)) if recipient is not None else None
        if user is None:
            raise errors.unknown_user()
        return 200, self.world.dm_channel(user).payload()

    # ========================================================================================== channels
    def _bot_perms(self, channel: Channel) -> int:
        return self.world.permissions(self.world.bot_user, channel)

    def _readable(self, channel: Channel) -> Channel:
        """A channel the bot may read: its DMs, a server channel it can see; never a group DM (it is in none) nor a
        channel of a server that did not add it (403 50001, as Discord answers an app there by user install)."""
        if channel.type == GROUP_DM or (channel.type != DM and not self._bot_perms(channel)):
            raise errors.missing_access()
        return channel

    @route("GET", "/channels/{channel_id}")
    async def get_channel(self, call: Call):
        return 200, self._readable(self.world.get_channel(call.params["channel_id"])).payload()

    @route("PATCH", "/channels/{channel_id}")
    async def edit_channel(self, call: Call):
        world = self.world
        channel = self._readable(world.get_channel(call.params["channel_id"]))
        if channel.type == DM:
            raise errors.wrong_channel_type()
        body = call.body or {}
        perms = self._bot_perms(channel)
        owner_edit = channel.is_thread and channel.owner is world.bot_user
        if not (perms & MANAGE_CHANNELS or (channel.is_thread and (perms & MANAGE_THREADS or owner_edit))):
            raise errors.missing_permissions()
        if channel.is_thread and channel.locked and body.get("locked") is not False and not perms & MANAGE_THREADS:
            raise errors.thread_archived()
        for key in ("name", "topic", "rate_limit_per_user", "archived", "locked", "auto_archive_duration",
                    "invitable"):
            if body.get(key) is not None:
                setattr(channel, key, body[key])
        if channel.is_thread:
            await self.hub.thread_update(channel)
        else:
            await self.hub.channel_update(channel)
        world.changed()
        return 200, channel.payload()

    @route("DELETE", "/channels/{channel_id}")
    async def delete_channel(self, call: Call):
        world = self.world
        channel = self._readable(world.get_channel(call.params["channel_id"]))
        if channel.type == DM:
            return 200, channel.payload()  # "closing" a DM
        perms = self._bot_perms(channel)
        if not (perms & MANAGE_CHANNELS or (channel.is_thread and perms & MANAGE_THREADS)):
            raise errors.missing_permissions()
        data = channel.payload()
        world.delete_channel(channel)
        await self.hub.channel_delete(channel, data)
        world.changed()
        return 200, data

    @route("POST", "/channels/{channel_id}/typing")
    async def typing(self, call: Call):
        channel = self.world.get_channel(call.params["channel_id"])
        if channel.type == DM and (channel.recipient is None or not channel.recipient.dms_open):
            raise errors.cannot_dm()
        self.world.typing.append((channel, self.world.clock.time()))
        return 204, None

    @route("GET", "/channels/{channel_id}/messages")
    async def get_messages(self, call: Call):
        channel = self._readable(self.world.get_channel(call.params["channel_id"]))
        if channel.type != DM and not self._bot_perms(channel) & READ_MESSAGE_HISTORY:
            return 200, []
        limit = int(call.query.get("limit", 50))
        messages = channel.visible_messages()
        if "around" in call.query:
            around = int(call.query["around"])
            index = next((i for i, m in enumerate(messages) if m.id >= around), len(messages))
            start = max(0, index - limit // 2)
            chosen = messages[start:start + limit]
        elif "after" in call.query:
            after = int(call.query["after"])
            chosen = [m for m in messages if m.id > after][:limit]
        else:
            before = int(call.query["before"]) if "before" in call.query else None
            chosen = [m for m in messages if before is None or m.id < before][-limit:]
        return 200, [m.payload() for m in reversed(chosen)]

    @route("POST", "/channels/{channel_id}/messages")
    async def create_message(self, call: Call):
        world = self.world
        channel = world.get_channel(call.params["channel_id"])
        if channel.type == GROUP_DM:
            raise errors.missing_access()  # the bot is in no group DM: only interaction responses reach one
        if channel.type == DM:
            recipient = channel.recipient
            if recipient is None or not recipient.dms_open or recipient.bot:
                raise errors.cannot_dm()
        else:
            perms = self._bot_perms(channel)
            if not perms:
                raise errors.missing_access()
            needed = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
            if not perms & needed or (call.uploads and not perms & ATTACH_FILES):
                raise errors.missing_permissions()
            if channel.is_thread and (channel.archived or channel.locked):
                if channel.locked:
                    raise errors.thread_archived()
                channel.archived = False  # sending unarchives a thread
        body = call.body or {}
        key = None
        if body.get("nonce") is not None and body.get("enforce_nonce"):
            # Discord: "checked for uniqueness in the past few minutes. If another message was created by the same
            # author with the same nonce, that message will be returned and no new message will be created."
            key = (world.bot_user.id, str(body["nonce"]))
            earlier = self.nonces.get(key)
            if earlier is not None and world.clock.time() - earlier[1] <= self.server.nonce_window:
                if earlier[0].deleted:
                    raise errors.unknown_message()  # discord.py: NotFound, "explicitly deleted shortly earlier"
                self.nonce_hits += 1
                return 200, earlier[0].payload()
        message = world.new_message(channel, world.bot_user, body, call.uploads)
        if key is not None:
            self.nonces[key] = (message, world.clock.time())
        await self.hub.message_create(message)
        world.changed()
        return 200, message.payload()

    def _channel_message(self, call: Call) -> tuple[Channel, Message]:
        channel = self.world.get_channel(call.params["channel_id"])
        message = self.world.get_message(channel, call.params["message_id"])
        if message.ephemeral_to is not None:
            raise errors.unknown_message()
        return channel, message

    @route("GET", "/channels/{channel_id}/messages/{message_id}")
    async def get_message(self, call: Call):
        channel, message = self._channel_message(call)
        self._readable(channel)
        return 200, message.payload()

    @route("PATCH", "/channels/{channel_id}/messages/{message_id}")
    async def edit_message(self, call: Call):
        channel, message = self._channel_message(call)
        self._readable(channel)
        if message.author is not self.world.bot_user and set(call.body or {}) - {"flags"}:
            raise errors.cannot_edit_others()
        self.world.edit_message(message, call.body or {}, call.uploads)
        await self.hub.message_update(message)
        self.world.changed()
        return 200, message.payload()

    @route("DELETE", "/channels/{channel_id}/messages/{message_id}")
    async def delete_message(self, call: Call):
        channel, message = self._channel_message(call)
        if message.author is not self.world.bot_user and not self._bot_perms(channel) & MANAGE_MESSAGES:
            raise errors.missing_permissions()
        await self._delete(message)
        return 204, None

    async def _delete(self, message: Message) -> None:
        message.deleted = True
        await self.hub.message_delete(message)
        self.world.changed()

    # =========================================================================================== threads
    @route("POST", "/channels/{channel_id}/threads")
    async def create_thread(self, call: Call):
        world = self.world
        parent = world.get_channel(call.params["channel_id"])
        if not world.bot_is_member(parent):
            raise errors.missing_access()  # a group DM, a server that did not add the bot
        if parent.type != GUILD_TEXT:
            raise errors.wrong_channel_type()
        body = call.body or {}
        kind = body.get("type") or PRIVATE_THREAD
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
            raise errors.form_error(["type"], "BASE_TYPE_CHOICES", "Value must be one of {11, 12}.")
        perms = self._bot_perms(parent)
        needed = CREATE_PRIVATE_THREADS if kind == PRIVATE_THREAD else CREATE_PUBLIC_THREADS
        if not perms:
            raise errors.missing_access()
        if not perms & needed:
            raise errors.missing_permissions()
        thread = world.add_thread(parent, body["name"], owner=world.bot_user, private=kind == PRIVATE_THREAD,
                                  auto_archive_duration=body.get("auto_archive_duration") or 4320,
                                  invitable=body.get("invitable", True) is not False)
        await self.hub.thread_create(thread)
        if kind == PUBLIC_THREAD:
            notice = world.new_message(parent, world.bot_user, {"content": thread.name}, [], type=MSG_THREAD_CREATED)
            notice.reference = None
            await self.hub.message_create(notice)
        world.changed()
        data = thread.payload()
        data["member"] = {"id": str(thread.id), "user_id": str(world.bot_user.id),
                          "join_timestamp": iso(thread.thread_members[world.bot_user.id]), "flags": 0}
        return 201, data

    @route("POST", "/channels/{channel_id}/messages/{message_id}/threads")
    async def create_thread_from_message(self, call: Call):
        world = self.world
        parent, message = self._channel_message(call)
        if not world.bot_is_member(parent):
            raise errors.missing_access()
        if parent.type != GUILD_TEXT:
            raise errors.wrong_channel_type()
        if message.thread is not None:
            raise errors.thread_already_created()
        perms = self._bot_perms(parent)
        if not perms & CREATE_PUBLIC_THREADS:
            raise errors.missing_permissions()
        body = call.body or {}
        thread = world.add_thread(parent, body["name"], owner=world.bot_user, thread_id=message.id,
                                  auto_archive_duration=body.get("auto_archive_duration") or 4320)
        message.thread = thread
        message.flags |= HAS_THREAD
        await self.hub.thread_create(thread)
        world.changed()
        return 201, thread.payload()

    def _thread(self, call: Call) -> Channel:
        thread = self.world.get_channel(call.params["channel_id"])
        if not thread.is_thread:
            raise errors.wrong_channel_type()
        return thread

    @route("PUT", "/channels/{channel_id}/thread-members/@me")
    async def join_thread(self, call: Call):
        thread = self._thread(call)
        if thread.archived:
            raise errors.thread_archived()
        bot = self.world.bot_user
        if thread.type == PRIVATE_THREAD and bot.id not in thread.thread_members and not self._bot_perms(thread):
            raise errors.missing_access()
        if bot.id not in thread.thread_members:
            thread.thread_members[bot.id] = self.world.clock.time()
            await self.hub.thread_member_update(thread, bot.id)
            self.world.changed()
        return 204, None

    @route("DELETE", "/channels/{channel_id}/thread-members/@me")
    async def leave_thread(self, call: Call):
        thread = self._thread(call)
        thread.thread_members.pop(self.world.bot_user.id, None)
        self.world.changed()
        return 204, None

    @route("PUT", "/channels/{channel_id}/thread-members/{user_id}")
    async def add_thread_member(self, call: Call):
        thread = self._thread(call)
        user = self.world.users.get(int(call.params["user_id"]))
        if user is None or self.world.member(user, thread.guild) is None:
            raise errors.unknown_member()
        if thread.archived:
            raise errors.thread_archived()
        if user.id not in thread.thread_members:
            thread.thread_members[user.id] = self.world.clock.time()
            await self.hub.thread_members_update(thread, [user.id])
            self.world.changed()
        return 204, None

    @route("DELETE", "/channels/{channel_id}/thread-members/{user_id}")
    async def remove_thread_member(self, call: Call):
        thread = self._thread(call)
        thread.thread_members.pop(int(call.params["user_id"]), None)
        self.world.changed()
        return 204, None

    # ============================================================================================ guilds
    def _guild(self, call: Call):
        guild = self.world.guilds.get(int(call.params["guild_id"]))
        if guild is None:
            raise errors.unknown_guild()
        if self.world.bot_user.id not in guild.members:
            raise errors.missing_access()  # a server that did not add the bot
        return guild

    @route("GET", "/guilds/{guild_id}")
    async def get_guild(self, call: Call):
        guild = self._guild(call)
        data = guild.payload(members=[], bot_user=self.world.bot_user)
        for key in ("joined_at", "large", "unavailable", "member_count", "members", "channels", "threads",
                    "voice_states", "presences", "stage_instances", "guild_scheduled_events", "soundboard_sounds",
                    "lazy"):
            data.pop(key, None)
        if call.flag("with_counts"):
            data["approximate_member_count"] = len(guild.members)
            data["approximate_presence_count"] = 0
        return 200, data

    @route("GET", "/guilds/{guild_id}/channels")
    async def get_guild_channels(self, call: Call):
        guild = self._guild(call)
        return 200, [c.payload() for c in guild.channels if not c.is_thread]

    @route("GET", "/guilds/{guild_id}/roles")
    async def get_roles(self, call: Call):
        return 200, [r.payload() for r in self._guild(call).roles]

    @route("GET", "/guilds/{guild_id}/members/{user_id}")
    async def get_member(self, call: Call):
        guild = self._guild(call)
        member = guild.members.get(int(call.params["user_id"]))
        if member is None:
            raise errors.unknown_member()
        return 200, member.payload()

    @route("GET", "/guilds/{guild_id}/threads/active")
    async def get_active_threads(self, call: Call):
        guild = self._guild(call)
        bot = self.world.bot_user
        threads = [t for t in guild.threads if not t.archived]
        return 200, {
            "threads": [t.payload() for t in threads],
            "members": [{"id": str(t.id), "user_id": str(bot.id), "join_timestamp": iso(t.thread_members[bot.id]),
                         "flags": 0} for t in threads if bot.id in t.thread_members],
            "has_more": False,
        }

    # ========================================================================================== commands
    def _check_app(self, call: Call) -> None:
        if int(call.params["application_id"]) != self.world.application_id:
            raise errors.unknown_application()

    def _command_list(self, call: Call) -> tuple[list[dict], int | None]:
        self._check_app(call)
        if "guild_id" in call.params:
            guild = self._guild(call)
            return self.world.guild_commands.setdefault(guild.id, []), guild.id
        return self.world.global_commands, None

    @route("GET", "/applications/{application_id}/commands")
    @route("GET", "/applications/{application_id}/guilds/{guild_id}/commands")
    async def get_commands(self, call: Call):
        commands, _ = self._command_list(call)
        return 200, commands

    @route("PUT", "/applications/{application_id}/commands")
    @route("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
    async def put_commands(self, call: Call):
        _, guild_id = self._command_list(call)
        command_limits.check_command_tree(call.body or [], enabled_installs=None if guild_id is not None
                                          else self.world.enabled_installs)
        result = self.world.store_commands(call.body or [], guild_id)
        self.world.changed()
        return 200, result

    @route("POST", "/applications/{application_id}/commands")
    @route("POST", "/applications/{application_id}/guilds/{guild_id}/commands")
    async def create_command(self, call: Call):
        commands, guild_id = self._command_list(call)
        command_limits.check_command(call.body)
        if guild_id is None:
            command_limits.check_installs(call.body, [], self.world.enabled_installs)
        command_limits.check_room_for(call.body, commands)
        key = (call.body.get("type") or 1, call.body["name"])
        old = {(c["type"], c["name"]): c["id"] for c in commands}
        created = self.world.command_response(call.body, guild_id, {(k[1], k[0]): v for k, v in old.items()})
        commands[:] = [c for c in commands if (c["type"], c["name"]) != key] + [created]
        self.world.changed()
        return (200 if key in old else 201), created

    def _command(self, call: Call) -> tuple[list[dict], dict, int | None]:
        commands, guild_id = self._command_list(call)
        command = next((c for c in commands if c["id"] == call.params["command_id"]), None)
        if command is None:
            raise errors.unknown_command()
        return commands, command, guild_id

    @route("GET", "/applications/{application_id}/commands/{command_id}")
    @route("GET", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}")
    async def get_command(self, call: Call):
        return 200, self._command(call)[1]

    @route("PATCH", "/applications/{application_id}/commands/{command_id}")
    @route("PATCH", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}")
    async def edit_command(self, call: Call):
        commands, command, guild_id = self._command(call)
        merged = {**command, **{k: v for k, v in call.body.items()}}
        command_limits.check_command(merged)
        updated = self.world.command_response(merged, guild_id, {(command["name"], command["type"]): command["id"]})
        commands[commands.index(command)] = updated
        self.world.changed()
        return 200, updated

    @route("DELETE", "/applications/{application_id}/commands/{command_id}")
    @route("DELETE", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}")
    async def delete_command(self, call: Call):
        commands, command, _ = self._command(call)
        commands.remove(command)
        self.world.changed()
        return 204, None

    # ====================================================================================== application emoji
    @route("GET", "/applications/{application_id}/emojis")
    async def list_application_emojis(self, call: Call):
        self._check_app(call)
        return 200, {"items": [emoji.payload(self.world.bot_user) for emoji in self.world.app_emojis.values()]}

    @route("GET", "/applications/{application_id}/emojis/{emoji_id}")
    async def get_application_emoji(self, call: Call):
        return 200, self._app_emoji(call).payload(self.world.bot_user)

    @route("POST", "/applications/{application_id}/emojis")
    async def create_application_emoji(self, call: Call):
        self._check_app(call)
        world = self.world
        name = call.body["name"]
        emoji_limits.check_name(name)
        if any(emoji.name == name for emoji in world.app_emojis.values()):
            raise errors.form_error(["name"], "APPLICATION_EMOJI_NAME_ALREADY_TAKEN",
                                    "An application emoji with this name already exists.")
        if len(world.app_emojis) >= emoji_limits.MAX_APPLICATION_EMOJIS:
            raise errors.max_emojis()
        image, animated = emoji_limits.decode_image(call.body["image"])
        emoji = AppEmoji(world.ids.next(), name, image, animated)
        world.app_emojis[emoji.id] = emoji
        world.app_emoji_creates += 1
        world.changed()
        return 201, emoji.payload(world.bot_user)

    @route("PATCH", "/applications/{application_id}/emojis/{emoji_id}")
    async def update_application_emoji(self, call: Call):
        emoji = self._app_emoji(call)
        name = call.body.get("name", emoji.name)
        emoji_limits.check_name(name)
        if any(other.name == name and other is not emoji for other in self.world.app_emojis.values()):
            raise errors.form_error(["name"], "APPLICATION_EMOJI_NAME_ALREADY_TAKEN",
                                    "An application emoji with this name already exists.")
        emoji.name = name
        return 200, emoji.payload(self.world.bot_user)

    @route("DELETE", "/applications/{application_id}/emojis/{emoji_id}")
    async def delete_application_emoji(self, call: Call):
        emoji = self._app_emoji(call)
        del self.world.app_emojis[emoji.id]
        return 204, None

    def _app_emoji(self, call: Call) -> AppEmoji:
        self._check_app(call)
        emoji = self.world.app_emojis.get(int(call.params["emoji_id"]))
        if emoji is None:
            raise errors.unknown_emoji()
        return emoji

    # ====================================================================================== interactions
    @route("POST", "/interactions/{interaction_id}/{interaction_token}/callback")
    async def interaction_callback(self, call: Call):
        server = self.server
        world = self.world
        ix = world.interactions.get(int(call.params["interaction_id"]))
        if ix is None or ix.token != call.params["interaction_token"]:
            raise errors.unknown_interaction()
        now = world.clock.time()
        body = call.body or {}
        kind = body.get("type")
        if ix.responded:
            error = errors.already_acknowledged()
            ix.errors.append((error.status, error.code, error.message))
            server.problem("interaction_already_acknowledged",
                           f"{ix.describe()}: a second response (type {kind}) after type {ix.response.type}; "
                           "Discord answers 400 code 40060")
            raise error
        elapsed = now - ix.created_at
        if elapsed > server.interaction_timeout:
            ix.late = True
            error = errors.unknown_interaction()
            ix.errors.append((error.status, error.code, error.message))
            server.problem("late_interaction_response",
                           f"{ix.describe()}: first response after {elapsed:.2f} s (Discord allows "
                           f"{server.interaction_timeout:g} s); Discord answers 404 Unknown interaction (10062)")
            world.changed()
            raise error
        allowed = {APPLICATION_COMMAND: {4, 5, 9, 10, 12}, MESSAGE_COMPONENT: {4, 5, 6, 7, 9, 10, 12},
                   MODAL_SUBMIT: {4, 5, 6, 7, 10, 12}, AUTOCOMPLETE: {8}}.get(ix.type, {1})
        if kind not in allowed or (kind in (6, 7) and ix.source is None):
            raise errors.form_error(["type"], "INTERACTION_RESPONSE_TYPE_INVALID",
                                    f"Interaction response type {kind} is not valid for this interaction")
        data = body.get("data") or {}
        if ix.forced_ephemeral and kind in (4, 5):
            data = {**data, "flags": int(data.get("flags") or 0) | EPHEMERAL}
        record = ResponseRecord(type=kind, data=data, at=now)
        message: Message | None = None
        if kind in (4, 5):
            message = self._interaction_message(ix, data if kind == 4 else {"flags": data.get("flags")},
                                                call.uploads, loading=kind == 5)
            ix.original = message
            await self.hub.message_create(message)
        elif kind in (6, 7):
            message = ix.source
            assert message is not None
            if kind == 7:
                world.edit_message(message, data, call.uploads)
                await self.hub.message_update(message)
            ix.original = message
        elif kind == 9:
            ix.modal = data
        elif kind == 8:
            ix.choices = data.get("choices") or []
        record.message = message
        ix._set_response(record)
        world.changed()
        if not call.flag("with_response"):
            return 204, None
        summary: dict[str, Any] = {"id": str(ix.id), "type": ix.type}
        if message is not None and kind in (4, 5, 7):
            summary["response_message_id"] = str(message.id)
            summary["response_message_loading"] = kind == 5
            summary["response_message_ephemeral"] = message.ephemeral
        if ix.channel is not None:
            summary["channel_id"] = str(ix.channel.id)
        if ix.guild is not None:
            summary["guild_id"] = str(ix.guild.id)
        out: dict[str, Any] = {"interaction": summary}
        if message is not None and kind in (4, 7):  # the spec's resource has no type 5 (the loading message)
            out["resource"] = {"type": kind, "message": message.payload()}
        return 200, out

    def _interaction_message(self, ix: Interaction, data: dict, uploads: list[Upload], *, loading: bool = False,
                             followup: bool = False) -> Message:
        world = self.world
        if ix.type == APPLICATION_COMMAND and not followup:
            kind = MSG_CHAT_INPUT_COMMAND if ix.data.get("type", 1) == 1 else MSG_CONTEXT_MENU_COMMAND
        else:
            kind = MSG_DEFAULT
        legacy = None
        if ix.type == APPLICATION_COMMAND:
            legacy = {"id": str(ix.id), "type": ix.type, "name": ix.command_name or ix.data.get("name", ""),
                      "user": ix.user.payload()}
        return world.new_message(
            ix.channel, world.bot_user, data, uploads, allow_ephemeral=True, ephemeral_to=ix.user, type=kind,
            webhook_id=world.application_id, interaction_metadata=self.server.interaction_metadata(ix),
            interaction=legacy, extra_flags=LOADING if loading else 0, allow_empty=loading,
        )

    # ============================================================================== webhooks (followups)
    def _webhook_interaction(self, call: Call) -> Interaction:
        server = self.server
        world = self.world
        if int(call.params["webhook_id"]) != world.application_id:
            raise errors.unknown_webhook()
        ix = server.interactions_by_token.get(call.params["webhook_token"])
        if ix is None:
            raise errors.unknown_webhook()
        age = world.clock.time() - ix.created_at
        if age > server.token_lifetime:
            error = errors.invalid_webhook_token()
            ix.errors.append((error.status, error.code, error.message))
            server.problem("expired_interaction_token",
                           f"{call.method} {call.template} for {ix.describe()} {age / 60:.1f} min after it was "
                           f"created; the token lives {server.token_lifetime / 60:g} min (Discord: 401 code 50027)")
            raise error
        return ix

    def _webhook_message(self, ix: Interaction, message_id: str) -> Message:
        """A message an interaction's token reaches: its response, its followups, or another message the
        application's interactions made in the interaction's channel (public, or private to the same user): the
        way an app that is not a member keeps one message up to date with each new interaction's token."""
        if message_id == "@original":
            if ix.original is None or ix.original.deleted:
                raise errors.unknown_message()
            return ix.original
        message = self.world.messages.get(int(message_id))
        if message is None or message.deleted:
            raise errors.unknown_message()
        own = message is ix.original or message in ix.followups
        app_message = (message.webhook_id == self.world.application_id and message.channel is ix.channel
                       and message.ephemeral_to in (None, ix.user))
        if not (own or app_message):
            raise errors.unknown_message()
        return message

    @route("POST", "/webhooks/{webhook_id}/{webhook_token}")
    async def execute_webhook(self, call: Call):
        ix = self._webhook_interaction(call)
        if not ix.responded:
            raise errors.unknown_webhook()
        body = call.body or {}
        original = ix.original
        if original is not None and original.loading and not original.deleted and ix.response and \
                ix.response.type == 5:
            # the first followup after a "thinking" defer replaces the loading message (as on Discord); once the
            # loading message was deleted, a followup is a message of its own (ephemeral if its flags say so)
            # (of its flags only Components V2 applies: the loading message's ephemerality stays)
            v2 = int(body.get("flags") or 0) & IS_COMPONENTS_V2
            self.world.edit_message(original, {**body, "flags": v2 or None}, call.uploads, edited=False)
            original.flags &= ~LOADING
            message = original
            await self.hub.message_update(message)
        else:
            if not world_has_app(self.world, ix) and len(ix.followups) >= self.server.max_followups_outside:
                raise errors.too_many_followups()
            if ix.forced_ephemeral:
                body = {**body, "flags": int(body.get("flags") or 0) | EPHEMERAL}
            message = self._interaction_message(ix, body, call.uploads, followup=True)
            ix.followups.append(message)
            await self.hub.message_create(message)
        self.world.changed()
        if not call.flag("wait"):
            return 204, None
        return 200, message.payload()

    @route("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
    @route("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
    async def get_webhook_message(self, call: Call):
        ix = self._webhook_interaction(call)
        return 200, self._webhook_message(ix, call.params.get("message_id", "@original")).payload()

    @route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
    @route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
    async def edit_webhook_message(self, call: Call):
        ix = self._webhook_interaction(call)
        message = self._webhook_message(ix, call.params.get("message_id", "@original"))
        was_loading = message.loading
        body = dict(call.body or {})
        body.pop("flags", None)  # flags can't be changed on an interaction message's edit except components v2
        if call.body and call.body.get("flags") is not None:
            body["flags"] = call.body["flags"]
        self.world.edit_message(message, body, call.uploads, edited=not was_loading)
        if was_loading:
            message.flags &= ~LOADING
        await self.hub.message_update(message)
        self.world.changed()
        return 200, message.payload()

    @route("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
    @route("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
    async def delete_webhook_message(self, call: Call):
        ix = self._webhook_interaction(call)
        message = self._webhook_message(ix, call.params.get("message_id", "@original"))
        await self._delete(message)
        return 204, None


def world_has_app(world, ix: Interaction) -> bool:
    """Whether the application is a member where the interaction came from (a server that added the bot, its DM)."""
    return world.bot_is_member(ix.channel)


def upload_from_part(index: int, filename: str, content_type: str | None, data: bytes) -> Upload:
    return Upload(index=index, filename=filename, content_type=sniff_content_type(filename, data, content_type),
                  data=data)


__all__ = ["ROUTES", "Call", "Rest", "sniff_content_type", "upload_from_part"]
