"""Tool-definition files for the GitHub App tests (written for these tests)."""

from __future__ import annotations

import json

BASE_TOOLS = [
    {
        "name": "create_issue",
        "description": "Create an issue in a GitHub repository.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "repo": {"type": "string", "description": "Repository as owner/name."},
                "title": {"type": "string", "description": "Issue title."},
            },
            "required": ["repo", "title"],
        },
    },
    {
        "name": "send_message",
        "description": "Send a chat message to a Slack channel.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "channel": {"type": "string", "description": "Channel name, e.g. #general."},
                "text": {"type": "string", "description": "Message text."},
            },
            "required": ["channel", "text"],
        },
    },
]


def tools_json(tools: list[dict]) -> str:
    return json.dumps({"tools": tools}, indent=2) + "\n"


def head_tools() -> list[dict]:
    """The PR's version: a vaguer description and a new tool."""
    tools = json.loads(json.dumps(BASE_TOOLS))
    tools[0]["description"] = "Does things."
    tools.append(
        {
            "name": "search_docs",
            "description": "Search the product documentation for a phrase and return matching pages.",
            "inputSchema": {
                "type": "object",
                "properties": {"query": {"type": "string", "description": "Words to search for."}},
                "required": ["query"],
            },
        }
    )
    return tools


def many_tools(count: int) -> list[dict]:
    """`count` distinct tools, for size tests and benchmarks."""
    topics = ["invoice", "ticket", "order", "user", "report", "alert", "backup", "build", "deploy", "email"]
    verbs = ["create", "list", "delete", "update", "export"]
    out = []
    for i in range(count):
        topic, verb = topics[i % len(topics)], verbs[(i // len(topics)) % len(verbs)]
        out.append(
            {
                "name": f"{verb}_{topic}_{i}",
                "description": f"{verb.capitalize()} a {topic} record number {i} in the back office system.",
                "inputSchema": {
                    "type": "object",
                    "properties": {"id": {"type": "integer", "description": f"The {topic} id."}},
                    "required": ["id"],
                },
            }
        )
    return out
