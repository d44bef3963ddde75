import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Observable } from 'rxjs';
import { RawBody } from './json-body-parser';
import { KEEP_NUMBER_LITERALS } from './json-numbers';

/**
 * Parses the request body once the guards have passed (so a caller without a valid token gets 401 before the
 * service spends a JSON parse on what it sent), on every route, including those that read no body: a POST
 * .../hmac-keys or a DELETE with malformed JSON, or with a body that is not an object, is the contract's 400 and
 * does nothing, rather than being acted on because nobody looked at what came with it. Routes marked
 * `@KeepNumberLiterals()` (those that forward what they are sent) get the numbers' literals recorded too.
 */
@Injectable()
export class JsonBodyInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<{ body?: unknown }>();
    if (request.body instanceof RawBody) {
      const keepNumberLiterals = this.reflector.get<boolean | undefined>(KEEP_NUMBER_LITERALS, context.getHandler()) === true;
      request.body = request.body.parseObject({ keepNumberLiterals });
    }
    return next.handle();
  }
}
