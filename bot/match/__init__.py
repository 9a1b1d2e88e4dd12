"""The match kernel: one for every game.

* :mod:`bot.match.kernel` -- :class:`~bot.match.kernel.MatchKernel`, a match's life for a game's flow, from the deal
  to the result;
* :mod:`bot.match.challenges` -- challenges and lobbies, before the deal (the kernel is built on them);
* :mod:`bot.match.work` -- one transaction per change of a match, the matches in memory, several processes;
* :mod:`bot.match.outbox` -- the events the Discord side shows and the ids of the messages that show them;
* :mod:`bot.match.ending` -- a finished match's result, results rows and ratings;
* :mod:`bot.match.export` -- the match file;
* :mod:`bot.match.flow` -- :class:`~bot.match.flow.Flow`, what a game plugs into the kernel;
* :mod:`bot.match.timers` -- deadlines as asyncio tasks;
* :mod:`bot.match.ratings` -- openskill ratings;
* :mod:`bot.match.errors` -- the typed refusals, messages ready for users.
"""
