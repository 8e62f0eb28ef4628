"""`limen serve`: the decision core as an HTTP service for a fleet of agents.

    app.py      the ASGI app: /v1/decide, /v1/observe, /v1/prompt, /v1/approvals/ID, /healthz, /readyz,
                /metrics, on `limen.runtime.Runtime` (ServeRuntime: the audit sink as configured)
    config.py   serve.yaml and the tokens file: agent identities by the SHA-256 of their bearer tokens
    owners.py   the identity each session is bound to (the first to use it)
    metrics.py  Prometheus text exposition
    client.py   `LIMEN_SERVER`: deciding through the service, failing closed (`limen.evaluate`, the MCP
                proxy, the egress proxy and `limen.Guard` use it: `door_runtime`)
    policy.py   the organisation policy from one place: a file, or versions published to PostgreSQL

Shared state lives in `limen.state.redis`, the shared audit in `limen.audit.postgres`.
"""
