"""Discord's error answers (status, JSON code, message) and the exceptions the test driver raises."""

from __future__ import annotations


class ApiError(Exception):
    """An error the fake answers the way Discord does: ``{"message": ..., "code": ...}`` with a status."""

    def __init__(self, status: int, code: int, message: str, errors: dict | None = None) -> None:
        super().__init__(f"{status} {message} (code {code})")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict:
        data: dict = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        return data


def unknown_channel() -> ApiError:
    return ApiError(404, 10003, "Unknown Channel")


def unknown_message() -> ApiError:
    return ApiError(404, 10008, "Unknown Message")


def unknown_interaction() -> ApiError:
    return ApiError(404, 10062, "Unknown interaction")


def unknown_webhook() -> ApiError:
    return ApiError(404, 10015, "Unknown Webhook")


def unknown_user() -> ApiError:
    return ApiError(404, 10013, "Unknown User")


def unknown_member() -> ApiError:
    return ApiError(404, 10007, "Unknown Member")


def unknown_guild() -> ApiError:
    return ApiError(404, 10004, "Unknown Guild")


def unknown_application() -> ApiError:
    return ApiError(404, 10002, "Unknown Application")


def unknown_emoji() -> ApiError:
    return ApiError(404, 10014, "Unknown Emoji")


def max_emojis() -> ApiError:
    return ApiError(400, 30008, "Maximum number of emojis reached")


def unknown_command() -> ApiError:
    return ApiError(404, 10063, "Unknown application command")


def already_acknowledged() -> ApiError:
    return ApiError(400, 40060, "Interaction has already been acknowledged.")


def cannot_dm() -> ApiError:
    return ApiError(403, 50007, "Cannot send messages to this user")


def missing_access() -> ApiError:
    return ApiError(403, 50001, "Missing Access")


def missing_permissions() -> ApiError:
    return ApiError(403, 50013, "Missing Permissions")


def cannot_edit_others() -> ApiError:
    return ApiError(403, 50005, "Cannot edit a message authored by another user")


def empty_message() -> ApiError:
    return ApiError(400, 50006, "Cannot send an empty message")


def too_many_followups() -> ApiError:
    return ApiError(400, 40094, "This interaction has hit the maximum number of follow up messages")


def invalid_webhook_token() -> ApiError:
    return ApiError(401, 50027, "Invalid Webhook Token")


def wrong_channel_type() -> ApiError:
    return ApiError(400, 50024, "Cannot execute action on this channel type")


def thread_already_created() -> ApiError:
    return ApiError(400, 160004, "A thread has already been created for this message")


def thread_archived() -> ApiError:
    return ApiError(400, 50083, "Thread is archived")


def unauthorized() -> ApiError:
    return ApiError(401, 0, "401: Unauthorized")


def invalid_form_body(errors: dict) -> ApiError:
    return ApiError(400, 50035, "Invalid Form Body", errors)


def inner_error(code: str, message: str) -> dict:
    """One entry of ``_errors``.

    Discord sends string codes here (``"BASE_TYPE_MAX_LENGTH"``) but its OpenAPI spec types ``Error.code`` as an
    integer; the fake follows the spec (every body it answers is validated) and puts 50035 there.  ``code`` is
    kept for readers of this source only.
    """
    del code
    return {"code": 50035, "message": message}


def form_error(path: list[str | int], code: str, message: str) -> ApiError:
    """A 50035 for one field, e.g. ``form_error(["content"], "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer")``."""
    node: dict = {}
    root = node
    for part in path:
        node = node.setdefault(str(part), {})
    node["_errors"] = [inner_error(code, message)]
    return invalid_form_body(root)


class LocalDiscordError(AssertionError):
    """Base of the driver's own refusals (an act a real Discord client would not let the user do)."""


class CommandNotPermitted(LocalDiscordError):
    """The member lacks the command's ``default_member_permissions``: Discord does not deliver the interaction."""


class UnknownCommand(LocalDiscordError):
    """No synced command (guild or global) has that name, or the subcommand path does not exist."""


class InvalidOptions(LocalDiscordError):
    """The options given to ``env.slash`` do not fit the command's synced options (Discord's client refuses)."""


class ComponentNotFound(LocalDiscordError):
    """No button/select on the message matches, or it is disabled, or the user can't see the message."""


class ModalError(LocalDiscordError):
    """The modal can't be submitted that way (wrong user, unknown field, a required field empty...)."""


class TestProblems(AssertionError):
    """Raised at teardown when the local Discord recorded problems (unknown routes, spec mismatches...)."""

    __test__ = False
