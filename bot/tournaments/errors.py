"""Typed errors of the tournament logic. Every message is written to be shown to a player as it is.

They all derive from :class:`TournamentError`, itself a :class:`bot.errors.GameError`, so a service that already
shows an engine's errors shows these too. Each one also derives from the engine error of the same meaning
(:class:`~bot.errors.InvalidRules`, :class:`~bot.errors.InvalidState`, :class:`~bot.errors.IllegalAction`,
:class:`~bot.errors.GameOver`). A call that raises changes nothing.
"""

from __future__ import annotations

from bot.errors import GameError, GameOver, IllegalAction, InvalidRules, InvalidState


class TournamentError(GameError):
    """Base of every refusal of the tournament logic."""


class InvalidTournament(TournamentError, InvalidRules):
    """A tournament that cannot be created: unknown format, too few or repeated players, bad ratings or options."""


class DamagedTournament(TournamentError, InvalidState):
    """A saved tournament (JSON) that cannot be a real state."""


class TournamentOver(TournamentError, GameOver):
    """The tournament has ended; no result or disqualification can be recorded."""


class IllegalResult(TournamentError, IllegalAction):
    """Base of the refusals of :meth:`~bot.tournaments.Tournament.record_result`."""


class UnknownMatch(IllegalResult):
    """No match has that key (yet)."""

    def __init__(self, match_key: object) -> None:
        super().__init__(f"there is no match {match_key!r} in this tournament")
        self.match_key = match_key


class MatchNotReady(IllegalResult):
    """The match exists but its players are not both known yet (they are still playing earlier matches)."""

    def __init__(self, match_key: str) -> None:
        super().__init__(f"match {match_key} cannot be played yet: its players are not both known")
        self.match_key = match_key


class ResultAlreadyRecorded(IllegalResult):
    """The match has a result already (played, drawn, a bye or a forfeit)."""

    def __init__(self, match_key: str) -> None:
        super().__init__(f"match {match_key} already has a result")
        self.match_key = match_key


class PlayerNotInMatch(IllegalResult):
    """The named winner does not play in that match."""

    def __init__(self, match_key: str, player: object) -> None:
        super().__init__(f"player {player!r} does not play in match {match_key}")
        self.match_key = match_key
        self.player = player


class DrawNotAllowed(IllegalResult):
    """A draw in an elimination match: someone has to go through."""

    def __init__(self, match_key: str) -> None:
        super().__init__(f"match {match_key} is an elimination match and needs a winner, not a draw")
        self.match_key = match_key


class UnknownPlayer(TournamentError, IllegalAction):
    """The player is not in this tournament."""

    def __init__(self, player: object) -> None:
        super().__init__(f"player {player!r} is not in this tournament")
        self.player = player


class PlayerAlreadyOut(TournamentError, IllegalAction):
    """The player is already disqualified, or already eliminated from an elimination bracket."""

    def __init__(self, player: int, why: str) -> None:
        super().__init__(f"player {player} is already out of this tournament ({why})")
        self.player = player
        self.why = why
