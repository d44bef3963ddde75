import { CallHandler, ExecutionContext, INestApplicationContext, Injectable, NestInterceptor, RequestMethod, SetMetadata } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { Observable } from 'rxjs';
import { RawBody } from './json-body-parser';

const FORWARDS_AS_WRITTEN = 'agw:forwards-as-written';
/**
 * Marks a route whose body is forwarded (an execution's parameters), so `RawBody` records what a parsed
 * JavaScript value loses of it: number literals (json-numbers.ts) and the written order of keys (json-key-order.ts).
 */
export const ForwardsAsWritten = () => SetMetadata(FORWARDS_AS_WRITTEN, true);
const KEEP_WRITTEN_TEXT = 'agw:keep-written-text';
/** Marks a route that gives back these members of its body as written (an action's json_schema: json-text.ts). */
export const KeepWrittenText = (...members: string[]) => SetMetadata(KEEP_WRITTEN_TEXT, members);

/**
 * Parses the request body once the guards have passed (so a caller without a valid token gets 401 before the
 * service spends a JSON parse on what it sent), on every route that can carry one (bindJsonBodyInterceptor),
 * including those that read no body: a POST
 * .../hmac-keys or a DELETE with malformed JSON, or with a body that is not an object, is the contract's 400 and
 * does nothing, rather than being acted on because nobody looked at what came with it. Routes marked
 * `@ForwardsAsWritten()` (those that forward what they are sent) get its numbers' literals and keys' order recorded too, and
 * routes marked `@KeepWrittenText(...)` the text of those members.
 */
@Injectable()
export class JsonBodyInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<{ body?: unknown }>();
    if (request.body instanceof RawBody) {
      const handler = context.getHandler();
      const forwardsAsWritten = this.reflector.get<boolean | undefined>(FORWARDS_AS_WRITTEN, handler) === true;
      const keepWrittenText = this.reflector.get<string[] | undefined>(KEEP_WRITTEN_TEXT, handler);
      request.body = request.body.parseObject({ forwardsAsWritten, keepWrittenText });
    }
    return next.handle();
  }
}

/** Methods whose requests carry no body: Fastify does not read one, so there is nothing to parse. */
const BODILESS: readonly RequestMethod[] = [RequestMethod.GET, RequestMethod.HEAD];

/**
 * Binds JsonBodyInterceptor to every route of `app` that can carry a body, that is every method but GET and HEAD,
 * before the application's init reads each route's interceptors. It is not a global interceptor because a route
 * with any interceptor at all goes through Nest's interceptor machinery (a chain of Observables, a subject and a
 * disconnect listener per request), which cost the reads, the hot path, about a sixth of their CPU for a parse
 * they never need (docs/benchmarks.md, "Reads through no interceptor"). Each call binds the latest instance in place of any
 * earlier one, so that applications made one after another in a process (the tests) bind it once.
 */
export function bindJsonBodyInterceptor(app: INestApplicationContext): void {
  const interceptor = app.get(JsonBodyInterceptor);
  const scanner = new MetadataScanner();
  for (const { metatype } of app.get(DiscoveryService).getControllers()) {
    const prototype = (metatype as { prototype?: Record<string, object> } | null)?.prototype;
    if (!prototype) continue;
    for (const name of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[name];
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method === undefined || BODILESS.includes(method)) continue;
      const bound = (Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[] | undefined) ?? [];
      Reflect.defineMetadata(INTERCEPTORS_METADATA, [interceptor, ...bound.filter((other) => !(other instanceof JsonBodyInterceptor))], handler);
    }
  }
}
