"""The test driver: start the local Discord and a bot, act as users, observe what the bot did.

    env = await Env.start(lambda env: MyBot(...))      # or the ``env`` / ``make_env`` pytest fixtures
    alice = env.user("alice")
    ix = await env.slash(alice, "rules", game="war")  # INTERACTION_CREATE over the gateway
    reply = await ix.wait_response()                  # the bot's first callback
    msg = env.ephemerals(alice)[-1]
    ix2 = await env.click(alice, msg, "Army")          # a button on that message, by label or custom_id
    await env.wait_for(lambda: "Army" in msg.text)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl

from . import errors
from .netguard import LoopbackOnly
from .rest import sniff_content_type
from .server import HeldRequest, Hold, LocalDiscord, Problem
from .state import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    DM,
    GUILD_TEXT,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    USE_APPLICATION_COMMANDS,
    USE_EXTERNAL_APPS,
    VIEW_CHANNEL,
    Attachment,
    Channel,
    Guild,
    Interaction,
    Message,
    Overwrite,
    Role,
    User,
    new_token,
    walk_components,
)

GUARDED_LOGGERS = ("discord", "bot", "cogs")
DM_APP_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 6) | (1 << 18)


@dataclass
class File:
    """An attachment a user gives to a slash command option of type ATTACHMENT."""

    filename: str
    data: bytes
    content_type: str | None = None


class ErrorLogGuard(logging.Handler):
    """Collects ERROR (and above) records of the ``discord``, ``bot`` and ``cogs`` loggers."""

    def __init__(self, names: Iterable[str] = GUARDED_LOGGERS) -> None:
        super().__init__(level=logging.ERROR)
        self.names = tuple(names)
        self.records: list[logging.LogRecord] = []
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def install(self) -> ErrorLogGuard:
        for name in self.names:
            logging.getLogger(name).addHandler(self)
        return self

    def remove(self) -> None:
        for name in self.names:
            logging.getLogger(name).removeHandler(self)

    def take(self) -> list[logging.LogRecord]:
        taken, self.records = self.records, []
        return taken

    def describe(self) -> list[str]:
        return [self.format(r) for r in self.records]


_active: list[Env] = []


class Env:
    """A local Discord with a bot connected to it, and the acts and observations tests use."""

    def __init__(self, discord_server: LocalDiscord | None = None, *, loopback_only: bool = True) -> None:
        self.discord = discord_server or LocalDiscord()
        self.world = self.discord.world
        self.bot: discord.Client | None = None
        self.log_guard = ErrorLogGuard()
        self.net_guard = LoopbackOnly(lambda what: self.discord.problem("network", f"refused {what}")) \
            if loopback_only else None
        self._bot_task: asyncio.Task | None = None
        self._pending: list[asyncio.Task] = []
        self._changed = asyncio.Event()
        self._patched: tuple[str, yarl.URL] | None = None
        self.world.listeners.append(self._on_change)
        self.timings: dict[str, float] = {}

    # ============================================================================================ lifecycle
    @classmethod
    async def start(cls, bot_factory: Callable[[Env], discord.Client] | None = None, *, ready_timeout: float = 10.0,
                    loopback_only: bool = True, **server_options: Any) -> Env:
        """A started local Discord (``server_options`` go to :class:`LocalDiscord`) and, given a factory, a ready
        bot.  ``loopback_only`` refuses (and records) any connection beyond 127.0.0.1 while the Env runs."""
        env = cls(LocalDiscord(**server_options), loopback_only=loopback_only)
        await env.start_server()
        if bot_factory is not None:
            try:
                await env.start_bot(bot_factory(env), timeout=ready_timeout)
            except BaseException:
                await env.close()
                raise
        return env

    async def start_server(self) -> None:
        started = time.perf_counter()
        if self.net_guard is not None:
            self.net_guard.install()
        await self.discord.start()
        self.log_guard.install()
        self._patch()
        self.timings["server_start"] = time.perf_counter() - started

    def _patch(self) -> None:
        if _active and _active[-1] is not self:
            raise RuntimeError("another local Discord Env is active: discord.py's base URLs are process-wide")
        self._patched = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = self.discord.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.discord.gateway_url)
        _active.append(self)

    def _unpatch(self) -> None:
        if self._patched is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._patched
            self._patched = None
            if self in _active:
                _active.remove(self)

    async def start_bot(self, bot: discord.Client, *, timeout: float = 10.0) -> discord.Client:  # noqa: ASYNC109
        """Start ``bot`` against this local Discord and wait until discord.py says it is ready."""
        started = time.perf_counter()
        self.bot = bot
        self._bot_task = asyncio.create_task(bot.start(self.world.token), name="localdiscord-bot")
        deadline = time.monotonic() + timeout
        while not bot.is_ready():
            if self._bot_task.done():
                exc = self._bot_task.exception()
                raise RuntimeError(f"the bot stopped before it was ready: {exc!r}") from exc
            if time.monotonic() > deadline:
                raise TimeoutError(f"the bot was not ready after {timeout} s; problems: {self.problems}")
            await asyncio.sleep(0.002)
        self.timings["bot_ready"] = time.perf_counter() - started
        return bot

    async def close(self) -> None:
        for task in self._pending:
            if not task.done():
                task.cancel()
        if self.bot is not None and not self.bot.is_closed():
            await self.bot.close()
        if self._bot_task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._bot_task, 5)
        await self.discord.stop()
        self._unpatch()
        self.log_guard.remove()
        if self.net_guard is not None:
            self.net_guard.remove()

    def failures(self) -> list[str]:
        """Everything that should fail the test: recorded problems (incl. overdue interactions), ERROR logs."""
        self.discord.sweep_unanswered()
        found = [str(p) for p in self.discord.problems]
        found.extend(f"[error_log] {line}" for line in self.log_guard.describe())
        return found

    def check(self) -> None:
        failures = self.failures()
        if failures:
            raise errors.TestProblems("the local Discord recorded problems:\n  " + "\n  ".join(failures))

    # =============================================================================================== world
    @property
    def guild(self):
        return self.world.guild

    @property
    def owner(self) -> User:
        """The guild owner (has every permission)."""
        return self.world.guild.owner

    @property
    def bot_user(self) -> User:
        return self.world.bot_user

    @property
    def token(self) -> str:
        return self.world.token

    @property
    def application_id(self) -> int:
        return self.world.application_id

    @property
    def clock(self):
        return self.world.clock

    def user(self, name: str, *, dms_open: bool | None = None, admin: bool = False, roles: Iterable[str | Role] = (),
             member: bool = True, locale: str | None = None) -> User:
        """The user ``name``, created on first use (a guild member unless ``member=False``)."""
        existing = self.world.users_by_name.get(name)
        if existing is not None:
            if dms_open is not None:
                existing.dms_open = dms_open
            if locale is not None:
                existing.locale = locale
            return existing
        user = self.world._new_user(name, dms_open=True if dms_open is None else dms_open)
        if locale:
            user.locale = locale
        if member:
            chosen = [self.role(r) if isinstance(r, str) else r for r in roles]
            if admin:
                chosen.append(self.role("Admin"))
            member_record = self.world.add_member(user, roles=chosen)
            self._background(self.discord.hub.member_add(member_record))
        self.world.changed()
        return user

    def role(self, name: str, permissions: int | None = None) -> Role:
        """The role ``name`` (created with ``permissions`` on first use)."""
        role = self.guild.role(name)
        if role is None:
            role = self.world.add_role(name, permissions or 0)
        elif permissions is not None:
            role.permissions = permissions
        return role

    def give_role(self, user: User, role: Role | str) -> None:
        member = self.world.member(user)
        assert member is not None, f"{user.name} is not a member of the guild"
        member.roles.append(self.role(role) if isinstance(role, str) else role)

    def add_guild(self, name: str, *, shard: tuple[int, int] | None = None, with_bot: bool = True,
                  external_apps: bool = True) -> Guild:
        """Another server (its owner is the user ``owner of NAME``), on ``shard`` (id, count) if given; the bot
        hears of it (GUILD_CREATE) on the shard that hears it. ``with_bot=False``: a server that never added the bot
        (only a user's install of the app reaches it); ``external_apps=False``: its members may not use external
        apps (@everyone lacks Use External Apps)."""
        guild = self.world.add_guild(name, owner=self.world._new_user(f"owner of {name}"), shard=shard,
                                     with_bot=with_bot)
        if not external_apps:
            guild.everyone.permissions &= ~USE_EXTERNAL_APPS
        self._background(self.discord.hub.guild_create(guild))
        self.world.changed()
        return guild

    def join(self, user: User, guild: Guild) -> None:
        """``user`` becomes a member of ``guild`` too."""
        if self.world.member(user, guild) is None:
            member = self.world.add_member(user, guild=guild)
            self._background(self.discord.hub.member_add(member))
            self.world.changed()

    def channel(self, name: str = "general", *, hidden_from: Iterable[User | Role] = (),
                topic: str | None = None, guild: Guild | None = None) -> Channel:
        """The text channel ``#name`` of ``guild`` (default: the first server; created on first use; CHANNEL_CREATE
        goes to the bot)."""
        channel = self.world.channel_named(name, guild)
        if channel is not None:
            return channel
        overwrites = [Overwrite(target=t, deny=VIEW_CHANNEL) for t in hidden_from]
        channel = self.world.add_channel(name, type=GUILD_TEXT, topic=topic, overwrites=overwrites, guild=guild)
        self._background(self.discord.hub.channel_create(channel))
        self.world.changed()
        return channel

    def thread(self, name: str) -> Channel | None:
        return next((c for c in self.guild.threads if c.name == name), None)

    @property
    def threads(self) -> list[Channel]:
        return self.guild.threads

    def dm(self, user: User) -> Channel:
        """The DM channel between the bot and ``user``."""
        return self.world.dm_channel(user)

    def install(self, *users: User) -> None:
        """The users install the application to themselves (a user install): its global commands that declare
        integration type 1 follow them into DMs, group DMs and servers that did not add the bot."""
        self.world.user_installs.update(user.id for user in users)

    def group_dm(self, name: str, *users: User) -> Channel:
        """A group DM of ``users`` (the bot is never in one)."""
        channel = self.world.group_dm(name, list(users))
        self.world.changed()
        return channel

    def _background(self, coro) -> None:
        if self.discord.hub.sessions:
            self._pending.append(asyncio.ensure_future(coro))
        else:
            coro.close()

    async def _flush(self) -> None:
        pending, self._pending = [t for t in self._pending if not t.done()], []
        if pending:
            await asyncio.gather(*pending)

    # ======================================================================================== observation
    def messages(self, channel: Channel | User | None = None, *, include_deleted: bool = False) -> list[Message]:
        """The channel's (or DM's, given a user) messages in order; ephemeral ones are excluded."""
        channel = self._resolve_channel(channel)
        return [m for m in channel.messages if m.ephemeral_to is None and (include_deleted or not m.deleted)]

    def last_message(self, channel: Channel | User | None = None) -> Message | None:
        messages = self.messages(channel)
        return messages[-1] if messages else None

    def ephemerals(self, user: User, *, channel: Channel | None = None, include_deleted: bool = False) -> list[Message]:
        """The ephemeral messages only ``user`` sees, in order (optionally in one channel)."""
        channels = [channel] if channel is not None else list(self.world.channels.values())
        found = [m for c in channels for m in c.messages
                 if m.ephemeral_to is user and (include_deleted or not m.deleted)]
        return sorted(found, key=lambda m: m.id)

    def visible_to(self, user: User, channel: Channel | None = None) -> list[Message]:
        """What ``user`` sees in a channel: the public messages plus their own ephemeral ones."""
        channel = self._resolve_channel(channel)
        return [m for m in channel.messages if not m.deleted and m.ephemeral_to in (None, user)]

    def _resolve_channel(self, channel: Channel | User | None) -> Channel:
        if channel is None:
            return self.channel()
        if isinstance(channel, User):
            return self.dm(channel)
        return channel

    @property
    def interactions(self) -> list[Interaction]:
        return list(self.world.interactions.values())

    @property
    def commands(self) -> dict[str, dict]:
        """The synced commands by name: guild commands (the bot's dev guild) over global ones."""
        merged = {c["name"]: c for c in self.world.global_commands}
        merged.update({c["name"]: c for c in self.world.guild_commands.get(self.guild.id, [])})
        return merged

    @property
    def global_commands(self) -> list[dict]:
        return self.world.global_commands

    @property
    def guild_commands(self) -> list[dict]:
        return self.world.guild_commands.get(self.guild.id, [])

    @property
    def http_429(self) -> int:
        """How many 429s the local Discord answered."""
        return self.discord.rate_limits.count_429

    def hold(self, predicate: Callable[[HeldRequest], bool], *, after: bool = False) -> Hold:
        """Hold the bot's next request that ``predicate`` matches (``after``: apply it, hold its answer); see
        :meth:`LocalDiscord.hold`. ``await hold.wait()``, then ``hold.release()``."""
        return self.discord.hold(predicate, after=after)

    def rate_limit(self, name: str, *, limit: int, per: float, hidden: bool = False) -> None:
        """Set a rate-limit rule: ``messages`` (sends per channel), ``edits`` (edits per channel), ``default``."""
        self.discord.rate_limits.configure(name, limit=limit, per=per, hidden=hidden)

    @property
    def problems(self) -> list[Problem]:
        self.discord.sweep_unanswered()
        return self.discord.problems

    def take_problems(self, kind: str | None = None) -> list[Problem]:
        """Remove and return recorded problems (of one kind): how a test says it *expected* them."""
        self.discord.sweep_unanswered()
        return self.discord.take_problems(kind)

    def take_error_logs(self) -> list[logging.LogRecord]:
        return self.log_guard.take()

    @property
    def requests(self):
        return self.discord.requests

    def _on_change(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    # the test-facing API takes a timeout like asyncio.wait_for
    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 5.0, *,  # noqa: ASYNC109
                       message: str | None = None) -> Any:
        """Wait until ``predicate()`` is truthy (re-checked on every change in the local Discord); return it."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(message or f"condition not met within {timeout} s")
            event = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, 0.05))

    # =============================================================================================== acts
    def _require_bot(self) -> None:
        if not self.discord.hub.sessions:
            raise RuntimeError("no bot is connected to the local Discord gateway")

    def _check_channel_access(self, user: User, channel: Channel) -> None:
        if not self.world.can_see(user, channel):
            raise errors.ComponentNotFound(f"{user.name} can't see {channel!r}")

    async def _send(self, ix: Interaction) -> Interaction:
        self._require_bot()
        await self._flush()
        self.discord.register_interaction(ix)
        await self.discord.hub.interaction_create(self._interaction_payload(ix))
        self.world.changed()
        return ix

    def _new_interaction(self, user: User, channel: Channel, type: int, data: dict, *, source: Message | None = None,
                         command_name: str | None = None, locale: str | None = None) -> Interaction:
        member = self.world.member(user, channel.guild) if channel.guild is not None else None
        ix = Interaction(id=self.world.ids.next(), token=new_token(), type=type,
                         application_id=self.world.application_id, user=user, member=member, channel=channel,
                         data=data, created_at=self.world.clock.time(), locale=locale or user.locale,
                         source=source, command_name=command_name, notify=self.world.changed)
        ix.context = self._context(channel)
        # a component's: the installs that authorized the interaction whose message it is on
        made_by = (source.interaction_metadata or {}) if source is not None else {}
        ix.owners = dict(made_by.get("authorizing_integration_owners") or self._owners(user, channel, None))
        ix.forced_ephemeral = (member is not None and not self.world.bot_is_member(channel)
                               and not channel.guild.permissions_in(member, channel) & USE_EXTERNAL_APPS)
        return ix

    def _interaction_payload(self, ix: Interaction) -> dict:
        world = self.world
        channel = ix.channel
        payload: dict[str, Any] = {
            "id": str(ix.id),
            "application_id": str(ix.application_id),
            "type": ix.type,
            "data": ix.data,
            "token": ix.token,
            "version": 1,
            "locale": ix.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": self.discord.integration_owners(ix),
            "attachment_size_limit": 10 * 1024 * 1024,
            "channel_id": str(channel.id),
        }
        if ix.guild is not None:
            member = world.member(ix.user, ix.guild)
            assert member is not None
            perms = ix.guild.permissions_in(member, channel)
            payload.update({
                "guild_id": str(ix.guild.id),
                "guild": {"id": str(ix.guild.id), "locale": ix.guild.locale, "features": []},
                "guild_locale": ix.guild.locale,
                "member": {**member.payload(), "permissions": str(perms)},
                "channel": {**channel.payload(), "permissions": str(perms)},
                "app_permissions": str(world.permissions(world.bot_user, channel) if world.bot_is_member(channel)
                                       else DM_APP_PERMISSIONS),
                "context": ix.context,
            })
        else:
            payload.update({
                "user": ix.user.payload(),
                "channel": channel.payload(),
                "app_permissions": str(DM_APP_PERMISSIONS),
                "context": ix.context,
            })
        if ix.source is not None:
            payload["message"] = ix.source.payload()
        return payload

    # ------------------------------------------------------------------------------------- slash commands
    def _find_command(self, user: User, path: str, channel: Channel, kind: int = 1) -> tuple[dict, list[str], list]:
        tokens = path.strip().lstrip("/").split()
        if not tokens:
            raise errors.UnknownCommand("empty command")
        candidates = []
        if channel.guild is not None:
            candidates += self.world.guild_commands.get(channel.guild.id, [])
        candidates += self.world.global_commands
        command = next((c for c in candidates if c["name"] == tokens[0] and c["type"] == kind), None)
        if command is None:
            names = sorted({c["name"] for c in candidates if c["type"] == kind})
            raise errors.UnknownCommand(f"no synced command /{tokens[0]} (synced: {', '.join(names) or 'none'})")
        if channel.type == DM:
            contexts = command.get("contexts")
            if command.get("guild_id") or (contexts is not None and 1 not in contexts) or \
                    command.get("dm_permission") is False:
                raise errors.UnknownCommand(f"/{tokens[0]} is not available in DMs")
        contexts = command.get("contexts")
        if contexts is not None and self._context(channel) not in contexts:
            raise errors.UnknownCommand(f"/{tokens[0]} does not declare context {self._context(channel)}")
        if not self._owners(user, channel, command):
            raise errors.UnknownCommand(f"/{tokens[0]} is installed neither here nor to {user.name}")
        options = command.get("options") or []
        chain: list[str] = []
        for token in tokens[1:]:
            sub = next((o for o in options if o["type"] in (1, 2) and o["name"] == token), None)
            if sub is None:
                subs = [o["name"] for o in options if o["type"] in (1, 2)]
                raise errors.UnknownCommand(f"/{' '.join([tokens[0], *chain])} has no subcommand {token!r} "
                                            f"(it has: {', '.join(subs) or 'none'})")
            chain.append(token)
            options = sub.get("options") or []
        if any(o["type"] in (1, 2) for o in options):
            subs = [o["name"] for o in options if o["type"] in (1, 2)]
            raise errors.UnknownCommand(f"/{path} needs a subcommand: {', '.join(subs)}")
        return command, chain, options

    @staticmethod
    def _context(channel: Channel) -> int:
        """The interaction's context: 0 a server, 1 the DM with the bot, 2 a group DM."""
        if channel.guild is not None:
            return 0
        return 1 if channel.type == DM else 2

    def _owners(self, user: User, channel: Channel, command: dict | None) -> dict[str, str]:
        """``authorizing_integration_owners``: the installs that let ``user`` use the app in ``channel`` (a
        command's: those of its ``integration_types``; a guild command's: the server's only)."""
        world = self.world
        kinds = {0} if command is None or command.get("guild_id") else set(command.get("integration_types") or [0])
        owners: dict[str, str] = {}
        if 0 in kinds and world.bot_is_member(channel):
            owners["0"] = str(channel.guild.id) if channel.guild is not None else "0"
        if (command is None or 1 in kinds) and 1 in world.enabled_installs and user.id in world.user_installs:
            owners["1"] = str(user.id)
        return owners

    def _check_command_permission(self, user: User, command: dict, channel: Channel) -> None:
        if channel.guild is None:
            return
        member = self.world.member(user, channel.guild)
        if member is None:
            raise errors.CommandNotPermitted(f"{user.name} is not a member of {channel.guild.name}")
        perms = channel.guild.permissions_in(member, channel)
        if not perms & VIEW_CHANNEL:
            raise errors.CommandNotPermitted(f"{user.name} can't see {channel!r}")
        if not perms & USE_APPLICATION_COMMANDS:
            raise errors.CommandNotPermitted(f"{user.name} lacks Use Application Commands in {channel!r}")
        required = command.get("default_member_permissions")
        if required is not None:
            needed = int(required)
            if perms != ALL_PERMISSIONS and not perms & ADMINISTRATOR and (needed == 0 or perms & needed != needed):
                raise errors.CommandNotPermitted(
                    f"/{command['name']} needs default_member_permissions={required}; {user.name} has {perms} "
                    "(Discord hides the command and never sends the interaction)")

    async def slash(self, user: User, command: str, *, where: Channel | User | None = None,
                    options: dict[str, Any] | None = None, locale: str | None = None, **kwargs: Any) -> Interaction:
        """``user`` runs ``/command [group] [sub]`` with options (by name; users, roles, channels as objects).

        ``where`` is the channel (default #general; a User means the DM with them).  Options go as keyword
        arguments, or in ``options={...}`` when a name clashes with ``where``/``options``/``locale``.
        """
        channel = self._resolve_channel(where)
        return await self._command_interaction(user, command, channel, {**(options or {}), **kwargs},
                                               locale=locale, focused=None)

    async def autocomplete(self, user: User, command: str, focused: str, value: str, *,
                           where: Channel | User | None = None, options: dict[str, Any] | None = None,
                           **kwargs: Any) -> Interaction:
        """``user`` types ``value`` into option ``focused``; the bot answers with choices (``ix.choices``)."""
        channel = self._resolve_channel(where)
        return await self._command_interaction(user, command, channel, {**(options or {}), **kwargs, focused: value},
                                               locale=None, focused=focused)

    async def _command_interaction(self, user: User, path: str, channel: Channel, given: dict[str, Any], *,
                                   locale: str | None, focused: str | None) -> Interaction:
        command, chain, option_defs = self._find_command(user, path, channel)
        self._check_command_permission(user, command, channel)
        resolved: dict[str, dict] = {}
        leaf = self._build_options(option_defs, given, channel, resolved, focused=focused)
        nested = leaf
        for depth in range(len(chain) - 1, -1, -1):
            kind = 1 if depth == len(chain) - 1 else 2
            nested = [{"type": kind, "name": chain[depth], "options": nested}]
        data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1}
        if nested:
            data["options"] = nested
        if resolved:
            data["resolved"] = resolved
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        kind = AUTOCOMPLETE if focused else APPLICATION_COMMAND
        ix = self._new_interaction(user, channel, kind, data, command_name=" ".join([command["name"], *chain]),
                                   locale=locale)
        ix.owners = self._owners(user, channel, command)
        return await self._send(ix)

    def _build_options(self, defs: list[dict], given: dict[str, Any], channel: Channel, resolved: dict, *,
                       focused: str | None) -> list[dict]:
        by_name = {d["name"]: d for d in defs}
        out = []
        remaining = dict(given)
        for key in list(remaining):
            if key not in by_name and key.replace("_", "-") in by_name:
                remaining[key.replace("_", "-")] = remaining.pop(key)
        unknown = [k for k in remaining if k not in by_name]
        if unknown:
            raise errors.InvalidOptions(f"unknown option(s) {unknown}; the command has {sorted(by_name)}")
        for definition in defs:
            name = definition["name"]
            if name not in remaining or remaining[name] is None:
                if definition.get("required") and focused is None:
                    raise errors.InvalidOptions(f"option {name!r} is required")
                continue
            value = remaining[name]
            if name == focused:
                out.append({"type": definition["type"], "name": name, "value": str(value), "focused": True})
                continue
            out.append({"type": definition["type"], "name": name,
                        "value": self._option_value(definition, value, channel, resolved)})
        return out

    def _option_value(self, definition: dict, value: Any, channel: Channel, resolved: dict) -> Any:
        kind = definition["type"]
        name = definition["name"]
        choices = definition.get("choices")
        if kind in (3, 4, 10) and choices:
            by_value = {c["value"]: c for c in choices}
            by_name = {c["name"]: c for c in choices}
            if value in by_value:
                return value
            if value in by_name:
                return by_name[value]["value"]
            raise errors.InvalidOptions(f"{name}={value!r} is not one of the choices "
                                        f"{[c['value'] for c in choices]}")
        if kind == 3:
            if not isinstance(value, str):
                raise errors.InvalidOptions(f"{name} is a string option, got {value!r}")
            if len(value) < definition.get("min_length", 0) or len(value) > definition.get("max_length", 6000):
                raise errors.InvalidOptions(f"{name}={value!r} breaks the length limits")
            return value
        if kind in (4, 10):
            if isinstance(value, bool) or not isinstance(value, int | float) or (kind == 4 and not isinstance(value,
                                                                                                               int)):
                raise errors.InvalidOptions(f"{name} is {'an integer' if kind == 4 else 'a number'} option, "
                                            f"got {value!r}")
            low, high = definition.get("min_value"), definition.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise errors.InvalidOptions(f"{name}={value} is outside [{low}, {high}]")
            return value
        if kind == 5:
            if not isinstance(value, bool):
                raise errors.InvalidOptions(f"{name} is a boolean option, got {value!r}")
            return value
        if kind in (6, 9) and isinstance(value, User):
            self._resolve_user(value, channel, resolved)
            return str(value.id)
        if kind in (8, 9) and isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        if kind == 7 and isinstance(value, Channel):
            allowed = definition.get("channel_types")
            if allowed and value.type not in allowed:
                raise errors.InvalidOptions(f"{name}: channel type {value.type} not in {allowed}")
            resolved.setdefault("channels", {})[str(value.id)] = self._resolved_channel(value)
            return str(value.id)
        if kind == 11:
            attachment = self._attachment_option(value, channel)
            resolved.setdefault("attachments", {})[str(attachment.id)] = attachment.payload()
            return str(attachment.id)
        raise errors.InvalidOptions(f"{name}: can't use {value!r} for an option of type {kind}")

    def _resolve_user(self, user: User, channel: Channel, resolved: dict) -> None:
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        member = self.world.member(user, channel.guild) if channel.guild is not None else None
        if member is not None:
            data = member.payload(with_user=False)
            data["permissions"] = str(channel.guild.permissions_in(member, channel))
            resolved.setdefault("members", {})[str(user.id)] = data

    def _resolved_channel(self, channel: Channel) -> dict:
        data: dict[str, Any] = {"id": str(channel.id), "name": channel.name, "type": channel.type,
                                "permissions": str(ALL_PERMISSIONS)}
        if channel.is_thread:
            full = channel.payload()
            data.update({"parent_id": full["parent_id"], "thread_metadata": full["thread_metadata"]})
        return data

    def _attachment_option(self, value: Any, channel: Channel) -> Attachment:
        if isinstance(value, tuple):
            value = File(*value)
        if not isinstance(value, File):
            raise errors.InvalidOptions(f"an attachment option takes localdiscord.File(filename, data), got {value!r}")
        attachment_id = self.world.ids.next()
        attachment = Attachment(
            id=attachment_id, filename=value.filename, data=value.data,
            content_type=sniff_content_type(value.filename, value.data, value.content_type),
            url=f"{self.discord.base_url}/attachments/{channel.id}/{attachment_id}/{value.filename}",
        )
        self.world.attachments[attachment.id] = attachment
        return attachment

    # ----------------------------------------------------------------------------------------- components
    def _message_of(self, target: Message | Interaction) -> Message:
        if isinstance(target, Interaction):
            if target.original is None:
                raise errors.ComponentNotFound(f"{target.describe()} has no message yet")
            return target.original
        return target

    def _check_message_visible(self, user: User, message: Message) -> None:
        if message.deleted:
            raise errors.ComponentNotFound(f"{message!r} was deleted")
        if message.ephemeral_to is not None and message.ephemeral_to is not user:
            raise errors.ComponentNotFound(f"{message!r} is ephemeral to {message.ephemeral_to.name}, "
                                           f"not {user.name}")
        self._check_channel_access(user, message.channel)

    def _find_component(self, message: Message, candidates: list[dict], what: str, **match: Any) -> dict:
        for key, wanted in match.items():
            if wanted is None:
                continue
            found = [c for c in candidates if c.get(key) == wanted]
            if not found and key == "label":
                found = [c for c in candidates if str(c.get("label", "")).lower() == str(wanted).lower()]
            if found:
                return found[0]
            available = [c.get(key) for c in candidates]
            raise errors.ComponentNotFound(f"no {what} with {key}={wanted!r} on {message!r}; it has {available}")
        if len(candidates) == 1:
            return candidates[0]
        if not candidates:
            raise errors.ComponentNotFound(f"{message!r} has no {what}")
        raise errors.ComponentNotFound(f"say which {what} on {message!r}: {[c.get('custom_id') for c in candidates]}")

    async def click(self, user: User, message: Message | Interaction, label: str | None = None, *,
                    custom_id: str | None = None) -> Interaction:
        """``user`` clicks the button (by label or custom_id) on ``message`` (or on an interaction's message)."""
        message = self._message_of(message)
        self._check_message_visible(user, message)
        button = self._find_component(message, message.buttons, "button", custom_id=custom_id, label=label)
        if button.get("disabled"):
            raise errors.ComponentNotFound(f"button {button.get('label') or button.get('custom_id')!r} is disabled")
        if button.get("style") in (5, 6) or not button.get("custom_id"):
            raise errors.ComponentNotFound("link and premium buttons send no interaction")
        data = {"custom_id": button["custom_id"], "component_type": 2, "id": button["id"]}
        ix = self._new_interaction(user, message.channel, MESSAGE_COMPONENT, data, source=message)
        return await self._send(ix)

    async def click_shown(self, user: User, message: Message | Interaction, custom_id: str) -> Interaction:
        """``user`` clicks the button ``custom_id`` that ``message`` shows or showed before an edit: a client that
        has not caught up with the edit yet (a double-click, a phone that was away) still shows it, and Discord
        sends the click with the message as it is now. The message must still exist and be visible to them."""
        message = self._message_of(message)
        self._check_message_visible(user, message)
        for components in [message.components, *(v.components for v in reversed(message.history))]:
            for button in walk_components(components):
                if button.get("type") == 2 and button.get("custom_id") == custom_id:
                    data = {"custom_id": custom_id, "component_type": 2, "id": button.get("id", 0)}
                    ix = self._new_interaction(user, message.channel, MESSAGE_COMPONENT, data, source=message)
                    return await self._send(ix)
        raise errors.ComponentNotFound(f"{message!r} never showed a button {custom_id!r}")

    async def select(self, user: User, message: Message | Interaction, values: Iterable[Any], *,
                     custom_id: str | None = None, placeholder: str | None = None) -> Interaction:
        """``user`` picks ``values`` in a select menu (string values or labels; users/roles/channels as objects)."""
        message = self._message_of(message)
        self._check_message_visible(user, message)
        menu = self._find_component(message, message.selects, "select", custom_id=custom_id, placeholder=placeholder)
        if menu.get("disabled"):
            raise errors.ComponentNotFound(f"select {menu['custom_id']!r} is disabled")
        values = list(values)
        if not menu.get("min_values", 1) <= len(values) <= menu.get("max_values", 1):
            raise errors.ComponentNotFound(f"select {menu['custom_id']!r} takes {menu.get('min_values', 1)}.."
                                           f"{menu.get('max_values', 1)} values, got {len(values)}")
        data: dict[str, Any] = {"custom_id": menu["custom_id"], "component_type": menu["type"], "id": menu["id"]}
        data["values"], resolved = self._select_values(menu, values, message.channel)
        if resolved:
            data["resolved"] = resolved
        ix = self._new_interaction(user, message.channel, MESSAGE_COMPONENT, data, source=message)
        return await self._send(ix)

    def _select_values(self, menu: dict, values: list[Any], channel: Channel) -> tuple[list[str], dict]:
        resolved: dict[str, dict] = {}
        if menu["type"] == 3:
            options = menu.get("options", [])
            out = []
            for value in values:
                option = next((o for o in options if o["value"] == value), None) or next(
                    (o for o in options if o["label"] == value), None)
                if option is None:
                    raise errors.ComponentNotFound(f"{value!r} is not an option of {menu['custom_id']!r}: "
                                                   f"{[o['value'] for o in options]}")
                out.append(option["value"])
            return out, resolved
        out = []
        for value in values:
            if isinstance(value, User) and menu["type"] in (5, 7):
                self._resolve_user(value, channel, resolved)
            elif isinstance(value, Role) and menu["type"] in (6, 7):
                resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            elif isinstance(value, Channel) and menu["type"] == 8:
                resolved.setdefault("channels", {})[str(value.id)] = self._resolved_channel(value)
            else:
                raise errors.ComponentNotFound(f"{value!r} can't be picked in a select of type {menu['type']}")
            out.append(str(value.id))
        return out, resolved

    # ----------------------------------------------------------------------------------------------- modals
    async def submit_modal(self, user: User, opened_by: Interaction, values: dict[str, Any] | None = None,
                           **kwargs: Any) -> Interaction:
        """``user`` fills and submits the modal the bot opened in answer to ``opened_by``.

        ``values`` maps a text input's custom_id (or its label) to the text; selects inside labels take lists.
        """
        modal = opened_by.modal
        if modal is None:
            raise errors.ModalError(f"{opened_by.describe()} opened no modal (response: {opened_by.response})")
        if opened_by.user is not user:
            raise errors.ModalError(f"the modal was shown to {opened_by.user.name}, not {user.name}")
        given = {**(values or {}), **kwargs}
        used: set[str] = set()
        components = [self._modal_component(c, given, used, None) for c in modal.get("components", [])]
        unknown = set(given) - used
        if unknown:
            raise errors.ModalError(f"the modal has no field(s) {sorted(unknown)}")
        data = {"custom_id": modal["custom_id"], "components": components}
        ix = self._new_interaction(user, opened_by.channel, MODAL_SUBMIT, data, source=opened_by.source)
        ix.triggered_by = opened_by
        return await self._send(ix)

    def _modal_component(self, component: dict, given: dict, used: set[str], label: str | None) -> dict:
        kind = component.get("type")
        if kind == 1:
            return {"type": 1, "id": component.get("id", 0),
                    "components": [self._modal_component(c, given, used, None) for c in component["components"]]}
        if kind == 18:
            inner = self._modal_component(component["component"], given, used, component.get("label"))
            return {"type": 18, "id": component.get("id", 0), "component": inner}
        if kind == 4:
            custom_id = component["custom_id"]
            name = custom_id if custom_id in given else (label or component.get("label"))
            value = given.get(name, component.get("value") or "") if name in given else component.get("value") or ""
            if name in given:
                used.add(name)
            value = str(value)
            if component.get("required", True) and not value:
                raise errors.ModalError(f"field {custom_id!r} is required")
            if value and not component.get("min_length", 0) <= len(value) <= component.get("max_length", 4000):
                raise errors.ModalError(f"field {custom_id!r}: length {len(value)} outside the limits")
            return {"type": 4, "id": component.get("id", 0), "custom_id": custom_id, "value": value}
        if kind in (3, 5, 6, 7, 8):
            custom_id = component["custom_id"]
            name = custom_id if custom_id in given else label
            picked = list(given.get(name, [])) if name in given else []
            if name in given:
                used.add(name)
            if component.get("required", True) and not picked:
                raise errors.ModalError(f"select {custom_id!r} is required")
            out_values, _ = self._select_values(component, picked, self.channel()) if picked else ([], {})
            return {"type": kind, "id": component.get("id", 0), "custom_id": custom_id, "values": out_values}
        return {"type": kind, "id": component.get("id", 0)}

    # ---------------------------------------------------------------------------------------- user messages
    async def say(self, user: User, content: str, *, where: Channel | User | None = None) -> Message:
        """``user`` posts a message in ``where`` (MESSAGE_CREATE to the bot; content visible per its intents)."""
        channel = self._resolve_channel(where)
        self._require_bot()
        await self._flush()
        message = self.world.new_message(channel, user, {"content": content}, [])
        await self.discord.hub.message_create(message)
        self.world.changed()
        return message


__all__ = ["DM_APP_PERMISSIONS", "Env", "ErrorLogGuard", "File"]
