"""Prometheus metrics of one `limen serve` replica, in the plain text exposition format (no client library).

Counted per replica; Prometheus sums the replicas. Labels carry verdicts, reason codes, routes and status
codes only: never a session id, an identity's token, a tool argument or an explanation.
"""

from __future__ import annotations

import threading
from collections import defaultdict

# Seconds; a decision in-process takes ~0.1-2 ms, over HTTP a little more.
BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Histogram:
    __slots__ = ("counts", "sum", "total")

    def __init__(self) -> None:
        self.counts = [0] * len(BUCKETS)
        self.sum = 0.0
        self.total = 0

    def observe(self, seconds: float) -> None:
        for index, bound in enumerate(BUCKETS):
            if seconds <= bound:
                self.counts[index] += 1
                break
        self.sum += seconds
        self.total += 1


class Metrics:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.decisions: dict[tuple[str, str], int] = defaultdict(int)  # (kind, verdict)
        self.reasons: dict[str, int] = defaultdict(int)
        self.requests: dict[tuple[str, int], int] = defaultdict(int)  # (route, status)
        self.refused: dict[str, int] = defaultdict(int)  # why a request was refused before deciding
        self.latency: dict[str, Histogram] = defaultdict(Histogram)  # kind -> decision latency
        self.in_flight = 0

    def decided(self, kind: str, verdict: str, reasons: list[str], seconds: float) -> None:
        with self._lock:
            self.decisions[(kind, verdict)] += 1
            for code in reasons:
                self.reasons[code] += 1
            self.latency[kind].observe(seconds)

    def request(self, route: str, status: int) -> None:
        with self._lock:
            self.requests[(route, status)] += 1

    def refuse(self, why: str) -> None:
        with self._lock:
            self.refused[why] += 1

    def render(self, extra: dict[str, float] | None = None) -> str:
        with self._lock:
            out = [
                "# HELP limen_decisions_total Decisions made, by kind (decision, output) and verdict.",
                "# TYPE limen_decisions_total counter",
            ]
            out += [
                f'limen_decisions_total{{kind="{k}",verdict="{v}"}} {n}'
                for (k, v), n in sorted(self.decisions.items())
            ]
            out += [
                "# HELP limen_decision_reasons_total Reason codes on decisions.",
                "# TYPE limen_decision_reasons_total counter",
            ]
            out += [
                f'limen_decision_reasons_total{{reason="{r}"}} {n}' for r, n in sorted(self.reasons.items())
            ]
            out += [
                "# HELP limen_decision_seconds Time to decide, audit included, in the replica.",
                "# TYPE limen_decision_seconds histogram",
            ]
            for kind, hist in sorted(self.latency.items()):
                running = 0
                for bound, count in zip(BUCKETS, hist.counts, strict=True):
                    running += count
                    out.append(f'limen_decision_seconds_bucket{{kind="{kind}",le="{bound}"}} {running}')
                out.append(f'limen_decision_seconds_bucket{{kind="{kind}",le="+Inf"}} {hist.total}')
                out.append(f'limen_decision_seconds_sum{{kind="{kind}"}} {hist.sum:.6f}')
                out.append(f'limen_decision_seconds_count{{kind="{kind}"}} {hist.total}')
            out += [
                "# HELP limen_http_requests_total HTTP requests answered, by route and status.",
                "# TYPE limen_http_requests_total counter",
            ]
            out += [
                f'limen_http_requests_total{{route="{r}",status="{s}"}} {n}'
                for (r, s), n in sorted(self.requests.items())
            ]
            out += [
                "# HELP limen_refused_requests_total Requests refused before a decision, by cause.",
                "# TYPE limen_refused_requests_total counter",
            ]
            out += [f'limen_refused_requests_total{{why="{w}"}} {n}' for w, n in sorted(self.refused.items())]
            out += [
                "# HELP limen_requests_in_flight Requests being answered now.",
                "# TYPE limen_requests_in_flight gauge",
                f"limen_requests_in_flight {self.in_flight}",
            ]
        for name, value in sorted((extra or {}).items()):
            out += [f"# TYPE {name} gauge", f"{name} {value:g}"]
        return "\n".join(out) + "\n"
