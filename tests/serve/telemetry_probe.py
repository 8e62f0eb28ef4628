"""Run by tests/serve/test_telemetry.py in a process of its own (OpenTelemetry providers are global and set
once): drives `limen serve`'s app with in-memory exporters and prints what was exported, as JSON.

    python telemetry_probe.py WORKSPACE SCRATCH_DIR
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from opentelemetry import metrics, trace
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter


def main(workspace: str, scratch: str) -> None:
    spans, reader = InMemorySpanExporter(), InMemoryMetricReader()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(spans))
    trace.set_tracer_provider(provider)
    metrics.set_meter_provider(MeterProvider(metric_readers=[reader]))

    from limen.serve.app import DecisionService, ServeRuntime
    from limen.serve.config import Identities, add_token, load
    from limen.serve.owners import SqliteOwners
    from limen.state.memory import MemoryStore

    token = add_token("agent-a")
    runtime = ServeRuntime(workspace=workspace, store=MemoryStore(), audit_sink=f"{scratch}/audit")
    app = DecisionService(runtime, SqliteOwners(f"{scratch}/owners.sqlite"), Identities(None, load()))
    body = {"tool": "Bash", "arguments": {"command": "rm -rf / --token=s3cr3t-value"}}
    sent: list[dict[str, Any]] = []
    messages = [{"type": "http.request", "body": json.dumps(body).encode(), "more_body": False}]

    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        sent.append(message)

    headers = [(b"authorization", f"Bearer {token}".encode())]
    scope = {"type": "http", "method": "POST", "path": "/v1/decide", "headers": headers}
    asyncio.run(app(scope, receive, send))  # type: ignore[arg-type]
    data = reader.get_metrics_data()
    points = [
        {
            "name": metric.name,
            "attributes": dict(point.attributes or {}),
            "value": getattr(point, "value", None),
        }
        for rm in (data.resource_metrics if data else [])
        for sm in rm.scope_metrics
        for metric in sm.metrics
        for point in metric.data.data_points
    ]
    exported = {
        "status": sent[0]["status"],
        "decision": json.loads(sent[1]["body"]),
        "spans": [
            {
                "name": s.name,
                "attributes": dict(s.attributes or {}),
                "events": [{"name": e.name, "attributes": dict(e.attributes or {})} for e in s.events],
            }
            for s in spans.get_finished_spans()
        ],
        "points": points,
    }
    runtime.close()
    print(json.dumps(exported, default=list))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
