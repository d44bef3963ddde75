import Ajv, { ErrorObject } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** One thing wrong with a JSON Schema, where it is (a JSON Pointer into the schema) and what. */
export interface SchemaProblem {
  path: string;
  message: string;
}

const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;
const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;

let dialects: { draft2020: Ajv; draft07: Ajv } | undefined;

function ajvFor(declared: unknown): Ajv | undefined {
  dialects ??= {
    draft2020: addFormats(new Ajv2020({ strict: false, allErrors: true, logger: false })),
    draft07: addFormats(new Ajv({ strict: false, allErrors: true, logger: false })),
  };
  if (declared === undefined) return dialects.draft2020;
  if (typeof declared !== 'string') return undefined;
  if (DRAFT_2020_12.test(declared)) return dialects.draft2020;
  if (DRAFT_07.test(declared)) return dialects.draft07;
  return undefined;
}

/**
 * What the service would refuse in an action's `json_schema`, found in the browser before sending: not JSON, not
 * an object, a top-level `type` other than "object", an unknown `$schema`, and anything the draft's meta-schema
 * (Ajv, as on the server) finds. The service checks again; this only saves a round trip.
 */
export function schemaProblems(text: string): SchemaProblem[] {
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    return [{ path: '', message: `not valid JSON: ${(error as Error).message}` }];
  }
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return [{ path: '', message: 'must be a JSON object' }];
  const record = schema as Record<string, unknown>;
  const problems: SchemaProblem[] = [];
  if ('type' in record && record.type !== 'object') problems.push({ path: '/type', message: 'must be "object" (parameters are an object)' });
  const ajv = ajvFor(record.$schema);
  if (!ajv) return [...problems, { path: '/$schema', message: 'unsupported $schema (use draft 2020-12 or draft-07)' }];
  if (!ajv.validateSchema(record)) return [...problems, ...(ajv.errors ?? []).map(describe)];
  try {
    ajv.compile(record);
  } catch (error) {
    problems.push({ path: '', message: (error as Error).message });
  } finally {
    ajv.removeSchema(record);
  }
  return problems;
}

function describe(error: ErrorObject): SchemaProblem {
  const allowed = error.keyword === 'enum' ? `: ${(error.params as { allowedValues: unknown[] }).allowedValues.map((value) => JSON.stringify(value)).join(', ')}` : '';
  return { path: error.instancePath, message: `${error.message ?? 'is invalid'}${allowed}` };
}
