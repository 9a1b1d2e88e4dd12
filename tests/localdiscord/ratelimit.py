"""Per-route rate-limit buckets with Discord's headers, and 429s when a bucket is exceeded.

Buckets are fixed windows that open with their first request (``limit`` requests per ``per`` seconds, counted
per major parameter: channel, guild, or webhook id + token).  Each request carries its route bucket's
``X-RateLimit-*`` headers.  Named rules:

* ``messages`` -- ``POST /channels/{id}/messages``, per channel (Discord: 5 per 5 s);
* ``edits`` -- ``PATCH /channels/{id}/messages/{id}``, per channel (5 per 5 s);
* ``default`` -- every other route, per route and major parameter (50 per 1 s).

discord.py reads the headers and paces itself, so an *announced* bucket is normally never exceeded.  A rule
set with ``hidden=True`` is instead enforced as Discord's per-resource "shared" limits are: it is not in the
headers (the route shows the ``default`` bucket), and exceeding it answers 429 with
``X-RateLimit-Scope: shared`` -- that is what makes a client actually meet 429s and retry.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass, field


@dataclass
class Rule:
    name: str
    limit: int
    per: float
    hidden: bool = False


@dataclass
class Window:
    count: int = 0
    opened: float = 0.0
    reset_at: float = 0.0


@dataclass
class Decision:
    allowed: bool
    headers: dict[str, str]
    retry_after: float = 0.0
    scope: str = "user"
    bucket: str = ""


ROUTE_RULES = {
    ("POST", "/channels/{channel_id}/messages"): "messages",
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): "edits",
}
MAJOR = ("channel_id", "guild_id", "webhook_id", "webhook_token", "interaction_id", "interaction_token")


@dataclass
class RateLimiter:
    rules: dict[str, Rule] = field(default_factory=lambda: {
        "messages": Rule("messages", 5, 5.0),
        "edits": Rule("edits", 5, 5.0),
        "default": Rule("default", 50, 1.0),
    })
    windows: dict[tuple, Window] = field(default_factory=dict)
    count_429: int = 0
    log_429: list[str] = field(default_factory=list)
    enabled: bool = True

    def configure(self, name: str, *, limit: int, per: float, hidden: bool = False) -> None:
        if name not in self.rules:
            raise KeyError(f"unknown rate-limit rule {name!r}: one of {sorted(self.rules)}")
        self.rules[name] = Rule(name, limit, per, hidden)
        self.windows = {k: w for k, w in self.windows.items() if k[0] != name}

    def check(self, method: str, template: str, params: dict[str, str]) -> Decision:
        """Count the request; the decision says whether to answer it or 429, with the headers to send."""
        now = time.monotonic()
        major = "+".join(params[k] for k in MAJOR if k in params)
        name = ROUTE_RULES.get((method, template), "default")
        rule = self.rules[name]
        announced = rule if not rule.hidden else self.rules["default"]
        route_key = (announced.name, f"{method} {template}" if announced.name == "default" else "", major)
        extra = [(rule, (rule.name, "", major))] if rule.hidden else []
        bucket_id = hashlib.md5(f"{route_key[0]}:{route_key[1]}".encode()).hexdigest()[:16]

        if not self.enabled:
            return Decision(True, {})
        for hidden_rule, key in extra:
            window = self._window(key, hidden_rule, now)
            if window.count >= hidden_rule.limit:
                retry = window.reset_at - now
                return self._limited(method, template, retry, "shared", bucket_id, announced, route_key, now)
        window = self._window(route_key, announced, now)
        if window.count >= announced.limit:
            return self._limited(method, template, window.reset_at - now, "user", bucket_id, announced, route_key, now)
        window.count += 1
        for hidden_rule, key in extra:
            self._window(key, hidden_rule, now).count += 1
        return Decision(True, self._headers(announced, window, now, bucket_id), bucket=bucket_id)

    def _window(self, key: tuple, rule: Rule, now: float) -> Window:
        window = self.windows.get(key)
        if window is None or now >= window.reset_at:
            window = Window(0, now, now + rule.per)
            self.windows[key] = window
        return window

    def _headers(self, rule: Rule, window: Window, now: float, bucket_id: str) -> dict[str, str]:
        # Reset-After is rounded *up* to the millisecond so a client sleeping it never wakes early
        after = max(0.0, math.ceil((window.reset_at - now) * 1000) / 1000)
        return {
            "X-RateLimit-Limit": str(rule.limit),
            "X-RateLimit-Remaining": str(max(0, rule.limit - window.count)),
            "X-RateLimit-Reset": f"{time.time() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": bucket_id,
        }

    def _limited(self, method: str, template: str, retry: float, scope: str, bucket_id: str, announced: Rule,
                 route_key: tuple, now: float) -> Decision:
        retry = max(0.001, math.ceil(retry * 1000) / 1000)
        self.count_429 += 1
        self.log_429.append(f"{method} {template} ({scope}, retry after {retry:.3f} s)")
        window = self._window(route_key, announced, now)
        headers = self._headers(announced, window, now, bucket_id)
        headers.update({
            "Retry-After": str(max(1, math.ceil(retry))),
            "X-RateLimit-Scope": scope,
        })
        if scope == "shared":
            headers["X-RateLimit-Remaining"] = str(max(0, announced.limit - window.count))
        else:
            headers["X-RateLimit-Remaining"] = "0"
        return Decision(False, headers, retry_after=retry, scope=scope, bucket=bucket_id)
