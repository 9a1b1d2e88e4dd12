"""The bundled copy of Discord's OpenAPI spec is the one the workspace provides, when that is at hand."""

import gzip
import json
from pathlib import Path

import pytest

from tests.localdiscord.spec import BUNDLED_SPEC, load_spec

SHARED_SPEC = Path(__file__).resolve().parents[3] / "shared" / "discord-api-spec" / "openapi.json"


def test_the_bundled_spec_loads_and_knows_the_message_routes():
    spec = load_spec(BUNDLED_SPEC)
    assert "/channels/{channel_id}/messages" in spec.document["paths"]


@pytest.mark.skipif(not SHARED_SPEC.exists(), reason="no shared/ checkout beside the repository")
def test_the_bundled_spec_matches_the_shared_copy():
    with gzip.open(BUNDLED_SPEC, "rt", encoding="utf-8") as bundled:
        assert json.load(bundled) == json.loads(SHARED_SPEC.read_text(encoding="utf-8"))
