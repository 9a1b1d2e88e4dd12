"""What Discord refuses in an application command: names, size, how many per scope, option order and names.

* a chat-input command's or option's name (and each of its name localizations) must match
  ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`` and be lowercase where the letter has a lowercase form;
* one command counts at most :data:`MAX_COMMAND_CHARACTERS` (:func:`command_characters`);
* at most :data:`MAX_CHAT_INPUT_COMMANDS` chat-input commands per scope (global, or one guild);
* at each level, required options come before optional ones, and option names are unique;
* a global command declares where it can be installed (``integration_types``: 0 a server, 1 a user, only kinds the
  application enables) and used (``contexts``: 0 servers, 1 the DM with the bot, 2 group DMs and other DMs): this
  local Discord refuses a global command that leaves either out (Discord would fill in a default the bot never chose).

Every refusal is a 400 with code 50035 naming the field, as Discord answers; except creating one command
beyond the scope's limit, which Discord answers with its own code 30032.
"""

from __future__ import annotations

import unicodedata

from . import errors

CHAT_INPUT = 1
SUBCOMMAND_TYPES = (1, 2)
MAX_COMMAND_CHARACTERS = 4000
MAX_CHAT_INPUT_COMMANDS = 100
MAX_NAME_LENGTH = 32
INTEGRATION_TYPES = frozenset({0, 1})  # a server's install, a user's
CONTEXTS = frozenset({0, 1, 2})  # a server, the DM with the bot, a group DM (or a DM between users)


def command_characters(command: dict) -> int:
    """The size Discord counts against :data:`MAX_COMMAND_CHARACTERS`: every ``name`` and ``description`` of the
    command, its options, subcommands and groups, and every choice's ``name`` and ``value``.  Where localizations
    are present, the longest of the field's values (the default included) counts."""

    def field(node: dict, key: str) -> int:
        localized = (node.get(f"{key}_localizations") or {}).values()
        return max(len(str(value)) for value in [node.get(key) or "", *localized])

    def size(node: dict) -> int:
        total = field(node, "name") + field(node, "description")
        total += sum(field(choice, "name") + len(str(choice.get("value", ""))) for choice in node.get("choices") or [])
        return total + sum(size(option) for option in node.get("options") or [])

    return size(command)


def is_valid_name(name: str) -> bool:
    """A chat-input command's or option's name as Discord accepts it."""
    return (1 <= len(name) <= MAX_NAME_LENGTH and name == name.lower()
            and all(char in "-_'" or char.isalnum() or _is_devanagari_or_thai(char) for char in name))


def _is_devanagari_or_thai(char: str) -> bool:
    # the combining signs of these scripts are not letters, yet Discord's pattern allows the whole script
    return unicodedata.name(char, "").startswith(("DEVANAGARI ", "THAI "))


def check_command_tree(commands: list[dict], *, enabled_installs: frozenset[int] | None = None) -> None:
    """A bulk overwrite (``PUT .../commands``): every command, and the scope's count of chat-input commands.
    ``enabled_installs``: the kinds of install the application enables, for a global scope (``None``: a guild's)."""
    names = [(command.get("type") or CHAT_INPUT, command["name"]) for command in commands]
    if len(names) != len(set(names)):
        raise errors.form_error([], "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
    chat_input = sum(kind == CHAT_INPUT for kind, _ in names)
    if chat_input > MAX_CHAT_INPUT_COMMANDS:
        raise errors.form_error([], "APPLICATION_COMMANDS_TOO_MANY",
                                f"Must be {MAX_CHAT_INPUT_COMMANDS} or fewer chat input commands in length.")
    for position, command in enumerate(commands):
        check_command(command, [position])
        if enabled_installs is not None:
            check_installs(command, [position], enabled_installs)


def check_installs(command: dict, path: list[str | int], enabled_installs: frozenset[int]) -> None:
    """A global command's ``integration_types`` and ``contexts``: declared, known, and only installs the application
    enables (the Developer Portal's Installation page)."""
    for key, known in (("integration_types", INTEGRATION_TYPES), ("contexts", CONTEXTS)):
        values = command.get(key)
        if not values:
            raise errors.form_error([*path, key], "BASE_TYPE_REQUIRED",
                                    f"This local Discord wants every global command to declare {key}")
        if not set(values) <= known:
            raise errors.form_error([*path, key], "BASE_TYPE_CHOICES", f"Value must be one of {sorted(known)}.")
    refused = set(command["integration_types"]) - enabled_installs
    if refused:
        raise errors.form_error([*path, "integration_types"], "APPLICATION_COMMAND_INVALID_INTEGRATION_TYPE",
                                f"The application is not installable as {sorted(refused)}")


def check_room_for(command: dict, existing: list[dict]) -> None:
    """Creating one command (``POST .../commands``) in a scope that already holds ``existing``."""
    kind = command.get("type") or CHAT_INPUT
    if kind != CHAT_INPUT or any((c["type"], c["name"]) == (kind, command["name"]) for c in existing):
        return
    if sum(c["type"] == CHAT_INPUT for c in existing) >= MAX_CHAT_INPUT_COMMANDS:
        raise errors.ApiError(400, 30032, f"Maximum number of application commands reached "
                                          f"({MAX_CHAT_INPUT_COMMANDS})")


def check_command(command: dict, path: list[str | int] | None = None) -> None:
    """One command; ``path`` prefixes the error's field (a command's index in a bulk overwrite)."""
    path = path or []
    if (command.get("type") or CHAT_INPUT) == CHAT_INPUT:
        _check_names(command, path, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
        _check_options(command.get("options") or [], [*path, "options"])
    if command_characters(command) > MAX_COMMAND_CHARACTERS:
        raise errors.form_error(path, "APPLICATION_COMMAND_TOO_LARGE",
                                f"Command exceeds maximum size ({MAX_COMMAND_CHARACTERS})")


def _check_names(node: dict, path: list[str | int], code: str, message: str) -> None:
    if not is_valid_name(node["name"]):
        raise errors.form_error([*path, "name"], code, message)
    for locale, name in (node.get("name_localizations") or {}).items():
        if not is_valid_name(name):
            raise errors.form_error([*path, "name_localizations", locale], code, message)


def _check_options(options: list[dict], path: list[str | int]) -> None:
    seen: set[str] = set()
    optional_seen = False
    for position, option in enumerate(options):
        where = [*path, position]
        _check_names(option, where, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
        if option["name"] in seen:
            raise errors.form_error([*where, "name"], "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                                    "Option names must be unique")
        seen.add(option["name"])
        if option.get("type") in SUBCOMMAND_TYPES:
            _check_options(option.get("options") or [], [*where, "options"])
        elif option.get("required"):
            if optional_seen:
                raise errors.form_error([*where, "required"], "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                                        "Required options must be placed before non-required options")
        else:
            optional_seen = True
