"""What Discord enforces of an application's own emoji (``/applications/{id}/emojis``): a name of 2-32 letters,
digits or underscores, unique in the application; an image given as a data URI (PNG, JPEG, GIF or WebP) of at
most 256 KiB; at most 2,000 emoji. And where an emoji is used: a component's emoji with an ``id`` must be one the
app can use (here: one of its own), or Discord refuses the message (``Invalid emoji``).
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

from . import errors

MAX_APPLICATION_EMOJIS = 2000
MAX_IMAGE_BYTES = 256 * 1024
NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
DATA_URI = re.compile(r"data:image/(png|jpeg|gif|webp);base64,(.+)", re.DOTALL)
MAGIC = {"png": b"\x89PNG\r\n\x1a\n", "jpeg": b"\xff\xd8\xff", "gif": b"GIF8", "webp": b"RIFF"}
#: ``<:name:id>`` or ``<a:name:id>`` in a message's text
MARKUP = re.compile(r"<(a?):([A-Za-z0-9_]{2,32}):(\d{1,20})>")


@dataclass
class AppEmoji:
    id: int
    name: str
    image: bytes
    animated: bool

    def payload(self, owner) -> dict:
        return {"id": str(self.id), "name": self.name, "roles": [], "user": owner.payload(),
                "require_colons": True, "managed": False, "animated": self.animated, "available": True}


def check_name(name: str) -> None:
    if not NAME.fullmatch(name):
        raise errors.form_error(["name"], "STRING_TYPE_REGEX",
                                "String value did not match validation regex.")


def decode_image(data_uri: str) -> tuple[bytes, bool]:
    """The image of a create request, and whether it is animated (a GIF); 50035 when it is not a valid image."""
    found = DATA_URI.fullmatch(data_uri or "")
    try:
        image = base64.b64decode(found.group(2), validate=True) if found else b""
    except binascii.Error:
        image = b""
    if not found or not image.startswith(MAGIC[found.group(1)]):
        raise errors.form_error(["image"], "IMAGE_INVALID", "Invalid image data")
    if len(image) > MAX_IMAGE_BYTES:
        raise errors.form_error(["image"], "BINARY_TYPE_MAX_SIZE", "File cannot be larger than 256.0 kb.")
    return image, found.group(1) == "gif"


def check_component_emoji(components: list[dict], known: dict[int, AppEmoji], path: list[str | int]) -> None:
    """Every custom emoji (one with an ``id``) of the components is one of the app's, by id (and name, when
    given); else 50035 ``Invalid emoji`` as Discord answers."""
    for index, component in enumerate(components or []):
        emoji = component.get("emoji")
        if isinstance(emoji, dict) and emoji.get("id") is not None:
            found = known.get(int(emoji["id"]))
            if found is None or (emoji.get("name") and emoji["name"] != found.name):
                raise errors.form_error([*path, index, "emoji", "id"], "BUTTON_COMPONENT_INVALID_EMOJI",
                                        "Invalid emoji")
        for key in ("components", "options"):
            if component.get(key):
                check_component_emoji(component[key], known, [*path, index, key])
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            check_component_emoji([accessory], known, [*path, index, "accessory"])
