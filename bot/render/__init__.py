"""What players see: texts and card images built from engine views and events (no Discord, no database).

* :mod:`bot.render.common` -- the :class:`~bot.render.common.Surface` and :class:`~bot.render.common.Picture`
  types every renderer returns, Discord's size limits, timestamps, names and card words, the two-player challenge
  and the ratings line;
* :mod:`bot.render.fonts` -- the bundled font stack every picture's text is drawn in (any script, emoji);
* :mod:`bot.render.cards` -- PNG pictures of rows of cards (Pillow);
* :mod:`bot.render.plots` -- line charts (matplotlib); :mod:`bot.render.bracket` -- tournament pictures and texts;
* :mod:`bot.render.card_emoji` -- the card emoji set (the app's own emoji, a PNG per card);
* :mod:`bot.games.airwar.render` -- every Air War text (board, flips, summary, result, DM panel, status,
  leaderboard, challenge messages): the live table is text, its cards the app's emoji.

Everything here is a pure function: the same input gives the same text and the same PNG bytes.
"""
