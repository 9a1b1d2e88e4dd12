"""What War players see in Discord: the challenge and lobby messages, the live table, notes and the result.

Everything comes from the engine's spectator view and events (War has no hidden cards but the face-down ones of a
war, and those are only ever counted) and from the match's options (pace, votes). Names are given by the caller:
mentions for text, plain names (``image_names``) for the picture and its alt text. Every text is made in ``say``'s
language (English by default): the server's for public messages, the player's own for private answers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.cards import card_label
from bot.i18n import N_, Texts
from bot.match.ratings import places_by_count
from bot.registry import game_class
from bot.render.common import (
    ALT_TEXT_LIMIT,
    EMBED_TITLE_LIMIT,
    ENGLISH,
    Button,
    ButtonSurface,
    Picture,
    Surface,
    challenge_surface,
    clamp,
    clamp_line,
    join_words,
    name,
    plain_names,
    ratings_line,
    timestamp,
    win_title,
)
from bot.render.plots import line_chart

if TYPE_CHECKING:
    from bot.render.common import Event, View, When

#: each pace in words (looked up in the reader's language: ``say(PACE_WORDS[pace])``)
PACE_WORDS = {
    "flip": N_("flip (every player presses Flip each round, or all go to the next war)"),
    "auto": N_("auto (the bot plays: plain rounds in runs, a pause on every war)"),
    "instant": N_("instant (played out at once)"),
}
PACE_NAMES = {"flip": N_("Flip"), "next_war": N_("Next war"), "auto": N_("Auto"), "instant": N_("Instant")}
#: the paces players can vote for, slowest first, and their buttons' marks
VOTE_PACES = ("next_war", "auto", "instant")
VOTE_MARKS = {"next_war": "⏭️", "auto": "⏩", "instant": "⚡"}
#: why the winner won, by the outcome's reason (``{player}``: the winner)
REASONS = {
    "all_cards": N_("**{player}** won every card."),
    "last_standing": N_("**{player}** is the last player with cards."),
    "short_war": N_("**{player}** won: the last opponent could not fight a war."),
    "target": N_("**{player}** reached the target."),
}
#: why a player went out (``{player}``), by the ``out`` event's reason
OUT_REASONS = {
    "no_cards": N_("🚫 **{player}** is out: has no cards left."),
    "short_war": N_("🚫 **{player}** is out: could not fight the war."),
    "timeout": N_("🚫 **{player}** is out: missed two rounds in a row."),
    "forfeit": N_("🚫 **{player}** is out: gave up."),
}
#: the ``return_order`` rule's values in words
RETURN_ORDERS = {
    "random": N_("won cards go under the pile in random order"),
    "winner_first": N_("won cards go under the pile, the winner's first"),
    "loser_first": N_("won cards go under the pile, the loser's first"),
    "played": N_("won cards go under the pile as they were laid"),
    "reversed": N_("won cards go under the pile in reverse order"),
}


#: the family's name: War and its variants (the registry's) are its games
TITLE = "War"


def title_of(game: str) -> str:
    """The game's title in English (``say(title_of(game))`` in a language)."""
    return game_class(game).title


def card(text: str | None) -> str:
    """A card for text: ``K♥``, ``10♠``, ``🃏`` (joker); ``?`` for none."""
    return "?" if text is None else card_label(text)


def rule_words(key: str, value: Any, say: Texts = ENGLISH) -> str:
    """One rule's setting in words: ``3 cards face down in a war``, ``aces low``."""
    _ = say
    if key == "face_down":
        if value == "razboi":
            return _("razboi: a war lays as many cards face down as the tied card's value")
        if value == 0:
            return _("no cards face down in a war")
        return _.ngettext("{count} card face down in a war", "{count} cards face down in a war", int(value))
    if key == "short":
        return _("running out in a war loses") if value == "lose" else _("running out in a war: play what you have")
    if key == "war_joins":
        return _("everyone fights every war") if value == "all" else _("only the tied players fight a war")
    if key == "return_order" and value in RETURN_ORDERS:
        return _(RETURN_ORDERS[value])
    if key == "capture_pile":
        return _("won cards go to a capture pile") if value else _("won cards go straight under the pile")
    if key == "jokers":
        return _.ngettext("{count} joker per deck", "{count} jokers per deck", int(value)) if value else _("no jokers")
    if key == "joker_each":
        return _("one joker in each player's pile") if value else _("jokers shuffled in anywhere")
    if key == "aces":
        return _("aces low") if value == "low" else _("aces high")
    if key == "decks":
        return _.ngettext("{count} deck", "{count} decks", int(value))
    if key == "pack":
        return _.ngettext("{count}-card pack", "{count}-card pack", int(value))
    if key == "six_beats_ace":
        return _("a 6 beats an ace") if value else _("a 6 does not beat an ace")
    if key == "target":
        if value is None:
            return _("play for all the cards")
        return _.ngettext("first to {count} card wins", "first to {count} cards wins", int(value))
    if key == "max_rounds":
        return _.ngettext("at most {count} round", "at most {count} rounds", int(value))
    if key == "double":
        return _("a prize card in the centre, as in {game}", game=_(title_of("doublewar"))) if value \
            else _("no prize card in the centre")
    shown = "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
    return f"{key}: {shown}"


def rules_text(game: str, rules: Mapping[str, Any], *, say: Texts = ENGLISH) -> str:
    """The rules that differ from the game's defaults, in words (``players`` left out); "standard rules"."""
    _ = say
    cls = game_class(game)
    changed = []
    for option in cls.options:
        if option.key == "players" or option.key not in rules:
            continue
        value = rules[option.key]
        if value != option.default:
            changed.append(rule_words(option.key, value, say))
    return " · ".join(changed) if changed else _("standard rules")


def _title(text: str) -> str:
    return clamp_line(text, EMBED_TITLE_LIMIT)


def _shown(names: Sequence[str]) -> list[str]:
    return [name(n) for n in names]


def _rules_and_pace(game: str, rules: Mapping[str, Any], pace: str, say: Texts) -> str:
    _ = say
    return _("{rules} · pace: {pace}", rules=rules_text(game, rules, say=say), pace=_(PACE_WORDS[pace]))


# --- challenge and lobby ----------------------------------------------------------------------------------


def challenge(challenger: str, opponent: str, game: str, rules: Mapping[str, Any], pace: str, *,
              expires_at: When, say: Texts = ENGLISH) -> ButtonSurface:
    """The two-player challenge. Buttons: ``accept``, ``decline`` (the opponent), ``withdraw`` (the challenger)."""
    return challenge_surface(say(title_of(game)), challenger, opponent, _rules_and_pace(game, rules, pace, say),
                             expires_at=expires_at, say=say)


def lobby(players: Sequence[str], game: str, rules: Mapping[str, Any], pace: str, *, expires_at: When | None,
          closed: str | None = None, say: Texts = ENGLISH) -> ButtonSurface:
    """The lobby: the host (first) and who has joined. Buttons (while open): ``join``, ``leave``, ``start`` (the
    host, with two players or more), ``cancel`` (the host). ``closed``: why it is not open any more."""
    _ = say
    cls = game_class(game)
    title = _(cls.title)
    shown = _shown(players)
    seated = ", ".join(_("{player} (host)", player=f"**{player}**") if seat == 0 else f"**{player}**"
                       for seat, player in enumerate(shown))
    lines = [_("🎴 **{host}** is opening a game of {game} for {low}–{high} players!", host=shown[0], game=title,
               low=cls.min_players, high=cls.max_players),
             _("Rules: {rules}", rules=_rules_and_pace(game, rules, pace, say)),
             _("Players ({count}/{most}): {players}", count=len(shown), most=cls.max_players, players=seated)]
    buttons: list[Button] = []
    if closed:
        lines.append(closed)
    else:
        if expires_at is not None:
            lines.append(_("Press **Join** to play; the host starts the game. The lobby closes {when} if nobody joins "
                           "or leaves before then.", when=timestamp(expires_at)))
        full = len(shown) >= cls.max_players
        buttons = [Button("join", _("Join"), not full, "success"), Button("leave", _("Leave"), True, "secondary"),
                   Button("start", _("Start"), len(shown) >= cls.min_players, "primary"),
                   Button("cancel", _("Cancel"), True, "danger")]
    return ButtonSurface(_title(_("{game} lobby", game=title)), clamp("\n".join(lines), say=say), None, buttons)


def declined(game: str, challenger: str, opponent: str, say: Texts = ENGLISH) -> str:
    _ = say
    return "❌ " + _("**{opponent}** declined **{challenger}**'s {game} challenge.", opponent=name(opponent),
                      challenger=name(challenger), game=_(title_of(game)))


def withdrawn(game: str, host: str, *, lobby: bool, say: Texts = ENGLISH) -> str:
    _ = say
    if lobby:
        text = _("**{host}** closed the lobby: no {game} game this time.", host=name(host), game=_(title_of(game)))
    else:
        text = _("**{host}** withdrew the challenge: no {game} game this time.", host=name(host),
                 game=_(title_of(game)))
    return "↩️ " + text


def expired(game: str, host: str, *, lobby: bool, say: Texts = ENGLISH) -> str:
    _ = say
    if lobby:
        return "⌛ " + _("**{host}**'s {game} lobby closed: nobody joined, left or started it in time.",
                        host=name(host), game=_(title_of(game)))
    return "⌛ " + _("**{host}**'s {game} challenge expired: nobody accepted in time.", host=name(host),
                    game=_(title_of(game)))


def started(game: str, names: Sequence[str], where: str | None, say: Texts = ENGLISH) -> str:
    _ = say
    players = join_words([f"**{n}**" for n in _shown(names)], say)
    if where:
        return "⚔️ " + _("{game}: {players} — the game is on: follow it in {place}.", game=_(title_of(game)),
                        players=players, place=where)
    return "⚔️ " + _("{game}: {players} — the game is on: it is played right here.", game=_(title_of(game)),
                    players=players)


def link_line(game: str, names: Sequence[str], rules: Mapping[str, Any], thread_id: int,
              say: Texts = ENGLISH) -> str:
    """The game's message in the channel while it is played in its thread."""
    _ = say
    return "⚔️ " + _("**{game}:** {players} · {rules} — follow the game in {thread}.", game=_(title_of(game)),
                      players=", ".join(names), rules=rules_text(game, rules, say=say), thread=f"<#{thread_id}>")


# --- the live table ---------------------------------------------------------------------------------------


def _versus(parts: Sequence[str], say: Texts) -> str:
    _ = say
    versus = _.pgettext("one card against another", "vs")
    return f" {versus} ".join(parts)


def _battle_line(event: Event, shown: list[str], say: Texts) -> str:
    _ = say
    cards = event["cards"]
    faces = _versus([f"{shown[seat]} {card(c)}" for seat, c in enumerate(cards) if c is not None], say)
    if event.get("winner") is not None:
        return _("{cards} → **{player}** is highest", cards=faces, player=shown[event["winner"]])
    return _("{cards} → a tie: **war** between {players}!", cards=faces,
             players=join_words([shown[s] for s in event.get("tied", [])], say))


def _war_line(event: Event, shown: list[str], say: Texts) -> str:
    _ = say
    parts = []
    for seat in event["seats"]:
        down = (event.get("face_down") or [0] * len(shown))[seat] or 0
        parts.append(f"{shown[seat]} {'🂠' * min(down, 11)} {card(event['cards'][seat])}")
    head = "⚔️ " + _("War {number}: {cards}", number=event["war"], cards=_versus(parts, say))
    if event.get("winner") is not None:
        return head + " → " + _("**{player}** wins the war", player=shown[event["winner"]])
    return head + " → " + _("tied again!")


def _take_line(event: Event, shown: list[str], say: Texts) -> str:
    _ = say
    line = _.ngettext("**{player}** takes {count} card", "**{player}** takes {count} cards", event["cards"],
                      player=shown[event["seat"]])
    if event.get("face_down"):
        line += " " + _.ngettext("({count} of them face down)", "({count} of them face down)", event["face_down"])
    if event.get("prize_taken"):
        line += ", " + _("the prize {card} with them", card=card(event["prize_taken"]))
    if event.get("prize"):
        line += "; " + _("🏆 {card} stands as the new prize", card=card(event["prize"]))
    return line


def round_lines(events: Sequence[Event], names: Sequence[str], say: Texts = ENGLISH) -> list[str]:
    """One round's events in words: the flip, each war, who took how many cards, who went out."""
    _ = say
    shown = _shown(names)
    lines = []
    for event in events:
        kind = event.get("type")
        if kind == "battle":
            lines.append(_battle_line(event, shown, say))
        elif kind == "war":
            lines.append(_war_line(event, shown, say))
        elif kind == "take":
            lines.append(_take_line(event, shown, say))
        elif kind == "pot_aside":
            lines.append(_.ngettext("Nobody is left in the war: {count} card set aside.",
                                    "Nobody is left in the war: {count} cards set aside.", event["cards"]))
        elif kind == "reshuffle":
            lines.append(_.ngettext("{player} shuffles their {count} won card into a new pile.",
                                    "{player} shuffles their {count} won cards into a new pile.", event["cards"],
                                    player=shown[event["seat"]]))
        elif kind == "out":
            reason = event.get("reason")
            player = shown[event["seat"]]
            if reason in OUT_REASONS:
                lines.append(_(OUT_REASONS[str(reason)], player=player))
            else:
                lines.append(_("🚫 **{player}** is out.", player=player))
    return lines


def run_line(run: Sequence[Event], names: Sequence[str], last_round: int, say: Texts = ENGLISH) -> str:
    """The rounds of ``run`` (events) played before ``last_round``, summed up: "Rounds 12–30: Alice won 10, Bob 9";
    empty when there are none."""
    _ = say
    shown = _shown(names)
    rounds = sorted({e["round"] for e in run if e.get("type") == "battle" and e.get("round", last_round) < last_round})
    if not rounds:
        return ""
    won = [0] * len(shown)
    for event in run:
        if event.get("type") == "take" and event.get("round", last_round) < last_round:
            won[event["seat"]] += 1
    head = (_("Round {number}", number=rounds[0]) if len(rounds) == 1
            else _("Rounds {first}–{last}", first=rounds[0], last=rounds[-1]))
    winners = [_("{player} won {count}", player=shown[seat], count=won[seat]) for seat in range(len(shown))
               if won[seat]]
    return f"{head}: {', '.join(winners)}" if winners else head


def counts_line(view: View, names: Sequence[str], say: Texts = ENGLISH) -> str:
    """Everyone's cards, and Double War's standing prize (counted for its owner)."""
    _ = say
    shown = _shown(names)
    parts = []
    for seat, held in enumerate(view["card_counts"]):
        mark = "" if view["in_game"][seat] or view.get("outcome") else " " + _("(out)")
        parts.append(f"{shown[seat]} **{say.number(held)}**{mark}")
    prize = view.get("prize")
    standing = ""
    if prize:
        if prize["seat"] is not None:
            standing = "\n" + _("🏆 Prize: **{card}**, {player}'s until another wins a round", card=card(prize["card"]),
                                player=shown[prize["seat"]])
        else:
            standing = "\n" + _("🏆 Prize: **{card}**, for the next round's winner", card=card(prize["card"]))
    return _("Cards: {counts}", counts=" · ".join(parts)) + standing


def votes_line(pace: str, votes: Mapping[str, Sequence[int]], voters: int, say: Texts = ENGLISH) -> str:
    """Who wants it faster, and the rule."""
    _ = say
    wanted = [f"{_(PACE_NAMES[p])} {len(votes.get(p, []))}/{voters}" for p in VOTE_PACES if votes.get(p)]
    head = _("Speed up? Every player still in must agree.")
    return head + (" " + _("Votes: {votes}", votes=" · ".join(wanted)) if wanted else "")


def _flip_line(view: View, shown: list[str], deadline: When | None, say: Texts) -> str:
    """Flip pace: the round being played, what is flipped and who still has to press Flip (by when)."""
    _ = say
    rnd = view["round"] + 1
    flipped = [f"{shown[s]} {card(c)}" for s, c in enumerate(view.get("table") or []) if c is not None]
    waiting = [shown[s] for s in view.get("to_flip", [])]
    line = _("**Round {number}:**", number=rnd)
    if flipped:
        line += " " + _("flipped: {cards}.", cards=", ".join(flipped))
    if waiting and deadline is not None:
        line += " " + _("Waiting for {players} to press **Flip** (by {when}; a player who misses it is flipped for, "
                        "twice in a row forfeits).", players=join_words(waiting, say), when=timestamp(deadline))
    elif waiting:
        line += " " + _("Waiting for {players} to press **Flip**.", players=join_words(waiting, say))
    return line


def table(view: View, names: Sequence[str], game: str, pace: str, *, votes: Mapping[str, Sequence[int]] = {},
          deadline: When | None = None, note: str = "", run: Sequence[Event] = (),
          say: Texts = ENGLISH) -> ButtonSurface:
    """The one live message of a game: the round, everyone's cards, the rounds of ``run`` (the events shown with
    this render) before the last one summed up, the last round in words, what happens now and the buttons:
    ``flip`` (flip pace), ``vote:next_war`` (flip pace), ``vote:auto`` / ``vote:instant`` (paces faster than the
    game's)."""
    _ = say
    title = _(title_of(game))
    shown = _shown(names)
    over = view.get("outcome") is not None
    rnd = view["round"]
    stats = view.get("stats", {})
    lines = [counts_line(view, names, say)]
    last = list(view.get("last_events") or [])
    played = [e for e in last if e.get("type") in ("battle", "war", "take", "pot_aside", "reshuffle", "out")]
    summed = run_line(run, names, played[0].get("round", rnd) if played else rnd + 1, say)
    if summed:
        lines.append(summed)
    if played:
        lines.append("**" + _("Round {number}", number=played[0].get("round", rnd)) + "**")
        lines += round_lines(played, names, say)
    if stats.get("wars"):
        lines.append(_.ngettext("Wars so far: {wars} · longest war: {count} card on the table",
                                "Wars so far: {wars} · longest war: {count} cards on the table",
                                stats.get("biggest_pot", 0), wars=say.number(stats["wars"])))
    buttons: list[Button] = []
    if over:
        lines.append(_("🏁 The game is over: see the result below."))
    else:
        lines.append(_("Pace: {pace}", pace=_(PACE_WORDS[pace])) if pace in PACE_WORDS else "")
        if pace == "flip":
            lines.append(_flip_line(view, shown, deadline, say))
            buttons.append(Button("flip", _("Flip"), True, "primary"))
        elif pace == "auto":
            lines.append(_("Round {number} is next.", number=rnd + 1))
        voters = sum(1 for flag in view["in_game"] if flag)
        faster = VOTE_PACES[VOTE_PACES.index(pace) + 1:] if pace in VOTE_PACES else VOTE_PACES
        if faster:
            lines.append(votes_line(pace, votes, voters, say))
            for p in faster:
                have = len(votes.get(p, []))
                buttons.append(Button(f"vote:{p}", f"{VOTE_MARKS[p]} {_(PACE_NAMES[p])} ({have}/{voters})", True,
                                      "secondary"))
    if note:
        lines.append(note)
    heading = _("{game} — round {number}", game=title, number=rnd) if rnd else _("{game} — the deal", game=title)
    return ButtonSurface(_title(heading), clamp("\n".join(line for line in lines if line), say=say), None, buttons)


# --- notes ------------------------------------------------------------------------------------------------


def turn_timeout(names: Sequence[str], data: Event, say: Texts = ENGLISH) -> str:
    """The flip deadline passed: who was flipped for, who forfeited (the ``turn_timeout`` event)."""
    _ = say
    shown = _shown(names)
    lines = []
    flipped = data.get("auto_flipped", [])
    forfeit = data.get("forfeit", [])
    if flipped:
        lines.append("⏰ " + _("Round {number}: time's up — flipped for {players}. Miss the next round too and you "
                              "forfeit.", number=data["round"], players=join_words([shown[s] for s in flipped], say)))
    if forfeit and not flipped and sorted(forfeit) == sorted(data.get("seats", [])) and len(forfeit) > 1:
        lines.append("⏰ " + _("Round {number}: {players} all missed two rounds in a row.", number=data["round"],
                              players=join_words([shown[s] for s in forfeit], say)))
    elif forfeit:
        lines.append("⏰ " + _.ngettext("Round {number}: {players} missed two rounds in a row and forfeited.",
                                       "Round {number}: {players} missed two rounds in a row and forfeited.",
                                       len(forfeit), number=data["round"],
                                       players=join_words([shown[s] for s in forfeit], say)))
    return "\n".join(lines)


def pace_changed(pace: str, previous: str, say: Texts = ENGLISH) -> str:
    _ = say
    return "🗳️ " + _("Everyone still in agreed: the game goes from {previous} to **{pace}** pace.",
                      previous=_(PACE_NAMES[previous]), pace=_(PACE_NAMES[pace]))


def deadline_moved(round_number: int, deadline: When, say: Texts = ENGLISH) -> str:
    _ = say
    return "🔁 " + _("The bot was away: round {number}'s flips are now due {when} (nobody missed anything).",
                      number=round_number, when=timestamp(deadline))


def thread_lost(names: Sequence[str], say: Texts = ENGLISH) -> str:
    _ = say
    return _("The thread of the game between {players} can't be used any more: the game goes on here.",
               players=join_words([name(n) for n in names], say))


# --- /war status and /war forfeit --------------------------------------------------------------------------


def status(view: View, names: Sequence[str], game: str, pace: str, *, seat: int,
           votes: Mapping[str, Sequence[int]] = {}, deadline: When | None = None, where: str = "",
           say: Texts = ENGLISH) -> str:
    """``/war status`` for a game being played (only the asking player sees it): the variant, rules, pace and
    round, everyone's cards, who still has to flip (flip pace) and by when, the votes to speed up, where it is."""
    _ = say
    shown = _shown(names)
    played = (_("round {number} played", number=view["round"]) if view["round"] else _("nothing played yet"))
    lines = [_.ngettext("**Your {game} game** · {count} player · pace: {pace} · {played}",
                        "**Your {game} game** · {count} players · pace: {pace} · {played}", len(names),
                        game=_(title_of(game)), pace=_(PACE_NAMES[pace]), played=played),
             _("Rules: {rules}", rules=rules_text(game, view.get("rules", {}), say=say)),
             counts_line(view, names, say)]
    if not view["in_game"][seat]:
        lines.append(_("You're out of this game; the others play on."))
    if pace == "flip":
        waiting = list(view.get("to_flip", []))
        if waiting:
            players = join_words([f"**{shown[s]}**" + (" " + _("(you)") if s == seat else "") for s in waiting], say)
            if deadline is not None:
                lines.append(_("Round {number}: still to press **Flip**: {players}, due {when}.",
                               number=view["round"] + 1, players=players, when=timestamp(deadline)))
            else:
                lines.append(_("Round {number}: still to press **Flip**: {players}.", number=view["round"] + 1,
                               players=players))
    elif pace == "auto":
        lines.append(_("Round {number} is next: the bot plays the plain rounds in runs and pauses on every war.",
                       number=view["round"] + 1))
    voters = [s for s, flag in enumerate(view["in_game"]) if flag]
    pending = [(p, ids) for p, ids in votes.items() if ids and p in PACE_NAMES]
    if pending:
        lines.append(_("Votes to speed up (every player still in must agree): {votes}", votes=" · ".join(
            f"{_(PACE_NAMES[p])} {len(ids)}/{len(voters)} ({join_words([f'<@{i}>' for i in ids], say)})"
            for p, ids in pending)))
    elif pace != "instant":
        lines.append(_("No votes to speed up."))
    if where:
        lines.append(_("The game: {place}", place=where))
    return clamp("\n".join(lines), say=say)


def waiting_status(names: Sequence[str], game: str, rules: Mapping[str, Any], pace: str, *, seat: int,
                   lobby: bool, expires_at: When | None, where: str = "", say: Texts = ENGLISH) -> str:
    """``/war status`` before the deal: the challenge or lobby the user is in, until when, and what to press."""
    _ = say
    cls = game_class(game)
    title = _(cls.title)
    shown = _shown(names)
    when = timestamp(expires_at) if expires_at is not None else None
    place = where or _("its message")
    head = _("Rules: {rules}", rules=_("{rules} · pace: {pace}", rules=rules_text(game, rules, say=say),
                                       pace=_(PACE_NAMES[pace])))
    if lobby:
        players = _("{count}/{most} players: {players}", count=len(shown), most=cls.max_players,
                    players=join_words([f"**{n}**" for n in shown], say))
        closes = " " + _("It closes {when} if nobody joins or leaves.", when=when) if when else ""
        if seat == 0:
            text = (_("**Your {game} lobby** is open ({players}).", game=title, players=players) + closes + " "
                    + _("Start or cancel it on {place}.", place=place))
        else:
            text = (_("You're in **{host}**'s {game} lobby ({players}).", game=title, host=shown[0],
                      players=players) + closes + " " + _("The host starts the game; leave it on {place}.",
                                                          place=place))
    else:
        expires = " " + _("It expires {when}.", when=when) if when else ""
        if seat == 0:
            text = (_("Your {game} challenge to **{opponent}** is waiting for an answer.", game=title,
                      opponent=shown[1]) + expires + " " + _("Withdraw it on {place}.", place=place))
        else:
            text = (_("**{challenger}** challenged you to {game}.", challenger=shown[0], game=title) + expires + " "
                    + _("Accept or decline it on {place}.", place=place))
    return clamp(f"{text}\n{head}", say=say)


def forfeit_question(game: str, names: Sequence[str], seat: int, in_game: Sequence[bool], where: str = "",
                     say: Texts = ENGLISH) -> str:
    """The ephemeral "really give up?" of ``/war forfeit``: who would win, or that the others play on."""
    _ = say
    shown = _shown(names)
    others = [s for s, flag in enumerate(in_game) if flag and s != seat]
    game = _(title_of(game))
    place = f" ({where})" if where else ""
    if len(others) == 1:
        question = _("Give up your {game} game{place}? **{player}** wins, and it counts as a loss for you.",
                     game=game, place=place, player=shown[others[0]])
    else:
        players = join_words([f"**{shown[s]}**" for s in others], say)
        question = _("Give up your {game} game{place}? You're out and {players} play on, and it counts as a loss "
                     "for you.", game=game, place=place, players=players)
    return question + " " + _("This can't be undone.")


def forfeited(game: str, names: Sequence[str], winner: int | None, over: bool, where: str = "",
              say: Texts = ENGLISH) -> str:
    """The answer once ``/war forfeit`` is confirmed."""
    _ = say
    shown = _shown(names)
    place = f" ({where})" if where else ""
    if over and winner is not None:
        after = _("**{player}** wins.", player=shown[winner])
    elif over:
        after = _("the game is over.")
    else:
        after = _("the others play on.")
    return "🏳️ " + _("You gave up your {game} game{place}: {after}", game=_(title_of(game)), place=place, after=after)


# --- the result -------------------------------------------------------------------------------------------


def reason_text(outcome: Mapping[str, Any], names: Sequence[str], max_rounds: int | None = None,
                say: Texts = ENGLISH) -> str:
    """Why the game ended, in words."""
    _ = say
    shown = _shown(names)
    winner, reason = outcome.get("winner"), outcome.get("reason", "")
    if reason == "capped":
        if max_rounds and winner is not None:
            return _.ngettext("The game reached the {count}-round limit (max_rounds): the most cards wins.",
                              "The game reached the {count}-round limit (max_rounds): the most cards wins.",
                              max_rounds)
        if max_rounds:
            return _.ngettext("The game reached the {count}-round limit (max_rounds): equal cards: a draw.",
                              "The game reached the {count}-round limit (max_rounds): equal cards: a draw.",
                              max_rounds)
        if winner is not None:
            return _("The game reached the round limit (max_rounds): the most cards wins.")
        return _("The game reached the round limit (max_rounds): equal cards: a draw.")
    if reason == "cycle":
        return _("The piles came back to a position already played: the game would repeat for ever, so it's a draw.")
    if reason == "all_out":
        return _("Everyone ran out of cards at once: a draw.")
    if reason == "double_timeout":
        return _("Every player still in missed two rounds in a row: a draw.")
    if reason == "timeout" and winner is not None:
        return _("**{player}** is the last player in: the others missed two rounds in a row.", player=shown[winner])
    if reason == "forfeit" and winner is not None:
        return _("**{player}** is the last player in: the others gave up.", player=shown[winner])
    if winner is not None and reason in REASONS:
        return _(REASONS[reason], player=shown[winner])
    return _("The game ended.")


def _headline(outcome: Mapping[str, Any], shown: list[str], say: Texts) -> str:
    _ = say
    winner = outcome.get("winner")
    return _("It's a draw.") if winner is None else _("**{player}** wins!", player=shown[winner])


def history_summary(points: Sequence[Sequence[int]], rounds: Sequence[int], plain: Sequence[str],
                    say: Texts = ENGLISH) -> str:
    """The chart in words (alt text): each player's start, most and end, and when the lead changed hands."""
    _ = say
    if not points:
        return _("No card counts were recorded.")
    seats = len(points[0])
    parts = []
    for seat in range(seats):
        series = [p[seat] for p in points]
        top = max(series)
        at = rounds[series.index(top)]
        parts.append(_("{player} started with {start}, peaked at {top} (round {round}) and ended with {end}",
                       player=plain[seat], start=series[0], top=top, round=at, end=series[-1]))
    leads = 0
    leader = None
    for p in points:
        best = max(p)
        top = [s for s in range(seats) if p[s] == best]
        if len(top) == 1 and top[0] != leader:
            if leader is not None:
                leads += 1
            leader = top[0]
    return "; ".join(parts) + ". " + _.ngettext("The lead changed hands {count} time.",
                                                "The lead changed hands {count} times.", leads)


def chart_words(game: str, points: Sequence[Sequence[int]], rounds: Sequence[int], plain: Sequence[str],
                say: Texts = ENGLISH) -> dict[str, str]:
    """The chart's texts in ``say``'s language (its title, axes and alt text), for :func:`draw_chart`."""
    _ = say
    alt = clamp_line(_("Line chart of each player's cards by round.") + " "
                     + history_summary(points, rounds, plain, say), ALT_TEXT_LIMIT)
    return {"title": _("{game}: cards held over the game", game=_(title_of(game))),
            "x_label": _.pgettext("chart axis", "round"), "y_label": _.pgettext("chart axis", "cards"), "alt": alt}


def draw_chart(points: Sequence[Sequence[int]], rounds: Sequence[int], plain: Sequence[str], *, title: str,
               x_label: str, y_label: str, alt: str) -> Picture:
    """Each player's cards over the game as a line chart, its words given (:func:`chart_words`): plain strings, so
    that it can be drawn in the picture process."""
    seats = len(points[0]) if points else len(plain)
    series = [(plain[seat], [float(p[seat]) for p in points]) for seat in range(seats)]
    step = (rounds[1] - rounds[0]) if len(rounds) > 1 else 1
    png = line_chart(series, title=title, x_label=x_label, y_label=y_label, x_step=step)
    return Picture(png, "war-cards.png", alt)


def chart(points: Sequence[Sequence[int]], rounds: Sequence[int], plain: Sequence[str], game: str,
          say: Texts = ENGLISH) -> Picture:
    """Each player's cards over the game as a line chart, with the summary as its alt text."""
    return draw_chart(points, rounds, plain, **chart_words(game, points, rounds, plain, say))


def result(view: View, names: Sequence[str], game: str, *, image_names: Sequence[str] | None = None,
           points: Sequence[Sequence[int]] = (), rounds: Sequence[int] = (),
           ratings: Sequence[Mapping[str, float] | None] | None = None, say: Texts = ENGLISH,
           drawn: bool = True) -> Surface:
    """The result of a finished game: who won and why (a cap or a repeated position says so), rounds, wars, the
    longest war, the final counts, rating changes and the chart of the card counts (its summary also in the
    text, for screen readers and with images off). ``drawn=False``: without the chart's picture (the caller draws
    it with :func:`draw_chart`, in the picture process)."""
    _ = say
    outcome = view.get("outcome")
    if outcome is None:
        raise ValueError("this game is not over yet")
    shown = _shown(names)
    plain = plain_names(names, image_names, say)
    stats = view.get("stats", {})
    rules = view.get("rules", {})
    wars = stats.get("wars", 0)
    if wars:
        longest = _.ngettext("{count} card on the table", "{count} cards on the table", stats.get("biggest_pot", 0))
        chain = _.ngettext("longest chain: {count} war", "longest chain: {count} wars", stats.get("longest_chain", 0))
        longest = f"{longest} ({chain})"
    else:
        longest = _.pgettext("no war", "none")
    lines = [f"🏁 {_headline(outcome, shown, say)} {reason_text(outcome, names, rules.get('max_rounds'), say)}",
             f"{join_words([f'**{n}**' for n in shown], say)} · {rules_text(game, rules, say=say)}",
             _("Rounds: {rounds} · wars: {wars} · longest war: {longest}",
               rounds=stats.get("rounds", view["round"]), wars=say.number(wars), longest=longest),
             counts_line(view, names, say)]
    places = places_by_count(outcome.get("winner"), view["card_counts"]) if "card_counts" in view else None
    rated = ratings_line(ratings, shown, places=places, say=say)
    if rated:
        lines.append(rated)
    picture = None
    if points:
        lines.append("-# " + history_summary(points, rounds, plain, say))
        picture = chart(points, rounds, plain, game, say) if drawn else None
    winner = outcome.get("winner")
    title = (_("{game} — draw", game=_(title_of(game))) if winner is None
             else win_title(_(title_of(game)), plain[winner], say))
    return Surface(_title(title), clamp("\n".join(lines), say=say), picture)


__all__ = ["card", "challenge", "chart", "chart_words", "counts_line", "draw_chart", "forfeit_question", "forfeited",
           "link_line", "lobby", "reason_text", "result", "round_lines", "rule_words", "rules_text", "run_line",
           "status", "table", "turn_timeout", "waiting_status"]
