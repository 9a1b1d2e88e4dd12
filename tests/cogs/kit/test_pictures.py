"""Where pictures are drawn: a quick card picture on the event loop, in its turn; any other off it."""

from __future__ import annotations

import asyncio
import itertools
import os

import pytest

from bot.games.airwar import render as airwar_render
from bot.render.common import is_quick_to_draw, quick_to_draw
from cogs.kit.pictures import rendered, rendered_first

drawn: list[str] = []


@quick_to_draw
def drawn_here(name: str) -> int:
    drawn.append(name)
    return os.getpid()


def test_air_wars_result_is_made_on_the_loop_and_charts_are_not():
    """The presenter makes Air War's result (text alone) with ``rendered``: on the loop, no trip to the picture
    process."""
    assert is_quick_to_draw(airwar_render.result)
    assert not is_quick_to_draw(os.getpid)


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="with one core every picture is drawn in a thread")
async def test_a_quick_picture_is_drawn_in_the_bots_process_and_another_in_the_picture_process():
    assert await rendered(drawn_here, "board") == os.getpid()
    assert await rendered_first(drawn_here, "panel") == os.getpid()
    assert await rendered(os.getpid) != os.getpid()


async def test_quick_pictures_asked_for_at_once_are_drawn_one_per_turn_answers_first():
    """A burst of pictures drawn on the loop: each in a later pass of the loop than the one before (so the
    interactions that came meanwhile get in between), and a picture an answer waits for goes first."""
    drawn.clear()
    passes: list[int] = []
    counting = True

    async def count_passes() -> None:
        while counting:
            passes.append(len(drawn))
            await asyncio.sleep(0)

    counter = asyncio.create_task(count_passes())
    await asyncio.sleep(0)
    background = [asyncio.create_task(rendered(drawn_here, f"flip {i}")) for i in range(4)]
    await asyncio.sleep(0)  # the first is being drawn (no wait: nothing else was); the others wait their turn
    answer = asyncio.create_task(rendered_first(drawn_here, "answer"))
    await asyncio.gather(*background, answer)
    counting = False
    await counter
    # (flip 1 had the turn already when the answer asked; the answer goes before the flips still waiting)
    assert drawn == ["flip 0", "flip 1", "answer", "flip 2", "flip 3"]
    assert all(later - earlier <= 1 for earlier, later in itertools.pairwise(passes))
