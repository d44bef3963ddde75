import { Injectable } from '@nestjs/common';
import Ajv, { ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

export const MAX_SCHEMA_DEPTH = 64;
/** Values in a schema. Ajv's compile time and its generated code grow with it; real schemas are far smaller. */
export const MAX_SCHEMA_NODES = 2_000;

const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;
const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;

export type SchemaCompilation = { ok: true; validate: ValidateFunction } | { ok: false; problem: string };

/**
 * Checks an action's `json_schema` with Ajv (contract: draft 2020-12 by default, draft-07 when `$schema` says so,
 * and a top-level `type`, if any, of "object"), and compiles it into a parameter validator. Unknown keywords are
 * allowed, as JSON Schema allows them; remote `$ref`s are never fetched.
 */
@Injectable()
export class JsonSchemaCompiler {
  private readonly draft2020 = withFormats(new Ajv2020({ strict: false, logger: false }));
  private readonly draft07 = withFormats(new Ajv({ strict: false, logger: false }));

  compile(schema: Record<string, unknown>): SchemaCompilation {
    if (depthOf(schema, MAX_SCHEMA_DEPTH + 1) > MAX_SCHEMA_DEPTH) {
      return { ok: false, problem: `is nested deeper than ${MAX_SCHEMA_DEPTH} levels` };
    }
    if (countNodes(schema, MAX_SCHEMA_NODES + 1) > MAX_SCHEMA_NODES) {
      return { ok: false, problem: `has more than ${MAX_SCHEMA_NODES} values` };
    }
    if ('type' in schema && schema.type !== 'object') return { ok: false, problem: 'type must be "object"' };
    const ajv = this.dialectOf(schema.$schema);
    if (!ajv) return { ok: false, problem: 'unsupported $schema (use draft 2020-12 or draft-07)' };
    const known = { refs: new Set(Object.keys(ajv.refs)), schemas: new Set(Object.keys(ajv.schemas)) };
    try {
      return { ok: true, validate: ajv.compile(schema) };
    } catch (error) {
      return { ok: false, problem: `is not a valid JSON Schema: ${(error as Error).message}` };
    } finally {
      // Compiled functions stand alone. Ajv keeps every schema and nested `$id` it has seen, forever: drop what
      // this compile added, so memory does not grow with each request and another action may reuse an `$id`.
      ajv.removeSchema(schema);
      for (const key of Object.keys(ajv.refs)) if (!known.refs.has(key)) delete ajv.refs[key];
      for (const key of Object.keys(ajv.schemas)) if (!known.schemas.has(key)) ajv.removeSchema(key);
    }
  }

  private dialectOf(declared: unknown): Ajv | undefined {
    if (declared === undefined) return this.draft2020;
    if (typeof declared !== 'string') return undefined;
    if (DRAFT_2020_12.test(declared)) return this.draft2020;
    if (DRAFT_07.test(declared)) return this.draft07;
    return undefined;
  }
}

function withFormats<T extends Ajv>(ajv: T): T {
  addFormats(ajv);
  return ajv;
}

/** How many values `value` holds, counting no further than `limit`. */
function countNodes(value: unknown, limit: number): number {
  let count = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0 && count < limit) {
    const next = pending.pop();
    count += 1;
    if (next !== null && typeof next === 'object') pending.push(...Object.values(next));
  }
  return count;
}

/** How deeply objects and arrays nest, counting no further than `limit` (so a hostile value costs little). */
function depthOf(value: unknown, limit: number): number {
  if (value === null || typeof value !== 'object' || limit === 0) return 0;
  let deepest = 0;
  for (const item of Object.values(value)) {
    deepest = Math.max(deepest, depthOf(item, limit - 1));
    if (deepest >= limit - 1) break;
  }
  return deepest + 1;
}
