"""Destinations (interface; the full normaliser replaces these bodies)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from limen.model import Destination

_URL = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*://[^\s'\"<>]+")


def destinations_in_text(text: str, via_command: str = "") -> list[Destination]:
    out = []
    for match in _URL.finditer(text):
        parts = urlsplit(match.group(0))
        if parts.hostname:
            out.append(Destination(host=parts.hostname, scheme=parts.scheme, url=match.group(0),
                                   via_command=via_command))
    return out


def recipient_destinations(value: str) -> list[Destination]:
    if "@" in value:
        return [Destination(host=value.rsplit("@", 1)[-1].lower(), scheme="mailto")]
    return []
