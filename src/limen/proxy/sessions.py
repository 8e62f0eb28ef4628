"""Which session a proxied request belongs to: the credential in `Proxy-Authorization`.

A client joins a session by naming it as the proxy user, with the session's proxy token as the password
(`http://run:4f..:TOKEN@127.0.0.1:8877`). The token is either the one a dedicated proxy was started with
(`limen run --egress` starts one per run and hands the token to the agent only), or the installation's keyed
digest of the session id (`proxy.key` under LIMEN_HOME), which any `limen proxy` on this machine accepts. A
request naming a session with a wrong token is refused (407); one with no credential joins the proxy's own
session, unless the proxy requires a credential (then 407 too), so taint cannot be shed by dropping it.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
from dataclasses import dataclass

PROXY_KEY = "proxy"
TOKEN_CHARS = 32


def keyed_token(session_id: str, key: bytes | None = None) -> str:
    """The installation's proxy token for a session id."""
    if key is None:
        from limen.state.keys import installation_key

        key = installation_key(PROXY_KEY)
    return hmac.new(key, session_id.encode(), hashlib.sha256).hexdigest()[:TOKEN_CHARS]


def basic_credentials(header: str) -> tuple[str, str] | None:
    """`(user, password)` from a `Basic` Proxy-Authorization value; None when it is not one."""
    scheme, _, encoded = header.strip().partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        # the token never holds a colon, a session id often does (`claude-code:...`): split at the last one
        user, sep, password = base64.b64decode(encoded.strip(), validate=True).decode().rpartition(":")
    except (binascii.Error, UnicodeDecodeError):
        return None
    return (user, password) if sep and user else None


@dataclass(frozen=True)
class Sessions:
    """How this proxy maps credentials to sessions."""

    default_session: str  # the session of requests that carry no credential
    require_credential: bool = False
    fixed_token: str = ""  # a dedicated proxy's token: only `fixed_session` is accepted with it
    fixed_session: str = ""
    key: bytes | None = None  # the installation's proxy key (loaded once)

    def resolve(self, header: str | None) -> str | None:
        """The session for a request's Proxy-Authorization value; None when the request must be refused."""
        if not header:
            return None if self.require_credential else self.default_session
        found = basic_credentials(header)
        if found is None:
            return None
        user, password = found
        if self.fixed_token:
            ok = user == self.fixed_session and hmac.compare_digest(password, self.fixed_token)
            return user if ok else None
        if self.key is None:
            return None
        return user if hmac.compare_digest(password, keyed_token(user, self.key)) else None
