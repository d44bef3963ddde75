import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import fastifyCookie from '@fastify/cookie';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { AppModule } from './app.module';
import { BODY_LIMIT_BYTES, registerRawBodyReader } from './common/json-body-parser';
import { bindJsonBodyInterceptor } from './common/json-body.interceptor';
import { registerJsonTextSerializer } from './common/json-response';
import { MAX_PARAM_LENGTH, RouteTable } from './common/route-table';
import { createLogger } from './common/logging';
import { serveConsoleAssets } from './console/serve-console-assets';
import { PinoNestLogger } from './common/pino-nest-logger';
import { AppConfig, TrustProxy } from './config/app-config';
import { ShutdownState } from './health/shutdown-state';
import { Metrics } from './metrics/metrics';
import { serveOpenApi } from './openapi/document';
import { traceRequests } from './tracing/request-trace';
import { Tracing } from './tracing/tracing';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Where the gateway interface and the management API live (GATEWAY_PREFIX, ADMIN_PREFIX). */
const API_PATH = '/api/';

/** Connections whose last request was answered before its body had all arrived (see closesWithoutAnswer). */
const ANSWERED_UNREAD = new WeakSet<Socket>();

/**
 * Whether a connection whose request missed REQUEST_TIMEOUT_MS is closed without the 408, because an answer is
 * due or given there already: an earlier request's, still being written (pipelining: a 408 now would arrive in
 * its place, and the client would take an execution that ran for one that did not), after which the connection
 * closes; or the late request's own, sent before its body was read (a GET with a body), and it just closes.
 */
function closesWithoutAnswer(socket: Socket): boolean {
  // The answer being written on the connection: an earlier request's (whose body has all arrived), or the late
  // request's own once it has begun; not the late request's own that has not (then the 408 takes its place).
  // `_httpMessage` is Node's private field for it (src/node-http-internals.spec.ts fails by name if an upgrade
  // moves it). The public way is to track it ourselves: a hook on every request that records its response per
  // socket and a 'finish' listener that clears it, a map write and a closure on every request's path for what
  // only a timed-out request reads, and blind to answers Node writes before routing.
  const pending = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (pending && !pending.writableFinished && (pending.req?.complete || pending.headersSent)) {
    pending.once('finish', () => socket.destroy());
    return true;
  }
  if (!ANSWERED_UNREAD.has(socket)) return false;
  socket.destroy();
  return true;
}

/** The Fastify adapter with the contract's limits: 1 MB bodies, request ids echoed or made. */
export function createAdapter(config: AppConfig, logger: Logger): FastifyAdapter {
  return new FastifyAdapter({
    loggerInstance: logger,
    bodyLimit: BODY_LIMIT_BYTES,
    // A path name that is too long is an unknown action (404), not Fastify's 414.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    trustProxy: trustProxyOption(config.trustProxy),
    // A client gets this long to send its whole request (Fastify's default is no limit, so a body dripped a byte
    // at a time held its connection, and a file descriptor, for ever). Node takes the longer of this and the
    // headers' deadline (60 s) as the request's, so the headers' is never longer; it checks the deadlines at
    // connectionsCheckingInterval, so a request is cut at most that much after its deadline.
    requestTimeout: config.requestTimeoutMs,
    http: { headersTimeout: Math.min(60_000, config.requestTimeoutMs), connectionsCheckingInterval: Math.min(5_000, config.requestTimeoutMs) },
    requestIdHeader: false,
    // While closing, a request that still arrives on an open connection is served, not answered 503: the
    // connection closes after it (see the onSend hook), so the drain is short anyway.
    return503OnClosing: false,
    genReqId: (request: IncomingMessage) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    // Requests Node's HTTP parser cannot read (raw non-ASCII bytes in the path, oversized headers) never reach
    // Fastify's routing: answer them in the contract's shape too, on the raw socket.
    clientErrorHandler: (error: NodeJS.ErrnoException, socket: Socket) => {
      if (error.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
      const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
      if (timedOut && closesWithoutAnswer(socket)) return;
      const body = JSON.stringify(timedOut ? { error: 'Request timeout' } : { error: 'Invalid request', details: 'request: malformed HTTP request' });
      socket.end(
        `HTTP/1.1 ${timedOut ? '408 Request Timeout' : '400 Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
    // Errors Fastify raises before routing (a malformed percent-encoding in the path) never reach Nest's filter.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const notFound = error.code === 'FST_ERR_BAD_URL';
      reply
        .code(notFound ? 404 : 400)
        .header('x-request-id', request.id)
        .send(notFound ? { error: 'Not found' } : { error: 'Invalid request', details: `request: ${error.message}` });
    },
  });
}

/**
 * Fastify takes an address list as it is, but ignores a plain hop count (it cannot tell who the nearest peer
 * is), so a hop count becomes the function "the nearest N addresses are proxies": X-Forwarded-For is read from
 * the right, and the address N hops back is the client's. Whatever the client wrote further left is ignored.
 */
function trustProxyOption(trustProxy: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy !== 'number') return trustProxy;
  const hops = trustProxy;
  return (_address, hop) => hop < hops;
}

/** Everything the HTTP layer needs besides the modules; shared by `main.ts` and the e2e tests. */
export async function configureApp(app: NestFastifyApplication): Promise<NestFastifyApplication> {
  const fastify = app.getHttpAdapter().getInstance();
  // The application's own lines go to the same pino logger as Fastify's request lines, those logged while the
  // modules started included (buffered until now). If starting fails before this point, the buffer is dropped
  // and main.ts prints what went wrong once.
  app.useLogger(new PinoNestLogger(fastify.log as Logger));
  app.flushLogs();
  app.get(RouteTable).attach(fastify);
  registerRawBodyReader(fastify);
  registerJsonTextSerializer(fastify);
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  fastify.addHook('onResponse', (request, _reply, done) => {
    if (request.raw.complete) ANSWERED_UNREAD.delete(request.raw.socket);
    else ANSWERED_UNREAD.add(request.raw.socket);
    done();
  });
  noteArrivals(fastify);
  traceRequests(fastify, app.get(Tracing));
  // While shutting down, every answer closes its connection, so keep-alive clients reconnect elsewhere and the
  // server's close is not held up by connections that turn idle after it began.
  app.get(Metrics).observeHttp(fastify);
  serveOpenApi(app);
  // The console's session cookie (read by the management API's guard) and the console's static assets.
  await app.register(fastifyCookie);
  serveConsoleAssets(app);
  const shutdown = app.get(ShutdownState);
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (shutdown.isDraining) reply.header('connection', 'close');
    // Every answer of the two APIs is for one credential's holder, and most carry receivers' data or secrets
    // (executions, results, webhook URLs that may hold a secret, tokens, keys, sessions): no cache on the way,
    // shared or private, may keep a copy (RFC 9111 `no-store`), errors included.
    if (request.url.startsWith(API_PATH)) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
  bindJsonBodyInterceptor(app);
  await app.init();
  return app;
}

/**
 * Every request notes when it arrived (`request.arrivedAt`): the reads made on its behalf pass it on, and the
 * read model answers them from memory only with what is current as of then (ReadModel.synced, AsOf).
 */
function noteArrivals(fastify: FastifyInstance): void {
  fastify.decorateRequest('arrivedAt', 0);
  fastify.addHook('onRequest', (request, _reply, done) => {
    request.arrivedAt = performance.now();
    done();
  });
}

export async function createApp(config: AppConfig): Promise<NestFastifyApplication> {
  const logger = createLogger(config);
  for (const warning of config.warnings) logger.warn(`Configuration warning: ${warning}`);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), createAdapter(config, logger), {
    bufferLogs: true,
    autoFlushLogs: false,
    abortOnError: false,
    bodyParser: false, // ours: registerRawBodyReader
  });
  return configureApp(app);
}
