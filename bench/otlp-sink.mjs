// The collector of the benchmark's traced runs (BENCH_TRACING=on): `node bench/otlp-sink.mjs <port>`, a process of
// its own on the load generator's CPU. It takes OTLP/HTTP exports (protobuf, the service's default) at /v1/traces
// and answers 200 with an empty ExportTraceServiceResponse, as an OpenTelemetry Collector does, keeping nothing but
// a count: GET /__exports answers {"exports": n, "bytes": n}. GET /readyz answers 200 once it listens.
import { createServer } from 'node:http';
import { HOST } from './lib/common.mjs';

const port = Number(process.argv[2]);
let exports = 0;
let bytes = 0;

const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  if (req.method === 'GET') {
    const body = req.url === '/__exports' ? JSON.stringify({ exports, bytes }) : '{}';
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    return;
  }
  req.on('data', (chunk) => (bytes += chunk.length));
  req.on('end', () => {
    exports++;
    res.writeHead(200, { 'content-type': 'application/x-protobuf', 'content-length': 0 }).end();
  });
});
server.listen(port, HOST);
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => process.exit(0));
