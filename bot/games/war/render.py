"""What War players see in Discord: the challenge and lobby messages, the live table, notes and the result.

Everything comes from the engine's spectator view and events (War has no hidden cards but the face-down ones of a
war, and those are only ever counted) and from the match's options (pace, votes). Names are given by the caller:
mentions for text, plain names (``image_names``) for the picture and its alt text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.cards import card_label
from bot.games import game_class
from bot.i18n import Texts
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
    count,
    join_words,
    name,
    plain_names,
    ratings_line,
    timestamp,
)
from bot.render.plots import line_chart

if TYPE_CHECKING:
    from bot.render.common import Event, View, When

PACE_WORDS = {
    "flip": "flip (every player presses Flip each round, or all go to the next war)",
    "auto": "auto (the bot plays: plain rounds in runs, a pause on every war)",
    "instant": "instant (played out at once)",
}
PACE_NAMES = {"flip": "Flip", "next_war": "Next war", "auto": "Auto", "instant": "Instant"}
#: the paces players can vote for, slowest first, and their buttons' marks
VOTE_PACES = ("next_war", "auto", "instant")
VOTE_MARKS = {"next_war": "⏭️", "auto": "⏩", "instant": "⚡"}
REASONS = {
    "all_cards": "won every card",
    "last_standing": "is the last player with cards",
    "short_war": "won: the last opponent could not fight a war",
    "target": "reached the target",
}


#: the family's name: War, Drunkard and Tod und Leben are its games
TITLE = "War"


def title_of(game: str) -> str:
    return game_class(game).title


def card(text: str | None) -> str:
    """A card for text: ``K♥``, ``10♠``, ``🃏`` (joker); ``?`` for none."""
    return "?" if text is None else card_label(text)


def rules_text(game: str, rules: Mapping[str, Any]) -> str:
    """The rules that differ from the game's defaults, ``key: value`` (``players`` left out); "standard rules"."""
    cls = game_class(game)
    changed = []
    for option in cls.options:
        if option.key == "players" or option.key not in rules:
            continue
        value = rules[option.key]
        if value != option.default:
            shown = "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
            changed.append(f"{option.key}: {shown}")
    return " · ".join(changed) if changed else "standard rules"


def _title(text: str) -> str:
    return clamp_line(text, EMBED_TITLE_LIMIT)


def _shown(names: Sequence[str]) -> list[str]:
    return [name(n) for n in names]


# --- challenge and lobby ----------------------------------------------------------------------------------


def challenge(challenger: str, opponent: str, game: str, rules: Mapping[str, Any], pace: str, *,
              expires_at: When, say: Texts = ENGLISH) -> ButtonSurface:
    """The two-player challenge. Buttons: ``accept``, ``decline`` (the opponent), ``withdraw`` (the challenger)."""
    return challenge_surface(say(title_of(game)), challenger, opponent,
                             f"{rules_text(game, rules)} · pace: {PACE_WORDS[pace]}", expires_at=expires_at, say=say)


def lobby(players: Sequence[str], game: str, rules: Mapping[str, Any], pace: str, *, expires_at: When | None,
          closed: str | None = None) -> ButtonSurface:
    """The lobby: the host (first) and who has joined. Buttons (while open): ``join``, ``leave``, ``start`` (the
    host, with two players or more), ``cancel`` (the host). ``closed``: why it is not open any more."""
    cls = game_class(game)
    shown = _shown(players)
    lines = [f"🎴 **{shown[0]}** is opening a game of {cls.title} for {cls.min_players}–{cls.max_players} players!",
             f"Rules: {rules_text(game, rules)} · pace: {PACE_WORDS[pace]}",
             f"Players ({len(shown)}/{cls.max_players}): " + ", ".join(
                 f"**{player}**" + (" (host)" if seat == 0 else "") for seat, player in enumerate(shown))]
    buttons: list[Button] = []
    if closed:
        lines.append(closed)
    else:
        lines.append(f"Press **Join** to play; the host starts the game. The lobby closes {timestamp(expires_at)} "
                     "if nobody joins or leaves before then." if expires_at is not None else "")
        full = len(shown) >= cls.max_players
        buttons = [Button("join", "Join", not full, "success"), Button("leave", "Leave", True, "secondary"),
                   Button("start", "Start", len(shown) >= cls.min_players, "primary"),
                   Button("cancel", "Cancel", True, "danger")]
    return ButtonSurface(_title(f"{cls.title} lobby"), clamp("\n".join(line for line in lines if line)), None,
                         buttons)


def declined(game: str, challenger: str, opponent: str) -> str:
    return f"❌ **{name(opponent)}** declined **{name(challenger)}**'s {title_of(game)} challenge."


def withdrawn(game: str, host: str, *, lobby: bool) -> str:
    what = "closed the lobby" if lobby else "withdrew the challenge"
    return f"↩️ **{name(host)}** {what}: no {title_of(game)} game this time."


def expired(game: str, host: str, *, lobby: bool) -> str:
    if lobby:
        return f"⌛ **{name(host)}**'s {title_of(game)} lobby closed: nobody joined, left or started it in time."
    return f"⌛ **{name(host)}**'s {title_of(game)} challenge expired: nobody accepted in time."


def started(game: str, names: Sequence[str], where: str | None) -> str:
    shown = _shown(names)
    place = f"follow it in {where}" if where else "it is played right here"
    return f"⚔️ {title_of(game)}: {join_words([f'**{n}**' for n in shown])} — the game is on: {place}."


# --- the live table ---------------------------------------------------------------------------------------


def _battle_line(event: Event, shown: list[str]) -> str:
    cards = event["cards"]
    faces = " vs ".join(f"{shown[seat]} {card(c)}" for seat, c in enumerate(cards) if c is not None)
    if event.get("winner") is not None:
        return f"{faces} → **{shown[event['winner']]}** is highest"
    return f"{faces} → a tie: **war** between {join_words([shown[s] for s in event.get('tied', [])])}!"


def _war_line(event: Event, shown: list[str]) -> str:
    parts = []
    for seat in event["seats"]:
        down = (event.get("face_down") or [0] * len(shown))[seat] or 0
        parts.append(f"{shown[seat]} {'🂠' * min(down, 11)} {card(event['cards'][seat])}")
    head = f"⚔️ War {event['war']}: " + " vs ".join(parts)
    if event.get("winner") is not None:
        return f"{head} → **{shown[event['winner']]}** wins the war"
    return f"{head} → tied again!"


def round_lines(events: Sequence[Event], names: Sequence[str]) -> list[str]:
    """One round's events in words: the flip, each war, who took how many cards, who went out."""
    shown = _shown(names)
    lines = []
    for event in events:
        kind = event.get("type")
        if kind == "battle":
            lines.append(_battle_line(event, shown))
        elif kind == "war":
            lines.append(_war_line(event, shown))
        elif kind == "take":
            lines.append(f"**{shown[event['seat']]}** takes {count(event['cards'], 'card')}"
                         + (f" ({event['face_down']} of them face down)" if event.get("face_down") else "")
                         + (f", the prize {card(event['prize_taken'])} with them" if event.get("prize_taken") else "")
                         + (f"; 🏆 {card(event['prize'])} stands as the new prize" if event.get("prize") else ""))
        elif kind == "pot_aside":
            lines.append(f"Nobody is left in the war: {count(event['cards'], 'card')} set aside.")
        elif kind == "reshuffle":
            lines.append(f"{shown[event['seat']]} shuffles their {count(event['cards'], 'won card')} into a new pile.")
        elif kind == "out":
            reason = event.get("reason")
            why = {"no_cards": "has no cards left", "short_war": "could not fight the war",
                   "timeout": "missed two rounds in a row", "forfeit": "gave up"}.get(reason, str(reason))
            lines.append(f"🚫 **{shown[event['seat']]}** is out: {why}.")
    return lines


def run_line(run: Sequence[Event], names: Sequence[str], last_round: int) -> str:
    """The rounds of ``run`` (events) played before ``last_round``, summed up: "Rounds 12–30: Alice won 10, Bob 9";
    empty when there are none."""
    shown = _shown(names)
    rounds = sorted({e["round"] for e in run if e.get("type") == "battle" and e.get("round", last_round) < last_round})
    if not rounds:
        return ""
    won = [0] * len(shown)
    for event in run:
        if event.get("type") == "take" and event.get("round", last_round) < last_round:
            won[event["seat"]] += 1
    head = f"Round {rounds[0]}" if len(rounds) == 1 else f"Rounds {rounds[0]}–{rounds[-1]}"
    winners = [f"{shown[seat]} won {won[seat]}" for seat in range(len(shown)) if won[seat]]
    return f"{head}: {', '.join(winners)}" if winners else head


def counts_line(view: View, names: Sequence[str]) -> str:
    """Everyone's cards, and Double War's standing prize (counted for its owner)."""
    shown = _shown(names)
    parts = []
    for seat, held in enumerate(view["card_counts"]):
        mark = "" if view["in_game"][seat] or view.get("outcome") else " (out)"
        parts.append(f"{shown[seat]} **{held}**{mark}")
    prize = view.get("prize")
    standing = "" if not prize else f"\n🏆 Prize: **{card(prize['card'])}**, " + (
        f"{shown[prize['seat']]}'s until another wins a round" if prize["seat"] is not None
        else "for the next round's winner")
    return "Cards: " + " · ".join(parts) + standing


def votes_line(pace: str, votes: Mapping[str, Sequence[int]], voters: int) -> str:
    """Who wants it faster, and the rule."""
    wanted = [f"{PACE_NAMES[p]} {len(votes.get(p, []))}/{voters}" for p in VOTE_PACES if votes.get(p)]
    head = "Speed up? Every player still in must agree."
    return head + (" Votes: " + " · ".join(wanted) if wanted else "")


def table(view: View, names: Sequence[str], game: str, pace: str, *, votes: Mapping[str, Sequence[int]] = {},
          deadline: When | None = None, note: str = "", run: Sequence[Event] = ()) -> ButtonSurface:
    """The one live message of a game: the round, everyone's cards, the rounds of ``run`` (the events shown with
    this render) before the last one summed up, the last round in words, what happens now and the buttons:
    ``flip`` (flip pace), ``vote:next_war`` (flip pace), ``vote:auto`` / ``vote:instant`` (paces faster than the
    game's)."""
    cls_title = title_of(game)
    shown = _shown(names)
    over = view.get("outcome") is not None
    rnd = view["round"]
    stats = view.get("stats", {})
    lines = [counts_line(view, names)]
    last = list(view.get("last_events") or [])
    played = [e for e in last if e.get("type") in ("battle", "war", "take", "pot_aside", "reshuffle", "out")]
    summed = run_line(run, names, played[0].get("round", rnd) if played else rnd + 1)
    if summed:
        lines.append(summed)
    if played:
        lines.append(f"**Round {played[0].get('round', rnd)}**")
        lines += round_lines(played, names)
    if stats.get("wars"):
        lines.append(f"Wars so far: {stats['wars']} · longest war: {count(stats.get('biggest_pot', 0), 'card')} on "
                     f"the table")
    buttons: list[Button] = []
    if over:
        lines.append("🏁 The game is over: see the result below.")
    else:
        lines.append(f"Pace: {PACE_WORDS[pace]}")
        if pace == "flip":
            table_cards = view.get("table") or []
            flipped = [f"{shown[s]} {card(c)}" for s, c in enumerate(table_cards) if c is not None]
            waiting = [shown[s] for s in view.get("to_flip", [])]
            lines.append(f"**Round {rnd + 1}:** " + (f"flipped: {', '.join(flipped)}. " if flipped else "")
                         + (f"Waiting for {join_words(waiting)} to press **Flip**" if waiting else "")
                         + (f" (by {timestamp(deadline)}; a player who misses it is flipped for, twice in a row "
                            "forfeits)." if deadline is not None and waiting else "."))
            buttons.append(Button("flip", "Flip", True, "primary"))
        elif pace == "auto":
            lines.append(f"Round {rnd + 1} is next.")
        voters = sum(1 for flag in view["in_game"] if flag)
        faster = VOTE_PACES[VOTE_PACES.index(pace) + 1:] if pace in VOTE_PACES else VOTE_PACES
        if faster:
            lines.append(votes_line(pace, votes, voters))
            for p in faster:
                have = len(votes.get(p, []))
                buttons.append(Button(f"vote:{p}", f"{VOTE_MARKS[p]} {PACE_NAMES[p]} ({have}/{voters})", True,
                                      "secondary"))
    if note:
        lines.append(note)
    return ButtonSurface(_title(f"{cls_title} — round {rnd}" if rnd else f"{cls_title} — the deal"),
                         clamp("\n".join(lines)), None, buttons)


# --- notes ------------------------------------------------------------------------------------------------


def turn_timeout(names: Sequence[str], data: Event) -> str:
    """The flip deadline passed: who was flipped for, who forfeited (the ``turn_timeout`` event)."""
    shown = _shown(names)
    lines = []
    flipped = data.get("auto_flipped", [])
    forfeit = data.get("forfeit", [])
    if flipped:
        lines.append(f"⏰ Round {data['round']}: time's up — flipped for {join_words([shown[s] for s in flipped])}. "
                     "Miss the next round too and you forfeit.")
    if forfeit and not flipped and sorted(forfeit) == sorted(data.get("seats", [])) and len(forfeit) > 1:
        lines.append(f"⏰ Round {data['round']}: {join_words([shown[s] for s in forfeit])} all missed two rounds in "
                     "a row.")
    elif forfeit:
        lines.append(f"⏰ Round {data['round']}: {join_words([shown[s] for s in forfeit])} missed two rounds in a row "
                     "and forfeited.")
    return "\n".join(lines)


def pace_changed(pace: str, previous: str) -> str:
    return f"🗳️ Everyone still in agreed: the game goes from {PACE_NAMES[previous]} to **{PACE_NAMES[pace]}** pace."


def deadline_moved(round_number: int, deadline: When) -> str:
    return (f"🔁 The bot was away: round {round_number}'s flips are now due {timestamp(deadline)} (nobody missed "
            "anything).")


def thread_lost(names: Sequence[str]) -> str:
    return (f"The thread of the game between {join_words([name(n) for n in names])} can't be used any more: the game "
            "goes on here.")


# --- /war status and /war forfeit --------------------------------------------------------------------------


def status(view: View, names: Sequence[str], game: str, pace: str, *, seat: int,
           votes: Mapping[str, Sequence[int]] = {}, deadline: When | None = None, where: str = "") -> str:
    """``/war status`` for a game being played (only the asking player sees it): the variant, rules, pace and
    round, everyone's cards, who still has to flip (flip pace) and by when, the votes to speed up, where it is."""
    shown = _shown(names)
    lines = [f"**Your {title_of(game)} game** · {count(len(names), 'player')} · pace: {PACE_NAMES[pace]} · "
             + (f"round {view['round']} played" if view["round"] else "nothing played yet"),
             f"Rules: {rules_text(game, view.get('rules', {}))}",
             counts_line(view, names)]
    if not view["in_game"][seat]:
        lines.append("You're out of this game; the others play on.")
    if pace == "flip":
        waiting = list(view.get("to_flip", []))
        due = f", due {timestamp(deadline)}" if deadline is not None else ""
        if waiting:
            lines.append(f"Round {view['round'] + 1}: still to press **Flip**: "
                         f"{join_words([f'**{shown[s]}**' + (' (you)' if s == seat else '') for s in waiting])}{due}.")
    elif pace == "auto":
        lines.append(f"Round {view['round'] + 1} is next: the bot plays the plain rounds in runs and pauses on every "
                     "war.")
    voters = [s for s, flag in enumerate(view["in_game"]) if flag]
    pending = [(p, ids) for p, ids in votes.items() if ids and p in PACE_NAMES]
    if pending:
        lines.append("Votes to speed up (every player still in must agree): " + " · ".join(
            f"{PACE_NAMES[p]} {len(ids)}/{len(voters)} ({join_words([f'<@{i}>' for i in ids])})" for p, ids in pending))
    elif pace != "instant":
        lines.append("No votes to speed up.")
    if where:
        lines.append(f"The game: {where}")
    return clamp("\n".join(lines))


def waiting_status(names: Sequence[str], game: str, rules: Mapping[str, Any], pace: str, *, seat: int,
                   lobby: bool, expires_at: When | None, where: str = "") -> str:
    """``/war status`` before the deal: the challenge or lobby the user is in, until when, and what to press."""
    cls = game_class(game)
    shown = _shown(names)
    when = timestamp(expires_at) if expires_at is not None else None
    on = f" on {where}" if where else " on its message"
    head = f"Rules: {rules_text(game, rules)} · pace: {PACE_NAMES[pace]}"
    if lobby:
        players = f"{len(shown)}/{cls.max_players} players: {join_words([f'**{n}**' for n in shown])}"
        closes = f" It closes {when} if nobody joins or leaves." if when else ""
        if seat == 0:
            text = f"**Your {cls.title} lobby** is open ({players}).{closes} Start or cancel it{on}."
        else:
            text = (f"You're in **{shown[0]}**'s {cls.title} lobby ({players}).{closes} The host starts the game; "
                    f"leave it{on}.")
    else:
        expires = f" It expires {when}." if when else ""
        if seat == 0:
            text = f"Your {cls.title} challenge to **{shown[1]}** is waiting for an answer.{expires} Withdraw it{on}."
        else:
            text = f"**{shown[0]}** challenged you to {cls.title}.{expires} Accept or decline it{on}."
    return clamp(f"{text}\n{head}")


def forfeit_question(game: str, names: Sequence[str], seat: int, in_game: Sequence[bool], where: str = "") -> str:
    """The ephemeral "really give up?" of ``/war forfeit``: who would win, or that the others play on."""
    shown = _shown(names)
    others = [s for s, flag in enumerate(in_game) if flag and s != seat]
    after = (f"**{shown[others[0]]}** wins" if len(others) == 1
             else f"you're out and {join_words([f'**{shown[s]}**' for s in others])} play on")
    place = f" ({where})" if where else ""
    return (f"Give up your {title_of(game)} game{place}? {after}, and it counts as a loss for you. This can't be "
            "undone.")


def forfeited(game: str, names: Sequence[str], winner: int | None, over: bool, where: str = "") -> str:
    """The answer once ``/war forfeit`` is confirmed."""
    shown = _shown(names)
    place = f" ({where})" if where else ""
    if over and winner is not None:
        after = f"**{shown[winner]}** wins."
    elif over:
        after = "the game is over."
    else:
        after = "the others play on."
    return f"🏳️ You gave up your {title_of(game)} game{place}: {after}"


# --- the result -------------------------------------------------------------------------------------------


def reason_text(outcome: Mapping[str, Any], names: Sequence[str], max_rounds: int | None = None) -> str:
    """Why the game ended, in words."""
    shown = _shown(names)
    winner, reason = outcome.get("winner"), outcome.get("reason", "")
    if reason == "capped":
        limit = f" the {max_rounds}-round limit" if max_rounds else " the round limit"
        who = "the most cards wins" if winner is not None else "equal cards: a draw"
        return f"The game reached{limit} (max_rounds): {who}."
    if reason == "cycle":
        return "The piles came back to a position already played: the game would repeat for ever, so it's a draw."
    if reason == "all_out":
        return "Everyone ran out of cards at once: a draw."
    if reason == "double_timeout":
        return "Every player still in missed two rounds in a row: a draw."
    if reason == "timeout" and winner is not None:
        return f"**{shown[winner]}** is the last player in: the others missed two rounds in a row."
    if reason == "forfeit" and winner is not None:
        return f"**{shown[winner]}** is the last player in: the others gave up."
    if winner is not None and reason in REASONS:
        return f"**{shown[winner]}** {REASONS[reason]}."
    return f"The game ended ({reason.replace('_', ' ')})." if reason else "The game ended."


def _headline(outcome: Mapping[str, Any], shown: list[str]) -> str:
    winner = outcome.get("winner")
    return "It's a draw." if winner is None else f"**{shown[winner]}** wins!"


def history_summary(points: Sequence[Sequence[int]], rounds: Sequence[int], plain: Sequence[str]) -> str:
    """The chart in words (alt text): each player's start, most and end, and when the lead changed hands."""
    if not points:
        return "No card counts were recorded."
    seats = len(points[0])
    parts = []
    for seat in range(seats):
        series = [p[seat] for p in points]
        top = max(series)
        at = rounds[series.index(top)]
        parts.append(f"{plain[seat]} started with {series[0]}, peaked at {top} (round {at}) and ended with "
                     f"{series[-1]}")
    leads = 0
    leader = None
    for p in points:
        best = max(p)
        top = [s for s in range(seats) if p[s] == best]
        if len(top) == 1 and top[0] != leader:
            if leader is not None:
                leads += 1
            leader = top[0]
    return "; ".join(parts) + f". The lead changed hands {count(leads, 'time')}."


def chart(points: Sequence[Sequence[int]], rounds: Sequence[int], plain: Sequence[str], game: str) -> Picture:
    """Each player's cards over the game as a line chart, with the summary as its alt text."""
    seats = len(points[0]) if points else len(plain)
    series = [(plain[seat], [float(p[seat]) for p in points]) for seat in range(seats)]
    step = (rounds[1] - rounds[0]) if len(rounds) > 1 else 1
    png = line_chart(series, title=f"{title_of(game)}: cards held over the game", x_label="round",
                     y_label="cards", x_step=step)
    alt = clamp_line("Line chart of each player's cards by round. " + history_summary(points, rounds, plain),
                     ALT_TEXT_LIMIT)
    return Picture(png, "war-cards.png", alt)


def result(view: View, names: Sequence[str], game: str, *, image_names: Sequence[str] | None = None,
           points: Sequence[Sequence[int]] = (), rounds: Sequence[int] = (),
           ratings: Sequence[Mapping[str, float] | None] | None = None) -> Surface:
    """The result of a finished game: who won and why (a cap or a repeated position says so), rounds, wars, the
    longest war, the final counts, rating changes and the chart of the card counts (its summary also in the
    text, for screen readers and with images off)."""
    outcome = view.get("outcome")
    if outcome is None:
        raise ValueError("this game is not over yet")
    shown = _shown(names)
    plain = plain_names(names, image_names)
    stats = view.get("stats", {})
    rules = view.get("rules", {})
    lines = [f"🏁 {_headline(outcome, shown)} {reason_text(outcome, names, rules.get('max_rounds'))}",
             f"{join_words([f'**{n}**' for n in shown])} · {rules_text(game, rules)}",
             f"Rounds: {stats.get('rounds', view['round'])} · wars: {stats.get('wars', 0)} · longest war: "
             + (f"{count(stats.get('biggest_pot', 0), 'card')} on the table (longest chain: "
                f"{count(stats.get('longest_chain', 0), 'war')})" if stats.get("wars") else "none"),
             counts_line(view, names)]
    rated = ratings_line(ratings, shown)
    if rated:
        lines.append(rated)
    picture = None
    if points:
        lines.append("-# " + history_summary(points, rounds, plain))
        picture = chart(points, rounds, plain, game)
    winner = outcome.get("winner")
    title = f"{title_of(game)} — draw" if winner is None else f"{title_of(game)} — {plain[winner]} wins"
    return Surface(_title(title), clamp("\n".join(lines)), picture)


__all__ = ["card", "challenge", "chart", "counts_line", "forfeit_question", "forfeited", "lobby", "reason_text",
           "result", "round_lines", "rules_text", "run_line", "status", "table", "turn_timeout", "waiting_status"]
