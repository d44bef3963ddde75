// A webhook receiver for the Action Gateway on Node's http module: it verifies each call with the receiver kit
// (the Standard Webhooks headers and the body signature, on the raw bytes) and answers the spec's {result, error}.
//
//   HMAC_KEY=whsec_... node examples/receiver.mjs        # listens on http://127.0.0.1:4000/hook
//
// HMAC_KEY may list every key you hold during a rotation, comma-separated. RECEIVER_PORT sets the port (default
// 4000; 0 picks a free one): not PORT, which is the service's, so one `export PORT=...` serves both. It answers
// POST /hook only: any other path is a 404, said here too, so a typo in an action's webhook_url shows at once.
// The kit is the package @action-gateway/receiver-kit in packages/receiver-kit (not on the npm registry yet:
// install that folder, or the tarball `npm pack` makes there).
import { createServer } from 'node:http';
import { verifyWebhook } from '@action-gateway/receiver-kit';

const keys = (process.env.HMAC_KEY ?? '').split(',').map((key) => key.trim()).filter(Boolean);
const port = Number(process.env.RECEIVER_PORT ?? 4000);
const PATH = '/hook';
const MAX_BODY_BYTES = 4 * 1024 * 1024; // a 1 MB request of non-ASCII text arrives escaped, as over 3 MB

const server = createServer((request, response) => {
  const answer = (status, body) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const path = request.url.split('?')[0];
  if (path !== PATH || request.method !== 'POST') {
    console.error(`${request.method} ${path}: this receiver answers POST ${PATH} only (is the action's webhook_url right?)`);
    return answer(path !== PATH ? 404 : 405, { result: '', error: `this receiver answers POST ${PATH} only` });
  }
  const chunks = [];
  let size = 0;
  request.on('data', (chunk) => {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  });
  request.on('end', () => {
    if (size > MAX_BODY_BYTES) return answer(413, { result: '', error: 'body too large' });
    // The raw bytes, never a re-serialized JSON.parse: both signatures cover exactly what was sent.
    const verified = verifyWebhook(Buffer.concat(chunks), request.headers, keys);
    if (!verified.ok) {
      console.error(`refused: ${verified.reason}`);
      return answer(401, { error: 'Invalid signature' });
    }
    const { action_name: action, parameters, test } = verified.payload;
    // The registration test: answer it, nothing else (unsigned while the tenant has no key, it proves nothing).
    if (test) return answer(200, { result: 'ready', error: '' });
    console.log(`run ${action} with ${JSON.stringify(parameters)}`);
    answer(200, { result: `Weather in ${parameters.city ?? 'nowhere'}: sunny, 21 °C`, error: '' });
  });
});
server.on('error', (error) => {
  // One line, not a stack: the usual cause is a second receiver, or something else, on the port.
  const hint = error.code === 'EADDRINUSE' ? ' (set RECEIVER_PORT to another port)' : '';
  console.error(`receiver cannot listen on 127.0.0.1:${port}: ${error.code ?? error.message}${hint}`);
  process.exit(1);
});
server.listen(port, '127.0.0.1', () => console.log(`receiver on http://127.0.0.1:${server.address().port}${PATH}`));
