import { createServer, Server } from 'node:http';
import { createServer as createHttp2Server, Http2Server, ServerHttp2Session } from 'node:http2';
import { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** A span as OTLP/JSON carries it, ids in hex, attributes flattened to values. */
export interface CollectedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  status: { code?: number };
  resource: Record<string, string | number | boolean>;
}

/** One export as it arrived: its path, content type and raw bytes (after gzip, if the exporter compressed). */
export interface ExportRequest {
  path: string;
  contentType: string;
  body: Buffer;
}

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type KeyValue = { key: string; value: AnyValue };

const flatten = (attributes: KeyValue[] = []) =>
  Object.fromEntries(attributes.map(({ key, value }) => [key, value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue ?? ''))]));

/**
 * A collector on 127.0.0.1 speaking OTLP the way the OpenTelemetry Collector does: OTLP/HTTP at `/v1/traces`
 * (protobuf or JSON, as the exporter sends), answering 200 with an empty export response, and OTLP/gRPC (HTTP/2,
 * the TraceService/Export method). JSON exports are decoded into spans; protobuf and gRPC ones are kept as bytes.
 */
export class OtlpCollector {
  readonly requests: ExportRequest[] = [];
  private http?: Server;
  private grpc?: Http2Server;
  private readonly sessions = new Set<ServerHttp2Session>();
  /** Answer exports with this status (to see an exporter fail). */
  failWith?: number;

  static async start(): Promise<OtlpCollector> {
    const collector = new OtlpCollector();
    collector.http = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const raw = Buffer.concat(chunks);
        const body = request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
        if (collector.failWith) return void response.writeHead(collector.failWith).end();
        const contentType = String(request.headers['content-type'] ?? '');
        collector.requests.push({ path: request.url ?? '', contentType, body });
        if (contentType.startsWith('application/json')) response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        else response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      });
    });
    collector.grpc = createHttp2Server();
    collector.grpc.on('session', (session) => {
      collector.sessions.add(session);
      session.on('close', () => collector.sessions.delete(session));
    });
    collector.grpc.on('stream', (stream, headers) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        // gRPC framing: 1 byte compressed flag, 4 bytes length, then the protobuf message.
        const framed = Buffer.concat(chunks);
        collector.requests.push({ path: String(headers[':path']), contentType: String(headers['content-type']), body: framed.subarray(5) });
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
        stream.end(Buffer.from([0, 0, 0, 0, 0]));
      });
    });
    await new Promise<void>((resolve) => collector.http!.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => collector.grpc!.listen(0, '127.0.0.1', resolve));
    return collector;
  }

  /** OTEL_EXPORTER_OTLP_ENDPOINT for OTLP/HTTP. */
  get httpEndpoint(): string {
    return `http://127.0.0.1:${(this.http!.address() as AddressInfo).port}`;
  }

  /** OTEL_EXPORTER_OTLP_ENDPOINT for OTLP/gRPC. */
  get grpcEndpoint(): string {
    return `http://127.0.0.1:${(this.grpc!.address() as AddressInfo).port}`;
  }

  /** Every span of every JSON export so far. */
  get spans(): CollectedSpan[] {
    return this.requests
      .filter((request) => request.contentType.startsWith('application/json'))
      .flatMap((request) => {
        const exported = JSON.parse(request.body.toString('utf8')) as {
          resourceSpans: { resource: { attributes: KeyValue[] }; scopeSpans: { spans: (Omit<CollectedSpan, 'attributes' | 'resource'> & { attributes: KeyValue[] })[] }[] }[];
        };
        return exported.resourceSpans.flatMap(({ resource, scopeSpans }) =>
          scopeSpans.flatMap(({ spans }) => spans.map((span) => ({ ...span, parentSpanId: span.parentSpanId ?? '', attributes: flatten(span.attributes), resource: flatten(resource.attributes) }))),
        );
      });
  }

  /** The spans of one trace. */
  trace(traceId: string): CollectedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  async stop(): Promise<void> {
    this.http?.closeAllConnections();
    await new Promise<void>((resolve) => this.http?.close(() => resolve()));
    for (const session of this.sessions) session.destroy();
    await new Promise<void>((resolve) => this.grpc?.close(() => resolve()));
  }
}
