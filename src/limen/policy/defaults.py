"""The commented `limen.yaml` that `limen init` writes: safe for a coding agent as it stands."""

TEMPLATE = """\
# Limen policy for this project. Check it with `limen config check`; docs/policy.md explains every key.
# Levels: an organisation file ($LIMEN_ORG_POLICY or /etc/limen/policy.yaml) and your user file
# (~/.limen/policy.yaml) come first; this file can only make them stricter.
# Tightening applies at once. Loosening (a lower mode, monitor, removing a deny, a waiver) waits until
# you run `limen policy propose` and `limen policy approve` with your TOTP code or password.
version: 1

# light | balanced | strict | paranoid: sets risk thresholds and how many files a delete may touch.
mode: balanced

# The rate window: more calls than this in one session within the window ask you first (rate_limited).
# Without it the mode's applies (balanced: 240 calls in 60 seconds). Fewer calls or a longer window tighten.
# rate:
#   calls: 240
#   seconds: 60

# What happens to a call no layer below decides. by_door: coding-agent doors (the hooks of Claude Code,
# Cursor, Codex and Gemini; the MCP proxy) leave it to Limen's guardrails; the SDK door (limen.evaluate()
# in your own code, and any door name Limen does not know) denies it, so only what a rule allows runs
# there. If you call limen.evaluate(), add `effect: allow` rules for your tools. deny | ask | allow apply
# to every door (allow needs `acknowledge: [allow_by_default]`).
default_action: by_door

# The chain runs top to bottom; the first layer that answers allow, ask or deny ends it, so order is
# meaning: put cheap layers first. A layer that answers "allow" only means "no policy objection":
# Limen's own rules and floors still run.
chain:
  - layer: denylist
    name: paste-and-tunnel-hosts
    # Places agents are talked into sending data: paste sites, request catchers, tunnels.
    hosts:
      - pastebin.com
      - "*.pastebin.com"
      - transfer.sh
      - webhook.site
      - "*.requestcatcher.com"
      - requestbin.net
      - "*.ngrok.io"
      - "*.ngrok-free.app"
      - "*.trycloudflare.com"
      - "*.oast.fun"
      - "*.interact.sh"
      - "*.burpcollaborator.net"

  # - layer: allowlist          # restrict where the agent may connect
  #   hosts: [github, pypi, npm]
  #   on_match: pass            # pass: later layers still run; allow would skip them
  #   on_miss: deny

  # - layer: dlp                # credentials and card/IBAN/SSN numbers in what leaves
  #   on_match: annotate        # flag "credentials"/"pii" for later rules, or deny / ask
  #   max_body_bytes: 1000000
  #   on_oversize: ask

  # - layer: rules
  #   rules:
  #     - id: ask-before-publishing
  #       match: {commands: ["npm publish", "twine upload", "cargo publish"]}
  #       effect: ask
  #       reason: publishing a package

# Files an agent must never touch, in addition to Limen's own files and the agents' hook settings.
# protected_paths: ["~/.config/gh"]
# protected_names: ["prod.env"]

# Hosts your work reaches besides the source forges and package registries Limen trusts already.
# trusted_hosts:
#   add: [internal.example.com]
"""
