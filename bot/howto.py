"""How a newcomer starts and plays a game on Discord: the paragraphs each game's plugin declares
(:attr:`~bot.registry.GamePlugin.how_to`), filled in the reader's language with the names their client shows.

A paragraph is a template marked with :func:`~bot.i18n.N_`; its placeholders name what it points at:

* ``{challenge}``, ``{lobby}``, ``{status}`` ... (any other name): that subcommand of the game's own command group,
  ``/airwar challenge`` (``/luftkrieg herausfordern`` in German);
* ``{opt_level}``: an option's name, as the slash command shows it in the reader's client;
* ``{cmd_stats}``: a top-level command (``/stats``);
* ``{variants}``: the game's variants, from the registry (never a hand-written list);
* a button's name (``{accept}``, ``{lock_in}``, ``{play_card}``): the button's label as the game shows it, from
  the same catalogue entry (:data:`LABELS`).

Every rules text starts with these paragraphs (:mod:`bot.rules_text`), and ``/help`` shows them per game."""

from __future__ import annotations

import string
from collections.abc import Mapping

from bot.i18n import COMMAND_NAME, N_, Phrase, Texts
from bot.registry import game_class, registry
from bot.render.common import ENGLISH, join_words
from bot.render.stats import command

#: a game with no paragraphs of its own: how every challenge starts
DEFAULT_HOW_TO = (N_("**Start:** {challenge} and pick your opponent, who presses {accept} on the challenge."),)

#: the cards an example label shows (a button that names a card: "Play 7♥")
EXAMPLE_CARDS = {"card": "7♥", "top": "7♣", "won": "K♦"}

#: a button by its placeholder: its label's catalogue entry and what fills the label's own placeholders
LABELS: Mapping[str, tuple[str, Mapping[str, str]]] = {
    "accept": (N_("Accept"), {}),
    "join": (N_("Join"), {}),
    "start": (N_("Start"), {}),
    "deal": (N_("Deal"), {}),
    "arrange": (N_("Arrange"), {}),
    "choose": (N_("Choose"), {}),
    "bet": (N_("Bet"), {}),
    "undo": (N_("Undo"), {}),
    "reset": (N_("Reset"), {}),
    "random": (N_("Random"), {}),
    "as_drawn": (N_("As drawn"), {}),
    "as_dealt": (N_("As dealt"), {}),
    "lock_in": (N_("Lock in"), {}),
    "confirm": (N_("Confirm"), {}),
    "flip": (N_("Flip"), {}),
    "sit_out": (N_("Sit out"), {}),
    "play_card": (N_("Play {card}"), {"card": EXAMPLE_CARDS["card"]}),
    "steal_card": (N_("Steal the {card} pile"), {"card": EXAMPLE_CARDS["top"]}),
    "top_card": (N_("{card} on top"), {"card": EXAMPLE_CARDS["won"]}),
    "bet_amount": (N_("Bet {amount}"), {"amount": "10"}),
    "tie_amount": (N_("{amount} + tie {tie}"), {"amount": "10", "tie": "10"}),
    "surrender": (N_("Surrender (−{loss})"), {"loss": "5"}),
    "war_raise": (N_("War (raise {bet})"), {"bet": "10"}),
}
#: buttons whose label starts with a mark (the same in every language), or is one
MARKS = {"equal": "=", "hint": "💡", "next_war": "⏭️", "auto": "⏩", "instant": "⚡"}
#: the words beside a mark (War's vote buttons: "⏩ Auto")
MARK_WORDS = {"hint": N_("Hint"), "next_war": N_("Next war"), "auto": N_("Auto"), "instant": N_("Instant")}


def option_name(say: Texts, option: str) -> str:
    """An option's name as the reader's client shows it (``aces``: ``тузы`` in Russian)."""
    return say.pgettext(COMMAND_NAME, option)


def variants_line(game: str, say: Texts = ENGLISH, *, either: bool = False) -> str:
    """The game and all its variants, by their titles in the registry's order: "War, Drunkard, Tod und Leben and
    Double War" (``either``: "... or Double War")."""
    titles = [say(game_class(name).title) for name in registry().family(game)]
    if not either or len(titles) <= 1:
        return join_words(titles, say)
    return say(N_("{items} or {last}"), items=", ".join(titles[:-1]), last=titles[-1])


class FamilyTitles(Phrase):
    """:func:`variants_line` as a param of a message said later (an error's), in the language it is said in."""

    def __init__(self, game: str, *, either: bool = True) -> None:
        super().__init__("", game=game, either=either)

    def said(self, say: Texts) -> str:
        return variants_line(self.params["game"], say, either=self.params["either"])


def _filled(name: str, family: str, say: Texts) -> str:
    if name in LABELS:
        label, params = LABELS[name]
        return f"**{say(label, **params)}**"
    if name in MARKS:
        words = MARK_WORDS.get(name)
        return f"**{MARKS[name]} {say(words)}**" if words else f"**{MARKS[name]}**"
    if name == "variants":
        return variants_line(family, say)
    if name.startswith("opt_"):
        return f"`{option_name(say, name.removeprefix('opt_'))}`"
    if name.startswith("cmd_"):
        return f"`{command(say, name.removeprefix('cmd_'))}`"
    return f"`{command(say, f'{family} {name}')}`"


def fill(template: str, family: str, say: Texts = ENGLISH) -> str:
    """``template`` in ``say``'s language, every placeholder filled (see the module docstring)."""
    text = say(template)
    names = {name for _, name, _, _ in string.Formatter().parse(text) if name}
    return text.format(**{name: _filled(name, family, say) for name in names})


def how_to(game: str, say: Texts = ENGLISH) -> str:
    """How to start and play ``game`` (a game or a variant: its game's paragraphs), in ``say``'s language."""
    plugin = registry().entry(game).plugin
    return "\n".join(fill(paragraph, plugin.name, say) for paragraph in plugin.how_to or DEFAULT_HOW_TO)


def start_command(game: str, say: Texts = ENGLISH) -> str:
    """The command that starts ``game``, as the reader's client names it: the first command its first paragraph
    names (``/airwar challenge``, ``/casinowar table``)."""
    plugin = registry().entry(game).plugin
    first = say((plugin.how_to or DEFAULT_HOW_TO)[0])
    names = [name for _, name, _, _ in string.Formatter().parse(first) if name]
    command_names = [name for name in names if name not in LABELS and name not in MARKS and name != "variants"
                     and not name.startswith(("opt_", "cmd_"))]
    return _filled(command_names[0], plugin.name, say) if command_names else ""
