import Ajv, { Options } from 'ajv';
import type { RegExpEngine, RegExpLike } from 'ajv/dist/types';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { RE2JS } from 're2js';
import { compileLinear, UnsupportedPatternError } from './linear-regexp';
import { linearFormats } from './schema-formats';
import { uniqueItemsKeyword } from './unique-items.keyword';

export type Dialect = '2020-12' | 'draft-07';

const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;
const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;

/** The meta-schemas' ids as Ajv knows them; `$schema` may name them with either scheme, with or without `#`. */
const CANONICAL: Record<Dialect, string> = { '2020-12': 'https://json-schema.org/draft/2020-12/schema', 'draft-07': 'http://json-schema.org/draft-07/schema#' };

/**
 * `schema` as Ajv reads it: its `$schema` the id Ajv has for that dialect (`https://json-schema.org/draft-07/schema`
 * is the same draft as `http://json-schema.org/draft-07/schema#`, but Ajv looks meta-schemas up by exact id). The
 * stored schema keeps what the tenant wrote.
 */
export function forAjv(schema: Record<string, unknown>, dialect: Dialect): Record<string, unknown> {
  return schema.$schema === undefined || schema.$schema === CANONICAL[dialect] ? schema : { ...schema, $schema: CANONICAL[dialect] };
}

/** The contract's dialects: draft 2020-12 by default, draft-07 when `$schema` says so; undefined for any other. */
export function dialectOf(declared: unknown): Dialect | undefined {
  if (declared === undefined) return '2020-12';
  if (typeof declared !== 'string') return undefined;
  if (DRAFT_2020_12.test(declared)) return '2020-12';
  if (DRAFT_07.test(declared)) return 'draft-07';
  return undefined;
}

/** Compiled patterns of one compilation, by source, so a pattern weighed by the analysis is not compiled twice. */
export type PatternCache = Map<string, RE2JS>;

/** A pattern on RE2 from the cache, compiled on first use; throws for what RE2 cannot run (see compileLinear). */
export function linearPattern(patterns: PatternCache, source: string): RE2JS {
  let regexp = patterns.get(source);
  if (!regexp) {
    regexp = compileLinear(source);
    patterns.set(source, regexp);
  }
  return regexp;
}

/**
 * The engine Ajv runs `pattern` and `patternProperties` with. With `nativeFallback`, a pattern RE2 cannot run
 * keeps ECMAScript's backtracking engine: only the worker, which a deadline stops, compiles with that.
 */
export function regExpEngine(patterns: PatternCache, nativeFallback: boolean): RegExpEngine {
  const engine = (source: string, flags: string): RegExpLike => {
    const key = `/${source}/${flags}`;
    try {
      const regexp = linearPattern(patterns, source);
      return { test: (text: string) => regexp.test(text), toString: () => key } as RegExpLike;
    } catch (error) {
      if (!(error instanceof UnsupportedPatternError) || !nativeFallback) throw error;
      return new RegExp(source, flags);
    }
  };
  return Object.assign(engine, { code: 'linearRegExp' });
}

/**
 * A private Ajv for one compilation: nothing a tenant's schema declares (`$id`s, anchors) outlives it or meets
 * another tenant's, and the meta-schemas are not in it, so no schema can replace them. Meta-schema validation is
 * done before, by metaSchemaProblem. Options beyond the contract's: `$ref`s are compiled as calls, not inlined
 * (inlining multiplied a 20 KB schema into minutes of compiling), only own properties count (`required:
 * ["toString"]` is not met by `{}`), patterns run on RE2, formats and `uniqueItems` in linear time, and the
 * generated code is not optimized (a third of the compile time, for tens of nanoseconds a check).
 */
export function privateAjv(dialect: Dialect, regExp: RegExpEngine): Ajv {
  const options: Options = {
    strict: false,
    logger: false,
    meta: false,
    validateSchema: false,
    inlineRefs: false,
    ownProperties: true,
    // Ajv's optimizer passes take twice as long as the rest of compiling; the code they save costs nanoseconds.
    code: { regExp, optimize: false },
  };
  return withLinearKeywords(dialect === '2020-12' ? new Ajv2020(options) : new Ajv(options));
}

const metaAjvs = new Map<Dialect, Ajv>();

/**
 * What is wrong with `schema` as a document of its dialect (Ajv's text, as its compile reports it), or undefined.
 * The meta-schemas are compiled once per thread, in an instance no tenant schema is ever added to.
 */
export function metaSchemaProblem(dialect: Dialect, schema: object): string | undefined {
  let ajv = metaAjvs.get(dialect);
  if (!ajv) {
    const options: Options = { strict: false, logger: false, code: { regExp: regExpEngine(new Map(), false) } };
    ajv = withLinearKeywords(dialect === '2020-12' ? new Ajv2020(options) : new Ajv(options));
    metaAjvs.set(dialect, ajv);
  }
  try {
    return ajv.validateSchema(schema) ? undefined : `schema is invalid: ${ajv.errorsText(ajv.errors)}`;
  } catch (error) {
    return (error as Error).message; // a `$schema` Ajv has no meta-schema for, say: the tenant's problem, a 400
  }
}

function withLinearKeywords<T extends Ajv>(ajv: T): T {
  addFormats(ajv, { formats: [], keywords: true });
  for (const [name, format] of Object.entries(linearFormats().formats)) ajv.addFormat(name, format);
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword(uniqueItemsKeyword);
  return ajv;
}
