// A mock model server for the real-client suite, on 127.0.0.1 inside the test's network
// namespace. It speaks just enough of the Anthropic Messages API (Claude Code), the OpenAI
// Responses API (Codex) and the OpenAI Chat Completions API (Copilot CLI): the main loop's
// first request gets one tool call (from the scenario file), every later one plain text. Every request is appended to a log as one
// JSON line {method, path, body}; `ready` is created once it listens.
//
// usage: node mock-model.mjs SCENARIO.json LOG.jsonl READY_FILE PORT
import http from "node:http";
import fs from "node:fs";

const [scenarioPath, logPath, readyPath, port] = process.argv.slice(2);
const scenario = JSON.parse(fs.readFileSync(scenarioPath, "utf8"));
let ids = 0;
const id = (p) => `${p}_${++ids}`;

function sse(res, events) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const [name, data] of events) res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  res.end();
}

// ---- Anthropic (Claude Code) ----
function anthropicHasToolResult(body) {
  return (body.messages || []).some((m) => Array.isArray(m.content) &&
    m.content.some((b) => b && b.type === "tool_result"));
}
function anthropicIsMainLoop(body) {
  return (body.tools || []).some((t) => t && t.name === "Bash");
}
function anthropic(body, res) {
  const call = anthropicIsMainLoop(body) && !anthropicHasToolResult(body);
  const model = body.model || "claude-mock";
  const msgId = id("msg");
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const block = call
    ? { type: "tool_use", id: id("toolu"), name: scenario.tool, input: scenario.input }
    : { type: "text", text: scenario.final_text || "Done." };
  const stop = call ? "tool_use" : "end_turn";
  if (!body.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ id: msgId, type: "message", role: "assistant", model, content: [block],
      stop_reason: stop, stop_sequence: null, usage }));
    return;
  }
  const events = [["message_start", { type: "message_start", message: { id: msgId, type: "message",
    role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage } }]];
  if (call) {
    events.push(["content_block_start", { type: "content_block_start", index: 0,
      content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } }]);
    events.push(["content_block_delta", { type: "content_block_delta", index: 0,
      delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } }]);
  } else {
    events.push(["content_block_start", { type: "content_block_start", index: 0,
      content_block: { type: "text", text: "" } }]);
    events.push(["content_block_delta", { type: "content_block_delta", index: 0,
      delta: { type: "text_delta", text: block.text } }]);
  }
  events.push(["content_block_stop", { type: "content_block_stop", index: 0 }]);
  events.push(["message_delta", { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: 5 } }]);
  events.push(["message_stop", { type: "message_stop" }]);
  sse(res, events);
}

// ---- OpenAI Responses (Codex) ----
function openaiHasToolOutput(body) {
  return (Array.isArray(body.input) ? body.input : []).some((i) => i && /_call_output$/.test(i.type || ""));
}
function openai(body, res) {
  const call = !openaiHasToolOutput(body) && Array.isArray(body.tools) && body.tools.length > 0;
  const respId = id("resp");
  let item;
  if (call && scenario.custom) {
    item = { type: "custom_tool_call", id: id("ctc"), call_id: id("call"), name: scenario.tool, input: scenario.input, status: "completed" };
  } else if (call) {
    item = { type: "function_call", id: id("fc"), call_id: id("call"), name: scenario.tool,
      arguments: JSON.stringify(scenario.input), status: "completed" };
  } else {
    item = { type: "message", id: id("msg"), role: "assistant", status: "completed",
      content: [{ type: "output_text", text: scenario.final_text || "Done.", annotations: [] }] };
  }
  const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
  sse(res, [
    ["response.created", { type: "response.created", response: { id: respId, status: "in_progress" } }],
    ["response.output_item.added", { type: "response.output_item.added", output_index: 0, item }],
    ["response.output_item.done", { type: "response.output_item.done", output_index: 0, item }],
    ["response.completed", { type: "response.completed", response: { id: respId, status: "completed", usage } }],
  ]);
}

// ---- OpenAI Chat Completions (Copilot CLI) ----
// The main loop's request offers the scenario's tool; it gets the call until a `tool`
// message (the call's result) is in the conversation. Streamed as SSE `data:` lines unless
// the request says `stream: false`.
function chat(body, res) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const answered = messages.some((m) => m && m.role === "tool");
  const offered = (Array.isArray(body.tools) ? body.tools : []).some((t) => t && t.function && t.function.name === scenario.tool);
  const call = offered && !answered;
  const created = Math.floor(Date.now() / 1000);
  const model = body.model || "mock-model";
  const chatId = id("chatcmpl");
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  const toolCall = { id: id("call"), type: "function",
    function: { name: scenario.tool, arguments: JSON.stringify(scenario.input) } };
  const finish = call ? "tool_calls" : "stop";
  if (body.stream === false || body.stream === undefined) {
    const message = call
      ? { role: "assistant", content: null, tool_calls: [toolCall] }
      : { role: "assistant", content: scenario.final_text || "Done." };
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ id: chatId, object: "chat.completion", created, model,
      choices: [{ index: 0, message, finish_reason: finish }], usage }));
    return;
  }
  const chunk = (delta, finish_reason, extra) => ({ id: chatId, object: "chat.completion.chunk", created, model,
    choices: [{ index: 0, delta, finish_reason }], ...extra });
  const delta = call
    ? { role: "assistant", content: null, tool_calls: [{ index: 0, ...toolCall }] }
    : { role: "assistant", content: scenario.final_text || "Done." };
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.write(`data: ${JSON.stringify(chunk(delta, null))}\n\n`);
  res.write(`data: ${JSON.stringify(chunk({}, finish, { usage }))}\n\n`);
  res.write("data: [DONE]\n\n");
  res.end();
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const text = Buffer.concat(chunks).toString("utf8");
    let body = null;
    try { body = text ? JSON.parse(text) : null; } catch { body = { unparsed: text.slice(0, 2000) }; }
    fs.appendFileSync(logPath, JSON.stringify({ method: req.method, path: req.url, body }) + "\n");
    const path = (req.url || "").split("?")[0];
    if (req.method === "POST" && path.endsWith("/messages/count_tokens")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ input_tokens: 10 }));
    } else if (req.method === "POST" && path.endsWith("/messages")) {
      anthropic(body || {}, res);
    } else if (req.method === "POST" && path.endsWith("/responses")) {
      openai(body || {}, res);
    } else if (req.method === "POST" && path.endsWith("/chat/completions")) {
      chat(body || {}, res);
    } else if (req.method === "GET" && path.endsWith("/models")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ data: [], models: [] }));
    } else {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { type: "not_found", message: "mock: no such endpoint" } }));
    }
  });
});
server.listen(Number(port), "127.0.0.1", () => fs.writeFileSync(readyPath, "ready\n"));
// Never outlive a run: stop after 10 minutes whatever happens.
setTimeout(() => process.exit(0), 600_000).unref();
