"""Taint floor: a session that read a secret must not send it, nor egress unchecked.

- `confirmed_exfil` (BLOCK in every mode): what the call sends holds a secret this session read (its keyed
  fingerprints): raw or URL/base64/hex-encoded, in another case, with separators or whitespace inserted or
  removed, reversed, as a long enough part (16 characters of a 40-character token), or split across fields.
  A credential sent only to the API that issued it, in a request that carries nothing else, is its use.
- `multi_step_exfil` (AUTH) also for a secret this session read written into a file that is not a secret
  file (the code, a public asset): the next commit or deploy publishes it.
- `multi_step_exfil` (AUTH; BLOCK in strict/paranoid): the session is tainted and this call egresses in a
  way that could carry what it read: every egress (a push to any remote, `gh` writes, package publishing, a
  send to a trusted service included) except a request that carries nothing (`carries_nothing`: a plain GET
  with no body, upload or data-bearing header) to a host the user trusts, a documentation site or an API
  issuer. Reading the Python docs after `cat .env` is not a way to send `.env`. In light and balanced, neither
  is a tool call whose every outgoing word is plain language in its own arguments (a chat message), nor a
  push or pull request to the project's own origin whose outgoing history, staged and changed files and
  untracked files (read from git's objects and index, bounded) hold no secret the session read.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from limen.context import Context
from limen.floors.egress import (
    carries_nothing,
    credential_header_values,
    is_egress,
    known_plain,
    mode_verdict,
    outgoing_texts,
    strings,
    written_out,
)
from limen.model import Action, Decision, Finding, Mode, ReasonCode, Verdict
from limen.scan import MAX_SCAN_CHARS

if TYPE_CHECKING:
    from limen.context import SessionView


def floor(action: Action, ctx: Context, decision: Decision) -> list[Finding]:
    session = ctx.session
    if session is None or not session.is_tainted():
        return []
    if not is_egress(action):
        return _written_secret(action, session)
    texts = outgoing_texts(action)
    # One text of them all, so a secret split across fields (or across a URL and a body) is seen whole.
    joined = ["\x00".join(texts)] if sum(map(len, texts)) <= MAX_SCAN_CHARS else texts
    own_account = _own_account_request(action, joined, session, ctx)
    if (
        any(session.matches_secret(text) for text in joined)
        and not own_account
        and _sent_beyond_issuers(joined, action, ctx)
    ):
        return [
            Finding(
                ReasonCode.CONFIRMED_EXFIL,
                Verdict.BLOCK,
                100,
                "an outgoing value matches a secret this session read (keyed fingerprint)",
            )
        ]
    if carries_nothing(action) and all(known_plain(d, ctx) for d in action.destinations):
        return []
    if ctx.mode in (Mode.LIGHT, Mode.BALANCED) and (own_account or _own_account_by_name(action)):
        return []
    if ctx.mode in (Mode.LIGHT, Mode.BALANCED) and _says_only_what_it_shows(action, texts):
        return []
    if ctx.mode in (Mode.LIGHT, Mode.BALANCED) and _pushes_clean_history(action, texts, ctx):
        return []
    return [
        Finding(
            ReasonCode.MULTI_STEP_EXFIL,
            mode_verdict(ctx),
            80,
            "this session read a secret earlier and this call sends data out",
        )
    ]


def _says_only_what_it_shows(action: Action, texts: list[str]) -> bool:
    """A tool call whose every outgoing word is in its arguments, in plain language: a chat message, a
    documentation fetch. The secret is not in it (`confirmed_exfil` looked, encodings included), and plain
    words cannot hide it: any run that could (a token, an encoded blob) is a secret-like hit here. A shell
    line, a file it reads or uploads, or a destination that collects data for others could carry more."""
    from limen.facts.hosts import is_collection_service
    from limen.rules.secrets import find_secrets

    hidden = set(action.payloads) - set(strings(action.arguments))
    if action.commands or action.paths or action.opaque or hidden or action.door == "proxy":
        return False  # the egress proxy decides on what it could read of bytes, not on arguments shown
    if any(is_collection_service(d.host) for d in action.destinations):
        return False
    return all(_plain(text) and not find_secrets(text) for text in texts)


# A run of characters no word is made of: long, with digits or capitals inside (a token, base64, hex)
_DATA_RUN = re.compile(r"[^\s/?&=#:,;.()\[\]{}\"'<>]{16,}")


def _plain(text: str) -> bool:
    """Words and slugs only (`Deployed feat/payments-retry`, `/docs/api/errors`): no run long enough to
    hold a secret in some encoding (`sk-proj-...`, a base64 blob, hex) unless it is a lower-case slug or
    an identifier in the UUID's fixed shape (a page's or an issue's id, which every tracker call names)."""
    return all(_SLUG_OR_UUID.fullmatch(run) for run in _DATA_RUN.findall(text))


_SLUG_OR_UUID = re.compile(r"[a-z]+(?:[-_][a-z]+)*|[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}")


def _pushes_clean_history(action: Action, texts: list[str], ctx: Context) -> bool:
    """`git push`, `gh pr create` to the project's own origin: what can leave is the history not on a
    remote yet, the changes the line may commit and the files it may add, and the words on the line. When all
    of it can be read (bounded) and holds no secret this session read, the push carries none; anything else
    (another remote, another program, an error, too much to read) still asks."""
    session = ctx.session
    cwd = action.cwd or ctx.workspace
    if session is None or not cwd or not action.destinations or action.opaque:
        return False
    if any("own_remote" not in d.flags for d in action.destinations):
        return False
    if any(c.name not in _PUSHING for c in action.commands) or not all(_plain(t) for t in texts):
        return False
    if any(entry.get("stashed") for entry in session.recent()):
        return False  # `printenv > docs/env.txt` earlier: that file's content was never seen, never matched
    outgoing = _outgoing_history(cwd)
    if outgoing is None:
        return False
    import os

    from limen.normalize.paths import read_text

    for path in action.paths[:8]:  # `gh pr create --body-file notes.md`: the file goes too
        if os.path.isdir(path):
            return False
        text = read_text(path, MAX_OUTGOING)
        if text is not None:  # else not a file (a refspec read as a path): nothing of it leaves
            outgoing.append(text)
    return not any(session.matches_secret(text) for text in outgoing)


_PUSHING = frozenset({"git", "gh", "cd"})
MAX_OUTGOING = 2_000_000  # characters of history and changes read before a push; past them, it asks


def _outgoing_history(cwd: str) -> list[str] | None:
    """The commits no remote has, the staged changes, the tracked files changed since they were staged and
    the untracked files git would add, as text; None past the bound or on any error. git is asked only what
    it answers from its objects and index (no working-tree diff: that would run the repository's filters),
    with its monitor and caches off, so no program the repository names runs."""
    import os
    import subprocess

    from limen.facts.hosts import GIT_ENV, SAFE_GIT
    from limen.normalize.paths import read_text

    def git(*args: str) -> str:
        command = ["git", "-C", cwd, *SAFE_GIT, *args]
        done = subprocess.run(command, capture_output=True, timeout=3, check=True, env=GIT_ENV)
        return done.stdout.decode("utf-8", "replace")

    try:
        texts = [
            git("log", "-p", "--no-color", "--no-ext-diff", "--no-textconv", "HEAD", "--not", "--remotes"),
            git("diff", "--cached", "--no-color", "--no-ext-diff", "--no-textconv"),
        ]
        total = sum(map(len, texts))
        top = git("rev-parse", "--show-toplevel").strip()
        staged_at = os.stat(os.path.join(cwd, git("rev-parse", "--git-path", "index").strip())).st_mtime
        tracked = [n for n in git("ls-files", "-z").split("\0") if n]
        changed = [n for n in tracked if _modified_since(os.path.join(top, n), staged_at)]
        untracked = [n for n in git("ls-files", "--others", "--exclude-standard", "-z").split("\0") if n]
        for name in (changed + untracked)[:MAX_OUTGOING_FILES]:
            data = read_text(os.path.join(top, name), MAX_OUTGOING - total + 1) or ""
            total += len(data)
            if total > MAX_OUTGOING:
                return None
            texts.append(data)
        if len(changed) + len(untracked) > MAX_OUTGOING_FILES:
            return None
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    return texts if total <= MAX_OUTGOING else None


def _modified_since(path: str, staged_at: float) -> bool:
    import os

    try:
        return os.lstat(path).st_mtime >= staged_at
    except OSError:
        return False  # deleted: a deletion carries no text


MAX_OUTGOING_FILES = 2000


def _own_account_request(action: Action, texts: list[str], session: SessionView, ctx: Context) -> bool:
    """A request written out in full (`written_out`) to an API issuer that logs in with credentials this
    session read, each sent to the API that issued it: it acts in the user's own account (`curl -u
    sk_test_...: https://api.stripe.com/v1/payment_intents -d amount=2000` after reading `.env`), where
    what it sends reaches no one else. A key given in the line (someone else's account) does not count."""
    from limen.facts.hosts import issuers_for_host
    from limen.rules.secrets import without_issued_credentials

    if not written_out(action) or not all(issuers_for_host(d.host) for d in action.destinations):
        return False
    logins = credential_header_values(action)  # whose account: the session's own key, not one given here
    if not logins or not all(session.matches_secret(login.removesuffix(":")) for login in logins):
        return False
    return not any(session.matches_secret(without_issued_credentials(text, action, ctx)) for text in texts)


def _own_account_by_name(action: Action) -> bool:
    """One curl or wget request to API issuers that logs in with a credential named, not shown: a variable
    named for its issuer (`-H "Authorization: Bearer $SUPABASE_SERVICE_ROLE_KEY"`) or a value picked out of
    a file by that name (`-u "$(grep ^STRIPE_SECRET_KEY .env | cut -d= -f2-):"`), each bound for the host
    that issued it, with every other word written out and only the answer read after it (`| jq .id`). The
    user's own key for the user's own account: what it sends reaches no one else (as `_own_account_request`
    for a key given in full)."""
    from limen.facts.hosts import issuers_for_host, issuers_of_credentials
    from limen.facts.programs import only_inspects
    from limen.rules.derived import picked_issuers

    senders = [c for c in action.commands if c.name in ("curl", "wget")]
    if action.opaque or len(senders) != 1 or senders[0].via or not action.destinations:
        return False
    sender = senders[0]
    picked: frozenset[str] = frozenset()
    for command in action.commands:
        if command is sender:
            continue
        issuers = picked_issuers(command)
        # the pick's own filters (`| cut -d= -f2-`), or a reader of the answer (`| jq .id`)
        if not (issuers or (only_inspects((command.name, *command.argv[1:])) and not command.redirects)):
            return False  # another program: it may feed the request, or send on its own
        picked |= issuers
    logins = credential_header_values(action)
    named = [issuers_of_credentials(v) or (picked if "$(" in v else frozenset()) for v in logins]
    if not logins or not all(named):
        return False
    words = [w for w in sender.argv[1:] if not any(w.endswith(v) for v in logins)]
    if any("$" in w or "`" in w or w.startswith("@") or "=@" in w for w in words):
        return False  # something else of the session's may ride along
    issued = frozenset().union(*named)
    return all(issued & issuers_for_host(d.host) for d in action.destinations)


def _sent_beyond_issuers(texts: list[str], action: Action, ctx: Context) -> bool:
    """A secret this session read still goes out once every credential bound for its own issuer is set
    aside (`curl -u sk_live_...: https://api.stripe.com` after reading `.env` uses the key; the same key
    to any other host, or the database password beside it, leaves; `psql postgres://app:PW@db.acme.internal`
    logs in where the password belongs, and what else its query carries is still read)."""
    from limen.rules.secrets import own_logins, without_issued_credentials

    if not action.destinations or not (carries_nothing(action) or own_logins(action, ctx)):
        return True  # a body, an upload or a query could hold the key however the request is addressed
    # (a client logged in to the organisation's own server: what it sends goes there, with its login)
    session = ctx.session
    return session is None or any(
        session.matches_secret(without_issued_credentials(text, action, ctx)) for text in texts
    )


def _written_secret(action: Action, session: SessionView) -> list[Finding]:
    """A secret this session read, written into a file that is not itself a secret file (`STRIPE =
    'sk_live_...'` in the code, a key in `public/robots.txt`): the next commit or deploy publishes it. AUTH
    (`multi_step_exfil`): a person decides whether it belongs there."""
    from limen.rules.paths import is_secret_file
    from limen.rules.written import written_text

    for path in action.write_paths[:8]:
        if is_secret_file(path):
            continue  # `.env.local`, `credentials.json`: where secrets are meant to live
        text = written_text(action, path)
        if text and len(text) <= MAX_SCAN_CHARS and session.matches_secret(text):
            name = path.rsplit("/", 1)[-1]
            detail = f"a secret this session read is written into {name}, outside a secret file"
            return [Finding(ReasonCode.MULTI_STEP_EXFIL, Verdict.AUTH, 80, detail)]
    return []
