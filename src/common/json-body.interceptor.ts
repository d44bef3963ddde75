import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
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
 * service spends a JSON parse on what it sent), on every route, including those that read no body: a POST
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
