"""Destinations: URLs and hosts normalised the way a resolver or a socket would see them.

An agent (or a page that steers it) can spell one address many ways: `https://github.com@evil.com`
(userinfo), `http://2130706433/` (decimal IPv4), `0177.0.0.1`, `0x7f000001`, `127.1`, `[::ffff:a9fe:a9fe]`,
`xn--` punycode, Cyrillic letters that look Latin, fullwidth forms, zero-width characters. Everything here
resolves those spellings statically (no DNS) into one canonical `Destination` whose `host` is the ASCII name
a resolver would query, with `host_class` and `flags` saying what the spelling hid. Functions never raise
and bound their work on huge texts.
"""

from __future__ import annotations

import contextlib
import ipaddress
import re
import unicodedata
from urllib.parse import unquote, urlsplit

from limen.facts import hosts
from limen.model import Destination, HostClass

MAX_SCAN_CHARS = 200_000  # text beyond this is not searched for URLs
MAX_DESTINATIONS = 64  # per call; more is itself unusual and the first ones decide

# What kind of host an address or name is: the host table (`limen.facts.hosts`).
_METADATA_IPS = hosts.METADATA_IPS
_METADATA_NAMES = hosts.METADATA_NAMES
_CGNAT = ipaddress.ip_network("100.64.0.0/10")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_PRIVATE_SUFFIXES = hosts.PRIVATE_SUFFIXES
_IP_IN_NAME_SUFFIXES = hosts.IP_IN_NAME_SUFFIXES
_LOOPBACK_NAMES = hosts.LOOPBACK_NAMES
_LOOPBACK_SUFFIXES = hosts.LOOPBACK_SUFFIXES

_URL = re.compile(r"(?i)\b([a-z][a-z0-9+.-]{0,15})://([^\s'\"<>`\\{}|^]+)")
# Schemeless `host.tld/path` or `host.tld:port`: only with a common web TLD that is not also a file
# extension (no `.sh`, `.cc`, `.ml`, `.so`...), so `setup.py`, `run.sh:12` or `a.b` never match.
_SCHEMELESS = re.compile(
    r"(?i)(?<![\w@/.:-])((?:[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?\.)+"
    r"(?:com|net|org|io|dev|ai|co|app|xyz|info|biz|gg|ly|ru|cn|su|tk|ga|cf|top|site|online|"
    r"club|click|de|uk|fr|nl|eu|us|jp|br|cloud|tech)"
    r")(?=[/:])(?::(\d{1,5}))?(/[^\s'\"<>`\\]*)?"
)
# An address: a run of address characters read once (possessive), with its domain where an `@` ends the run.
# Matches without a domain are runs with no address in them; callers skip them. (A free `+` here rescanned a
# long run from each of its positions: 80 kB of argument took 80 s.)
ADDRESS = re.compile(r"[^\s<>,;\"'@]++(?:@([^\s<>,;\"'@]++))?")
_HOST_CHARS = re.compile(r"^[a-z0-9._-]+$")
_HEX_BLOB = re.compile(r"^[0-9a-f]{8}$")
_SPACE = re.compile(r"\s")  # the characters `str.isspace` accepts

# Letters of other scripts that render like Latin ones (a subset of Unicode's confusables.txt that covers
# the letters used in real homoglyph domains), plus ASCII look-alikes used in the skeleton.
_CONFUSABLES = str.maketrans(
    {
        "а": "a",
        "в": "b",
        "е": "e",
        "һ": "h",
        "і": "i",
        "ј": "j",
        "к": "k",
        "ӏ": "l",
        "м": "m",
        "н": "h",
        "о": "o",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "х": "x",
        "ѕ": "s",
        "ԁ": "d",
        "ԛ": "q",
        "ԝ": "w",
        "ү": "y",
        "ɡ": "g",
        "ɑ": "a",
        "ı": "i",
        "ȷ": "j",
        "ℓ": "l",
        "ο": "o",
        "α": "a",
        "ν": "v",
        "ι": "i",
        "κ": "k",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        "ε": "e",
        "β": "b",
        "γ": "y",
        "η": "n",
        "μ": "u",
        "ω": "w",
        "ѵ": "v",
        "ԍ": "g",
        "ց": "g",
        "օ": "o",
        "ս": "u",
        "հ": "h",
        "ո": "n",
        "ɩ": "i",
        "ʏ": "y",
        "0": "o",
        "1": "l",
    }
)
_CONFUSABLE_SCRIPTS = frozenset({"CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC", "GEORGIAN"})


def skeleton(host: str) -> str:
    """A key under which look-alike names collide (`gіthub.com`, Cyrillic і, and `github.com`)."""
    text = unicodedata.normalize("NFKD", host.lower())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return text.translate(_CONFUSABLES).replace("rn", "m").replace("vv", "w")


def _script(ch: str) -> str:
    if ch.isascii():
        return "LATIN" if ch.isalpha() else ""
    try:
        return unicodedata.name(ch).split(" ", 1)[0]
    except ValueError:
        return "UNKNOWN"


def _looks_spoofed(unicode_host: str) -> bool:
    """Mixed Latin and look-alike scripts in one label, or a whole label made only of look-alike letters."""
    for label in unicode_host.split("."):
        if label.isascii():
            continue
        scripts = {_script(ch) for ch in label if ch.isalpha()}
        if "LATIN" in scripts and scripts & _CONFUSABLE_SCRIPTS:
            return True
        if scripts and scripts <= _CONFUSABLE_SCRIPTS and skeleton(label).isascii():
            return True
    return False


def _ipv4_number(part: str) -> int | None:
    """One part of an inet_aton-style address: decimal, 0-octal or 0x-hex (the WHATWG URL IPv4 parser)."""
    try:
        if part[:2] in ("0x", "0X"):
            return int(part[2:] or "0", 16)
        if len(part) > 1 and part.startswith("0"):
            return int(part, 8)
        return int(part, 10)
    except ValueError:
        return None


def parse_ipv4(host: str) -> tuple[ipaddress.IPv4Address, bool] | None:
    """An IPv4 literal in any form a resolver accepts, and whether it was not plain dotted-decimal."""
    parts = host.split(".")
    if parts and parts[-1] == "":
        parts.pop()
    if not 1 <= len(parts) <= 4 or not all(parts):
        return None
    numbers = [_ipv4_number(p) for p in parts]
    if any(n is None for n in numbers):
        return None
    values = [n for n in numbers if n is not None]
    if any(n > 255 for n in values[:-1]) or values[-1] >= 256 ** (5 - len(values)):
        return None
    address = values[-1]
    for i, n in enumerate(values[:-1]):
        address += n << (8 * (3 - i))
    plain = len(parts) == 4 and all(p.isdigit() and (p == "0" or not p.startswith("0")) for p in parts)
    return ipaddress.IPv4Address(address), not plain


def _embedded_ipv4(host: str) -> ipaddress.IPv4Address | None:
    """`10.0.0.1.nip.io`, `app-10-0-0-1.sslip.io`, `0a000001.nip.io`: the address such a name resolves to;
    and a name of any domain that opens with a whole address (`169.254.169.254.nip.io.relay.example`): any
    domain's wildcard records can answer as those services do, and nothing else is named so."""
    if not host.endswith(_IP_IN_NAME_SUFFIXES):
        labels = host.split(".")
        leading = ".".join(labels[:4]) if len(labels) > 5 and all(x.isdigit() for x in labels[:4]) else ""
        parsed = parse_ipv4(leading) if leading and not host.endswith(".arpa") else None
        return parsed[0] if parsed is not None and not parsed[1] else None
    for suffix in _IP_IN_NAME_SUFFIXES:
        if not host.endswith(suffix):
            continue
        labels = host[: -len(suffix)].split(".")
        last = labels[-1]
        for candidate in (".".join(labels[-4:]), ".".join(last.split("-")[-4:])):
            parsed = parse_ipv4(candidate) if candidate.count(".") == 3 else None
            if parsed is not None:
                return parsed[0]
        tail = last.rsplit("-", 1)[-1]
        if _HEX_BLOB.match(tail):
            return ipaddress.IPv4Address(int(tail, 16))
    return None


def _classify_ip(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> HostClass:
    if ip in _METADATA_IPS:
        return HostClass.METADATA
    if ip.is_loopback or ip.is_unspecified or (ip.version == 4 and ip in ipaddress.ip_network("0.0.0.0/8")):
        return HostClass.LOOPBACK  # 0.0.0.0 reaches the local host on Linux
    if ip.is_link_local:
        return HostClass.LINK_LOCAL
    if ip.is_private or (ip.version == 4 and ip in _CGNAT) or ip.is_reserved or ip.is_multicast:
        return HostClass.PRIVATE
    return HostClass.PUBLIC


# The ranges an organisation numbers its own networks from (RFC 1918, shared address space, unique local
# IPv6); the documentation, reserved and multicast ranges are private too, but stand for anyone's address
_ORGANISATION_NETWORKS = tuple(
    ipaddress.ip_network(n)
    for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7")
)


def organisation_network(dest: Destination) -> bool:
    """A private destination on the organisation's own network: a name under a suffix only its resolvers
    know (`jenkins.acme.internal`) or an address from the ranges networks are numbered from. A single-label
    name may be anything an alias names (an rclone remote, an ssh `Host`), so it is not counted."""
    if dest.host_class is not HostClass.PRIVATE:
        return False
    try:
        ip = ipaddress.ip_address(dest.ip or dest.host.strip("[]"))
    except ValueError:
        return dest.host.endswith(_PRIVATE_SUFFIXES)
    return any(ip.version == n.version and ip in n for n in _ORGANISATION_NETWORKS)


def _classify_name(host: str) -> HostClass:
    if host in _METADATA_NAMES:
        return HostClass.METADATA
    if host in _LOOPBACK_NAMES or host.endswith(_LOOPBACK_SUFFIXES):
        return HostClass.LOOPBACK
    if "." not in host or host.endswith(_PRIVATE_SUFFIXES):
        return HostClass.PRIVATE  # single-label names resolve through the local search domain
    return HostClass.PUBLIC


def _to_ascii(host: str, flags: list[str]) -> str | None:
    """The name a resolver queries: UTS-46-mapped (as browsers and current resolver libraries do: IDNA
    2008, non-transitional, so `ß`, `ς` and the joiners keep their own labels), punycode for non-ASCII
    labels; None if invalid."""
    if not host.isascii() and any(unicodedata.category(ch) == "Cf" for ch in host):  # none is ASCII
        flags.append("invisible_chars")
        host = "".join(ch for ch in host if unicodedata.category(ch) != "Cf")
    if host.isascii():
        ascii_host = host.lower()
    else:
        import idna  # UTS-46, non-transitional (IDNA 2008): `faß.de` is `xn--fa-hia.de`, not `fass.de`

        try:
            ascii_host = idna.encode(host, uts46=True).decode("ascii").lower()
        except (UnicodeError, ValueError, idna.IDNAError):
            return None
        flags.append("punycode")
    if "xn--" in ascii_host:
        if "punycode" not in flags:
            flags.append("punycode")
        unicode_host = to_unicode(ascii_host)
        if unicode_host != ascii_host and _looks_spoofed(unicode_host):
            flags.append("homoglyph")
    return ascii_host


def to_unicode(host: str) -> str:
    """The display form of an IDNA host (`xn--80ak6aa92e.com` -> `аррӏе.com`); undecodable labels stay."""
    labels = []
    for label in host.split("."):
        if label.startswith("xn--"):
            with contextlib.suppress(UnicodeError, ValueError):
                label = label[4:].encode("ascii").decode("punycode")
        labels.append(label)
    return ".".join(labels)


def host_destination(
    host: str,
    port: int | None = None,
    via_command: str = "",
    flags: tuple[str, ...] = (),
    *,
    scheme: str = "",
    url: str = "",
    has_userinfo: bool = False,
) -> Destination:
    """A `Destination` for a bare host (`ssh user@host`, `nc host 4444`, `dig x.evil.com`). Never raises."""
    try:
        return _host_destination(host, port, via_command, flags, scheme, url, has_userinfo)
    except Exception:
        return Destination(
            host=str(host)[:255].lower(),
            scheme=scheme,
            port=None,
            url=str(url)[:2048],
            host_class=HostClass.UNKNOWN,
            via_command=via_command,
            flags=(*flags, "invalid_host"),
        )


def _host_destination(
    raw: str,
    port: int | None,
    via_command: str,
    extra: tuple[str, ...],
    scheme: str,
    url: str,
    has_userinfo: bool,
) -> Destination:
    flags = list(extra)
    host = raw.strip()
    if "@" in host:  # `user@host` from ssh/scp, or userinfo that reached here
        host = host.rsplit("@", 1)[1]
        has_userinfo = True
    if "%" in host and not host.startswith("["):
        decoded = unquote(host)
        if decoded != host:
            flags.append("percent_encoded")
            host = decoded
    if host.startswith("[") and "]" in host:
        host = host[1 : host.index("]")]
    host = host.split("%", 1)[0] if ":" in host else host  # IPv6 zone id
    if not host.isascii() and not host.replace(".", "").strip():
        host = ""
    if not host.isascii():
        mapped = unicodedata.normalize("NFKC", host)
        if mapped != host:
            flags.append("nfkc_mapped")  # fullwidth or compatibility letters: a spelling that hides the name
            host = mapped
    host = host.rstrip(".").replace("。", ".").replace("．", ".").replace("｡", ".")
    ip: ipaddress.IPv4Address | ipaddress.IPv6Address | None = None
    host_class = HostClass.PUBLIC
    if ":" in host:
        try:
            ip = ipaddress.IPv6Address(host)
        except ValueError:
            return _invalid(raw, scheme, port, url, via_command, flags, has_userinfo)
        if ip.ipv4_mapped is not None or (ip in _NAT64):
            ip = ip.ipv4_mapped or ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
            flags.append("ip_obfuscated")
        ascii_host = str(ip) if ip.version == 4 else f"{ip.compressed}"
    else:
        ascii_host_or_none = _to_ascii(host, flags)
        if (
            not ascii_host_or_none
            or not _HOST_CHARS.match(ascii_host_or_none)
            or len(ascii_host_or_none) > 253
        ):
            return _invalid(raw, scheme, port, url, via_command, flags, has_userinfo)
        ascii_host = ascii_host_or_none
        last = ascii_host.rsplit(".", 1)[-1]
        if last and (last[0].isdigit()):
            parsed = parse_ipv4(ascii_host)
            if parsed is not None:
                ip, odd = parsed
                if odd:
                    flags.append("ip_obfuscated")
                ascii_host = str(ip)
        if ip is None:
            embedded = _embedded_ipv4(ascii_host)
            if embedded is not None:
                flags.append("ip_in_name")
                host_class = _classify_ip(embedded)
            else:
                host_class = _classify_name(ascii_host)
    if ip is not None:
        host_class = _classify_ip(ip)
    return Destination(
        host=ascii_host,
        scheme=scheme,
        port=port,
        url=url[:2048],
        host_class=host_class,
        ip=str(ip) if ip is not None else None,
        has_userinfo=has_userinfo,
        via_command=via_command,
        flags=tuple(dict.fromkeys(flags)),
    )


def _invalid(
    raw: str, scheme: str, port: int | None, url: str, via_command: str, flags: list[str], has_userinfo: bool
) -> Destination:
    return Destination(
        host=raw.strip().lower()[:255],
        scheme=scheme,
        port=port,
        url=url[:2048],
        host_class=HostClass.UNKNOWN,
        has_userinfo=has_userinfo,
        via_command=via_command,
        flags=(*dict.fromkeys(flags), "invalid_host"),
    )


# A file on this machine, however the URL spells it (`file://dist/app.zip`, the AWS CLI's `fileb://`)
# Schemes that name a file here, or a place that is no machine (the CDK's `aws://ACCOUNT/REGION` environment)
_LOCAL_FILE_SCHEMES = frozenset({"file", "fileb", "aws"})
# Schemes of protocols that reach a machine, whose host may be a bare name on the local network (`http://wiki`,
# `ssh://build`); any other scheme with a bare name is an app's own link, not a machine
_NETWORK_SCHEMES = frozenset(
    {
        "http",
        "https",
        "ws",
        "wss",
        "ftp",
        "ftps",
        "sftp",
        "ssh",
        "git",
        "git+ssh",
        "git+https",
        "rsync",
        "scp",
    }
    | {
        "telnet",
        "ldap",
        "ldaps",
        "smb",
        "nfs",
        "tcp",
        "udp",
        "tls",
        "grpc",
        "grpcs",
        "h2c",
        "socks",
        "socks5",
    }
    | {"socks5h", "socks4", "redis", "rediss", "postgres", "postgresql", "mysql", "mongodb", "mongodb+srv"}
    | {"amqp", "amqps", "mqtt", "mqtts", "kafka", "nats", "imap", "imaps", "smtp", "smtps", "pop3", "irc"}
    | {"s3", "gs", "az", "abfs", "abfss", "wasb", "wasbs", "hdfs", "webdav", "dav", "svn", "svn+ssh", "hg"}
    | {"docker", "oci", "vnc", "rdp", "sip", "xmpp", "dns", "doh", "tftp", "gopher", "jdbc", "clickhouse"}
)
# Schemes that name something rather than a machine to reach: an Entra ID application's URI (`api://x`),
# an app's deep link, a browser's own pages
_IDENTIFIER_SCHEMES = frozenset(
    {
        "api",
        "app",
        "urn",
        "vscode",
        "vscode-insiders",
        "cursor",
        "jetbrains",
        "about",
        "chrome",
        "edge",
        "blob",
    }
    | {"spotify", "zoommtg", "msteams", "slack", "x-apple", "itms-apps", "android-app"}
    # a secret manager's reference to one of its items (`op://vault/item/field`): read by its own CLI
    | {"op"}
)


def url_destination(url: str, via_command: str = "") -> Destination | None:
    """The destination of one URL (scheme present), or None when it names no host (`file:///x`)."""
    try:
        parts = urlsplit(url.replace("\\", "/"))
        netloc = parts.netloc
    except ValueError:
        return None
    if (
        not netloc
        or parts.scheme.lower() in _LOCAL_FILE_SCHEMES
        or parts.scheme.lower() in _IDENTIFIER_SCHEMES
    ):
        return None
    store = hosts.OBJECT_STORE_HOSTS.get(parts.scheme.lower())
    if store is not None:  # `s3://BUCKET/key`: the bucket's endpoint at its provider
        netloc = store.format(netloc.lower())
    elif parts.scheme.lower() in hosts.IMAGE_SCHEMES:  # `docker://rocker/r-ver:4`: an image, at its registry
        netloc = hosts.image_registry(netloc + parts.path)
    userinfo = "@" in netloc
    hostport = netloc.rsplit("@", 1)[-1]
    port: int | None = None
    if hostport.startswith("["):
        host, _, rest = hostport[1:].partition("]")
        host = f"[{host}]"
        port_text = rest[1:] if rest.startswith(":") else ""
    elif hostport.count(":") == 1:
        host, _, port_text = hostport.partition(":")
    else:
        host, port_text = hostport, ""
    if port_text:
        port = int(port_text) if port_text.isdigit() and int(port_text) < 65536 else None
    flags = ("userinfo",) if userinfo else ()
    if not host:
        return None
    if parts.scheme.lower() not in _NETWORK_SCHEMES and "." not in host and ":" not in host and not port_text:
        return None  # an app's own link (`driftwood://trip/42`, `myapp://settings`): its path, no machine
    return host_destination(
        host, port, via_command, flags, scheme=parts.scheme.lower(), url=url, has_userinfo=userinfo
    )


def _single_token_url(text: str) -> str | None:
    """A whole argument that is just `host[:port][/path]` (a `url` field without a scheme)."""
    token = text.strip()
    if not token or "://" in token or token.startswith(("/", ".", "~")) or _SPACE.search(token):
        return None
    host = re.split(r"[/?#]", token, maxsplit=1)[0].rsplit("@", 1)[-1].split(":")[0]
    if ("." in host and host.rsplit(".", 1)[-1][:1].isalpha()) or parse_ipv4(host) is not None:
        return "http://" + token
    return None


def destinations_in_text(text: str, via_command: str = "") -> list[Destination]:
    """Every URL in free text (and unambiguous schemeless `host.tld/path`), normalised. Never raises."""
    try:
        return _destinations_in_text(text, via_command)
    except Exception:
        return [
            Destination(
                host="",
                url="",
                host_class=HostClass.UNKNOWN,
                via_command=via_command,
                flags=("invalid_host",),
            )
        ]


def _destinations_in_text(text: str, via_command: str) -> list[Destination]:
    if not isinstance(text, str) or not text:
        return []
    text = text[:MAX_SCAN_CHARS]
    out: dict[Destination, None] = {}
    lone = _single_token_url(text)
    if lone is not None:
        found = url_destination(lone, via_command)
        return [found] if found is not None else []
    if "://" in text:
        for match in _URL.finditer(text):
            found = url_destination(match.group(0).rstrip(".,;:)]'\""), via_command)
            if found is not None:
                out[found] = None
            if len(out) >= MAX_DESTINATIONS:
                return list(out)
        text = _URL.sub(" ", text)  # a schemeless match must not come from inside a URL already seen
    if "/" in text or ":" in text:
        for match in _SCHEMELESS.finditer(text):
            port = int(match.group(2)) if match.group(2) and int(match.group(2)) < 65536 else None
            found = host_destination(match.group(1), port, via_command, ("schemeless",), url=match.group(0))
            out[found] = None
            if len(out) >= MAX_DESTINATIONS:
                break
    return list(out)


def recipient_destinations(value: str) -> list[Destination]:
    """The mail domains of one or more addresses (`a@x.com, B <b@y.org>`), scheme `mailto`. Never raises."""
    try:
        out = []
        for match in ADDRESS.finditer(str(value)[:MAX_SCAN_CHARS]):
            domain = (match.group(1) or "").strip(".>")
            if domain:
                dest = host_destination(domain, scheme="mailto")
                out.append(dest)
            if len(out) >= MAX_DESTINATIONS:
                break
        return out
    except Exception:
        return [Destination(host="", scheme="mailto", host_class=HostClass.UNKNOWN, flags=("invalid_host",))]


def own_package_source(host: str, cwd: str, strict: bool) -> bool:
    """A package source a tool may be pointed at for good without asking: an official registry, the
    company's own domain (named for the project's owner), or, outside strict modes, a host on the
    organisation's own network (`nexus.acme.internal`, the Artifactory mirror every company runs)."""
    host = host.lower()
    if hosts.host_in(host, hosts.REGISTRY_HOSTS) or hosts.project_domain(host, cwd):
        return True
    return not strict and organisation_network(host_destination(host))
