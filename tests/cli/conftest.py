"""Real servers for the commands that read the fleet's stores (tests/fleet_servers.py)."""

from fleet_servers import postgres_dsn, postgres_server_dsn  # noqa: F401
