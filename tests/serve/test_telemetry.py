"""OpenTelemetry from `limen serve` (the app called in-process): one span per decision with its stages as
events and reason codes as attributes, metrics by verdict and reason, and no argument value anywhere."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("opentelemetry.sdk", reason="opentelemetry-sdk is in the dev extra")

from opentelemetry import metrics, trace
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from limen.serve.app import DecisionService, ServeRuntime
from limen.serve.config import Identities, add_token, load
from limen.serve.owners import SqliteOwners
from limen.state.memory import MemoryStore

SPANS = InMemorySpanExporter()
READER = InMemoryMetricReader()


@pytest.fixture(scope="module", autouse=True)
def providers() -> None:
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(SPANS))
    trace.set_tracer_provider(provider)
    metrics.set_meter_provider(MeterProvider(metric_readers=[READER]))


def _call(app: DecisionService, path: str, body: dict[str, Any], token: str) -> tuple[int, Any]:
    sent: list[dict[str, Any]] = []
    messages = [{"type": "http.request", "body": json.dumps(body).encode(), "more_body": False}]

    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "path": path,
        "headers": [(b"authorization", f"Bearer {token}".encode())],
    }
    asyncio.run(app(scope, receive, send))  # type: ignore[arg-type]
    return sent[0]["status"], json.loads(sent[1]["body"])


def test_a_decision_is_one_span_with_its_stages_and_counted(workspace: str, tmp_path: Path) -> None:
    token = add_token("agent-a")
    runtime = ServeRuntime(workspace=workspace, store=MemoryStore(), audit_sink=str(tmp_path / "audit"))
    app = DecisionService(runtime, SqliteOwners(str(tmp_path / "owners.sqlite")), Identities(None, load()))
    status, decision = _call(
        app, "/v1/decide", {"tool": "Bash", "arguments": {"command": "rm -rf / --token=s3cr3t-value"}}, token
    )
    assert status == 200 and decision["verdict"] == "BLOCK"
    span = next(s for s in SPANS.get_finished_spans() if s.name == "limen.decision")
    assert span.attributes is not None
    assert span.attributes["limen.verdict"] == "BLOCK"
    assert "destructive_command" in span.attributes["limen.reasons"]  # type: ignore[operator]
    assert (
        span.attributes["limen.agent"] == "agent-a" and span.attributes["limen.capability"] == "shell.execute"
    )
    assert [e.name for e in span.events] == [stage["stage"] for stage in decision["evidence"]]
    assert span.events  # the stages that ran (a BLOCK by a rule may end the path early)
    exported = json.dumps([dict(s.attributes or {}) for s in SPANS.get_finished_spans()], default=str)
    exported += json.dumps([[dict(e.attributes or {}) for e in s.events] for s in SPANS.get_finished_spans()])
    assert "s3cr3t" not in exported and "rm -rf" not in exported
    data = READER.get_metrics_data()
    assert data is not None
    points = {
        (metric.name, tuple(sorted(dict(point.attributes or {}).items()))): getattr(point, "value", None)
        for rm in data.resource_metrics
        for sm in rm.scope_metrics
        for metric in sm.metrics
        for point in metric.data.data_points
    }
    assert points[("limen.decisions", (("kind", "decision"), ("verdict", "BLOCK")))] == 1
    assert points[("limen.reasons", (("reason", "destructive_command"),))] == 1
    assert ("limen.approvals.pending", ()) in points
    runtime.close()
