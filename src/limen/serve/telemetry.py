"""OpenTelemetry for `limen serve`, through the OpenTelemetry API only: nothing is sent anywhere unless the
operator configures an SDK and an exporter (for example `pip install opentelemetry-distro
opentelemetry-exporter-otlp` and `opentelemetry-instrument limen serve ...` with the OTEL_* variables).
Without the API installed, or without a configured SDK, every call here is a no-op.

A span per decision (`limen.decision` / `limen.output`): verdict, risk, reason codes, capability, door and
the agent identity as attributes, each stage of the evidence trail as an event. Never an argument value, a
session id, an explanation or a token. Metrics: `limen.decisions` (by kind and verdict), `limen.reasons` (by
reason code), `limen.decision.duration` (seconds, by kind), `limen.approvals.pending` (observed).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from limen.model import Decision

_instruments: dict[str, Any] | None = None


def _setup(pending: Callable[[], int] | None) -> dict[str, Any]:
    global _instruments
    if _instruments is None:
        try:
            from opentelemetry import metrics, trace
        except ImportError:
            _instruments = {}
            return _instruments
        meter = metrics.get_meter("limen.serve")
        _instruments = {
            "tracer": trace.get_tracer("limen.serve"),
            "decisions": meter.create_counter("limen.decisions", description="decisions by kind and verdict"),
            "reasons": meter.create_counter("limen.reasons", description="reason codes on decisions"),
            "duration": meter.create_histogram(
                "limen.decision.duration", unit="s", description="time to decide, audit included"
            ),
        }
        if pending is not None:

            def observe(_options: Any) -> Iterator[Any]:
                from opentelemetry.metrics import Observation

                with contextlib.suppress(Exception):  # an unreadable store reports nothing, not an error
                    yield Observation(pending())

            meter.create_observable_gauge(
                "limen.approvals.pending", callbacks=[observe], description="approval requests waiting"
            )
    return _instruments


def start(pending: Callable[[], int] | None = None) -> None:
    """Create the instruments once (the pending-approvals gauge reads `pending` when exported)."""
    _setup(pending)


@contextlib.contextmanager
def decision_span(kind: str, identity: str, door: str) -> Iterator[Callable[[Decision, float], None]]:
    """A span around one decision; call the yielded function with the decision and its seconds."""
    instruments = _setup(None)
    tracer = instruments.get("tracer")
    if tracer is None:
        yield lambda decision, seconds: None
        return
    with tracer.start_as_current_span(f"limen.{kind}") as span:

        def finish(decision: Decision, seconds: float) -> None:
            reasons = [r.value for r in decision.reasons]
            span.set_attribute("limen.verdict", decision.verdict.name)
            span.set_attribute("limen.risk", decision.risk)
            span.set_attribute("limen.reasons", reasons)
            span.set_attribute("limen.door", door)
            span.set_attribute("limen.agent", identity)
            if decision.action is not None:
                span.set_attribute("limen.capability", decision.action.capability)
            for stage in decision.evidence:
                span.add_event(
                    stage.stage,
                    {
                        "limen.verdict": stage.verdict.name,
                        "limen.risk": stage.risk,
                        "limen.reasons": [r.value for r in stage.reasons],
                        "limen.us": round(stage.micros, 1),
                    },
                )
            instruments["decisions"].add(1, {"kind": kind, "verdict": decision.verdict.name})
            for code in reasons:
                instruments["reasons"].add(1, {"reason": code})
            instruments["duration"].record(seconds, {"kind": kind})

        yield finish
