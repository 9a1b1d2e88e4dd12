"""Tournaments for the War family: single and double elimination, round robin and Swiss.

Pure logic: no Discord, no database. :class:`Tournament` is the state machine (see :mod:`.tournament`); the
seeding, bracket, schedule, pairing and standings rules live in their own modules and are usable alone.
"""

from bot.tournaments.errors import (
    DamagedTournament,
    DrawNotAllowed,
    IllegalResult,
    InvalidTournament,
    MatchNotReady,
    PlayerAlreadyOut,
    PlayerNotInMatch,
    ResultAlreadyRecorded,
    TournamentError,
    TournamentOver,
    UnknownMatch,
    UnknownPlayer,
)
from bot.tournaments.model import Match, MatchOutcome, Round, Source, Takes
from bot.tournaments.seeding import bracket_positions, bracket_size, first_round, seed_order
from bot.tournaments.standings import StandingRow
from bot.tournaments.tournament import Format, Tournament

__all__ = [
    "DamagedTournament",
    "DrawNotAllowed",
    "Format",
    "IllegalResult",
    "InvalidTournament",
    "Match",
    "MatchNotReady",
    "MatchOutcome",
    "PlayerAlreadyOut",
    "PlayerNotInMatch",
    "ResultAlreadyRecorded",
    "Round",
    "Source",
    "StandingRow",
    "Takes",
    "Tournament",
    "TournamentError",
    "TournamentOver",
    "UnknownMatch",
    "UnknownPlayer",
    "bracket_positions",
    "bracket_size",
    "first_round",
    "seed_order",
]
