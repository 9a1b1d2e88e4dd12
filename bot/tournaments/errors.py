"""Typed errors of the tournament logic. Every message is written to be shown to a player as it is.

They all derive from :class:`TournamentError`, itself a :class:`bot.errors.GameError`, so a service that already
shows an engine's errors shows these too. Each one also derives from the engine error of the same meaning
(:class:`~bot.errors.InvalidRules`, :class:`~bot.errors.InvalidState`, :class:`~bot.errors.IllegalAction`,
:class:`~bot.errors.GameOver`). A call that raises changes nothing. Messages are templates marked for the
catalogues (``str(error)`` is the English, ``error.said(say)`` a player's language).
"""

from __future__ import annotations

from bot.errors import GameError, GameOver, IllegalAction, InvalidRules, InvalidState
from bot.i18n import N_


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
        super().__init__(N_("there is no match {match} in this tournament"), match=repr(match_key))
        self.match_key = match_key


class MatchNotReady(IllegalResult):
    """The match exists but its players are not both known yet (they are still playing earlier matches)."""

    def __init__(self, match_key: str) -> None:
        super().__init__(N_("match {match} cannot be played yet: its players are not both known"), match=match_key)
        self.match_key = match_key


class ResultAlreadyRecorded(IllegalResult):
    """The match has a result already (played, drawn, a bye or a forfeit)."""

    def __init__(self, match_key: str) -> None:
        super().__init__(N_("match {match} already has a result"), match=match_key)
        self.match_key = match_key


class PlayerNotInMatch(IllegalResult):
    """The named winner does not play in that match."""

    def __init__(self, match_key: str, player: object) -> None:
        super().__init__(N_("player {player} does not play in match {match}"), player=repr(player), match=match_key)
        self.match_key = match_key
        self.player = player


class DrawNotAllowed(IllegalResult):
    """A draw in an elimination match: someone has to go through."""

    def __init__(self, match_key: str) -> None:
        super().__init__(N_("match {match} is an elimination match and needs a winner, not a draw"), match=match_key)
        self.match_key = match_key


class UnknownPlayer(TournamentError, IllegalAction):
    """The player is not in this tournament."""

    def __init__(self, player: object) -> None:
        super().__init__(N_("player {player} is not in this tournament"), player=repr(player))
        self.player = player


class PlayerAlreadyOut(TournamentError, IllegalAction):
    """The player is already disqualified, or already eliminated from an elimination bracket."""

    def __init__(self, player: int, why: str) -> None:
        template = (N_("player {player} is already out of this tournament (disqualified)") if why == "disqualified"
                    else N_("player {player} is already out of this tournament (eliminated)"))
        super().__init__(template, player=player)
        self.player = player
        self.why = why
