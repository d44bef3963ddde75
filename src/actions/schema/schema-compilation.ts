import type { ErrorObject, ValidateFunction } from 'ajv';
import { UnsupportedPatternError } from './linear-regexp';
import { dialectOf, forAjv, metaSchemaProblem, PatternCache, privateAjv, regExpEngine } from './schema-ajv';

export type Compilation = { ok: true; validate: ValidateFunction } | { ok: false; problem: string };

/** A parameter check's outcome: valid, Ajv's errors, or why it could not be made. */
export type ParameterCheck = { valid: true } | { valid: false; errors: ParameterError[] } | { valid: false; problem: string };
type ParameterError = Pick<ErrorObject, 'instancePath' | 'message'>;

/**
 * Validates `schema` against its dialect's meta-schema, then compiles it in a private Ajv (schema-ajv.ts). With
 * `nativeFallback` (the worker only), patterns RE2 cannot run use ECMAScript's engine instead of failing with
 * UnsupportedPatternError.
 */
export function compileSchema(tenantSchema: Record<string, unknown>, patterns: PatternCache, nativeFallback: boolean): Compilation {
  const dialect = dialectOf(tenantSchema.$schema);
  if (!dialect) return { ok: false, problem: 'unsupported $schema (use draft 2020-12 or draft-07)' };
  const schema = forAjv(tenantSchema, dialect);
  const invalid = metaSchemaProblem(dialect, schema);
  if (invalid) return { ok: false, problem: `is not a valid JSON Schema: ${invalid}` };
  try {
    return { ok: true, validate: privateAjv(dialect, regExpEngine(patterns, nativeFallback)).compile(schema) };
  } catch (error) {
    if (error instanceof UnsupportedPatternError) throw error;
    return { ok: false, problem: `is not a valid JSON Schema: ${(error as Error).message}` };
  }
}

/** Runs a compiled check; Ajv's generated code recurses with the data, so a stack overflow is an answer too. */
export function runCheck(validate: ValidateFunction, parameters: unknown): ParameterCheck {
  try {
    if (validate(parameters)) return { valid: true };
  } catch {
    return { valid: false, problem: 'are too complex to check' };
  }
  return { valid: false, errors: (validate.errors ?? []).map(({ instancePath, message }) => ({ instancePath, message })) };
}
