"""Run the proxy: mitmproxy's `Master` with only the addons a regular forward proxy needs, plus Limen's.

`serve()` blocks until SIGTERM or SIGINT. The listening socket is up when `ready` (a callback) is called,
so `limen run --egress` can start the agent only once the proxy answers.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable

from limen.proxy.addon import LimenAddon, ProxyConfig
from limen.proxy.ca import CaFiles


async def _serve(
    runtime_workspace: str,
    mode: str | None,
    host: str,
    port: int,
    config: ProxyConfig,
    ca: CaFiles,
    upstream_ca: str | None,
    ready: Callable[[int], None] | None,
) -> None:
    from mitmproxy import options
    from mitmproxy.addons import core, next_layer, proxyserver, tlsconfig
    from mitmproxy.master import Master

    from limen.serve.client import door_runtime

    opts = options.Options()
    master = Master(opts, with_termlog=False)
    runtime = door_runtime(runtime_workspace, mode)  # `limen serve` decides when LIMEN_SERVER names one
    server = proxyserver.Proxyserver()  # type: ignore[no-untyped-call]
    master.addons.add(  # type: ignore[no-untyped-call]
        core.Core(), server, next_layer.NextLayer(), tlsconfig.TlsConfig(), LimenAddon(runtime, config)
    )
    settings: dict[str, object] = {
        "listen_host": host,
        "listen_port": port,
        "confdir": ca.confdir,
        "connection_strategy": "lazy",  # no connection to a server before its first request is decided
        "http3": False,
        "rawtcp": False,  # what is neither TLS nor HTTP after a CONNECT is parsed as HTTP (and fails)
        "ssl_insecure": False,
    }
    if upstream_ca:
        settings["ssl_verify_upstream_trusted_ca"] = upstream_ca
    opts.update(**settings)  # type: ignore[no-untyped-call]
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        loop.add_signal_handler(sig, master.shutdown)
    running = asyncio.create_task(master.run())
    while not running.done():
        await asyncio.sleep(0.01)
        addresses = server.listen_addrs()
        if addresses:
            if ready is not None:
                ready(int(addresses[0][1]))
            break
    try:
        await running
    finally:
        runtime.close()


def serve(
    workspace: str,
    mode: str | None,
    host: str,
    port: int,
    config: ProxyConfig,
    ca: CaFiles,
    upstream_ca: str | None = None,
    ready: Callable[[int], None] | None = None,
) -> None:
    asyncio.run(_serve(workspace, mode, host, port, config, ca, upstream_ca, ready))
