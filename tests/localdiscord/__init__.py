"""A local Discord for tests: Discord's REST API v10 and gateway on 127.0.0.1, validated against Discord's spec.

See :mod:`localdiscord.driver` for the test-facing API (:class:`Env`), ``tests/conftest.py`` for the fixtures.
"""

from .command_limits import command_characters
from .driver import Env, ErrorLogGuard, File
from .errors import (
    ApiError,
    CommandNotPermitted,
    ComponentNotFound,
    InvalidOptions,
    LocalDiscordError,
    ModalError,
    TestProblems,
    UnknownCommand,
)
from .server import LocalDiscord, Problem
from .state import Attachment, Channel, Clock, Interaction, Message, ResponseRecord, Role, User

__all__ = [
    "ApiError",
    "Attachment",
    "Channel",
    "Clock",
    "CommandNotPermitted",
    "ComponentNotFound",
    "Env",
    "ErrorLogGuard",
    "File",
    "Interaction",
    "InvalidOptions",
    "LocalDiscord",
    "LocalDiscordError",
    "Message",
    "ModalError",
    "Problem",
    "ResponseRecord",
    "Role",
    "TestProblems",
    "UnknownCommand",
    "User",
    "command_characters",
]
