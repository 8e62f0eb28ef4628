"""Asking the provider: one POST under a hard deadline, a cache, and a circuit breaker.

- Deadline: the request runs in a daemon thread with the socket timeout `timeout_seconds`; the caller waits
  at most `min(timeout_seconds, budget_ms)`. A provider that trickles its answer past that is a timeout;
  its thread ends when the socket times out, and its late answer is dropped.
- Cache: verdicts by request fingerprint (the masked action and its evidence; SHA-256, process memory only),
  for `cache_seconds`, at most `CACHE_SIZE` entries. Failures are not cached.
- Breaker: after `breaker_failures` failures in a row (HTTP status other than 200, connection refused, a
  timeout, an answer that is not a verdict of the schema), the provider is skipped for
  `breaker_cooldown_seconds`; the next request after the cool-down is a trial, and one more failure opens it
  again. A skipped or failed request is no verdict: the decision stands as the engine made it.

Standard library only (`http.client`), imported when a judge is configured, never by `import limen`.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from http.client import HTTPConnection, HTTPSConnection
from urllib.parse import urlsplit

from limen.judge import providers
from limen.judge.config import JudgeConfig
from limen.judge.request import JudgeAnswerError, JudgeRequest, JudgeVerdict, parse_verdict

CACHE_SIZE = 2048
MAX_ANSWER_BYTES = 1_000_000


class JudgeUnavailable(Exception):
    """The provider could not be asked or did not answer in time. The message names no value."""


@dataclass(slots=True, frozen=True)
class Outcome:
    """What asking gave: a verdict, or none and why (`status`), and how long it took."""

    verdict: JudgeVerdict | None
    status: str  # answered | cached | breaker_open | timeout | http_<status> | unreachable | bad_answer
    millis: float


@dataclass(slots=True)
class _Breaker:
    failures: int = 0
    open_until: float = 0.0


def _post(url: str, headers: dict[str, str], body: bytes, timeout: float) -> bytes:
    parts = urlsplit(url)
    host = parts.hostname or ""
    connection = (HTTPSConnection if parts.scheme == "https" else HTTPConnection)(
        host, parts.port, timeout=timeout
    )
    try:
        path = parts.path or "/"
        if parts.query:
            path += "?" + parts.query
        connection.request("POST", path, body, headers)
        response = connection.getresponse()
        data = response.read(MAX_ANSWER_BYTES + 1)
        if response.status != 200:
            raise JudgeUnavailable(f"http_{response.status}")
        if len(data) > MAX_ANSWER_BYTES:
            raise JudgeAnswerError("the answer is too large")
        return data
    finally:
        connection.close()


class Judge:
    """One per process (`shared()`): the cache and the breakers outlive a decision."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, tuple[float, JudgeVerdict]] = OrderedDict()
        self._breakers: dict[tuple[str, str, str], _Breaker] = {}

    def breaker_open(self, config: JudgeConfig) -> bool:
        with self._lock:
            breaker = self._breakers.get((config.provider, config.url, config.model))
            return breaker is not None and time.monotonic() < breaker.open_until

    def ask(self, config: JudgeConfig, request: JudgeRequest) -> Outcome:
        """The provider's verdict on `request`, or no verdict and why. Never raises."""
        started = time.monotonic()
        ident = (config.provider, config.url, config.model)
        key = f"{config.provider}\x00{config.url}\x00{config.model}\x00{request.key}"
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None and hit[0] > started:
                self._cache.move_to_end(key)
                return Outcome(hit[1], "cached", 0.0)
            breaker = self._breakers.setdefault(ident, _Breaker())
            if started < breaker.open_until:
                return Outcome(None, "breaker_open", 0.0)
        try:
            verdict = self._request(config, request)
            status = "answered"
        except JudgeAnswerError:
            verdict, status = None, "bad_answer"
        except JudgeUnavailable as exc:
            verdict, status = None, str(exc)
        except Exception:
            verdict, status = None, "unreachable"
        now = time.monotonic()
        with self._lock:
            if verdict is None:
                breaker.failures += 1
                if breaker.failures >= config.breaker_failures:
                    breaker.open_until = now + config.breaker_cooldown_seconds
            else:
                breaker.failures, breaker.open_until = 0, 0.0
                if config.cache_seconds > 0:
                    self._cache[key] = (now + config.cache_seconds, verdict)
                    self._cache.move_to_end(key)
                    while len(self._cache) > CACHE_SIZE:
                        self._cache.popitem(last=False)
        return Outcome(verdict, status, (now - started) * 1000)

    def _request(self, config: JudgeConfig, request: JudgeRequest) -> JudgeVerdict:
        url = providers.endpoint(config.provider, config.url)
        body = providers.body(config.provider, config.model, request)
        headers = providers.headers(config.provider, config.api_key())
        wait = min(config.timeout_seconds, config.budget_ms / 1000)
        result: list[bytes | BaseException] = []

        def run() -> None:
            try:
                result.append(_post(url, headers, body, config.timeout_seconds))
            except BaseException as exc:  # handed to the waiting caller
                result.append(exc)

        worker = threading.Thread(target=run, name="limen-judge", daemon=True)
        worker.start()
        worker.join(wait)
        if not result:
            raise JudgeUnavailable("timeout")
        outcome = result[0]
        if isinstance(outcome, JudgeUnavailable | JudgeAnswerError):
            raise outcome
        if isinstance(outcome, TimeoutError):
            raise JudgeUnavailable("timeout")
        if isinstance(outcome, BaseException):
            raise JudgeUnavailable("unreachable")
        try:
            answer = json.loads(outcome)
        except ValueError:
            raise JudgeAnswerError("the answer is not JSON") from None
        return parse_verdict(providers.verdict_object(config.provider, answer))


_shared: list[Judge] = []
_shared_lock = threading.Lock()


def shared() -> Judge:
    with _shared_lock:
        if not _shared:
            _shared.append(Judge())
        return _shared[0]
