"""The world of the local Discord: users, a guild with roles and channels, threads, DMs, messages, interactions.

Every object knows how to render itself as the JSON Discord sends (``payload()``); the REST layer validates
those payloads against Discord's OpenAPI spec, so the shapes here follow the spec's response schemas.
"""

from __future__ import annotations

import asyncio
import itertools
import re
import secrets
import struct
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1420070400000

# --------------------------------------------------------------------------------------------- permissions
CREATE_INSTANT_INVITE = 1 << 0
KICK_MEMBERS = 1 << 1
BAN_MEMBERS = 1 << 2
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
CONNECT = 1 << 20
SPEAK = 1 << 21
CHANGE_NICKNAME = 1 << 26
MANAGE_ROLES = 1 << 28
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
USE_EXTERNAL_APPS = 1 << 50
ALL_PERMISSIONS = (1 << 51) - 1

DEFAULT_EVERYONE_PERMISSIONS = (
    CREATE_INSTANT_INVITE | ADD_REACTIONS | VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES
    | READ_MESSAGE_HISTORY | USE_EXTERNAL_EMOJIS | CONNECT | SPEAK | CHANGE_NICKNAME | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS | CREATE_PRIVATE_THREADS | SEND_MESSAGES_IN_THREADS | USE_EXTERNAL_APPS
)
DEFAULT_BOT_PERMISSIONS = (
    VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY | ADD_REACTIONS
    | USE_EXTERNAL_EMOJIS | MANAGE_MESSAGES | MANAGE_THREADS | CREATE_PUBLIC_THREADS | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS | USE_APPLICATION_COMMANDS
)

# ----------------------------------------------------------------------------------------- channel types
GUILD_TEXT = 0
DM = 1
GROUP_DM = 3
PRIVATE_CHANNELS = (DM, GROUP_DM)
GUILD_CATEGORY = 4
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (PUBLIC_THREAD, PRIVATE_THREAD)

# ------------------------------------------------------------------------------------------- message bits
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_COMPONENTS_V2 = 1 << 15
HAS_THREAD = 1 << 5
SETTABLE_MESSAGE_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2

MSG_DEFAULT = 0
MSG_THREAD_CREATED = 18
MSG_REPLY = 19
MSG_CHAT_INPUT_COMMAND = 20
MSG_THREAD_STARTER = 21
MSG_CONTEXT_MENU_COMMAND = 23

# ------------------------------------------------------------------------------------- interaction kinds
PING = 1
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5


def iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="microseconds")


class Clock:
    """Wall-clock seconds plus an offset a test can advance (interaction deadlines, token expiry, timestamps)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def time(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


class Snowflakes:
    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.last = 0
        self.counter = itertools.count()

    def next(self) -> int:
        ms = int(self.clock.time() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | (1 << 17) | (next(self.counter) & 0xFFF)
        if value <= self.last:
            value = self.last + 1
        self.last = value
        return value


# ------------------------------------------------------------------------------------------------ entities
@dataclass(eq=False)
class User:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    global_name: str | None = None
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict:
        data = {
            "id": str(self.id),
            "username": self.name,
            "avatar": None,
            "discriminator": "0",
            "public_flags": 0,
            "flags": 0,
            "global_name": None if self.bot else (self.global_name or self.name.capitalize()),
            "primary_guild": None,
            "avatar_decoration_data": None,
            "collectibles": None,
            "banner": None,
            "accent_color": None,
        }
        if self.bot:
            data["bot"] = True
        return data

    def __repr__(self) -> str:
        return f"<User {self.name} id={self.id}{' bot' if self.bot else ''}>"


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    color: int = 0
    hoist: bool = False
    managed: bool = False
    mentionable: bool = False
    bot_id: int | None = None

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> dict:
        data = {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": self.color,
            "colors": {"primary_color": self.color, "secondary_color": None, "tertiary_color": None},
            "hoist": self.hoist,
            "managed": self.managed,
            "mentionable": self.mentionable,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data

    def __repr__(self) -> str:
        return f"<Role {self.name} id={self.id}>"


@dataclass(eq=False)
class Member:
    user: User
    guild: Guild
    roles: list[Role]
    joined_at: float
    nick: str | None = None

    def payload(self, *, with_user: bool = True) -> dict:
        data = {
            "avatar": None,
            "banner": None,
            "communication_disabled_until": None,
            "flags": 0,
            "joined_at": iso(self.joined_at),
            "nick": self.nick,
            "pending": False,
            "premium_since": None,
            "roles": [str(r.id) for r in self.roles],
            "mute": False,
            "deaf": False,
        }
        if with_user:
            data["user"] = self.user.payload()
        return data

    @property
    def base_permissions(self) -> int:
        if self.guild.owner is self.user:
            return ALL_PERMISSIONS
        value = self.guild.everyone.permissions
        for role in self.roles:
            value |= role.permissions
        if value & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return value


@dataclass
class Overwrite:
    target: Role | User
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict:
        return {
            "id": str(self.target.id),
            "type": 0 if isinstance(self.target, Role) else 1,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclass(eq=False)
class Attachment:
    """A file kept by the fake: the bytes, filename and content type as uploaded."""

    id: int
    filename: str
    data: bytes
    content_type: str | None
    url: str
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def dimensions(self) -> tuple[int, int] | None:
        return image_size(self.data)

    def payload(self) -> dict:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.content_type:
            data["content_type"] = self.content_type
        if self.description:
            data["description"] = self.description
        dims = self.dimensions
        if dims:
            data["width"], data["height"] = dims
        return data

    def __repr__(self) -> str:
        return f"<Attachment {self.filename} {self.content_type} {self.size} bytes>"


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG or GIF (enough for Discord's attachment metadata); None otherwise."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        return struct.unpack("<HH", data[6:10])
    return None


@dataclass(eq=False)
class MessageVersion:
    """One earlier state of an edited message (kept so tests can look at history)."""

    content: str
    embeds: list[dict]
    components: list[dict]
    attachments: list[Attachment]
    flags: int
    edited_timestamp: str | None

    @property
    def text(self) -> str:
        """:attr:`Message.text` of this version."""
        return read_emoji(text_of(self.content, self.embeds, self.components))


def text_of(content: str, embeds: list[dict], components: list[dict]) -> str:
    """A message's text as sent: content, embed titles/descriptions/fields/footers, text displays."""
    parts = [content] if content else []
    for embed in embeds:
        for key in ("title", "description"):
            if embed.get(key):
                parts.append(embed[key])
        for f in embed.get("fields", []):
            parts.append(f"{f['name']}\n{f['value']}")
        if embed.get("footer", {}).get("text"):
            parts.append(embed["footer"]["text"])
    for component in walk_components(components):
        if component.get("type") == 10:
            parts.append(component.get("content", ""))
    return "\n".join(parts)


#: what a reader sees of a custom emoji in text, by the emoji's name (a test registers what its app's emoji show: the
#: card emoji read as the cards they draw, :func:`tests.localdiscord.airwar.read_cards`); any other reads ``:name:``,
#: as a copy of the message's text has it
EMOJI_READINGS: dict[str, str] = {}
CUSTOM_EMOJI = re.compile(r"<a?:(\w+):\d+>")


def read_emoji(text: str) -> str:
    """``text`` with each custom emoji as a reader sees it (:data:`EMOJI_READINGS`)."""
    return CUSTOM_EMOJI.sub(lambda m: EMOJI_READINGS.get(m[1], f":{m[1]}:"), text)


@dataclass(eq=False)
class Message:
    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[dict] = field(default_factory=list)
    components: list[dict] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = MSG_DEFAULT
    timestamp: str = ""
    edited_timestamp: str | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: dict | None = None
    interaction: dict | None = None
    reference: Message | None = None
    ephemeral_to: User | None = None
    deleted: bool = False
    history: list[MessageVersion] = field(default_factory=list)
    thread: Channel | None = None
    mentions: list[User] = field(default_factory=list)
    mention_roles: list[Role] = field(default_factory=list)
    #: the users the message notified: those it mentioned when it was created (an edit notifies nobody)
    notified: list[User] = field(default_factory=list)
    tts: bool = False
    nonce: str | int | None = None

    # ---------------------------------------------------------------- observation helpers
    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def edited(self) -> bool:
        return bool(self.history)

    @property
    def embed(self) -> dict | None:
        return self.embeds[0] if self.embeds else None

    def walk_components(self) -> list[dict]:
        return list(walk_components(self.components))

    @property
    def rows(self) -> list[dict]:
        """The message's action rows, wherever they are (top level, or in a V2 container)."""
        return [c for c in self.walk_components() if c.get("type") == 1]

    @property
    def buttons(self) -> list[dict]:
        return [c for c in self.walk_components() if c.get("type") == 2]

    @property
    def selects(self) -> list[dict]:
        return [c for c in self.walk_components() if c.get("type") in (3, 5, 6, 7, 8)]

    @property
    def title(self) -> str:
        """What a reader takes for the message's title: its first embed's title, or in a V2 message the heading
        (``# ``, ``## ``, ``### ``) the first of its text displays that begins with one; ``""`` when it has none."""
        if self.embeds:
            return self.embeds[0].get("title", "")
        for component in self.walk_components():
            if component.get("type") == 10:
                first = (component.get("content") or "").split("\n", 1)[0]
                heading = re.match(r"#{1,3} (.+)", first)
                if heading:
                    return heading[1]
        return ""

    @property
    def images(self) -> list[str]:
        """The URLs of the pictures the message shows: its embeds' images, its media galleries' items."""
        shown = [e["image"]["url"] for e in self.embeds if (e.get("image") or {}).get("url")]
        for component in self.walk_components():
            if component.get("type") == 12:
                shown += [item["media"]["url"] for item in component.get("items") or []]
        return shown

    @property
    def body(self) -> str:
        """What a reader takes for the message's body: its first embed's description, or in a V2 message its text
        displays after the :attr:`title` heading (the first of them when it has none); custom emoji as a reader
        sees them (:func:`read_emoji`)."""
        if self.embeds:
            return read_emoji(self.embeds[0].get("description", ""))
        displays = [c.get("content") or "" for c in self.walk_components() if c.get("type") == 10]
        for i, content in enumerate(displays):
            first, _, rest = content.partition("\n")
            if re.match(r"#{1,3} ", first):
                return read_emoji("\n".join([rest, *displays[i + 1:]]).strip("\n"))
        return read_emoji("\n".join(displays))

    @property
    def text(self) -> str:
        """Everything a reader sees as text: content, embed titles/descriptions/fields/footers, text displays; a
        custom emoji as a reader sees it (:func:`read_emoji`)."""
        return read_emoji(self.raw_text)

    @property
    def raw_text(self) -> str:
        """:attr:`text` as sent: custom emoji as their markup (``<:name:id>``)."""
        return text_of(self.content, self.embeds, self.components)

    def snapshot(self) -> MessageVersion:
        return MessageVersion(
            content=self.content,
            embeds=[dict(e) for e in self.embeds],
            components=list(self.components),
            attachments=list(self.attachments),
            flags=self.flags,
            edited_timestamp=self.edited_timestamp,
        )

    def payload(self, *, content_visible: bool = True) -> dict:
        guild = self.channel.guild
        data: dict[str, Any] = {
            "type": self.type,
            "content": self.content if content_visible else "",
            "mentions": [u.payload() for u in self.mentions],
            "mention_roles": [str(r.id) for r in self.mention_roles],
            "attachments": [a.payload() for a in self.attachments] if content_visible else [],
            "embeds": list(self.embeds) if content_visible else [],
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "flags": self.flags,
            "components": list(self.components) if content_visible else [],
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "pinned": False,
            "mention_everyone": False,
            "tts": self.tts,
        }
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.interaction is not None:
            data["interaction"] = self.interaction
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.reference is not None:
            ref = {"type": 0, "channel_id": str(self.reference.channel.id), "message_id": str(self.reference.id)}
            if guild is not None:
                ref["guild_id"] = str(guild.id)
            data["message_reference"] = ref
            if self.type == MSG_REPLY:
                data["referenced_message"] = None if self.reference.deleted else self.reference.payload()
        if self.thread is not None:
            data["thread"] = self.thread.payload()
        return data

    def __repr__(self) -> str:
        bits = []
        if self.ephemeral:
            bits.append(f"ephemeral to {self.ephemeral_to.name if self.ephemeral_to else '?'}")
        if self.deleted:
            bits.append("deleted")
        if self.history:
            bits.append(f"edited x{len(self.history)}")
        text = self.content or (self.embeds[0].get("title", "") if self.embeds else "")
        return f"<Message {self.id} in #{self.channel.name} by {self.author.name}: {text[:40]!r} {' '.join(bits)}>"


def walk_components(components: list[dict]):
    for component in components:
        yield component
        if "components" in component:
            yield from walk_components(component["components"])
        if "accessory" in component:
            yield component["accessory"]
        if "component" in component:
            yield component["component"]


@dataclass(eq=False)
class Channel:
    id: int
    type: int
    name: str
    guild: Guild | None = None
    parent: Channel | None = None
    position: int = 0
    topic: str | None = None
    overwrites: list[Overwrite] = field(default_factory=list)
    recipient: User | None = None  # DMs
    recipients: list[User] = field(default_factory=list)  # group DMs (the bot is never one: it can't join them)
    owner: User | None = None  # threads
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    created_at: float = 0.0
    thread_members: dict[int, float] = field(default_factory=dict)  # user id -> join time
    messages: list[Message] = field(default_factory=list)
    total_message_sent: int = 0
    rate_limit_per_user: int = 0
    deleted: bool = False

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def last_message_id(self) -> int | None:
        for message in reversed(self.messages):
            if not message.deleted and message.ephemeral_to is None:
                return message.id
        return None

    def payload(self) -> dict:
        last = self.last_message_id
        if self.type == DM:
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": str(last) if last else None,
                "flags": 0,
                "recipients": [self.recipient.payload()] if self.recipient else [],
            }
        if self.type == GROUP_DM:
            assert self.owner is not None
            return {"id": str(self.id), "type": GROUP_DM, "last_message_id": str(last) if last else None,
                    "flags": 0, "name": self.name, "icon": None, "owner_id": str(self.owner.id),
                    "recipients": [user.payload() for user in self.recipients]}
        assert self.guild is not None
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "last_message_id": str(last) if last else None,
            "flags": 0,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "parent_id": str(self.parent.id) if self.parent else None,
            "rate_limit_per_user": self.rate_limit_per_user,
        }
        if self.is_thread:
            assert self.owner is not None
            data.update({
                "owner_id": str(self.owner.id),
                "thread_metadata": {
                    "archived": self.archived,
                    "archive_timestamp": iso(self.created_at),
                    "auto_archive_duration": self.auto_archive_duration,
                    "locked": self.locked,
                    "create_timestamp": iso(self.created_at),
                    **({"invitable": self.invitable} if self.type == PRIVATE_THREAD else {}),
                },
                "message_count": sum(1 for m in self.messages if not m.deleted and m.ephemeral_to is None),
                "member_count": min(len(self.thread_members), 50),
                "total_message_sent": self.total_message_sent,
            })
        else:
            data.update({
                "topic": self.topic,
                "position": self.position,
                "permission_overwrites": [o.payload() for o in self.overwrites],
                "nsfw": False,
            })
        return data

    def visible_messages(self) -> list[Message]:
        return [m for m in self.messages if not m.deleted and m.ephemeral_to is None]

    def __repr__(self) -> str:
        kind = {GUILD_TEXT: "text", DM: "dm", GROUP_DM: "group dm", PUBLIC_THREAD: "thread",
                PRIVATE_THREAD: "private thread"}
        return f"<Channel #{self.name} {kind.get(self.type, self.type)} id={self.id}>"


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner: User
    roles: list[Role] = field(default_factory=list)
    channels: list[Channel] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)
    created_at: float = 0.0
    locale: str = "en-US"

    @property
    def everyone(self) -> Role:
        return self.roles[0]

    @property
    def threads(self) -> list[Channel]:
        return [c for c in self.channels if c.is_thread]

    def role(self, name: str) -> Role | None:
        return next((r for r in self.roles if r.name == name), None)

    def permissions_in(self, member: Member, channel: Channel) -> int:
        """Discord's permission algorithm: base from roles, then channel overwrites (threads use the parent)."""
        base = member.base_permissions
        if base & ADMINISTRATOR or base == ALL_PERMISSIONS:
            return ALL_PERMISSIONS
        target = channel.parent if channel.is_thread and channel.parent else channel
        value = base
        everyone = next((o for o in target.overwrites if o.target is self.everyone), None)
        if everyone:
            value = (value & ~everyone.deny) | everyone.allow
        allow = deny = 0
        role_ids = {r.id for r in member.roles}
        for o in target.overwrites:
            if isinstance(o.target, Role) and o.target.id in role_ids:
                allow |= o.allow
                deny |= o.deny
        value = (value & ~deny) | allow
        mine = next((o for o in target.overwrites if isinstance(o.target, User) and o.target is member.user), None)
        if mine:
            value = (value & ~mine.deny) | mine.allow
        if not value & VIEW_CHANNEL:
            return 0
        if channel.is_thread and channel.type == PRIVATE_THREAD and member.user.id not in channel.thread_members \
                and not value & MANAGE_THREADS:
            return 0
        return value

    def payload(self, *, members: list[Member], bot_user: User) -> dict:
        me = self.members.get(bot_user.id)
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "description": None,
            "home_header": None,
            "splash": None,
            "discovery_splash": None,
            "features": [],
            "banner": None,
            "owner_id": str(self.owner.id),
            "application_id": None,
            "region": "deprecated",
            "afk_channel_id": None,
            "afk_timeout": 300,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "widget_enabled": False,
            "widget_channel_id": None,
            "verification_level": 0,
            "roles": [r.payload() for r in self.roles],
            "default_message_notifications": 0,
            "mfa_level": 0,
            "explicit_content_filter": 0,
            "max_presences": None,
            "max_members": 500000,
            "max_stage_video_channel_users": 50,
            "max_video_channel_users": 25,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "rules_channel_id": None,
            "safety_alerts_channel_id": None,
            "public_updates_channel_id": None,
            "premium_progress_bar_enabled": False,
            "nsfw": False,
            "nsfw_level": 0,
            "emojis": [],
            "stickers": [],
            "incidents_data": None,
            # gateway-only fields of GUILD_CREATE
            "joined_at": iso(me.joined_at if me else self.created_at),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "members": [m.payload() for m in members],
            "channels": [c.payload() for c in self.channels if not c.is_thread],
            "threads": [c.payload() for c in self.channels if c.is_thread and not c.archived],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "lazy": True,
        }

    def __repr__(self) -> str:
        return f"<Guild {self.name} id={self.id}>"


@dataclass
class Upload:
    """A file part of a multipart request (``files[n]``)."""

    index: int
    filename: str
    content_type: str | None
    data: bytes


# -------------------------------------------------------------------------------------------- interactions
@dataclass
class ResponseRecord:
    """What the bot answered to an interaction with its first callback."""

    type: int
    data: dict
    at: float
    message: Message | None = None

    @property
    def ephemeral(self) -> bool:
        return bool((self.data or {}).get("flags", 0) & EPHEMERAL)


class Interaction:
    """An interaction the fake sent to the bot, and everything the bot did with it.

    Returned by ``env.slash``/``click``/``select``/``submit_modal``.  ``await ix.response()`` waits for the first
    callback; ``ix.message`` is the original response message (or the component message for updates);
    ``ix.followups`` the followup messages; ``ix.modal`` the modal the bot opened; ``ix.error`` any refusal the
    fake answered (10062 late, 40060 twice, 50027 expired token).
    """

    def __init__(self, *, id: int, token: str, type: int, application_id: int, user: User, member: Member | None,
                 channel: Channel, data: dict, created_at: float, locale: str, source: Message | None,
                 command_name: str | None, notify) -> None:
        self.id = id
        self.token = token
        self.type = type
        self.application_id = application_id
        self.user = user
        self.member = member
        self.channel = channel
        self.guild = channel.guild
        self.data = data
        self.created_at = created_at
        self.locale = locale
        self.source = source  # the message a component lives on
        self.command_name = command_name
        self.response: ResponseRecord | None = None
        self.original: Message | None = None
        self.followups: list[Message] = []
        self.modal: dict | None = None
        self.choices: list[dict] | None = None
        self.errors: list[tuple[int, int, str]] = []  # (status, code, message) the fake answered
        self.late = False
        self.triggered_by: Interaction | None = None  # for a modal submit: the interaction that opened it
        #: the installs that authorized it (``{"0": guild id or "0", "1": user id}``), its context (0 a server, 1
        #: the DM with the bot, 2 a group DM), set by the driver
        self.owners: dict[str, str] = {}
        self.context = 0
        #: a server without the bot whose member may not use external apps there: every response is ephemeral
        self.forced_ephemeral = False
        self._notify = notify
        self._responded = asyncio.Event()

    @property
    def responded(self) -> bool:
        return self.response is not None

    @property
    def message(self) -> Message | None:
        return self.original

    @property
    def kind(self) -> str:
        return {APPLICATION_COMMAND: "command", MESSAGE_COMPONENT: "component", MODAL_SUBMIT: "modal",
                AUTOCOMPLETE: "autocomplete"}.get(self.type, str(self.type))

    def describe(self) -> str:
        what = f"/{self.command_name}" if self.command_name else self.data.get("custom_id", "?")
        return f"{self.kind} interaction {self.id} ({what}) by {self.user.name}"

    async def wait_response(self, timeout: float = 5.0) -> ResponseRecord:  # noqa: ASYNC109
        """Wait for the bot's first callback (raises TimeoutError with a clear message)."""
        try:
            await asyncio.wait_for(self._responded.wait(), timeout)
        except TimeoutError:
            raise TimeoutError(f"the bot did not answer {self.describe()} within {timeout} s") from None
        assert self.response is not None
        return self.response

    def _set_response(self, record: ResponseRecord) -> None:
        self.response = record
        self._responded.set()
        self._notify()

    def __repr__(self) -> str:
        state = f"answered type {self.response.type}" if self.response else "unanswered"
        return f"<Interaction {self.describe()} {state}>"


def new_token() -> str:
    return "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(60)


MENTION_RE = re.compile(r"<@!?(\d+)>")
ROLE_MENTION_RE = re.compile(r"<@&(\d+)>")
