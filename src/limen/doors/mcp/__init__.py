"""The MCP proxy: any MCP server wrapped, every `tools/call` decided, tools pinned, results screened.

Why a raw JSON-RPC relay rather than the SDK's session objects: the proxy must be faithful to two
protocol generations (the `2025-11-25` handshake with `Mcp-Session-Id`, the stateless `2026-07-28`) and
to whatever a server or client adds (extensions, `_meta`, new methods, tasks) without understanding it,
and it must add well under a millisecond per call. Relaying bytes does both: a message is parsed only to
route it; `tools/call`, `resources/read` and `prompts/get` requests are decided before they go out, their
answers, `tools/list` answers and server errors are reviewed on the way back, and everything else
(listings, notifications, progress, cancellation, server requests) leaves as the exact bytes that came
in. SDK sessions would re-serialise
every message, negotiate their own era and cost several milliseconds per call (measured in the
protocol reference). The SDK is still what the tests' real servers and clients are built with.

What is decided and screened. `tools/call` is decided as `mcp__<server>__<tool>`; `resources/read` as
`mcp__<server>__resources_read`, a read of what its URI names (a local `file:` URI becomes the `path`
argument, percent-decoded, so `file:///home/u/.ssh/id_rsa` meets the same secret-path rules as a Read; a
web URI becomes `uri`, a fetch; any other scheme is an opaque `resource` name the server resolves, with
a `path` too when it spells one, as `vault:///home/u/.aws/credentials` or a scheme-less `/etc/shadow` do);
`prompts/get` as `mcp__<server>__prompt`, an MCP call whose arguments are the prompt's own plus
`prompt_name`. The results of all three, and every JSON-RPC `error` a server sends, go through the same
output screening before the agent sees them: a secret withholds the answer (a withheld error becomes
`downstream_error`), injected instructions flag the session and the answer carries a warning.

Trust assumption of the approval form. An AUTH a human may allow (no floor behind it, risk below the
strong-approval threshold) is put to the client's elicitation form when the client offers one. The form
is rendered and answered by the MCP client: Limen trusts that a human reads it, and it shows the tool,
the server, the reason codes, the explanation and the argument names with secret-masked, shortened
values (never a secret's value). A client that lets the model answer forms, or accepts them by itself,
turns every approvable AUTH into a PASS: run such clients with `limen mcp --no-ask`, and every AUTH is
then refused with the way a human can allow it. BLOCK verdicts are never asked.

Listings the model reads (`resources/list`, `resources/templates/list`, `prompts/list`) are screened as
tool descriptions are: an entry carrying injected instructions is withheld, and asking for it by name
is refused. A tool-list entry is screened whole (annotations, output schema, `_meta`), and the
handshake's `instructions` are removed when they carry an injection or a secret.

Whatever the framing. A `tools/call`, `resources/read` or `prompts/get` without an id (a notification,
which a server dispatching on `method` still runs) is decided like a request: when refused it is
dropped, noted and audited (`mcp_notification_refused`), since there is no id to answer. Any other
message without an id must be a pure notification (`initialized`, `cancelled`, `progress`,
`roots/list_changed`), else it is refused the same way; a request for a method MCP does not define is
refused with -32601 (`mcp_request_refused`). A JSON-RPC batch is split over stdio (each element handled
as if it came alone) and refused whole over HTTP (an error per id).

What the server sends on its own. `sampling/createMessage`, `elicitation/create`,
`notifications/message`, progress and task status messages, any other server message carrying text, and
the modern era's `inputRequests`, go through the turn gate (signature
grade) and the secret scan, and an elicitation whose message or form asks for a secret (a password, a
token, an API or private key, a card number) is refused: a request gets a -32001 error back to the
server, a notification is dropped, a result carrying such input requests becomes a refusal; all are
audited (`mcp_server_message_refused`). Every string of a result is screened, wherever it sits
(`messages._walk`: resource links, `_meta`, annotations, embedded resources and decoded blobs,
structured content, `tasks/result`). The client's answer to a sampling request or an elicitation is
scanned for secrets before it leaves for the server (`mcp_client_answer_withheld`).

Known limitations. A custom-scheme resource URI is decided by its name only (the server alone knows
what it reads), so content screening is the defence there. `completion/complete` answers are relayed
unscreened. Duplicate keys in a JSON object are read as Python reads them (the last wins). In `serve`
mode, a server message arriving between calls reaches a client only over the session's standing GET
stream; the stateless era has none, and without one the message is dropped with a note.

Modules: `messages` (JSON-RPC helpers), `guard` (decisions, pins, screening), `ask` (the approval form's
text), `proxy` (the relay core, deadlines, restarts), `stdio` / `http` / `serve` (transports), `app`
(assembly), `install` (rewriting an agent's MCP server entries, used by `limen install`).
"""

from __future__ import annotations

from limen.doors.mcp.install import unwrap_server_entry, wrap_server_entry

__all__ = ["unwrap_server_entry", "wrap_server_entry"]
