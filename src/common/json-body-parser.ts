import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { InvalidRequestError } from './common.errors';
import { recordKeyOrder } from './json-key-order';
import { recordNumberLiterals } from './json-numbers';
import { compactJson, keepWrittenText, memberText, nestsDeeperThan } from './json-text';

export const BODY_LIMIT_BYTES = 1_048_576;
/**
 * How deeply a body's arrays and objects may nest. Everything downstream that walks a value (the exact reading of
 * numbers, canonical JSON, the schema worker's message copy, Ajv's generated code) then recurses a bounded number of times,
 * and a receiver in Python (whose json module stops near 1,000 levels) can still read what it is sent.
 */
export const MAX_BODY_DEPTH = 128;
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
/** `application/json`, with parameters (a charset) or none. */
const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

/** Whether a Content-Type header says `application/json` (any parameters). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  return contentType !== undefined && JSON_MEDIA_TYPE.test(contentType);
}

/**
 * A request body as read off the wire, not yet parsed. Parsing waits for the body pipe, which runs after the
 * guards: a caller without a valid token gets 401 without the service spending a JSON parse on what it sent.
 */
export class RawBody {
  constructor(
    readonly contentType: string | undefined,
    readonly bytes: Buffer,
  ) {}

  /**
   * The body as a JSON object, or undefined when there is none; anything else is the contract's 400. With
   * `forwardsAsWritten`, the numbers a JavaScript number does not hold exactly (json-numbers.ts) and the written
   * key order of objects with integer-like keys (json-key-order.ts) are recorded;
   * the members named in `keepWrittenText` that hold an object or array get their text recorded (json-text.ts).
   */
  parseObject(options: BodyReading = {}): Record<string, unknown> | undefined {
    const body = this.parse(options);
    if (body === undefined) return undefined;
    const [text, value] = body;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new InvalidRequestError('body: must be a JSON object');
    }
    for (const key of options.keepWrittenText ?? []) {
      const member = (value as Record<string, unknown>)[key];
      const written = typeof member === 'object' && member !== null ? memberText(text, key) : undefined;
      if (written !== undefined) keepWrittenText(member as object, compactJson(written));
    }
    return value as Record<string, unknown>;
  }

  /** JSON is the only body the service reads; an empty body is no body (clients send Content-Type on DELETE too). */
  private parse(options: BodyReading): [text: string, value: unknown] | undefined {
    let text: string;
    let value: unknown;
    try {
      // Invalid UTF-8 is refused rather than silently turned into U+FFFD and stored that way.
      text = UTF8.decode(this.bytes);
    } catch {
      throw new InvalidRequestError('body: not valid UTF-8');
    }
    if (text.trim() === '') return undefined;
    // No Content-Type at all is read as JSON: Python's `requests.post(url, data=...)` sends none.
    if (this.contentType !== undefined && !JSON_MEDIA_TYPE.test(this.contentType)) {
      throw new InvalidRequestError('body: Content-Type must be application/json');
    }
    if (nestsDeeperThan(text, MAX_BODY_DEPTH)) throw new InvalidRequestError(`body: nested deeper than ${MAX_BODY_DEPTH} levels`);
    try {
      // `__proto__` and `constructor.prototype` keys are refused, not silently dropped; numbers too large for a
      // double would become Infinity, which JSON cannot carry on to a webhook. (Checked after parsing rather than
      // by a reviver, which cost a call per value: 100 ms for a 400 KB body of small numbers.)
      value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
      if (hasNonFiniteNumber(value)) throw new Error('number out of range');
    } catch (error) {
      throw new InvalidRequestError(`body: malformed JSON (${(error as Error).message})`);
    }
    if (options.forwardsAsWritten) {
      recordKeyOrder(text, value);
      recordNumberLiterals(text, value);
    }
    return [text, value];
  }
}

/** What a route keeps of its body besides the parsed value (see RawBody.parseObject). */
interface BodyReading {
  forwardsAsWritten?: boolean;
  keepWrittenText?: readonly string[];
}

/** Whether a parsed value holds Infinity (a literal beyond a double's range); one pass, no recursion. */
function hasNonFiniteNumber(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'number') {
      if (!Number.isFinite(next)) return true;
    } else if (next !== null && typeof next === 'object') {
      for (const item of Array.isArray(next) ? next : Object.values(next)) pending.push(item);
    }
  }
  return false;
}

/** Reads every body (up to 1 MB, else 413) as bytes, whatever its type; `RawBody.parseObject` decides later. */
export function registerRawBodyReader(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES },
    (request: FastifyRequest, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => {
      done(null, new RawBody(request.headers['content-type'], typeof body === 'string' ? Buffer.from(body) : body));
    },
  );
}
