"""Logging, set up once for the whole process."""

from __future__ import annotations

import logging
import sys


def setup_logging(level: str = "INFO") -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-8s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # discord.py logs every gateway session at INFO; keep that out unless debugging.
    logging.getLogger("discord").setLevel("WARNING" if level == "INFO" else level)
