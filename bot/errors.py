"""Typed errors of the rules engines. Every message is written to be shown to a player as it is."""


class GameError(Exception):
    """Base of every error an engine raises on bad input; the game is left unchanged."""


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
