"""The words of the page templates (``bot/web/templates``): listed here, marked, so that ``python -m bot.i18n
extract`` puts them in the catalogues (it reads Python only); a test checks the templates use no others."""

from __future__ import annotations

from bot.i18n import N_

TEMPLATE_WORDS = (
    N_("Accuracy"),
    N_("Accuracy against the best play:"),
    N_("Best order"),
    N_("Champion: {name}"),
    N_("Fights"),
    N_("Fights won:"),
    N_("Flips"),
    N_("Game {number}"),
    N_("Games"),
    N_("Leaderboard"),
    N_("Next"),
    N_("Nobody has played yet."),
    N_("Order played"),
    N_("Player"),
    N_("Points"),
    N_("Previous"),
    N_("Rating"),
    N_("Recent matches"),
    N_("Seasons"),
    N_("Skip to the page"),
    N_("Stack"),
    N_("Standings"),
    N_("Steps"),
    N_("The accuracy is being worked out: look again in a minute."),
    N_("The bracket is drawn when the tournament starts."),
    N_("This match is not over yet: its review opens when it ends."),
    N_("W-L-D"),
    N_("a tie"),
    N_("costliest"),
    N_("costliest engagement"),
    N_("discarded"),
    N_("kept"),
    N_("{name} goes through"),
    N_("{name} wins the fight"),
    N_("{name} wins the flip"),
)
