"""Typed errors of the match service. Every message is written to be shown to the user as it is (ephemeral).

Mentions are written as ``<@id>`` (Discord renders them); the ids are also attributes, for a cog that wants its
own wording. An engine's :class:`bot.errors.GameError` (bad rules, an illegal order) passes through the service
unchanged; catch :data:`USER_ERRORS` to show either kind. A call that raises changes nothing.
"""

from __future__ import annotations

from typing import Any

from bot.errors import GameError
from bot.i18n import DEFAULT_LANGUAGE, N_, Phrase, Texts


class ServiceError(Exception):
    """Base of the match service's refusals. Raised as ``LobbyError(N_("Only the host, {host}, can do that."),
    host=mention)``: the message is a template marked for the catalogues, filled with ``params``; ``str(error)`` is
    the English, :meth:`said` the same in the user's language. A ``game`` param is a game's title (translated too),
    a :class:`~bot.i18n.Phrase` param is said in the same language. (``template=`` gives the template apart from an
    English message written otherwise.)"""

    def __init__(self, message: str | Phrase = "", /, *, template: str | None = None, **params: Any) -> None:
        if isinstance(message, Phrase):
            message, params = message.template, {**message.params, **params}
        if template is None and params:
            template = message
            message = message.format(**{key: str(value) for key, value in params.items()})
        super().__init__(message)
        self.message = message
        self.template = template
        self.params = params

    def said(self, say: Texts) -> str:
        """The message in ``say``'s language (in English where it has no translation)."""
        if say.language == DEFAULT_LANGUAGE:
            return self.message
        if self.template is None:
            return say(self.message)
        if not say.has(self.template):
            return self.message
        params = {key: value.said(say) if isinstance(value, Phrase) else say(value) if key == "game" else value
                  for key, value in self.params.items()}
        return say(self.template, **params)


class MatchNotFound(ServiceError):
    def __init__(self, match_id: int) -> None:
        super().__init__("That match doesn't exist.", template=N_("That match doesn't exist."))
        self.match_id = match_id


class NotYourMatch(ServiceError):
    """The user has no seat in the match (a button pressed by someone else)."""

    def __init__(self) -> None:
        super().__init__("This isn't your match.", template=N_("This isn't your match."))


class WrongPlayer(ServiceError):
    """The user is in the match but this button is the other player's (accept/decline vs withdraw)."""

    def __init__(self, message: str, allowed_user_id: int, /, **params: Any) -> None:
        super().__init__(message, **params)
        self.allowed_user_id = allowed_user_id


class CannotChallengeSelf(ServiceError):
    def __init__(self) -> None:
        super().__init__("You can't challenge yourself.", template=N_("You can't challenge yourself."))


class AlreadyInMatch(ServiceError):
    """The user already has an open (challenge or active) match of this game, in any server."""

    def __init__(self, user_id: int, game_title: str, *, you: bool = False, match_id: int | None = None) -> None:
        if you:
            message = f"You're already in {_a_match(game_title)}; finish it (or withdraw your challenge) first."
            template = N_("You're already in a match of {game}; finish it (or withdraw your challenge) first.")
        else:
            message = f"<@{user_id}> is already in {_a_match(game_title)}."
            template = N_("{player} is already in a match of {game}.")
        super().__init__(message, template=template, game=game_title, player=f"<@{user_id}>")
        self.user_id = user_id
        self.match_id = match_id


class ChallengeClosed(ServiceError):
    """Accept / decline / withdraw on a challenge that was accepted, declined, withdrawn or has expired."""

    def __init__(self, reason: str | None) -> None:
        why = {
            "accepted": "it was already accepted",
            "declined": "it was declined",
            "withdrawn": "it was withdrawn",
            "expired": "it has expired",
        }.get(reason or "", "it has ended")
        templates = {
            "accepted": N_("This challenge is no longer open: it was already accepted."),
            "declined": N_("This challenge is no longer open: it was declined."),
            "withdrawn": N_("This challenge is no longer open: it was withdrawn."),
            "expired": N_("This challenge is no longer open: it has expired."),
        }
        super().__init__(f"This challenge is no longer open: {why}.",
                         template=templates.get(reason or "", N_("This challenge is no longer open: it has ended.")))
        self.reason = reason


class MatchChanged(ServiceError):
    """Another bot process changed the match at the same moment (a database shared by several): nothing changed."""

    def __init__(self) -> None:
        super().__init__(N_("This match changed at the same moment; nothing changed. Try again."))


class MatchNotActive(ServiceError):
    """A play button or command on a match that is not being played (still a challenge, or over)."""

    def __init__(self, status: str) -> None:
        super().__init__(N_("This match hasn't started yet.") if status == "challenge" else N_("This match is over."))
        self.status = status


class NotInMatch(ServiceError):
    """``/airwar forfeit`` or ``/airwar status`` by a user without a match."""

    def __init__(self, game_title: str) -> None:
        super().__init__(f"You're not in {_a_match(game_title)}.", template=N_("You're not in a match of {game}."),
                         game=game_title)


class StalePanel(ServiceError):
    """A button of an earlier engagement's panel."""

    def __init__(self, panel_engagement: int, current_engagement: int) -> None:
        super().__init__(N_("This panel is for engagement {number}, which is over; use the panel for engagement "
                            "{current}."), number=panel_engagement, current=current_engagement)
        self.panel_engagement = panel_engagement
        self.current_engagement = current_engagement


class StillShowing(ServiceError):
    """The match is ahead of what has been shown: the flips of an engagement are not all public yet, so nothing of
    what follows them (the next stacks, what the flips taught about the decks) may be shown to anyone."""

    def __init__(self, engagement: int, channel_id: int) -> None:
        super().__init__(N_("The flips of engagement {number} are being shown in {channel} right now; ask again in a "
                            "moment."), number=engagement, channel=f"<#{channel_id}>")
        self.engagement = engagement
        self.channel_id = channel_id


class NotStartedYet(ServiceError):
    """A forfeit while the user's match is still a challenge or a lobby: there is nothing to give up yet (its
    buttons close it)."""


class ChallengeNotStarted(NotStartedYet):
    """A forfeit while the user's match is still a challenge: withdraw or decline it instead."""

    def __init__(self, game_title: str, other_id: int, *, challenger: bool) -> None:
        if challenger:
            template = N_("Your {game} challenge with {player} hasn't started yet: withdraw it with the button on the "
                          "challenge message instead.")
        else:
            template = N_("Your {game} challenge with {player} hasn't started yet: decline it with the button on the "
                          "challenge message instead.")
        super().__init__(template, game=game_title, player=f"<@{other_id}>")
        self.other_id = other_id
        self.challenger = challenger


class AlreadyOut(ServiceError):
    """A forfeit, a choice or a vote by a player who is out of the game already (no cards left, gave up, missed
    two deadlines in a row): the others play on without them."""

    def __init__(self, what: str | Phrase) -> None:
        super().__init__(N_("You're out of this game already, so {what}; the others play on without you."), what=what)


class AlreadyLocked(ServiceError):
    """The seat's order for this engagement is locked in already (a second confirm, a tap after confirming)."""

    def __init__(self, engagement: int) -> None:
        super().__init__(N_("Already done: your battle order for engagement {number} is locked in."), number=engagement)
        self.engagement = engagement


class OrderIncomplete(ServiceError):
    def __init__(self, placed: int, size: int) -> None:
        super().__init__(N_("Place all {size} cards before you confirm ({placed} placed so far)."), size=size,
                         placed=placed)
        self.placed = placed
        self.size = size


class DraftError(ServiceError):
    """A tap on a card that is not in the stack or is placed already."""


class InvalidSetting(ServiceError):
    """A setting (or a challenge's timer option) out of its range."""


class UnsupportedGame(ServiceError):
    def __init__(self, game: str, supported: tuple[str, ...]) -> None:
        super().__init__(N_("Matches of {game} can't be played here yet; try {games}."), game=repr(game),
                         games=", ".join(supported))
        self.game = game


class LobbyError(ServiceError):
    """A lobby button or command that cannot be done now: the lobby is full, you're in it already (or not), only
    the host may do it, too few players to start, the lobby is not open any more."""


class NotYourTurn(ServiceError):
    """A Flip that cannot count: you flipped this round already, you're out of the game, or the game is not played
    by pressing Flip right now."""


class StaleRound(ServiceError):
    """A Flip button of a round that is over."""

    def __init__(self, button_round: int, current_round: int) -> None:
        super().__init__(N_("That Flip was for round {number}; round {current} is being played now: use the Flip "
                            "button on the game's message."), number=button_round, current=current_round)
        self.button_round = button_round
        self.current_round = current_round


class VoteError(ServiceError):
    """A vote for a pace that is not faster than the game's, or by a player who is out of the game."""


#: What a cog shows the user as an ephemeral message (the service's refusals and the engines' errors).
USER_ERRORS: tuple[type[Exception], ...] = (ServiceError, GameError)


def _a_match(game_title: str) -> str:
    """``an Air War match``, ``a War match`` (the English of the refusals)."""
    return f"{'an' if game_title[:1].lower() in 'aeiou' else 'a'} {game_title} match"
