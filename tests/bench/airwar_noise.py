"""How much one default Air War match makes Discord show: messages, notifications and picture uploads.

    python -m tests.bench.airwar_noise [--seed S]

The real bot (real cogs, a real SQLite file in a temporary directory) plays one match with the default rules
against the local Discord (``tests/localdiscord``) on 127.0.0.1: the challenger uses ``/airwar challenge`` in
``#general``, the opponent clicks **Accept**, and each player arranges every engagement from the panel the bot gives
them (a DM message holding the engagement's panel buttons, new or edited: a card per tap in the order of
``tests.e2e.test_airwar.POLICIES``, then lock in) until the match is over. Flips are not paced and the deadlines never
pass (the local Discord's clock stands still); the seed fixes the deal, so a run is the same match every time.

Prints one JSON line:

* ``engagements``, ``winner`` (``challenger``, ``opponent`` or ``null``);
* ``players``: per player (``challenger``, ``opponent``), ``dm_messages`` (messages the bot created in the player's
  DMs) and ``dm_notifications`` (each DM message created notifies; an edit does not);
* ``channel_messages``: messages the bot created in the channel the challenge was made in (the thread not counted;
  ephemeral answers, which only their user sees, neither), ``thread_messages``: the messages it created in the
  match's thread;
* ``image_uploads``: files the bot attached, on creating a message or on editing one, and ``image_uploads_by_place``
  (``channel``, ``thread``, ``dm``);
* ``upload_kb``: the bytes of those files, in KiB;
* ``failures``: what the pytest fixture would fail on (``env.failures()``); must be 0 (printed to stderr).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from tests.e2e.test_airwar import POLICIES, SEED, fast_bot, lift_rate_limits, match_id_of
from tests.localdiscord import Env, Message, User
from tests.localdiscord.state import Channel

WAIT = 30.0


def panel_of(env: Env, user: User, match_id: int, engagement: int) -> Message | None:
    """The bot's DM message that holds the player's panel buttons of the engagement (enabled)."""
    prefix = f"aw:p:{match_id}:{engagement}:"
    for message in reversed(env.messages(user)):
        if any(b["custom_id"].startswith(prefix) and not b.get("disabled") for b in message.buttons):
            return message
    return None


def stack_of(panel: Message) -> list[str]:
    return [b["custom_id"].split(":card:")[1] for b in panel.buttons if ":card:" in b["custom_id"]]


async def arrange(env: Env, user: User, panel: Message, order: list[str]) -> None:
    for key in [f"card:{card}" for card in order] + ["confirm"]:
        button = next(b for b in panel.buttons if b["custom_id"].endswith(f":{key}"))
        ix = await env.click(user, panel, custom_id=button["custom_id"])
        await ix.wait_response()


async def finished(env: Env, match_id: int) -> bool:
    return (await env.bot.matches.get_match(match_id)).status == "finished"


async def play(env: Env, players: tuple[User, User], match_id: int) -> int:
    """Every engagement arranged by both players until the match is over; returns the last engagement's number."""
    number = 0
    while not await finished(env, match_id):
        number += 1
        for seat, user in enumerate(players):
            async def due(user: User = user, number: int = number) -> Message | str | None:
                return panel_of(env, user, match_id, number) or ("over" if await finished(env, match_id) else None)

            found = None
            for _ in range(int(WAIT / 0.01)):
                found = await due()
                if found:
                    break
                await asyncio.sleep(0.01)
            if found is None:
                raise TimeoutError(f"{user.name}: no panel for engagement {number} and the match goes on")
            if found == "over":
                return number - 1
            await arrange(env, user, found, POLICIES[seat](stack_of(found)))
        for _ in range(int(WAIT / 0.01)):  # the engagement is played (or the match ended) before the next one
            match = await env.bot.matches.get_match(match_id)
            if match.step > number or match.status == "finished":
                break
            await asyncio.sleep(0.01)
    return number


async def settled(env: Env, match_id: int) -> None:
    for _ in range(int(WAIT / 0.01)):
        if not await env.bot.matches.outbox.unshown_events(match_id):
            return
        await asyncio.sleep(0.01)
    raise TimeoutError("events still unshown")


def created_by_bot(env: Env, channel: Channel) -> list[Message]:
    """The messages the bot created in a channel that everyone there sees (not ephemeral answers)."""
    return [m for m in channel.messages if m.author is env.bot_user and m.ephemeral_to is None]


async def run(seed: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="airwar-noise-") as directory:
        env = await Env.start(fast_bot(Path(directory) / "airwar.db", seed=seed))
        try:
            lift_rate_limits(env)
            challenger, opponent = env.user("challenger"), env.user("opponent")
            channel = env.channel()
            dms = {"challenger": env.dm(challenger), "opponent": env.dm(opponent)}
            ix = await env.slash(challenger, "airwar challenge", opponent=opponent)
            await ix.wait_response()
            challenge = ix.message
            match_id = match_id_of(challenge)
            for _ in range(int(WAIT / 0.01)):
                if (await env.bot.matches.get_match(match_id)).challenge_message_id is not None:
                    break
                await asyncio.sleep(0.01)
            accept = next(b for b in challenge.buttons if b["custom_id"].endswith(":accept"))
            await (await env.click(opponent, challenge, custom_id=accept["custom_id"])).wait_response()
            engagements = await play(env, (challenger, opponent), match_id)
            await settled(env, match_id)
            match = await env.bot.matches.get_match(match_id)
            threads = [thread for thread in env.threads if thread.parent is channel]
            places = {channel.id: "channel", **{t.id: "thread" for t in threads},
                      **{dm.id: "dm" for dm in dms.values()}}
            uploads = Counter(places.get(int(a.url.split("/attachments/")[1].split("/")[0]), "other")
                              for a in env.world.attachments.values())
            winner = (match.result or {}).get("winner")
            out = {
                "seed": seed,
                "engagements": engagements,
                "winner": None if winner is None else ("challenger", "opponent")[winner],
                "players": {who: {"dm_messages": len(created_by_bot(env, dm)),
                                  "dm_notifications": len(created_by_bot(env, dm))} for who, dm in dms.items()},
                "channel_messages": len(created_by_bot(env, channel)),
                "thread_messages": sum(len(created_by_bot(env, thread)) for thread in threads),
                "image_uploads": sum(uploads.values()),
                "image_uploads_by_place": dict(sorted(uploads.items())),
                "upload_kb": round(sum(a.size for a in env.world.attachments.values()) / 1024, 1),
            }
        finally:
            await env.close()
        failures = env.failures()
    for line in failures[:40]:
        print(line, file=sys.stderr)
    return {**out, "failures": len(failures)}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.airwar_noise")
    parser.add_argument("--seed", type=int, default=SEED, help="the deal's seed (default: the e2e tests')")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.seed))))


if __name__ == "__main__":
    main()
