"""The match kernel: one for every game.

* :mod:`bot.match.kernel` -- :class:`~bot.match.kernel.MatchKernel`, a match's whole life for a game's flow;
* :mod:`bot.match.flow` -- :class:`~bot.match.flow.Flow`, what a game plugs into the kernel;
* :mod:`bot.match.timers` -- deadlines as asyncio tasks;
* :mod:`bot.match.ratings` -- openskill ratings;
* :mod:`bot.match.errors` -- the typed refusals, messages ready for users.
"""
