"""Egress proxy overhead: added latency per HTTPS request, and memory while a 50 MB download streams.

    .venv/bin/python bench/bench_proxy.py [--requests 1000] [--baseline-src DIR]

One real HTTPS server on loopback (tests/proxy/upstream.py) and, side by side, the proxies it is reached
through: `mitmproxy` (the same mitmproxy Master, options and CA as `limen proxy`, with Limen's addon replaced
by one that only routes the test host names to the loopback server: what mitmproxy's relay alone costs),
`limen` (this tree's `limen proxy`: TLS intercepted with Limen's CA, every request decided and audited in a
session, responses scanned), and with `--baseline-src DIR` (e.g. `git archive HEAD src | tar -x -C /tmp/p0`,
then `--baseline-src /tmp/p0/src`) `baseline`, the `limen proxy` of that source tree, in a LIMEN_HOME of its
own. The same GET is sent directly and through each proxy, interleaved request by request (in a shuffled
order each round, so what a proxy does after its answer, like Limen's response scan, weighs on the next
request whichever path it takes) on keep-alive httpx clients with certificate verification on, so the
machine's load (shared, and its speed varies ~2x between hours) weighs on every path alike: only figures
from one run compare.
Added latency = a path's median (p99) minus the direct path's; `limen` minus `mitmproxy` is Limen's own
share. Also printed: the load average before and after, and each proxy process's CPU time per request.
The 50 MB download is then read through `limen` in 64 KiB chunks while its resident memory is sampled:
peak minus the level before it. The proxies run in light mode: balanced and above ask after 240 calls a
minute in one session (`rules/rate.py`), which 1,000 requests in a few seconds exceed; every other rule
and floor still runs on each request.
Targets (issue 14): median added <= 2 ms, p99 added <= 10 ms, peak RSS growth <= 30 MB.
"""

from __future__ import annotations

import argparse
import os
import random
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.proxy.conftest import start_proxy  # noqa: E402
from tests.proxy.upstream import Upstream  # noqa: E402

SESSION = "bench:proxy"


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time the process has used."""
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Route:
    """One way to the server: a client, the URL it asks, and the proxy process it goes through (if any)."""

    name: str
    client: Any
    url: str
    proxy: subprocess.Popen[bytes] | None = None
    times: list[float] = field(default_factory=list)
    cpu: float = 0.0


class _RouteOnly:
    """The bare proxy's only addon: Limen's `--resolve` routing (connect to loopback for a test host name,
    certificate still verified for the name), nothing decided, audited or scanned."""

    def __init__(self, runtime: Any, config: Any) -> None:
        from limen.proxy.addon import LimenAddon

        self._routing = LimenAddon(runtime, config)
        self.server_connect = self._routing.server_connect
        self.server_connected = self._routing.server_connected


def serve_bare(argv: list[str]) -> int:
    """`limen proxy` with Limen's addon swapped for `_RouteOnly`: mitmproxy as Limen configures it."""
    import limen.proxy.server
    from limen.cli import proxy

    limen.proxy.server.LimenAddon = _RouteOnly  # type: ignore[attr-defined,assignment]
    return proxy.main(argv)


def proxied_client(home: Path, port: int, bundle_home: Path | None = None) -> Any:
    import httpx

    from limen.proxy.sessions import keyed_token
    from limen.state.keys import installation_key

    token = keyed_token(SESSION, installation_key("proxy", str(home)))
    bundle = str((bundle_home or home) / "proxy" / "ca" / "limen-bundle.pem")
    return httpx.Client(
        proxy=f"http://{SESSION}:{token}@127.0.0.1:{port}",
        verify=ssl.create_default_context(cafile=bundle),
        timeout=30,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument(
        "--baseline-src",
        metavar="DIR",
        action="append",
        default=[],
        help="Also time the `limen proxy` of this source tree (its src/); repeatable.",
    )
    args = parser.parse_args()
    import httpx

    root = Path(tempfile.mkdtemp(prefix="bench-proxy-"))
    home, project = root / "home", root / "project"
    project.mkdir()
    upstream = Upstream(root)
    url = f"https://pypi.org:{upstream.port}/echo"
    paths = [
        Route(
            "direct",
            httpx.Client(verify=ssl.create_default_context(cafile=str(upstream.ca)), timeout=30),
            f"https://127.0.0.1:{upstream.port}/echo",  # the same server: its certificate names 127.0.0.1
        )
    ]
    try:
        proxy, port = start_proxy(home, project, upstream, "--mode", "light")
        paths.append(Route("limen", proxied_client(home, port), url, proxy))
        bare, port = start_proxy(
            home, project, upstream, "--mode", "light", launcher=[__file__, "--serve-bare"]
        )
        paths.append(Route("mitmproxy", proxied_client(home, port), url, bare))
        for number, tree in enumerate(args.baseline_src):
            name = "baseline" if len(args.baseline_src) == 1 else f"baseline{number + 1}"
            other = root / f"{name}-home"
            source = str(Path(tree).resolve())
            proc, port = start_proxy(other, project, upstream, "--mode", "light", env={"PYTHONPATH": source})
            paths.append(Route(name, proxied_client(other, port), url, proc))
        for _ in range(20):  # warm every path: TLS sessions, the proxies' imports and certificate caches
            for path in paths:
                path.client.get(path.url).raise_for_status()
        print(f"load      {load()} (1, 5, 15 min) before")
        for path in paths:
            path.cpu = cpu_seconds(path.proxy.pid) if path.proxy else 0.0
        order = random.Random(14)
        for _ in range(args.requests):
            for path in order.sample(paths, len(paths)):
                started = time.perf_counter()
                answer = path.client.get(path.url)
                elapsed = (time.perf_counter() - started) * 1000
                if answer.status_code != 200:
                    raise SystemExit(f"{path.name}: {answer.status_code} {answer.text[:300]}")
                path.times.append(elapsed)
        after = load()
        direct = paths[0].times
        by_name = {p.name: p for p in paths}
        for path in paths:
            median, p99 = statistics.median(path.times), percentile(path.times, 0.99)
            line = f"{path.name:9} median {median:6.2f} ms  p99 {p99:6.2f} ms"
            if path.proxy:
                added, added_p99 = median - statistics.median(direct), p99 - percentile(direct, 0.99)
                cpu = (cpu_seconds(path.proxy.pid) - path.cpu) / args.requests * 1000
                line += f"  added median {added:5.2f} ms  p99 {added_p99:5.2f} ms  CPU {cpu:.2f} ms/request"
            print(line)
        bare_median = statistics.median(by_name["mitmproxy"].times)
        for name in by_name:
            if name not in ("direct", "mitmproxy"):
                share = statistics.median(by_name[name].times) - bare_median
                print(f"{name:9} over mitmproxy alone: median {share:5.2f} ms")
        print(f"({args.requests} requests on each path; load {after} after)")

        limen = by_name["limen"]
        assert limen.proxy is not None
        before = rss_kib(limen.proxy.pid)
        peak = before
        done = threading.Event()

        def sample() -> None:
            nonlocal peak
            assert limen.proxy is not None
            while not done.is_set():
                peak = max(peak, rss_kib(limen.proxy.pid))
                time.sleep(0.01)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        received = 0
        started = time.perf_counter()
        big = f"https://files.pythonhosted.org:{upstream.port}/big"
        with limen.client.stream("GET", big) as answer:
            for chunk in answer.iter_bytes(65536):
                received += len(chunk)
        elapsed = time.perf_counter() - started
        done.set()
        sampler.join()
        print(
            f"stream    {received / 2**20:.0f} MiB in {elapsed:.2f} s through limen; its RSS "
            f"{before / 1024:.1f} MiB before, peak growth {(peak - before) / 1024:.1f} MiB"
        )
    finally:
        for path in paths:
            path.client.close()
            if path.proxy is not None:
                path.proxy.terminate()
                path.proxy.wait(10)
        upstream.close()
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONWARNINGS", "ignore")
    if sys.argv[1:2] == ["--serve-bare"]:
        sys.exit(serve_bare(sys.argv[2:]))
    sys.exit(main())
