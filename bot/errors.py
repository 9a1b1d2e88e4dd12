"""Typed errors of the rules engines. Every message is written to be shown to a player as it is (``str(error)``,
English) or in the player's language (:meth:`GameError.said`)."""

from __future__ import annotations

from typing import Any, Protocol


class _Words(Protocol):
    language: str

    def __call__(self, message: str, /, **params: Any) -> str: ...


class GameError(Exception):
    """Base of every error an engine raises on bad input; the game is left unchanged.

    Raised as ``IllegalAction(N_("{card} is not in your stack."), card=label)``: the message is a template marked
    for the catalogues, filled with ``params`` (``str(error)`` in English; :meth:`said` in a player's language). A
    param that has a ``said`` of its own (a :class:`bot.i18n.Phrase`) is put in the same language."""

    def __init__(self, message: Any = "", /, **params: Any) -> None:
        if hasattr(message, "template") and hasattr(message, "params"):  # a Phrase
            message, params = message.template, {**message.params, **params}
        super().__init__(message.format(**{key: str(value) for key, value in params.items()}) if params
                         else message)
        self.template = message
        self.params = params

    def said(self, say: _Words) -> str:
        """The message in ``say``'s language (English where the catalogue lacks it)."""
        params = {key: value.said(say) if hasattr(value, "said") else value for key, value in self.params.items()}
        return say(self.template, **params) if params else say(self.template)


class InvalidCard(GameError):
    """Text that is not a card in the project's notation, or a pack that does not exist."""


class InvalidRules(GameError):
    """An unknown rule key or a value a rule does not take."""


class InvalidState(GameError):
    """A saved game (JSON) or explicit starting piles that cannot be a real position."""


class IllegalAction(GameError):
    """An action the rules do not allow now."""


class NotYourTurn(IllegalAction):
    """The seat has nothing to decide at the moment (or has decided already)."""


class GameOver(IllegalAction):
    """The game has ended; nothing more can be played."""
