"""The garbage collector, kept out of the event loop's way in a long-running bot.

A collection of the oldest generation stops the event loop while it walks every object the collector tracks; in a
started bot most of them are the modules, discord.py's caches and Pillow's fonts and card tiles, which live as
long as the process. :func:`settle`, called once the bot is started, moves them out of the collector's sight
(:func:`gc.freeze`), so a full collection walks only what the bot made since; and it collects the youngest
generation after :data:`YOUNG_THRESHOLD` new objects rather than Python's 700. A click makes a few thousand
objects that die with it: collected every 700, many of them lived through a collection and were moved to the older
generations, whose collections then walked them again (9% of the bot's time at 200 matches at once, in
``tests.bench.airwar_matches``).
"""

from __future__ import annotations

import gc

#: new objects (less those freed) between two collections of the youngest generation (Python's default: 700)
YOUNG_THRESHOLD = 20_000


def settle() -> None:
    """Collect once, then freeze what survived (once, after the start: frozen objects are never collected), and
    collect the youngest generation less often."""
    gc.collect()
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, oldest)
