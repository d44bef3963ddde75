import { Injectable } from '@nestjs/common';
import type { ValidateFunction } from 'ajv';
import { RateLimitExceededError } from '../common/common.errors';
import { writtenText } from '../common/json-text';
import { UnsupportedPatternError } from './schema/linear-regexp';
import { analyzeSchema, MAX_SCHEMA_BYTES, MAX_SCHEMA_NODES, SchemaCost } from './schema/schema-analysis';
import { dialectOf } from './schema/schema-ajv';
import { compileSchema, ParameterCheck } from './schema/schema-compilation';
import { mistakesText, schemaMistakes } from './schema/schema-mistakes';
import { SANDBOX_DEADLINE_MS, SchemaSandbox, schemaKey } from './schema/schema-sandbox';

export { MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES } from './schema/schema-analysis';

/** What executing an action needs from its schema, prepared once per action version. */
export type PreparedSchema =
  /** Compiled on the event loop; checks there while the parameters fit (fitsInline), else in the worker. */
  | { kind: 'inline'; validate: ValidateFunction; cost: SchemaCost; key: string }
  /** Compiled and checked in the worker only, where it is cached under `key` (schemaKey). */
  | { kind: 'isolated'; key: string }
  /** A stored schema that no longer compiles: it accepts nothing. */
  | { kind: 'broken'; problem: string };

/**
 * Checks an action's `json_schema` (contract: draft 2020-12 by default, draft-07 when `$schema` says so, a
 * top-level `type`, if any, of "object") and prepares it for checking parameters, with a bounded cost whatever a
 * tenant sends (docs/decisions.md, "Bounded cost of schemas"): small schemas whose cost analyzeSchema bounds are
 * compiled on the event loop, everything else in SchemaSandbox's worker under a deadline. Remote `$ref`s are
 * never fetched. A schema being saved is first checked for mistakes JSON Schema lets pass (mistakesIn: unknown
 * keywords, `required` names no property defines, types that do not exist); a stored one is never checked for them
 * again, so schemas saved before keep running.
 */
@Injectable()
export class JsonSchemaCompiler {
  constructor(private readonly sandbox: SchemaSandbox) {}

  /**
   * The mistakes in a schema being saved that JSON Schema would let pass (schema-mistakes.ts, which the console
   * shares), as a whole `details` text (`json_schema.properties.city: ...; ...`), or nothing. Linear in the
   * schema, and it stops after MAX_SCHEMA_NODES values (problemWith refuses a larger schema).
   */
  mistakesIn(schema: Record<string, unknown>): string | undefined {
    const dialect = dialectOf(schema.$schema);
    if (!dialect) return undefined; // problemWith names it
    const mistakes = schemaMistakes(schema, dialect, MAX_SCHEMA_NODES);
    return mistakes.length > 0 ? mistakesText(mistakes) : undefined;
  }

  /** What is wrong with `schema` as `owner`'s action schema, in the words of `json_schema: <problem>`, or nothing. */
  async problemWith(owner: string, schema: Record<string, unknown>): Promise<string | undefined> {
    const prepared = this.prepare(schema);
    if (prepared.kind === 'broken') return prepared.problem;
    if (Buffer.byteLength(writtenText(schema)) > MAX_SCHEMA_BYTES) return `is larger than ${MAX_SCHEMA_BYTES} bytes as written`;
    if (prepared.kind === 'inline') return undefined;
    const outcome = await this.sandbox.compile(owner, prepared.key, schema);
    switch (outcome.kind) {
      case 'answered':
        return outcome.reply.problem;
      case 'timed_out':
        return `is too costly to compile (more than ${SANDBOX_DEADLINE_MS} ms)`;
      case 'failed':
        return 'is too costly to compile (more memory than allowed)';
      case 'busy':
        throw new RateLimitExceededError(1);
      case 'exhausted':
        throw new RateLimitExceededError(outcome.retryAfterSeconds);
    }
  }

  /** Analyzes and, when it may run on the event loop, compiles `schema`. */
  prepare(schema: Record<string, unknown>): PreparedSchema {
    const patterns = new Map();
    const analysis = analyzeSchema(schema, patterns);
    if (analysis.kind === 'refused') return { kind: 'broken', problem: analysis.problem };
    const key = schemaKey(schema);
    if (analysis.kind === 'isolated') return { kind: 'isolated', key };
    try {
      const compilation = compileSchema(schema, patterns, false);
      return compilation.ok ? { kind: 'inline', validate: compilation.validate, cost: analysis.cost, key } : { kind: 'broken', problem: compilation.problem };
    } catch (error) {
      if (error instanceof UnsupportedPatternError) return { kind: 'isolated', key };
      throw error;
    }
  }

  /** Checks `parameters` in the worker, compiling the schema there first unless it is cached under `key` (schemaKey). */
  async checkIsolated(owner: string, key: string, schema: Record<string, unknown>, parameters: unknown): Promise<ParameterCheck> {
    const outcome = await this.sandbox.validate(owner, key, schema, parameters);
    switch (outcome.kind) {
      case 'answered':
        return outcome.reply;
      case 'timed_out':
        return { valid: false, problem: `could not be checked against the json_schema within ${SANDBOX_DEADLINE_MS} ms` };
      case 'failed':
        return { valid: false, problem: 'are too complex to check' };
      case 'busy':
        throw new RateLimitExceededError(1);
      case 'exhausted':
        throw new RateLimitExceededError(outcome.retryAfterSeconds);
    }
  }
}
