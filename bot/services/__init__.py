"""Services between the Discord cogs and storage: no Discord here, no SQL here.

* :mod:`bot.services.matches` -- :class:`MatchService`, the whole life of a match;
* :mod:`bot.services.timers` -- :class:`Timers`, deadlines as asyncio tasks;
* :mod:`bot.services.ratings` -- openskill ratings;
* :mod:`bot.match.errors` -- the typed refusals, messages ready for users.
"""

from bot.match.errors import USER_ERRORS, ServiceError
from bot.services.matches import MatchService, MatchStatus, MatchUpdate
from bot.services.timers import Timers

__all__ = ["USER_ERRORS", "MatchService", "MatchStatus", "MatchUpdate", "ServiceError", "Timers"]
