// An agent loop over the Action Gateway's tools, with a scripted stand-in for the language model, so it runs with
// no network beyond 127.0.0.1 and no API key. See docs/llm-tools.md.
//
//   GATEWAY_URL=http://127.0.0.1:3000 JWT=<bearer token> node examples/llm-agent.mjs
//   (optional) TOOL=<tool name> ARGUMENTS='{"city":"Oslo"}' (by default get_weather, else the first tool)
//   (optional) MODEL_PORT=<port> for the stand-in model on 127.0.0.1 (by default a free one)
//
// Part 1 plays the OpenAI Chat Completions flow: GET /tools?format=openai gives the definitions, which go to the
// "model" exactly as they would go to OpenAI (`tools` of POST /v1/chat/completions); the model answers with a
// tool call; the call runs through POST /actions/{action_name}/execute; the result goes back as a `tool` message.
// The stand-in model is a local HTTP server speaking the same wire format, so pointing the loop at
// https://api.openai.com (with an API key) is a matter of changing MODEL_URL.
//
// Part 2 does the same through the gateway's MCP server with the official MCP SDK client.
import { createServer } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const gatewayUrl = (process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
const jwt = process.env.JWT;
if (!jwt) {
  console.error('JWT is required: a bearer token from POST /api/v1/gateway/token/exchange');
  process.exit(2);
}
const bearer = { authorization: `Bearer ${jwt}` };
const modelPort = Number(process.env.MODEL_PORT || 0);
if (!Number.isInteger(modelPort) || modelPort < 0 || modelPort > 65_535) {
  console.error(`MODEL_PORT must be a whole number from 0 to 65535 (0: a free one), not "${process.env.MODEL_PORT}"`);
  process.exit(2);
}

async function gateway(method, path, body) {
  const response = await fetch(`${gatewayUrl}/api/v1/gateway${path}`, {
    method,
    headers: { ...bearer, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const payload = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(payload)}`);
  return payload;
}

/**
 * The scripted model: a Chat Completions endpoint on 127.0.0.1. Asked with tools and no tool result yet, it calls
 * TOOL (or the first tool) with ARGUMENTS; given the tool's result, it answers with it.
 */
function startScriptedModel() {
  const server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      const { messages, tools } = JSON.parse(raw);
      const last = messages[messages.length - 1];
      const message =
        last.role === 'tool'
          ? { role: 'assistant', content: `The tool said: ${last.content}` }
          : {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'call_1',
                  type: 'function',
                  function: {
                    name: process.env.TOOL ?? (tools.find((tool) => tool.function.name === 'get_weather') ?? tools[0]).function.name,
                    arguments: process.env.ARGUMENTS ?? JSON.stringify({ city: 'Oslo' }),
                  },
                },
              ],
            };
      const finish = message.tool_calls ? 'tool_calls' : 'stop';
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish }] }));
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', (error) =>
      reject(error.code === 'EADDRINUSE' ? new Error(`MODEL_PORT: 127.0.0.1:${modelPort} is already in use by another process (choose another, or unset it for a free one)`) : error),
    );
    server.listen(modelPort, '127.0.0.1', () => resolve(server));
  });
}

async function chatCompletionsLoop(modelUrl) {
  const { tools, actions, omitted } = await gateway('GET', '/tools?format=openai');
  console.log(`openai: ${tools.length} tool(s); strict: ${actions.filter((action) => action.strict).map((action) => action.tool_name).join(', ') || 'none'}`);
  for (const { action_name, reason } of omitted) console.log(`openai: left out ${action_name}: ${reason}`);
  if (tools.length === 0) throw new Error('the tenant has no action to offer as a tool');
  // tools[i] runs actions[i].action_name (the names differ only for names over 64 characters).
  const actionOf = new Map(actions.map((action) => [action.tool_name, action.action_name]));

  const messages = [{ role: 'user', content: 'What is the weather in Oslo?' }];
  for (let turn = 0; turn < 5; turn++) {
    const completion = await (
      await fetch(`${modelUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.OPENAI_API_KEY ?? 'scripted'}` },
        body: JSON.stringify({ model: 'gpt-4.1', messages, tools }),
      })
    ).json();
    const reply = completion.choices[0].message;
    messages.push(reply);
    if (!reply.tool_calls) return reply.content;
    for (const toolCall of reply.tool_calls) {
      const parameters = JSON.parse(toolCall.function.arguments);
      const { execution } = await gateway('POST', `/actions/${actionOf.get(toolCall.function.name)}/execute`, { parameters }).catch((error) => ({
        execution: { status: 'failed', error: error.message },
      }));
      console.log(`openai: ${toolCall.function.name}(${toolCall.function.arguments}) -> ${execution.status} (execution ${execution.id ?? 'none'})`);
      // The model reads the receiver's result, or why the call failed.
      const content = execution.status === 'succeeded' ? (execution.result ?? '') : `Error: ${execution.error}`;
      messages.push({ role: 'tool', tool_call_id: toolCall.id, content });
    }
  }
  throw new Error('the model kept calling tools');
}

async function mcpSession(toolName, args) {
  const client = new Client({ name: 'llm-agent-example', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gatewayUrl}/api/v1/gateway/mcp`), { requestInit: { headers: bearer } }));
  try {
    const { tools } = await client.listTools();
    console.log(`mcp: ${tools.length} tool(s): ${tools.map((tool) => tool.name).join(', ')}`);
    const result = await client.callTool({ name: toolName, arguments: args });
    const execution = result._meta?.['action-gateway/execution'];
    console.log(`mcp: ${toolName} -> ${result.isError ? 'error' : 'ok'}: ${result.content[0].text} (execution ${execution?.id ?? 'none'})`);
  } finally {
    await client.close();
  }
}

const model = await startScriptedModel().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
try {
  const modelUrl = process.env.MODEL_URL ?? `http://127.0.0.1:${model.address().port}`;
  const answer = await chatCompletionsLoop(modelUrl);
  console.log(`model: ${answer}`);
  const { actions } = await gateway('GET', '/tools?format=mcp');
  await mcpSession(process.env.TOOL ?? (actions.find((action) => action.tool_name === 'get_weather') ?? actions[0]).tool_name, JSON.parse(process.env.ARGUMENTS ?? '{"city":"Oslo"}'));
} finally {
  model.close();
}
