"""`limen proxy`: the egress door, a mitmproxy addon that puts every HTTP(S) request an agent's process tree
makes in front of the same decision core as the hooks and the MCP proxy.

- `ca`: the local CA it intercepts TLS with, and how each runtime is told to trust it;
- `sessions`: which session a request joins (the proxy credential `limen run --egress` hands the agent);
- `translate`: a request as a `network.request` call, and the 403 a refused one gets;
- `addon`: the mitmproxy event hooks (`http_connect`, `tls_clienthello`, `request`, `responseheaders`);
- `mcp`: MCP JSON-RPC in proxied traffic, decided and screened with `limen.doors.mcp.guard`;
- `config`: `LIMEN_HOME/proxy.yaml` (pass-through hosts, the body cap);
- `server`: mitmproxy's `Master` with the addons a forward proxy needs.
mitmproxy is the `proxy` extra: nothing here is imported unless the proxy runs.
"""
