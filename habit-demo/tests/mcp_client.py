"""A client this project did not write — the official MCP Python SDK — driving `habit-demo mcp`.

Run by habit-demo/tests/mcp.rs with the interpreter scripts/mcp-client.sh installs:

    python mcp_client.py HABIT_DEMO DB

It starts the server twice on the SQLite file DB: once as a client that answers elicitation
(from a script: accept with the box ticked, then decline) and once as a client that declared
no elicitation at all. It prints one JSON object on stdout with everything it saw; the Rust test
makes the assertions and reads DB afterwards. A JSON-RPC error from the server is recorded as
{"protocol_error": ...} instead of raising, so the test can say which call produced one; so is
the SDK's own refusal of a result ({"client_error": ...}): `ClientSession.call_tool` validates
`structuredContent` against the tool's listed `outputSchema` and raises when it is missing or
does not conform. `validation_live` checks that it still does, on results made up to fail.
"""

import asyncio
import json
import sys

import mcp
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

ACCEPTED = {"protocol_id": "build.morning-walk", "frame_level": 2, "framed_text": "아침 커피 후 10분 걷기"}
DECLINED = {"protocol_id": "build.read-10-pages", "frame_level": 1, "framed_text": "책 10쪽 읽기"}
UNASKED = {"protocol_id": "build.bedtime-stretch", "frame_level": 1, "framed_text": "자기 전 스트레칭"}
LATE = {"protocol_id": "build.take-stairs", "frame_level": 1, "framed_text": "계단 오르기"}


def dump(value):
    return value.model_dump(by_alias=True, mode="json", exclude_none=True)


async def call(session, name, arguments):
    try:
        return dump(await session.call_tool(name, arguments))
    except mcp.MCPError as error:
        return {"protocol_error": str(error)}
    except RuntimeError as error:
        # What the SDK raises for structured content its output schema refuses.
        return {"client_error": str(error)}


async def refuses(session, name, result):
    """Whether the SDK's own check refuses `result` (a made-up CallToolResult) for tool `name`."""
    try:
        await session.validate_tool_result(name, types.CallToolResult.model_validate(result))
    except RuntimeError as error:
        return str(error)
    return None


async def with_elicitation(server, out):
    answers = []
    asked = []

    async def elicit(context, params):
        asked.append(dump(params))
        action = answers.pop(0)
        if action == "late_accept":
            # The person ticks the box after the client gave up on the call.
            await asyncio.sleep(2.0)
            return types.ElicitResult(action="accept", content={"confirm": True})
        if action == "accept":
            return types.ElicitResult(action="accept", content={"confirm": True})
        return types.ElicitResult(action=action)

    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write, elicitation_callback=elicit) as session:
            out["initialize"] = dump(await session.initialize())
            out["tools"] = dump(await session.list_tools())
            out["search"] = await call(session, "search_catalog", {"keyword": "걷기", "limit": 3})
            out["protocol"] = await call(session, "query_protocol", {"id": "break.snooze"})
            out["validation_live"] = {
                "wrong_type": await refuses(
                    session, "search_catalog", {"content": [], "structuredContent": {"count": "three", "items": []}}
                ),
                "missing": await refuses(session, "search_catalog", {"content": [{"type": "text", "text": "{}"}]}),
            }
            answers.append("accept")
            out["accepted"] = await call(session, "add_habit", ACCEPTED)
            answers.append("decline")
            out["declined"] = await call(session, "add_habit", DECLINED)
            # The client's read times out while the form is open: the SDK cancels the call
            # (notifications/cancelled); the accept that comes later must write nothing.
            answers.append("late_accept")
            try:
                out["late"] = dump(await session.call_tool("add_habit", LATE, read_timeout_seconds=0.5))
            except Exception as error:  # the SDK's own timeout error
                out["late"] = {"client_timeout": type(error).__name__}
            await asyncio.sleep(3.0)
            out["habits"] = await call(session, "list_active_habits", {})
            out["streak"] = await call(session, "get_streak", {"habit_id": 1})
            out["self_only"] = await call(session, "log_tracker_entry", {"habit_id": 1, "value": "done"})
            out["missing"] = await call(session, "no_such_tool", {"habit_id": 1, "value": "done"})
            out["malformed"] = await call(session, "search_catalog", {"limit": "many"})
            out["malformed_write"] = await call(session, "add_habit", {"protocol_id": "build.take-stairs"})
            out["asked"] = asked
            out["unused_answers"] = answers


async def without_elicitation(server, out):
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            init = dump(await session.initialize())
            out["plain_client_protocol"] = init["protocolVersion"]
            out["unasked"] = await call(session, "add_habit", UNASKED)
            out["plain_search"] = await call(session, "search_catalog", {"keyword": "걷기", "limit": 1})


async def main():
    binary, db = sys.argv[1], sys.argv[2]
    server = StdioServerParameters(command=binary, args=["mcp", "--db", db])
    out = {"sdk_version": __import__("importlib.metadata").metadata.version("mcp")}
    await with_elicitation(server, out)
    await without_elicitation(server, out)
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    asyncio.run(main())
