"""The gateway: a websocket speaking Discord's gateway protocol (v10, JSON, optional zlib-stream).

Compression: ``zlib-stream`` or ``zstd-stream`` (what discord.py asks for when ``zstandard`` is installed), else
plain text. HELLO -> IDENTIFY -> READY (+ GUILD_CREATE per guild) -> dispatches with sequence numbers; heartbeats are
ACKed; RESUME replays nothing and answers RESUMED. Sharding as Discord does it: IDENTIFY's ``shard`` [id, count]
(4010 when it makes no sense), a session hears the guilds of ``(guild_id >> 22) % count == id`` and shard 0 every
event without a guild (DMs, DM interactions); an event whose shard nobody runs is lost.
Events are filtered by the identified intents, and
message content is blanked without the MESSAGE_CONTENT intent exactly where Discord blanks it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import zlib
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .state import DM, Channel, Message, iso

if TYPE_CHECKING:
    from .server import LocalDiscord

log = logging.getLogger("localdiscord.gateway")

INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED = {"members": INTENT_GUILD_MEMBERS, "presences": INTENT_GUILD_PRESENCES,
              "message_content": INTENT_MESSAGE_CONTENT}
HEARTBEAT_INTERVAL_MS = 41250


class _Zstd:
    """``compress=zstd-stream``: one zstd stream for the connection, each message flushed to a block end (a whole
    message per websocket frame)."""

    def __init__(self) -> None:
        import zstandard

        self._flush = zstandard.COMPRESSOBJ_FLUSH_BLOCK
        self._stream = zstandard.ZstdCompressor().compressobj()

    def compress(self, data: bytes) -> bytes:
        return self._stream.compress(data) + self._stream.flush(self._flush)


class _Zlib:
    """``compress=zlib-stream``: one zlib stream, each message ending in a sync flush."""

    def __init__(self) -> None:
        self._stream = zlib.compressobj()

    def compress(self, data: bytes) -> bytes:
        return self._stream.compress(data) + self._stream.flush(zlib.Z_SYNC_FLUSH)


COMPRESSIONS = {"zlib-stream": _Zlib, "zstd-stream": _Zstd}


class Session:
    def __init__(self, hub: GatewayHub, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.hub = hub
        self.ws = ws
        self.compress = COMPRESSIONS[compress]() if compress in COMPRESSIONS else None
        self.seq = 0
        self.intents = 0
        self.session_id = secrets.token_hex(16)
        self.ready = False
        #: (shard id, shard count) as identified
        self.shard = (0, 1)
        self.lock = asyncio.Lock()
        self.sent: list[dict] = []  # every dispatch, for debugging

    async def send(self, payload: dict[str, Any]) -> None:
        async with self.lock:
            if payload.get("op") == 0:
                self.seq += 1
                payload["s"] = self.seq
            text = json.dumps(payload, separators=(",", ":"))
            if self.ws.closed:
                return
            try:
                if self.compress is not None:
                    await self.ws.send_bytes(self.compress.compress(text.encode()))
                else:
                    await self.ws.send_str(text)
            except (ConnectionResetError, RuntimeError):  # the client went away mid-send
                return

    async def dispatch(self, event: str, data: dict) -> None:
        await self.send({"op": 0, "t": event, "d": data})

    def hears(self, guild_id: int | str | None) -> bool:
        """Discord's routing: a guild's events to its shard, the rest to shard 0."""
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (int(guild_id) >> 22) % count == shard_id


class GatewayHub:
    def __init__(self, server: LocalDiscord) -> None:
        self.server = server
        self.sessions: list[Session] = []
        self.identifies = 0
        self.last_intents = 0
        #: session id -> (intents, shard) of every session identified (a RESUME takes them back)
        self.identified: dict[str, tuple[int, tuple[int, int]]] = {}
        self.ready_event = asyncio.Event()

    @property
    def world(self):
        return self.server.world

    # --------------------------------------------------------------------------------------- connection
    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        compress = request.query.get("compress")
        if request.query.get("encoding", "json") != "json":
            await ws.close(code=4002, message=b"Error while decoding payload.")
            return ws
        session = Session(self, ws, compress)
        await session.send({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS, "_trace": ["localdiscord"]},
                            "s": None, "t": None})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    if msg.type == WSMsgType.BINARY:
                        await ws.close(code=4002, message=b"Error while decoding payload.")
                    continue
                try:
                    payload = json.loads(msg.data)
                except ValueError:
                    await ws.close(code=4002, message=b"Error while decoding payload.")
                    break
                try:
                    await self._received(session, payload)
                except Exception as exc:  # a bug in the fake: record it, keep the connection
                    log.exception("local discord gateway crashed on %s", payload.get("op"))
                    self.server.problem("server_error", f"gateway op {payload.get('op')}: {type(exc).__name__}: {exc}")
        finally:
            if session in self.sessions:
                self.sessions.remove(session)
        return ws

    async def _received(self, session: Session, payload: dict) -> None:
        op = payload.get("op")
        data = payload.get("d")
        if op == 1:
            await session.send({"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:
            await self._identify(session, data or {})
        elif op == 6:
            if data and data.get("token") == self.world.token:
                session.intents, session.shard = self.identified.get(str(data.get("session_id")),
                                                                     (self.last_intents, (0, 1)))
                session.ready = True
                self.sessions.append(session)
                await session.dispatch("RESUMED", {})
            else:
                await session.send({"op": 9, "d": False, "s": None, "t": None})
        elif op in (3, 4, 8, 31):
            if op == 8 and data:
                await self._request_members(session, data)
        else:
            await session.ws.close(code=4001, message=b"Unknown opcode.")

    async def _identify(self, session: Session, data: dict) -> None:
        if session.ready:
            await session.ws.close(code=4005, message=b"Already authenticated.")
            return
        if data.get("token") != self.world.token:
            await session.ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = data.get("intents")
        if not isinstance(intents, int) or intents < 0 or intents >= (1 << 26):
            await session.ws.close(code=4013, message=b"Invalid intent(s).")
            return
        enabled = self.server.privileged_intents
        for name, bit in PRIVILEGED.items():
            if intents & bit and not enabled.get(name, False):
                await session.ws.close(code=4014, message=b"Disallowed intent(s).")
                return
        shard = data.get("shard", [0, 1])
        if (not isinstance(shard, list) or len(shard) != 2 or not all(isinstance(n, int) for n in shard)
                or not 0 <= shard[0] < shard[1]):
            await session.ws.close(code=4010, message=b"Invalid shard.")
            return
        session.shard = (shard[0], shard[1])
        session.intents = self.last_intents = intents
        self.identified[session.session_id] = (intents, session.shard)
        self.identifies += 1
        world = self.world
        guilds = [g for g in world.guilds.values() if session.hears(g.id) and world.bot_user.id in g.members]
        url = self.server.gateway_url
        await session.dispatch("READY", {
            "v": 10,
            "user": {**world.bot_user.payload(), "verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": url,
            "shard": list(session.shard),
            "application": {"id": str(world.application_id), "flags": self.server.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "auth_session_id_hash": secrets.token_hex(8),
            "_trace": ["localdiscord"],
        })
        session.ready = True
        self.sessions.append(session)
        if intents & INTENT_GUILDS:
            for guild in guilds:
                await session.dispatch("GUILD_CREATE", self._guild_payload(session, guild))
        self.ready_event.set()
        world.changed()

    async def _request_members(self, session: Session, data: dict) -> None:
        guild = self.world.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        if not session.intents & INTENT_GUILD_MEMBERS and not data.get("user_ids"):
            await session.ws.close(code=4013, message=b"Invalid intent(s).")
            return
        wanted = data.get("user_ids")
        members = [m for m in guild.members.values()
                   if wanted is None or str(m.user.id) in {str(x) for x in (wanted if isinstance(wanted, list)
                                                                            else [wanted])}]
        query = data.get("query")
        if query:
            members = [m for m in members if m.user.name.lower().startswith(query.lower())]
        limit = data.get("limit") or 0
        if limit:
            members = members[:limit]
        chunk = {"guild_id": str(guild.id), "members": [m.payload() for m in members], "chunk_index": 0,
                 "chunk_count": 1}
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def close_all(self) -> None:
        for session in list(self.sessions):
            if not session.ws.closed:
                await session.ws.close(code=1001, message=b"local discord shutting down")
        self.sessions.clear()

    # ------------------------------------------------------------------------------------------ events
    async def _broadcast(self, event: str, data: dict, intent: int | None) -> None:
        guild_id = data.get("guild_id")
        guild = self.world.guilds.get(int(guild_id)) if guild_id else None
        if guild is not None and self.world.bot_user.id not in guild.members and event != "INTERACTION_CREATE":
            return  # the bot hears nothing of a server it is not in but its interactions
        for session in list(self.sessions):
            if (intent is None or session.intents & intent) and session.hears(guild_id):
                await session.dispatch(event, data)

    def _message_intent(self, channel: Channel) -> int:
        return INTENT_DIRECT_MESSAGES if channel.type == DM else INTENT_GUILD_MESSAGES

    async def _message_event(self, event: str, message: Message) -> None:
        if message.ephemeral_to is not None:
            return  # Discord never dispatches ephemeral messages
        intent = self._message_intent(message.channel)
        world = self.world
        exempt = (message.author is world.bot_user or message.channel.type == DM
                  or world.bot_user in message.mentions)
        guild = message.channel.guild
        for session in list(self.sessions):
            if not session.intents & intent or not session.hears(guild.id if guild is not None else None):
                continue
            visible = exempt or bool(session.intents & INTENT_MESSAGE_CONTENT)
            data = message.payload(content_visible=visible)
            if message.channel.guild is not None:
                data["guild_id"] = str(message.channel.guild.id)
                member = world.member(message.author, message.channel.guild)
                if member is not None and message.webhook_id is None:
                    data["member"] = member.payload(with_user=False)
            await session.dispatch(event, data)

    async def message_create(self, message: Message) -> None:
        await self._message_event("MESSAGE_CREATE", message)

    async def message_update(self, message: Message) -> None:
        await self._message_event("MESSAGE_UPDATE", message)

    async def message_delete(self, message: Message) -> None:
        if message.ephemeral_to is not None:
            return
        data = {"id": str(message.id), "channel_id": str(message.channel.id)}
        if message.channel.guild is not None:
            data["guild_id"] = str(message.channel.guild.id)
        await self._broadcast("MESSAGE_DELETE", data, self._message_intent(message.channel))

    async def channel_create(self, channel: Channel) -> None:
        if channel.type == DM:
            return  # not sent for DMs in v10
        await self._broadcast("CHANNEL_CREATE", channel.payload(), INTENT_GUILDS)

    async def thread_create(self, thread: Channel) -> None:
        data = {**thread.payload(), "newly_created": True}
        bot = self.world.bot_user
        if bot.id in thread.thread_members:
            data["member"] = self._thread_member(thread, bot.id)
        await self._broadcast("THREAD_CREATE", data, INTENT_GUILDS)

    async def guild_create(self, guild) -> None:
        if self.world.bot_user.id not in guild.members:
            return  # a server that never added the bot
        for session in list(self.sessions):
            if session.intents & INTENT_GUILDS and session.hears(guild.id):
                await session.dispatch("GUILD_CREATE", self._guild_payload(session, guild))

    def _guild_payload(self, session: Session, guild) -> dict:
        """GUILD_CREATE's data: every member with the members intent, else the bot alone."""
        bot = self.world.bot_user
        members = list(guild.members.values()) if session.intents & INTENT_GUILD_MEMBERS else [
            m for m in guild.members.values() if m.user is bot]
        return guild.payload(members=members, bot_user=bot)

    async def member_add(self, member) -> None:
        data = {**member.payload(), "guild_id": str(member.guild.id)}
        await self._broadcast("GUILD_MEMBER_ADD", data, INTENT_GUILD_MEMBERS)

    async def channel_update(self, channel: Channel) -> None:
        await self._broadcast("CHANNEL_UPDATE", channel.payload(), INTENT_GUILDS)

    async def thread_update(self, thread: Channel) -> None:
        await self._broadcast("THREAD_UPDATE", thread.payload(), INTENT_GUILDS)

    async def channel_delete(self, channel: Channel, data: dict) -> None:
        if channel.is_thread:
            await self._broadcast("THREAD_DELETE", {"id": data["id"], "guild_id": data["guild_id"],
                                                    "parent_id": data["parent_id"], "type": data["type"]},
                                  INTENT_GUILDS)
        else:
            await self._broadcast("CHANNEL_DELETE", data, INTENT_GUILDS)

    async def thread_member_update(self, thread: Channel, user_id: int) -> None:
        data = {**self._thread_member(thread, user_id), "guild_id": str(thread.guild.id)}
        await self._broadcast("THREAD_MEMBER_UPDATE", data, INTENT_GUILDS)

    def _thread_member(self, thread: Channel, user_id: int) -> dict:
        return {"id": str(thread.id), "user_id": str(user_id), "join_timestamp": iso(thread.thread_members[user_id]),
                "flags": 0}

    async def interaction_create(self, interaction_payload: dict) -> None:
        await self._broadcast("INTERACTION_CREATE", interaction_payload, None)

    async def thread_members_update(self, thread: Channel, added: list[int]) -> None:
        world = self.world
        data = {
            "id": str(thread.id),
            "guild_id": str(thread.guild.id),
            "member_count": len(thread.thread_members),
            "added_members": [
                {**self._thread_member(thread, uid),
                 **({"member": member.payload()} if (member := world.member(world.users[uid], thread.guild)) else {})}
                for uid in added
            ],
        }
        await self._broadcast("THREAD_MEMBERS_UPDATE", data, INTENT_GUILD_MEMBERS)
