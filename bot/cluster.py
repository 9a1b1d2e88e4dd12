"""Which servers this bot process looks after, when several processes share the bot.

Discord sends a server's events to shard ``(guild_id >> 22) % shard_count`` and every event without a server (DM
clicks included) to shard 0. A cluster runs one process per range of shards (``SHARD_COUNT`` and ``SHARD_IDS``, or
``CLUSTER_COUNT`` and ``CLUSTER_INDEX``) on one PostgreSQL database. A process *owns* the servers of its shards: it
arms their matches' deadlines, shows their events, plays the bot's seat in them and resumes them after a start.
A click that reaches another process (a DM click reaches shard 0's) acts on the match through the shared database
and tells the owner (a PostgreSQL notification), which does the rest.

One process with no shard settings owns everything.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Cluster:
    """``shard_count``: the bot's shards in all (``None``: one process, no sharding); ``shard_ids``: this
    process's."""

    shard_count: int | None = None
    shard_ids: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.shard_count is None:
            if self.shard_ids:
                raise ValueError("shard ids without a shard count")
            return
        if self.shard_count < 1:
            raise ValueError("the shard count must be at least 1")
        if not self.shard_ids:
            object.__setattr__(self, "shard_ids", tuple(range(self.shard_count)))
        if any(not 0 <= shard < self.shard_count for shard in self.shard_ids):
            raise ValueError(f"shard ids must be from 0 to {self.shard_count - 1}")
        if len(set(self.shard_ids)) != len(self.shard_ids):
            raise ValueError("a shard id is listed twice")

    @classmethod
    def member(cls, index: int, count: int, shard_count: int | None = None) -> Cluster:
        """Process ``index`` of ``count``: an equal, contiguous range of ``shard_count`` shards (default: one shard
        per process)."""
        shards = count if shard_count is None else shard_count
        if not 0 <= index < count:
            raise ValueError(f"the cluster index must be from 0 to {count - 1}")
        if shards < count:
            raise ValueError("fewer shards than processes: some process would have none")
        start, end = index * shards // count, (index + 1) * shards // count
        return cls(shards, tuple(range(start, end)))

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    @property
    def partial(self) -> bool:
        """Other processes run the other shards (the database must be shared)."""
        return self.shard_count is not None and len(self.shard_ids) < self.shard_count

    @property
    def name(self) -> str:
        """This process's name in the database's claims: the same after a restart, so a restarted process takes
        back what it held at once instead of waiting for its claims to run out."""
        if self.shard_count is None:
            return "all shards"
        return f"shards {','.join(map(str, self.shard_ids))} of {self.shard_count}"

    def shard_of(self, guild_id: int | None) -> int:
        if guild_id is None or self.shard_count is None:
            return 0
        return (guild_id >> 22) % self.shard_count

    def owns(self, guild_id: int | None) -> bool:
        """This process looks after the server (``None``: no server, shard 0's)."""
        return self.shard_count is None or self.shard_of(guild_id) in self.shard_ids
