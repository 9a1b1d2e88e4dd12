"""The match file (``python -m bot replay``) of a match, from its action log: :func:`match_file`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.match.flow import Flow
from bot.match.work import Reason
from bot.storage.records import ActionRecord, MatchRecord, Status


def match_file(flow: Flow, match: MatchRecord, log: Sequence[ActionRecord]) -> dict[str, Any]:
    """``{"game", "rules", "seed", "moves"}``: one move per played step (the flow's ``export_move`` of every seat's
    choice, or its ``export_choice`` of each), then ``{"forfeit": seat, "reason": ...}`` or
    ``{"draw": "double_timeout"}`` if the match ended that way (the flow's ``ending_move``). A choice of a step that
    was never played stays out of the file: nobody ever saw it."""
    seats = len(match.seats)
    choices: dict[int, list[dict[str, Any] | None]] = {}
    moves: list[dict[str, Any]] = []
    timeouts = [action for action in log if action.kind == Reason.TIMEOUT]
    # A game of more than two where seats go out: a step some seats never chose in was played once anything of
    # a later step is logged, or, for the last step, when the game ended in play (not by a forfeit or draw).
    ended_in_play = (match.result or {}).get("reason") not in (Reason.FORFEIT, Reason.TIMEOUT,
                                                               Reason.DOUBLE_TIMEOUT)

    def flush(before: int | None) -> None:
        for step in sorted(choices):
            if (before is None or step < before) and any(choice is not None for choice in choices[step]):
                moves.append(flow.export_move(choices.pop(step)))  # type: ignore[arg-type]

    for action in log:
        if seats > 2 and any(step < action.step for step in choices):
            flush(action.step)
        if action.kind in flow.choice_kinds:
            single = flow.export_choice(action.seat, action.action)
            if single is not None:
                moves.append(single)
                continue
            step = choices.setdefault(action.step, [None] * seats)
            step[action.seat] = action.action
            if all(choice is not None for choice in step):
                moves.append(flow.export_move(choices.pop(action.step)))  # type: ignore[arg-type]
        elif action.kind == Reason.FORFEIT:
            if action.step in choices:  # an order locked before giving up is never played
                choices[action.step][action.seat] = None
            forfeit = {"forfeit": action.seat, "reason": Reason.FORFEIT}
            moves.append(flow.ending_move(forfeit, action.step))
        elif action.kind == Reason.TIMEOUT:
            together = [t for t in timeouts if t.step == action.step]
            last_step = action.step == log[-1].step and match.result is not None
            everyone_left = last_step and match.result.get("reason") == Reason.DOUBLE_TIMEOUT
            if len(together) == seats or everyone_left:
                if action is together[0]:
                    moves.append(flow.ending_move({"draw": Reason.DOUBLE_TIMEOUT}, action.step))
            else:
                moves.append(flow.ending_move({"forfeit": action.seat, "reason": Reason.TIMEOUT},
                                                   action.step))
    if seats > 2 and ended_in_play and match.status == Status.FINISHED:
        flush(None)
    return {"game": match.game, "rules": dict(match.rules), "seed": match.seed, "moves": moves}
