"""Real servers for these tests (tests/fleet_servers.py)."""

from fleet_servers import postgres_dsn, postgres_server_dsn, redis_server_url, redis_url  # noqa: F401
