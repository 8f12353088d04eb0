// A second client this project did not write — the official MCP TypeScript SDK — driving
// `habit-demo mcp`. Run by habit-demo/tests/mcp.rs with the SDK scripts/mcp-client-ts.sh
// installs:
//
//     node mcp_client.mjs SDK_DIR HABIT_DEMO DB
//
// It starts the server twice on the SQLite file DB: once as a client that answers elicitation
// from a script (accept, decline, and an accept that comes after the client cancelled the
// call), once as a client without elicitation. It prints one JSON object with what it saw; the
// Rust test makes the assertions and reads DB afterwards. The SDK's `callTool` checks a
// result's `structuredContent` against the tool's listed `outputSchema` — in 1.x even on an
// error — and throws when it does not match: such a throw is recorded as {"client_error": …}.

import { pathToFileURL } from "node:url";
import { join } from "node:path";

const [sdkDir, binary, db] = process.argv.slice(2);
const sdk = (path) => import(pathToFileURL(join(sdkDir, "node_modules/@modelcontextprotocol/sdk/dist/esm", path)).href);
const { Client } = await sdk("client/index.js");
const { StdioClientTransport } = await sdk("client/stdio.js");
const { ElicitRequestSchema } = await sdk("types.js");

const ACCEPTED = { protocol_id: "build.morning-walk", frame_level: 2, framed_text: "아침 커피 후 10분 걷기" };
const DECLINED = { protocol_id: "build.read-10-pages", frame_level: 1, framed_text: "책 10쪽 읽기" };
const LATE = { protocol_id: "build.take-stairs", frame_level: 1, framed_text: "계단 오르기" };
const UNASKED = { protocol_id: "build.bedtime-stretch", frame_level: 1, framed_text: "자기 전 스트레칭" };

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(client, name, args, options) {
  try {
    return await client.callTool({ name, arguments: args }, undefined, options);
  } catch (error) {
    return { client_error: String(error?.message ?? error) };
  }
}

async function connect(elicitation, answers, asked) {
  const capabilities = elicitation ? { elicitation: { form: {} } } : {};
  const client = new Client({ name: "ts-sdk-check", version: "0" }, { capabilities });
  if (elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      const action = answers.shift();
      if (action === "late_accept") {
        // The person ticks the box after the client gave up on the call.
        await sleep(2000);
        return { action: "accept", content: { confirm: true } };
      }
      if (action === "accept") return { action: "accept", content: { confirm: true } };
      return { action };
    });
  }
  const transport = new StdioClientTransport({ command: binary, args: ["mcp", "--db", db], stderr: "ignore" });
  await client.connect(transport);
  return client;
}

const out = {};
const answers = [];
const asked = [];
let client = await connect(true, answers, asked);
out.tools = (await client.listTools()).tools.map((tool) => tool.name);
out.search = await call(client, "search_catalog", { keyword: "걷기", limit: 3 });
out.protocol = await call(client, "query_protocol", { id: "break.snooze" });
out.habits_before = await call(client, "list_active_habits", {});
out.malformed = await call(client, "search_catalog", { limit: "many" });
out.not_found = await call(client, "get_streak", { habit_id: 999 });
out.self_only = await call(client, "log_tracker_entry", { habit_id: 1, value: "done" });
answers.push("accept");
out.accepted = await call(client, "add_habit", ACCEPTED);
out.streak = await call(client, "get_streak", { habit_id: 1 });
answers.push("decline");
out.declined = await call(client, "add_habit", DECLINED);
answers.push("late_accept");
out.late = await call(client, "add_habit", LATE, { timeout: 500 });
await sleep(3000);
out.habits = await call(client, "list_active_habits", {});
out.asked = asked.length;
out.unused_answers = answers.length;
await client.close();

client = await connect(false, [], []);
out.unasked = await call(client, "add_habit", UNASKED);
await client.close();

console.log(JSON.stringify(out));
