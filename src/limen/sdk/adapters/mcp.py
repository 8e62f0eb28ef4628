"""MCP, client side: a guarded `call_tool` for the official SDK's `Client` or `ClientSession`.

`GuardedClient(client, guard, server="fs")` lists the server's tools once (`await guarded.load()`) and
registers each with the guard as `mcp__<server>__<tool>`: its capability and argument roles are the
application's (`capabilities=`, `params=`), else each call is classified by Limen from the tool's name and
the call's values, as the MCP proxy does; its arguments are validated against the tool's `inputSchema`. Then
`await guarded.call_tool(name, arguments)` takes the guard's path and returns the `CallToolResult` the
caller expects: the server's own, or, when Limen refused, withheld or the call failed, one with
`isError: true` and the reason, so the model can recover. Everything else passes through to the client.

The MCP proxy (`limen mcp`) guards a server for every client; this wrapper is for an application that
holds the client itself. Tool pinning (a changed description) is the proxy's, not this wrapper's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import jsonschema  # type: ignore[import-untyped]
from mcp.types import CallToolResult, TextContent

from limen.normalize.tools import classify
from limen.sdk.adapters import guard_of, session_of
from limen.sdk.errors import GuardError
from limen.sdk.tools import Tool, schema_tool

if TYPE_CHECKING:
    from limen.sdk.guard import Guard, Session


class GuardedClient:
    def __init__(
        self,
        client: Any,
        target: Guard | Session,
        *,
        server: str,
        capabilities: Mapping[str, str] | None = None,
        params: Mapping[str, Mapping[str, str | None]] | None = None,
    ) -> None:
        self._client = client
        self._target = target
        self.server = server
        self._capabilities = dict(capabilities or {})
        self._params = {name: dict(roles) for name, roles in (params or {}).items()}
        self._tools: dict[str, Tool] = {}

    def qualified(self, name: str) -> str:
        return f"mcp__{self.server}__{name}"

    async def load(self) -> list[Tool]:
        """List the server's tools and register each with the guard (once; call again after the server
        says its list changed, and only new tools are added)."""
        listed = await self._client.list_tools()
        guard = guard_of(self._target)
        for entry in listed.tools:
            if entry.name in self._tools:
                continue
            tool = self._tool(entry.name, dict(entry.input_schema or {}), entry.description or "")
            self._tools[entry.name] = guard.add(tool)
        return list(self._tools.values())

    async def call_tool(
        self, name: str, arguments: Mapping[str, Any] | None = None, **_: Any
    ) -> CallToolResult:
        if not self._tools:
            await self.load()
        tool = self._tools.get(name)
        qualified = tool.name if tool is not None else self.qualified(name)
        try:
            result = await session_of(self._target).acall(
                qualified, arguments if arguments is not None else {}
            )
        except GuardError as exc:
            return CallToolResult(content=[TextContent(type="text", text=exc.message)], is_error=True)
        if not isinstance(result, CallToolResult):
            return CallToolResult(content=[TextContent(type="text", text=str(result))], is_error=True)
        return result

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)

    def _tool(self, name: str, schema: dict[str, Any], description: str) -> Tool:
        qualified = self.qualified(name)
        properties = schema.get("properties")
        names = list(properties) if isinstance(properties, dict) else []
        capability = self._capabilities.get(name) or classify(qualified, dict.fromkeys(names, "")).capability
        validator = jsonschema.Draft202012Validator(schema)
        client = self._client

        def check(arguments: dict[str, Any]) -> list[str]:
            return [
                f"{'.'.join(str(p) for p in error.absolute_path) or 'arguments'}: {error.validator}"
                for error in validator.iter_errors(arguments)
            ]

        async def run(**arguments: Any) -> Any:
            return await client.call_tool(name, arguments)

        tool = schema_tool(
            qualified,
            schema,
            run,
            capability=capability,
            check=check,
            params=self._params.get(name),
            description=description,
            render=_result_text,
        )
        if name not in self._capabilities and name not in self._params:
            tool.spec = None  # judged as the MCP proxy judges it: by name and by each call's values
        return tool


def _result_text(result: Any) -> str:
    """The text a result carries, for the output scan."""
    if not isinstance(result, CallToolResult):
        return str(result)
    parts = [getattr(block, "text", "") or "" for block in result.content]
    if result.structured_content is not None:
        parts.append(str(result.structured_content))
    return "\n".join(parts)
