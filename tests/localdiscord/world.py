"""The mutable world: who exists, which channels, messages and interactions, the synced commands.

The REST layer and the driver both work through this object; it never does I/O itself (the gateway hub
sends the events), so every operation is a plain, synchronous state change.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from . import errors
from .emoji_limits import AppEmoji, check_component_emoji
from .state import (
    ADMINISTRATOR,
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    DM,
    EPHEMERAL,
    GROUP_DM,
    GUILD_TEXT,
    IS_COMPONENTS_V2,
    MENTION_RE,
    MSG_DEFAULT,
    MSG_REPLY,
    PRIVATE_CHANNELS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    ROLE_MENTION_RE,
    SETTABLE_MESSAGE_FLAGS,
    Attachment,
    Channel,
    Clock,
    Guild,
    Interaction,
    Member,
    Message,
    Overwrite,
    Role,
    Snowflakes,
    Upload,
    User,
    iso,
)

MAX_CONTENT = 2000
MAX_EMBED_TOTAL = 6000
MAX_V2_COMPONENTS = 40  # components in a V2 message, nested ones included
MAX_V2_TEXT = 4000  # characters of all a V2 message's text displays
MAX_UPLOAD = 10 * 1024 * 1024  # a bot's attachment size limit (also sent as attachment_size_limit)


class World:
    def __init__(self, clock: Clock, *, guild_name: str = "Air War Test", bot_name: str = "Air War") -> None:
        self.clock = clock
        self.ids = Snowflakes(clock)
        self.base_url = "http://127.0.0.1"  # the server sets the real one (attachment URLs)
        self.users: dict[int, User] = {}
        self.users_by_name: dict[str, User] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.interactions: dict[int, Interaction] = {}
        self.dms: dict[int, Channel] = {}
        self.attachments: dict[int, Attachment] = {}
        self.global_commands: list[dict] = []
        self.guild_commands: dict[int, list[dict]] = {}
        self.command_syncs = 0
        #: the application's own emoji (usable in every message the app sends), by id
        self.app_emojis: dict[int, AppEmoji] = {}
        self.app_emoji_creates = 0
        self.typing: list[tuple[Channel, float]] = []  # typing indicators the bot triggered
        self.listeners: list[Callable[[], None]] = []
        #: the kinds of install the application enables (the Developer Portal's Installation page): 0 a server's,
        #: 1 a user's
        self.enabled_installs: frozenset[int] = frozenset({0, 1})
        #: the users who installed the application to themselves (its commands follow them everywhere)
        self.user_installs: set[int] = set()

        self.bot_user = self._new_user(bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.token = f"{secrets.token_urlsafe(18)}.{secrets.token_urlsafe(5)}.{secrets.token_urlsafe(27)}"
        self.application_owner = self._new_user("app-owner")

        self.guilds: dict[int, Guild] = {}
        #: the first server: the one every helper means unless told another
        self.guild = self.add_guild(guild_name, owner=self._new_user("owner"))
        self.bot_role = self.guild.role(bot_name)

    def add_guild(self, name: str, *, owner: User, shard: tuple[int, int] | None = None,
                  with_bot: bool = True) -> Guild:
        """A server with its roles, its owner and the bot as members and a #general; ``shard``: (shard id, shard
        count) its events go to (Discord's ``(guild_id >> 22) % count``); ``with_bot=False``: a server that never
        added the bot (it hears nothing of it; a user who installed the app may use it there)."""
        guild_id = self.ids.next()
        if shard is not None:
            shard_id, count = shard
            stamp = guild_id >> 22
            guild_id = ((stamp + (shard_id - stamp) % count) << 22) | (guild_id & 0x3FFFFF)
            self.ids.last = max(self.ids.last, guild_id)
        guild = Guild(id=guild_id, name=name, owner=owner, created_at=self.clock.time())
        self.guilds[guild.id] = guild
        guild.roles.append(Role(id=guild.id, name="@everyone", permissions=DEFAULT_EVERYONE_PERMISSIONS, position=0))
        self.add_role("Admin", ADMINISTRATOR, position=1, guild=guild)
        bot_role = self.add_role(self.bot_user.name, DEFAULT_BOT_PERMISSIONS, position=2, guild=guild)
        bot_role.managed = True
        bot_role.bot_id = self.bot_user.id
        self.add_member(owner, guild=guild)
        if with_bot:
            self.add_member(self.bot_user, roles=[bot_role], guild=guild)
        self.add_channel("general", guild=guild)
        return guild

    # ------------------------------------------------------------------------------------------ notify
    def changed(self) -> None:
        for listener in list(self.listeners):
            listener()

    # ------------------------------------------------------------------------------------------- people
    def _new_user(self, name: str, *, bot: bool = False, dms_open: bool = True) -> User:
        if name in self.users_by_name:
            raise ValueError(f"a user named {name!r} already exists")
        user = User(id=self.ids.next(), name=name, bot=bot, dms_open=dms_open)
        self.users[user.id] = user
        self.users_by_name[name] = user
        return user

    def add_role(self, name: str, permissions: int, *, position: int | None = None,
                 guild: Guild | None = None) -> Role:
        guild = guild or self.guild
        role = Role(id=self.ids.next(), name=name, permissions=permissions,
                    position=len(guild.roles) if position is None else position)
        guild.roles.append(role)
        return role

    def add_member(self, user: User, *, roles: list[Role] | None = None, nick: str | None = None,
                   guild: Guild | None = None) -> Member:
        guild = guild or self.guild
        member = Member(user=user, guild=guild, roles=list(roles or []), joined_at=self.clock.time(), nick=nick)
        guild.members[user.id] = member
        return member

    def member(self, user: User, guild: Guild | None = None) -> Member | None:
        return (guild or self.guild).members.get(user.id)

    # ----------------------------------------------------------------------------------------- channels
    def add_channel(self, name: str, *, type: int = GUILD_TEXT, topic: str | None = None,
                    overwrites: list[Overwrite] | None = None, guild: Guild | None = None) -> Channel:
        guild = guild or self.guild
        channel = Channel(id=self.ids.next(), type=type, name=name, guild=guild,
                          position=sum(1 for c in guild.channels if not c.is_thread), topic=topic,
                          overwrites=list(overwrites or []), created_at=self.clock.time())
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        return channel

    def delete_channel(self, channel: Channel) -> None:
        """Remove a guild channel or thread (and the threads of a deleted channel); messages stay readable."""
        guild = channel.guild or self.guild
        doomed = [channel] + [t for t in guild.channels if t.parent is channel]
        for gone in doomed:
            if gone in guild.channels:
                guild.channels.remove(gone)
            self.channels.pop(gone.id, None)
            gone.deleted = True

    def channel_named(self, name: str, guild: Guild | None = None) -> Channel | None:
        return next((c for c in (guild or self.guild).channels if c.name == name), None)

    def dm_channel(self, user: User) -> Channel:
        channel = self.dms.get(user.id)
        if channel is None:
            channel = Channel(id=self.ids.next(), type=DM, name=f"dm-{user.name}", recipient=user,
                              created_at=self.clock.time())
            self.dms[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    def group_dm(self, name: str, recipients: list[User]) -> Channel:
        """A group DM of ``recipients`` (its owner the first): the bot is never in one."""
        channel = Channel(id=self.ids.next(), type=GROUP_DM, name=name, owner=recipients[0],
                          recipients=list(recipients), created_at=self.clock.time())
        self.channels[channel.id] = channel
        return channel

    def bot_is_member(self, channel: Channel) -> bool:
        """Whether the bot is in ``channel``'s place: a server that added it, or its own DM (never a group DM)."""
        if channel.guild is not None:
            return self.bot_user.id in channel.guild.members
        return channel.type == DM

    def add_thread(self, parent: Channel, name: str, *, owner: User, private: bool = False,
                   thread_id: int | None = None, auto_archive_duration: int = 1440, invitable: bool = True) -> Channel:
        thread = Channel(id=thread_id or self.ids.next(), type=PRIVATE_THREAD if private else PUBLIC_THREAD,
                         name=name, guild=parent.guild, parent=parent, owner=owner, created_at=self.clock.time(),
                         auto_archive_duration=auto_archive_duration, invitable=invitable)
        thread.thread_members[owner.id] = self.clock.time()
        parent.guild.channels.append(thread)
        self.channels[thread.id] = thread
        return thread

    def get_channel(self, channel_id: str | int) -> Channel:
        channel = self.channels.get(int(channel_id))
        if channel is None:
            raise errors.unknown_channel()
        return channel

    def can_see(self, user: User, channel: Channel) -> bool:
        if channel.type == DM:
            return channel.recipient is user or user is self.bot_user
        if channel.type == GROUP_DM:
            return user in channel.recipients
        member = self.member(user, channel.guild)
        return member is not None and bool(channel.guild.permissions_in(member, channel))

    def permissions(self, user: User, channel: Channel) -> int:
        if channel.type in PRIVATE_CHANNELS:
            return 0
        member = self.member(user, channel.guild)
        return channel.guild.permissions_in(member, channel) if member else 0

    # ----------------------------------------------------------------------------------------- messages
    def get_message(self, channel: Channel, message_id: str | int) -> Message:
        message = self.messages.get(int(message_id))
        if message is None or message.channel is not channel or message.deleted:
            raise errors.unknown_message()
        return message

    def new_message(self, channel: Channel, author: User, data: dict, uploads: list[Upload], *,
                    allow_ephemeral: bool = False, ephemeral_to: User | None = None, type: int = MSG_DEFAULT,
                    webhook_id: int | None = None, interaction_metadata: dict | None = None,
                    interaction: dict | None = None, extra_flags: int = 0, allow_empty: bool = False) -> Message:
        """Build (and store) a message from a create body: content, embeds, components, attachments, flags."""
        flags = int(data.get("flags") or 0)
        allowed = SETTABLE_MESSAGE_FLAGS | (EPHEMERAL if allow_ephemeral else 0)
        flags = (flags & allowed) | extra_flags
        message = Message(id=self.ids.next(), channel=channel, author=author, type=type,
                          timestamp=iso(self.clock.time()), webhook_id=webhook_id,
                          interaction_metadata=interaction_metadata, interaction=interaction,
                          tts=bool(data.get("tts")), nonce=data.get("nonce"))
        if webhook_id is not None:
            message.application_id = self.application_id
        if flags & EPHEMERAL:
            message.ephemeral_to = ephemeral_to
        self._apply_body(message, data, uploads, creating=True)
        message.notified = list(message.mentions)
        message.flags = flags | (message.flags & ~SETTABLE_MESSAGE_FLAGS & ~EPHEMERAL)
        if not allow_empty and not (message.content or message.embeds or message.components or message.attachments
                                    or data.get("sticker_ids") or data.get("poll")):
            raise errors.empty_message()
        reference = data.get("message_reference")
        if reference and reference.get("message_id"):
            target = self.messages.get(int(reference["message_id"]))
            if target is None or target.deleted:
                if reference.get("fail_if_not_exists", True):
                    raise errors.form_error(["message_reference"], "REPLIES_UNKNOWN_MESSAGE", "Unknown message")
            else:
                message.reference = target
                if message.type == MSG_DEFAULT:
                    message.type = MSG_REPLY
        self.store_message(message)
        return message

    def store_message(self, message: Message) -> None:
        message.channel.messages.append(message)
        self.messages[message.id] = message
        if message.channel.is_thread and message.ephemeral_to is None:
            message.channel.total_message_sent += 1

    def edit_message(self, message: Message, data: dict, uploads: list[Upload], *, allow_ephemeral_flag: bool = False,
                     edited: bool = True) -> Message:
        """Apply an edit body (only the keys present change); the previous version goes to ``history``."""
        before = message.snapshot()
        if message.flags & IS_COMPONENTS_V2 and data.get("flags") is not None \
                and not int(data["flags"]) & IS_COMPONENTS_V2:
            raise errors.form_error(["flags"], "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
                                    "The IS_COMPONENTS_V2 flag cannot be removed from a message")
        self._apply_body(message, data, uploads, creating=False)
        if "flags" in data and data["flags"] is not None:
            keep = message.flags & ~SETTABLE_MESSAGE_FLAGS
            message.flags = keep | (int(data["flags"]) & SETTABLE_MESSAGE_FLAGS)
        if not (message.content or message.embeds or message.components or message.attachments):
            raise errors.empty_message()
        message.history.append(before)
        if edited:
            message.edited_timestamp = iso(self.clock.time())
        return message

    def _apply_body(self, message: Message, data: dict, uploads: list[Upload], *, creating: bool) -> None:
        v2 = bool(int(data.get("flags") or 0) & IS_COMPONENTS_V2) or bool(message.flags & IS_COMPONENTS_V2)
        if "content" in data or creating:
            content = data.get("content") or ""
            if len(content) > MAX_CONTENT:
                raise errors.form_error(["content"], "BASE_TYPE_MAX_LENGTH",
                                        f"Must be {MAX_CONTENT} or fewer in length.")
            if content and v2:
                raise errors.form_error(["content"], "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                                        "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2")
            message.content = str(content)
            self._mentions(message, message.content, data.get("allowed_mentions"))
        if uploads or "attachments" in data or creating:
            message.attachments = self._attachments(message, data, uploads, creating=creating)
        # ``attachment://<filename>`` names any attachment the message has after the body: one uploaded with it, or
        # (an edit that leaves ``attachments`` out, or lists it to keep) one it had, which Discord keeps
        named = {attachment.filename: attachment for attachment in message.attachments}
        if "embeds" in data or creating:
            embeds = data.get("embeds") or []
            if embeds and v2:
                raise errors.form_error(["embeds"], "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                                        "The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2")
            message.embeds = [self._embed(e, i, named) for i, e in enumerate(embeds)]
            total = sum(_embed_chars(e) for e in message.embeds)
            if total > MAX_EMBED_TOTAL:
                raise errors.form_error(["embeds"], "MAX_EMBED_SIZE_EXCEEDED",
                                        "Embed size exceeds maximum size of 6000")
        if "components" in data or creating:
            check_component_emoji(data.get("components") or [], self.app_emojis, ["components"])
            message.components = normalize_components(data.get("components") or [], v2=v2,
                                                      attachments=named, world=self)
            if v2:  # (a V2 message's mentions are in its text displays)
                self._mentions(message, message.raw_text, data.get("allowed_mentions"))

    def _mentions(self, message: Message, text: str, allowed: dict | None) -> None:
        """The users and roles ``text`` mentions that ``allowed`` (the body's ``allowed_mentions``; none: all) lets
        it ping: Discord lists only those in the message's ``mentions``."""
        parse = set(allowed.get("parse") or ()) if allowed is not None else {"users", "roles", "everyone"}
        users = {int(u) for u in (allowed or {}).get("users") or ()}
        roles = {int(r) for r in (allowed or {}).get("roles") or ()}
        message.mentions = [self.users[int(m)] for m in MENTION_RE.findall(text)
                            if int(m) in self.users and ("users" in parse or int(m) in users)]
        role_ids = {int(r) for r in ROLE_MENTION_RE.findall(text) if "roles" in parse or int(r) in roles}
        message.mention_roles = [r for r in (message.channel.guild or self.guild).roles if r.id in role_ids]

    def _attachments(self, message: Message, data: dict, uploads: list[Upload], *,
                     creating: bool) -> list[Attachment]:
        if sum(len(u.data) for u in uploads) > MAX_UPLOAD:
            raise errors.ApiError(413, 40005, "Request entity too large")
        by_index = {str(u.index): u for u in uploads}
        listed = data.get("attachments")
        result: list[Attachment] = []
        if listed is None:
            if not creating and not uploads:
                return message.attachments
            keep = [] if creating else list(message.attachments)
            entries = [{"id": u.index} for u in uploads]
            result.extend(keep)
        else:
            entries = listed
        existing = {a.id: a for a in message.attachments}
        for position, entry in enumerate(entries):
            key = str(entry.get("id"))
            upload = by_index.get(key)
            if upload is not None:
                filename = entry.get("filename") or upload.filename
                attachment = Attachment(
                    id=self.ids.next(), filename=filename, data=upload.data,
                    content_type=upload.content_type, description=entry.get("description"),
                    url=f"{self.base_url}/attachments/{message.channel.id}/{{id}}/{quote(filename)}",
                )
                attachment.url = attachment.url.replace("{id}", str(attachment.id))
                self.attachments[attachment.id] = attachment
                result.append(attachment)
            elif key.isdigit() and int(key) in existing:
                result.append(existing[int(key)])
            else:
                raise errors.form_error(["attachments", position, "id"], "ATTACHMENT_NOT_FOUND",
                                        f"Unknown attachment or file index {key}")
        return result

    def _embed(self, embed: dict, index: int, attachments: dict[str, Attachment]) -> dict:
        out: dict[str, Any] = {"type": embed.get("type") or "rich"}
        for key in ("title", "description", "url", "timestamp", "color"):
            if embed.get(key) is not None:
                out[key] = embed[key]
        if embed.get("fields"):
            out["fields"] = [{"name": f["name"], "value": f["value"], "inline": bool(f.get("inline", False))}
                             for f in embed["fields"]]
        if embed.get("footer") and embed["footer"].get("text") is not None:
            footer = {"text": embed["footer"]["text"]}
            if embed["footer"].get("icon_url"):
                footer["icon_url"] = footer["proxy_icon_url"] = self._media_url(embed["footer"]["icon_url"],
                                                                                attachments)
            out["footer"] = footer
        if embed.get("author") and embed["author"].get("name") is not None:
            author = {"name": embed["author"]["name"]}
            if embed["author"].get("url"):
                author["url"] = embed["author"]["url"]
            if embed["author"].get("icon_url"):
                author["icon_url"] = author["proxy_icon_url"] = self._media_url(embed["author"]["icon_url"],
                                                                                attachments)
            out["author"] = author
        for key in ("image", "thumbnail"):
            if embed.get(key) and embed[key].get("url"):
                url = self._media_url(embed[key]["url"], attachments)
                media: dict[str, Any] = {"url": url, "proxy_url": url}
                attachment = _attachment_ref(embed[key]["url"], attachments)
                if attachment is not None and attachment.dimensions:
                    media["width"], media["height"] = attachment.dimensions
                    if attachment.content_type:
                        media["content_type"] = attachment.content_type
                out[key] = media
        return out

    def _media_url(self, url: str, attachments: dict[str, Attachment]) -> str:
        attachment = _attachment_ref(url, attachments)
        return attachment.url if attachment else url

    # ------------------------------------------------------------------------------------------ commands
    def commands_for(self, guild: Guild | None) -> list[dict]:
        commands = list(self.global_commands)
        if guild is not None:
            commands = self.guild_commands.get(guild.id, []) + commands
        return commands

    def store_commands(self, payload: list[dict], guild_id: int | None) -> list[dict]:
        previous = self.guild_commands.get(guild_id, []) if guild_id else self.global_commands
        old_ids = {(c["name"], c["type"]): c["id"] for c in previous}
        result = []
        for command in payload:
            result.append(self.command_response(command, guild_id, old_ids))
        if guild_id:
            self.guild_commands[guild_id] = result
        else:
            self.global_commands = result
        self.command_syncs += 1
        return result

    def command_response(self, command: dict, guild_id: int | None, old_ids: dict | None = None) -> dict:
        kind = command.get("type") or 1
        command_id = (old_ids or {}).get((command["name"], kind)) or str(self.ids.next())
        out: dict[str, Any] = {
            "id": command_id,
            "application_id": str(self.application_id),
            "version": str(self.ids.next()),
            "default_member_permissions": (None if command.get("default_member_permissions") is None
                                           else str(command["default_member_permissions"])),
            "type": kind,
            "name": command["name"],
            "description": command.get("description") or "",
            "dm_permission": command.get("dm_permission") is not False,
            "nsfw": bool(command.get("nsfw")),
        }
        for key in ("name_localizations", "description_localizations"):
            if command.get(key):
                out[key] = command[key]
        if guild_id:
            out["guild_id"] = str(guild_id)
        if command.get("contexts") is not None:
            out["contexts"] = command["contexts"]
        elif not guild_id:
            out["contexts"] = [0, 1, 2]
        if command.get("integration_types") is not None:
            out["integration_types"] = command["integration_types"]
        elif not guild_id:
            out["integration_types"] = [0]
        if command.get("options"):
            out["options"] = [_option_response(o) for o in command["options"]]
        return out

    # ------------------------------------------------------------------------------------------- helpers
    def member_payload_for(self, user: User, channel: Channel | None = None) -> dict | None:
        guild = channel.guild if channel is not None and channel.guild is not None else self.guild
        member = self.member(user, guild)
        if member is None:
            return None
        data = member.payload()
        if channel is not None:
            data["permissions"] = str(guild.permissions_in(member, channel))
        return data


def _option_response(option: dict) -> dict:
    out = {k: v for k, v in option.items() if v is not None}
    out.setdefault("description", "")
    if "options" in out:
        out["options"] = [_option_response(o) for o in out["options"]]
    if "choices" in out:
        out["choices"] = [{k: v for k, v in c.items() if v is not None} for c in out["choices"]]
    return out


def _attachment_ref(url: str, attachments: dict[str, Attachment]) -> Attachment | None:
    if isinstance(url, str) and url.startswith("attachment://"):
        return attachments.get(url[len("attachment://"):])
    return None


def _embed_chars(embed: dict) -> int:
    total = len(embed.get("title", "")) + len(embed.get("description", ""))
    total += sum(len(f["name"]) + len(f["value"]) for f in embed.get("fields", []))
    total += len(embed.get("footer", {}).get("text", "")) + len(embed.get("author", {}).get("name", ""))
    return total


# ------------------------------------------------------------------------------------------- components
_SELECT_TYPES = (3, 5, 6, 7, 8)


def _emoji_response(emoji: dict) -> dict:
    """A unicode emoji is sent with ``id: null``; Discord answers with the id left out (and a custom emoji's id,
    a snowflake, as a string)."""
    return {key: str(value) if key == "id" else value for key, value in emoji.items() if value is not None}


def normalize_components(components: list[dict], *, v2: bool, attachments: dict[str, Attachment],
                         world: World) -> list[dict]:
    """Request components -> the response shape Discord stores (ids assigned, defaults filled, limits checked)."""
    used = {c["id"] for c in _walk_request(components) if isinstance(c.get("id"), int)}
    counter = iter(i for i in range(1, 10_000) if i not in used)
    custom_ids: set[str] = set()

    def fail(path: list, code: str, message: str) -> errors.ApiError:
        return errors.form_error(["components", *path], code, message)

    def media(value: dict) -> dict:
        url = value.get("url", "")
        attachment = _attachment_ref(url, attachments)
        out: dict[str, Any] = {"id": str(attachment.id if attachment else world.ids.next()),
                               "url": attachment.url if attachment else url,
                               "proxy_url": attachment.url if attachment else url}
        if attachment is not None:
            out["content_type"] = attachment.content_type
            out["attachment_id"] = str(attachment.id)
            dims = attachment.dimensions
            out["width"], out["height"] = dims if dims else (None, None)
        return out

    def one(c: dict, path: list) -> dict:
        kind = c.get("type")
        out: dict[str, Any] = {"type": kind, "id": c["id"] if isinstance(c.get("id"), int) else next(counter)}
        if "custom_id" in c and c["custom_id"] is not None:
            if c["custom_id"] in custom_ids:
                raise fail([*path, "custom_id"], "COMPONENT_CUSTOM_ID_DUPLICATED",
                           "Component custom id cannot be duplicated")
            custom_ids.add(c["custom_id"])
        if kind == 1:
            children = c.get("components") or []
            if not children:
                raise fail([*path, "components"], "BASE_TYPE_REQUIRED", "This field is required")
            selects = [x for x in children if x.get("type") in _SELECT_TYPES]
            if (selects and len(children) > 1) or len(children) > 5:
                raise fail([*path, "components"], "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                           "The specified component exceeds the maximum width")
            out["components"] = [one(x, [*path, "components", i]) for i, x in enumerate(children)]
        elif kind == 2:
            out["style"] = c["style"]
            for key in ("label", "custom_id", "url", "sku_id"):
                if c.get(key) is not None:
                    out[key] = c[key]
            if c.get("emoji"):
                out["emoji"] = _emoji_response(c["emoji"])
            if c.get("disabled"):
                out["disabled"] = True
            if c["style"] == 5 and not c.get("url"):
                raise fail([*path, "url"], "BASE_TYPE_REQUIRED", "This field is required")
            if c["style"] not in (5, 6) and not c.get("custom_id"):
                raise fail([*path, "custom_id"], "BASE_TYPE_REQUIRED", "This field is required")
        elif kind in _SELECT_TYPES:
            out["custom_id"] = c["custom_id"]
            out["min_values"] = c.get("min_values") if c.get("min_values") is not None else 1
            out["max_values"] = c.get("max_values") if c.get("max_values") is not None else 1
            if c.get("placeholder") is not None:
                out["placeholder"] = c["placeholder"]
            if c.get("disabled"):
                out["disabled"] = True
            if kind == 3:
                out["options"] = [
                    {k: _emoji_response(v) if k == "emoji" else v for k, v in o.items() if v is not None}
                    for o in c.get("options") or []
                ]
            if c.get("default_values"):
                out["default_values"] = c["default_values"]
            if kind == 8 and c.get("channel_types"):
                out["channel_types"] = c["channel_types"]
        elif kind == 9:
            out["components"] = [one(x, [*path, "components", i]) for i, x in enumerate(c.get("components") or [])]
            out["accessory"] = one(c["accessory"], [*path, "accessory"])
        elif kind == 10:
            out["content"] = c.get("content", "")
        elif kind == 11:
            out["media"] = media(c["media"])
            out["description"] = c.get("description")
            out["spoiler"] = bool(c.get("spoiler"))
        elif kind == 12:
            out["items"] = [{"media": media(item["media"]), "description": item.get("description"),
                             "spoiler": bool(item.get("spoiler"))} for item in c.get("items") or []]
        elif kind == 13:
            out["file"] = media(c["file"])
            out["spoiler"] = bool(c.get("spoiler"))
        elif kind == 14:
            out["spacing"] = c.get("spacing") or 1
            out["divider"] = c.get("divider", True) if c.get("divider") is not None else True
        elif kind == 17:
            out["accent_color"] = c.get("accent_color")
            out["spoiler"] = bool(c.get("spoiler"))
            out["components"] = [one(x, [*path, "components", i]) for i, x in enumerate(c.get("components") or [])]
        else:
            out.update({k: v for k, v in c.items() if k not in out})
        return out

    if not v2:
        if len(components) > 5:
            raise fail([], "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
        for i, c in enumerate(components):
            if c.get("type") != 1:
                raise fail([i, "type"], "UNION_TYPE_CHOICES",
                           "Only action rows are allowed at the top level without IS_COMPONENTS_V2")
    else:
        nested = list(_walk_request(components))
        if len(nested) > MAX_V2_COMPONENTS:
            raise fail([], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_V2_COMPONENTS} or fewer in length.")
        text = sum(len(c.get("content") or "") for c in nested if c.get("type") == 10)
        if text > MAX_V2_TEXT:
            raise fail([], "MAX_TEXT_LENGTH_EXCEEDED",
                       f"The total length of text in components must be {MAX_V2_TEXT} or fewer")
    return [one(c, [i]) for i, c in enumerate(components)]


def _walk_request(components: list[dict]):
    for c in components:
        yield c
        yield from _walk_request(c.get("components") or [])
        if isinstance(c.get("accessory"), dict):
            yield c["accessory"]
