"""The local console (issue 13, item 4): approvals, the decision log, sessions, tool pins and the policy
ledger in a browser, on loopback.

- `auth.py`: one-time login tokens, session cookies (HttpOnly, SameSite=Strict), CSRF tokens, the password
  a console beyond loopback needs;
- `logread.py`: the audit log read backwards a page at a time (never loaded whole);
- `html.py`: templates that escape every value;
- `app.py`: the pages and the POST answers, each through the public API of what it changes;
- `server.py`: the HTTP server (standard library), loopback unless TLS and a password.

`limen console` (`limen.cli.console`) starts it and prints the login URL. Nothing here is imported by any
door.
"""
