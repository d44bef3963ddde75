// The framework floor (bench/baseline-server.mjs with BASELINE_MODE=nest): the no-database baseline's work inside
// a minimal NestJS application on Fastify, with the service's guard chain and nothing else: a bearer guard (the
// no-database baseline's own check: HS256 with a KeyObject, iss/aud, exp, the API token's standing from memory),
// then @nestjs/throttler's guard keyed by tenant as the service builds it (the service's own in-memory storage and
// route metadata cache, from its build: the library's default storage sets a timer per hit, which the service
// replaced; a budget never reached), then a controller answering the action's JSON, made once at start. No interceptors, pipes, filters, logging, metrics, tracing,
// request ids or read model: what NestJS on Fastify with those two guards costs a request, the least any
// implementation on this framework pays. Plain JavaScript: the decorators are applied as functions.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from './common.mjs';

// From the project's own node_modules, the versions the service runs.
const project = createRequire(join(ROOT, 'package.json'));
project('reflect-metadata');
const { Controller, Get, Header, HttpException, Injectable, Module, NotFoundException, Param, Req, UseGuards } = project('@nestjs/common');
const { NestFactory } = project('@nestjs/core');
const { FastifyAdapter } = project('@nestjs/platform-fastify');
const { ThrottlerGuard, ThrottlerModule } = project('@nestjs/throttler');
const { MemoryThrottlerStorage } = project(join(ROOT, 'dist/src/rate-limit/memory-throttler-storage.js'));
const { RouteMetadataCache } = project(join(ROOT, 'dist/src/rate-limit/route-metadata-cache.js'));

const JSON_TYPE = 'application/json; charset=utf-8';

/** Applies method decorators the way TypeScript does. */
function decorateMethod(target, name, ...decorators) {
  const descriptor = Object.getOwnPropertyDescriptor(target.prototype, name);
  for (const decorator of decorators.reverse()) decorator(target.prototype, name, descriptor);
}

/**
 * Starts the framework floor on `host`:`port`. `authenticate(request)` resolves to the caller's tenant id or
 * undefined (the no-database baseline's check); `actions` maps a tenant id to { list, byName } of actions.
 */
export async function startNestFloor({ host, port, authenticate, actions, prefix }) {
  // Every answer made once: { action } per tenant and name, { actions } per tenant.
  const answers = new Map();
  for (const [tenantId, { list, byName }] of actions) {
    const byNameJson = new Map([...byName].map(([name, action]) => [name, JSON.stringify({ action })]));
    answers.set(tenantId, { list: JSON.stringify({ actions: list }), byName: byNameJson });
  }
  const none = { list: JSON.stringify({ actions: [] }), byName: new Map() };

  class BearerGuard {
    async canActivate(context) {
      const request = context.switchToHttp().getRequest();
      const tenantId = await authenticate(request);
      if (!tenantId) throw new HttpException({ error: 'Invalid token' }, 401);
      request.user = { tenantId };
      return true;
    }
  }
  Injectable()(BearerGuard);

  // The options and storage injected as into @nestjs/throttler's guard (its constructor's metadata is inherited).
  class TenantThrottlerGuard extends ThrottlerGuard {
    constructor(options, storage) {
      super(options, storage, new RouteMetadataCache());
    }

    async getTracker(request) {
      return `tenant:${request.user.tenantId}`;
    }
  }
  Injectable()(TenantThrottlerGuard);

  class ActionsController {
    list(request) {
      return (answers.get(request.user.tenantId) ?? none).list;
    }

    get(request, name) {
      const json = (answers.get(request.user.tenantId) ?? none).byName.get(name);
      if (json === undefined) throw new NotFoundException({ error: 'Action not found' });
      return json;
    }
  }
  decorateMethod(ActionsController, 'list', Get(), Header('content-type', JSON_TYPE));
  decorateMethod(ActionsController, 'get', Get(':action_name'), Header('content-type', JSON_TYPE));
  Req()(ActionsController.prototype, 'list', 0);
  Req()(ActionsController.prototype, 'get', 0);
  Param('action_name')(ActionsController.prototype, 'get', 1);
  UseGuards(BearerGuard, TenantThrottlerGuard)(ActionsController);
  Controller(`${prefix.slice(1)}/actions`)(ActionsController);

  class ProbeController {
    ready() {
      return { status: 'ok' };
    }
  }
  decorateMethod(ProbeController, 'ready', Get('readyz'));
  Controller()(ProbeController);

  class FloorModule {}
  Module({
    imports: [ThrottlerModule.forRoot({ throttlers: [{ name: 'hourly', ttl: 3_600_000, limit: 1_000_000_000 }], storage: new MemoryThrottlerStorage() })],
    controllers: [ActionsController, ProbeController],
  })(FloorModule);

  const app = await NestFactory.create(FloorModule, new FastifyAdapter(), { logger: false });
  await app.listen(port, host);
  return app;
}
