// The sustained attacks of issue 27, replayed by bench/isolation.mjs for ISOLATION_SUSTAINED_S seconds each while a
// neighbour tenant runs an action whose schema is checked in the schema worker (a `$dynamicAnchor` one).
//
// - worker_starvation: 4 concurrent loops of execute on an action whose pattern is a backreference (ECMAScript
//   only, so checked in the worker) that backtracks past the worker's deadline on 42 `a`s.
// - management_churn: a tenant's portal session loops, at once, POST + DELETE of an action (a worker-checked
//   schema, so each registration is a worker job and a signed registration POST), POST + DELETE of an API token,
//   and POST + DELETE of an HMAC key.
import { Pool } from 'undici';

/** The attack: `^(a|a)*(\1)x$` on 42 `a`s backtracks for hours on ECMAScript's engine. */
export const BACKREFERENCE_SCHEMA = { type: 'object', properties: { s: { type: 'string', pattern: '^(a|a)*(\\1)x$' } } };
export const BACKREFERENCE_BODY = JSON.stringify({ parameters: { s: 'a'.repeat(42) } });
/** The neighbour's: `$dynamicAnchor` sends it to the worker too. */
export const DYNAMIC_TREE_SCHEMA = {
  $id: 'https://example.com/tree',
  $dynamicAnchor: 'node',
  type: 'object',
  properties: { name: { type: 'string' }, children: { type: 'array', items: { $dynamicRef: '#node' } } },
};
export const DYNAMIC_TREE_BODY = JSON.stringify({ parameters: { name: 'root', children: [{ name: 'leaf', children: [] }] } });

const count = (tally, key) => (tally[key] = (tally[key] ?? 0) + 1);

/** Sends `step` back to back until `until` (epoch ms); each step returns the statuses it got. */
async function loop(until, step, tally) {
  while (Date.now() < until) for (const status of await step()) count(tally, status);
}

async function send(pool, method, path, headers, body) {
  const res = await pool.request({ method, path, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body, headersTimeout: 60_000, bodyTimeout: 60_000 });
  const text = await res.body.text();
  return { status: res.statusCode, json: text.startsWith('{') ? JSON.parse(text) : undefined };
}

/** 4 concurrent loops of the runaway execution, as a bearer client; statuses tallied. */
export async function workerStarvation({ url, jwt, actionName, seconds }) {
  const pool = new Pool(url, { connections: 4 });
  const tally = {};
  const until = Date.now() + seconds * 1000;
  const headers = { authorization: `Bearer ${jwt}` };
  await Promise.all(Array.from({ length: 4 }, () => loop(until, async () => [(await send(pool, 'POST', `/api/v1/gateway/actions/${actionName}/execute`, headers, BACKREFERENCE_BODY)).status], tally)));
  await pool.close();
  return { statuses: tally };
}

/** The three churn loops of a portal session at once; statuses tallied per loop. */
export async function managementChurn({ url, tenantId, cookie, csrf, webhookUrl, seconds }) {
  const pool = new Pool(url, { connections: 3 });
  const base = `/api/v1/admin/tenants/${tenantId}`;
  const headers = { cookie: `agw_console_session=${cookie}`, 'x-csrf-token': csrf };
  const until = Date.now() + seconds * 1000;
  const tallies = { actions: {}, api_tokens: {}, hmac_keys: {} };
  let n = 0;
  const createThenDelete = async (path, body, idOf) => {
    const created = await send(pool, 'POST', `${base}/${path}`, headers, body === undefined ? undefined : JSON.stringify(body()));
    if (created.status !== 201) return [created.status];
    return [created.status, (await send(pool, 'DELETE', `${base}/${path}/${idOf(created.json)}`, headers)).status];
  };
  await Promise.all([
    loop(until, () => createThenDelete('actions', () => ({ name: `churn_${++n}`, description: 'churn', webhook_url: webhookUrl, json_schema: DYNAMIC_TREE_SCHEMA }), (json) => json.action.name), tallies.actions),
    loop(until, () => createThenDelete('api-tokens', () => ({ name: 'churn' }), (json) => json.api_token.id), tallies.api_tokens),
    loop(until, () => createThenDelete('hmac-keys', undefined, (json) => json.hmac_key.id), tallies.hmac_keys),
  ]);
  await pool.close();
  return { statuses: tallies };
}
