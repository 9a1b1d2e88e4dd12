"""The value models the bot ships (``data/ai/airwar-values.json``, made by ``python -m bot.ai.fit``)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from bot.ai.airwar import MATERIAL, ValueModel

VALUES_PATH = Path(__file__).resolve().parents[2] / "data" / "ai" / "airwar-values.json"


def model_key(deck: str, aces: str, stack: int) -> str:
    return f"{deck}/{aces}/{stack}"


@cache
def _stored() -> Mapping[str, Any]:
    return json.loads(VALUES_PATH.read_text()) if VALUES_PATH.exists() else {}


def value_model(rules: Mapping[str, Any]) -> ValueModel:
    """The fitted model for the rules' deck, aces and stack size; plain material when none was fitted."""
    fitted = _stored().get(model_key(rules["deck"], rules["aces"], int(rules["stack"])))
    if fitted is None:
        return MATERIAL
    return ValueModel(scale=1.0, weights={int(level): weight for level, weight in fitted["weights"].items()},
                      default_weight=0.0)
