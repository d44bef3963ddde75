// The local webhook receiver of the benchmark: `node bench/receiver.mjs <port>`, a process of its own.
// It answers every POST at once with {"result":"ok","error":""} (registration tests and executions alike) over
// keep-alive connections, and keeps the first execution call (not a registration test) it sees, with its headers,
// so the harness can replay it directly: GET /__captured. GET /readyz answers 200 once it listens.
import { createServer } from 'node:http';
import { HOST } from './lib/common.mjs';

const port = Number(process.argv[2]);
const ANSWER = JSON.stringify({ result: 'ok', error: '' });
let captured = null;
let calls = 0;

const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  if (req.method === 'GET') {
    const body = req.url === '/__captured' ? JSON.stringify({ captured, calls }) : '{}';
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    return;
  }
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    calls++;
    if (!captured) {
      const body = Buffer.concat(chunks).toString('utf8');
      if (!body.includes('"test":true')) captured = { path: req.url, body, headers: { ...req.headers } };
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(ANSWER) }).end(ANSWER);
  });
});
server.listen(port, HOST);
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => process.exit(0));
