"""The garbage collector, kept out of the event loop's way in a long-running bot.

A collection of the oldest generation stops the event loop while it walks every object the collector tracks; in a
started bot most of them are the modules, discord.py's caches and Pillow's fonts and card tiles, which live as
long as the process. :func:`settle`, called once the bot is started, moves them out of the collector's sight
(:func:`gc.freeze`), so a full collection walks only what the bot made since.
"""

from __future__ import annotations

import gc


def settle() -> None:
    """Collect once, then freeze what survived (once, after the start: frozen objects are never collected)."""
    gc.collect()
    gc.freeze()
