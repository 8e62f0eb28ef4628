"""Egress proxy overhead: added latency per HTTPS request, and memory while a 50 MB download streams.

    .venv/bin/python bench/bench_proxy.py [--requests 1000]

One real HTTPS server on loopback (tests/proxy/upstream.py) and one `limen proxy` process (TLS intercepted
with Limen's CA, every request decided and audited in a session, responses scanned as they stream). The
same GET is sent directly and through the proxy, alternating request by request on two keep-alive httpx
clients (certificate verification on for both), so load on the machine weighs on both paths alike.
Added latency = proxied minus direct, at the median and at p99. The 50 MB download is read through the
proxy in 64 KiB chunks while the proxy's resident memory is sampled: peak minus the level before it.
The proxy runs in light mode (see below). Also printed: the machine's load average before and after (the
figures move with it on a shared machine), and the proxy process's CPU time per proxied request (mitmproxy's
relay and Limen's decision, audit and response scan together).
Targets (issue 14): median added <= 2 ms, p99 added <= 10 ms, peak RSS growth <= 30 MB.
"""

from __future__ import annotations

import argparse
import os
import ssl
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.proxy.conftest import start_proxy  # noqa: E402
from tests.proxy.upstream import Upstream  # noqa: E402


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000)
    args = parser.parse_args()
    import httpx

    from limen.proxy.sessions import keyed_token
    from limen.state.keys import installation_key

    root = Path(tempfile.mkdtemp(prefix="bench-proxy-"))
    home, project = root / "home", root / "project"
    project.mkdir()
    upstream = Upstream(root)
    # light mode: balanced and above ask after 240 calls a minute in one session (`rules/rate.py`), which
    # 1,000 requests in a few seconds exceed; every other rule and floor still runs on each request
    proxy, port = start_proxy(home, project, upstream, "--mode", "light")
    session = "bench:proxy"
    token = keyed_token(session, installation_key("proxy", str(home)))
    url = f"https://pypi.org:{upstream.port}/echo"
    direct_url = f"https://127.0.0.1:{upstream.port}/echo"  # the same server, its certificate names 127.0.0.1
    bundle = str(home / "proxy" / "ca" / "limen-bundle.pem")
    try:
        direct = httpx.Client(verify=ssl.create_default_context(cafile=str(upstream.ca)), timeout=30)
        proxied = httpx.Client(
            proxy=f"http://{session}:{token}@127.0.0.1:{port}",
            verify=ssl.create_default_context(cafile=bundle),
            timeout=30,
        )
        for _ in range(20):  # warm both paths: TLS sessions, the proxy's imports and certificate cache
            direct.get(direct_url).raise_for_status()
            proxied.get(url).raise_for_status()
        times: dict[str, list[float]] = {"direct": [], "proxied": []}
        print(f"load     {load()} (1, 5, 15 min) before")
        cpu_before = cpu_seconds(proxy.pid)
        for _ in range(args.requests):
            for name, client, target in (("direct", direct, direct_url), ("proxied", proxied, url)):
                started = time.perf_counter()
                answer = client.get(target)
                if answer.status_code != 200:
                    raise SystemExit(f"{name}: {answer.status_code} {answer.text[:300]}")
                times[name].append((time.perf_counter() - started) * 1000)
        for name in ("direct", "proxied"):
            values = times[name]
            print(
                f"{name:8} median {statistics.median(values):6.2f} ms  p99 {percentile(values, 0.99):6.2f} ms"
            )
        cpu_per_request = (cpu_seconds(proxy.pid) - cpu_before) / args.requests * 1000
        added_median = statistics.median(times["proxied"]) - statistics.median(times["direct"])
        added_p99 = percentile(times["proxied"], 0.99) - percentile(times["direct"], 0.99)
        print(f"added    median {added_median:6.2f} ms  p99 {added_p99:6.2f} ms  ({args.requests} each)")
        print(f"proxy    {cpu_per_request:.2f} ms CPU per proxied request; load {load()} after")

        before = rss_kib(proxy.pid)
        peak = before
        done = threading.Event()

        def sample() -> None:
            nonlocal peak
            while not done.is_set():
                peak = max(peak, rss_kib(proxy.pid))
                time.sleep(0.01)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        received = 0
        started = time.perf_counter()
        with proxied.stream("GET", f"https://files.pythonhosted.org:{upstream.port}/big") as answer:
            for chunk in answer.iter_bytes(65536):
                received += len(chunk)
        elapsed = time.perf_counter() - started
        done.set()
        sampler.join()
        print(
            f"stream   {received / 2**20:.0f} MiB in {elapsed:.2f} s; proxy RSS {before / 1024:.1f} MiB "
            f"before, peak growth {(peak - before) / 1024:.1f} MiB"
        )
        direct.close()
        proxied.close()
    finally:
        proxy.terminate()
        proxy.wait(10)
        upstream.close()
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONWARNINGS", "ignore")
    sys.exit(main())
