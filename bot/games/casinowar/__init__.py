"""Casino War: one to four players against the house, for the server's chips (not rated, not in tournaments)."""

from bot.games.casinowar.engine import CasinoWar
from bot.games.casinowar.flow import CasinoWarFlow
from bot.i18n import N_
from bot.registry import GamePlugin

#: how a newcomer starts and plays it (:mod:`bot.howto` fills the placeholders in the reader's language)
HOW_TO = (
    N_("**Start:** {table} opens a table for 1–4 players; the others press {join}, then the host presses {deal}."),
    N_("**Play:** each hand, {bet} on the board opens your private panel (or your DM shows it): {bet_amount} bets, "
       "{tie_amount} adds the tie bet, {sit_out} skips the hand. On a tie with the house: {surrender} or "
       "{war_raise}."),
    N_("{status} shows your table (only to you), {chips} your chips; {leave} leaves the table."),
)

PLUGIN = GamePlugin(how_to=HOW_TO, engine=CasinoWar, flow=CasinoWarFlow, order=40)

__all__ = ["PLUGIN"]
