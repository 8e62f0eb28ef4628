"""The three provider dialects: where to post, what to send, where the verdict is in the answer.

- `openai`: an OpenAI-compatible `/v1/chat/completions`; the verdict through a forced function call
  (`tool_choice`), with `response_format` set to the same JSON schema for servers that honour only that.
- `anthropic`: the Messages API `/v1/messages`; the verdict through a forced `tool_use` (`tool_choice` tool).
- `ollama`: a local Ollama `/api/chat`, non-streaming, `format` set to the JSON schema.

`url` is the provider's base (`https://api.openai.com`, `http://127.0.0.1:11434`); a URL that already ends
in the endpoint (or, for OpenAI-compatible servers, in `/v1`) is completed, not doubled.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from limen.judge.request import TOOL_DESCRIPTION, TOOL_NAME, VERDICT_SCHEMA, JudgeAnswerError, JudgeRequest

ENDPOINTS = {"openai": "/v1/chat/completions", "anthropic": "/v1/messages", "ollama": "/api/chat"}
ANTHROPIC_VERSION = "2023-06-01"
MAX_TOKENS = 400


def endpoint(provider: str, url: str) -> str:
    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    suffix = ENDPOINTS[provider]
    if not path.endswith(suffix):
        if path.endswith("/v1") and suffix.startswith("/v1/"):
            path += suffix[3:]
        else:
            path += suffix
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


def headers(provider: str, api_key: str) -> dict[str, str]:
    found = {"Content-Type": "application/json", "Accept": "application/json", "User-Agent": "limen-judge"}
    if provider == "anthropic":
        found["anthropic-version"] = ANTHROPIC_VERSION
        if api_key:
            found["x-api-key"] = api_key
    elif api_key:
        found["Authorization"] = f"Bearer {api_key}"
    return found


def body(provider: str, model: str, request: JudgeRequest) -> bytes:
    payload: dict[str, Any]
    if provider == "openai":
        payload = {
            "model": model,
            "temperature": 0,
            "max_tokens": MAX_TOKENS,
            "messages": [
                {"role": "system", "content": request.system},
                {"role": "user", "content": request.user},
            ],
            "tools": [
                {
                    "type": "function",
                    "function": {
                        "name": TOOL_NAME,
                        "description": TOOL_DESCRIPTION,
                        "parameters": VERDICT_SCHEMA,
                    },
                }
            ],
            "tool_choice": {"type": "function", "function": {"name": TOOL_NAME}},
        }
    elif provider == "anthropic":
        payload = {
            "model": model,
            "max_tokens": MAX_TOKENS,
            "temperature": 0,
            "system": request.system,
            "messages": [{"role": "user", "content": request.user}],
            "tools": [{"name": TOOL_NAME, "description": TOOL_DESCRIPTION, "input_schema": VERDICT_SCHEMA}],
            "tool_choice": {"type": "tool", "name": TOOL_NAME},
        }
    elif provider == "ollama":
        payload = {
            "model": model,
            "stream": False,
            "format": VERDICT_SCHEMA,
            "options": {"temperature": 0},
            "messages": [
                {"role": "system", "content": request.system},
                {"role": "user", "content": request.user},
            ],
        }
    else:
        raise ValueError(f"unknown judge provider {provider!r}")
    return json.dumps(payload, ensure_ascii=False).encode("utf-8", "surrogatepass")


def _get(data: Any, *path: str | int) -> Any:
    for step in path:
        if isinstance(step, int):
            if not isinstance(data, list) or len(data) <= step:
                raise JudgeAnswerError("the answer lacks the verdict")
        elif not isinstance(data, dict) or step not in data:
            raise JudgeAnswerError("the answer lacks the verdict")
        data = data[step]
    return data


def verdict_object(provider: str, answer: Any) -> Any:
    """The verdict object (or its JSON text) inside a provider's decoded answer."""
    if provider == "openai":
        message = _get(answer, "choices", 0, "message")
        calls = message.get("tool_calls") if isinstance(message, dict) else None
        if calls:
            for call in calls:
                function = call.get("function") if isinstance(call, dict) else None
                if isinstance(function, dict) and function.get("name") == TOOL_NAME:
                    return function.get("arguments")
            raise JudgeAnswerError("the answer called another tool")
        return _get(message, "content")  # a server that honoured the schema, not the tool
    if provider == "anthropic":
        for block in _get(answer, "content"):
            if isinstance(block, dict) and block.get("type") == "tool_use" and block.get("name") == TOOL_NAME:
                return block.get("input")
        raise JudgeAnswerError("the answer has no verdict tool use")
    if provider == "ollama":
        return _get(answer, "message", "content")
    raise ValueError(f"unknown judge provider {provider!r}")
