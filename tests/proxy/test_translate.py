"""What the decision core is handed for a request: every header that can carry data, except the proxy's own
credential and a Host header that only repeats the URL's host."""

from __future__ import annotations

import pytest

from limen.proxy import translate

URL = "https://pypi.org:8443/simple/"
AUTHORITY = ("pypi.org", "pypi.org:8443")


def _headers(*fields: tuple[str, str]) -> dict[str, object]:
    return translate.arguments("GET", URL, list(fields), b"", None, 1024, authority=AUTHORITY).arguments


@pytest.mark.parametrize("value", ["pypi.org:8443", "pypi.org"])
def test_a_host_header_repeating_the_urls_host_is_left_out(value: str) -> None:
    found = _headers(("Host", value), ("Accept", "*/*"))
    assert found["protocol_headers"] == ["Accept: */*"]
    assert found["url"] == URL


@pytest.mark.parametrize(
    "value", ["evil.example", "pypi.org:9999", "pypi.org.evil.example", "PYPI.ORG:8443x"]
)
def test_a_host_header_naming_anything_else_is_kept(value: str) -> None:
    assert _headers(("Host", value))["protocol_headers"] == [f"Host: {value}"]


def test_the_proxys_own_credential_is_never_shown_and_data_headers_are() -> None:
    found = _headers(("Proxy-Authorization", "Basic c2Vzc2lvbjp0b2tlbg=="), ("X-Trace", "abc"))
    assert found["headers"] == ["X-Trace: abc"]
    assert "protocol_headers" not in found
