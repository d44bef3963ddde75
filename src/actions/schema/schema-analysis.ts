import { UnsupportedPatternError, regexpWeight } from './linear-regexp';
import { dialectOf, linearPattern, PatternCache } from './schema-ajv';
import { isStorableText } from '../../common/text.validators';
import { FORMATS_WITHOUT_LINEAR_CHECK, linearFormats } from './schema-formats';

export const MAX_SCHEMA_DEPTH = 64;
/** Values in a schema. Ajv's compile time and its generated code grow with it; real schemas are far smaller. */
export const MAX_SCHEMA_NODES = 2_000;
/**
 * Characters of a schema's keys and strings. A tenant's 100 actions come back in one `GET /actions`: this keeps
 * that answer to a few megabytes (a 1 MB description string in each would make it 100 MB).
 */
export const MAX_SCHEMA_TEXT = 65_536;
/**
 * Bytes of a schema as it is given back: its JSON as written, without whitespace between tokens, in UTF-8. The
 * characters above are counted once read, and a `\u0001` escape is one character read but six bytes sent: 65,536
 * such characters made each schema 360 KB and a tenant's `GET /actions` 37 MB. Checked when a schema is saved
 * (JsonSchemaCompiler.problemWith), not when a stored one runs: one saved before this limit keeps working.
 */
export const MAX_SCHEMA_BYTES = 131_072;
/** Values a schema holds once every local `$ref` is replaced by its target: more is refused (2^n `allOf`s). */
export const MAX_EXPANDED_NODES = 1_000_000;

/** Past any of these a schema is compiled and checked in the worker, not on the event loop. */
export const INLINE_LIMITS = {
  /** Values: Ajv compiles 200 in 5–30 ms here, depending on the host's load. */
  nodes: 200,
  /** Characters of all strings (patterns, `$ref`s, enum texts): bounds the RE2 and URI work of compiling. */
  text: 16_384,
  /**
   * A check whose estimated cost (SchemaCost × parameters, below) is past this: the costliest checks within it
   * take about 10 ms here (`node bench/schema-cost.mjs`; failing `anyOf` branches, which each build an error, are
   * the slowest per unit).
   */
  cost: 100_000,
};

/**
 * What checking parameters against a schema costs at most, per value and per character of the parameters.
 * Every subschema is evaluated at most once per value of the parameters when no `$ref` is recursive, so the cost
 * is bounded by `nodes × values + text × characters`. `nodes` counts the schema's values with each `$ref`
 * expanded (and `uniqueItems`, which reads its whole array, 16 times); `text` counts, per keyword that reads
 * strings, what one character costs: an RE2 program's weight for `pattern` and `patternProperties`, a format's
 * weight, 1 for `minLength`/`maxLength` and `uniqueItems`.
 */
export interface SchemaCost {
  nodes: number;
  text: number;
}

type SchemaAnalysis =
  /** Refused at registration: the problem, in the words of `json_schema: <problem>`. */
  | { kind: 'refused'; problem: string }
  /** Checked in the worker, under a deadline; `reason` says why (for logs and tests). */
  | { kind: 'isolated'; reason: string }
  /** Small and bounded: compiled and, while parameters are small enough (fitsInline), checked on the event loop. */
  | { kind: 'inline'; cost: SchemaCost };

const UNIQUE_ITEMS_WEIGHT = 16;
const SATURATED = 1e15;
const ISOLATING_KEYWORDS = ['$dynamicRef', '$dynamicAnchor', '$recursiveRef', '$recursiveAnchor', '$anchor'];

/** The contract's rules and structural limits first (cheap, whatever the size), then the cost and where it may run. */
export function analyzeSchema(schema: Record<string, unknown>, patterns: PatternCache): SchemaAnalysis {
  if (depthOf(schema, MAX_SCHEMA_DEPTH + 1, MAX_SCHEMA_NODES) > MAX_SCHEMA_DEPTH) return { kind: 'refused', problem: `is nested deeper than ${MAX_SCHEMA_DEPTH} levels` };
  const size = sizeOf(schema, MAX_SCHEMA_NODES + 1);
  if (size.nodes > MAX_SCHEMA_NODES) return { kind: 'refused', problem: `has more than ${MAX_SCHEMA_NODES} values` };
  if (size.text > MAX_SCHEMA_TEXT) return { kind: 'refused', problem: `has more than ${MAX_SCHEMA_TEXT} characters of keys and strings` };
  // The schema is stored as PostgreSQL json, which can hold neither (a 500 from the database, before).
  if (size.unstorable) return { kind: 'refused', problem: 'must not contain NUL characters or unpaired surrogates (in a key or a string)' };
  if ('type' in schema && schema.type !== 'object') return { kind: 'refused', problem: 'type must be "object"' };
  if (!dialectOf(schema.$schema)) return { kind: 'refused', problem: 'unsupported $schema (use draft 2020-12 or draft-07)' };
  const isolating = isolatingFeature(schema);
  if (isolating) return { kind: 'isolated', reason: isolating };
  const expanded = expandedCost(schema); // values only: compiles no pattern, whatever the schema's size
  if (expanded === 'recursive') return { kind: 'isolated', reason: 'a recursive $ref' };
  if (expanded === 'unresolved') return { kind: 'isolated', reason: 'a $ref the analysis does not resolve' };
  if (expanded.nodes > MAX_EXPANDED_NODES) return { kind: 'refused', problem: `expands to more than ${MAX_EXPANDED_NODES} values through its $refs` };
  if (size.nodes > INLINE_LIMITS.nodes) return { kind: 'isolated', reason: `more than ${INLINE_LIMITS.nodes} values` };
  if (size.text > INLINE_LIMITS.text) return { kind: 'isolated', reason: `more than ${INLINE_LIMITS.text} characters of text` };
  try {
    return { kind: 'inline', cost: expandedCost(schema, patterns) as SchemaCost };
  } catch (error) {
    if (error instanceof UnsupportedPatternError) return { kind: 'isolated', reason: 'a pattern RE2 cannot run' };
    if (error instanceof SyntaxError) return { kind: 'isolated', reason: 'an invalid pattern' }; // the meta-schema names it
    throw error;
  }
}

/** Whether checking `parameters` against a schema of this cost may run on the event loop. */
export function fitsInline(cost: SchemaCost, parameters: unknown): boolean {
  const limit = INLINE_LIMITS.cost;
  const perValue = Math.max(1, cost.nodes);
  let values = 1;
  let characters = 0;
  const over = () => perValue * values + cost.text * characters > limit;
  const pending: unknown[] = [parameters];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      characters += next.length;
    } else if (Array.isArray(next)) {
      values += next.length; // counted before anything is copied, so a huge array costs nothing to refuse
      if (over()) return false;
      for (const item of next) pending.push(item);
    } else if (next !== null && typeof next === 'object') {
      const keys = Object.keys(next);
      values += 2 * keys.length; // each key and its value
      if (over()) return false;
      for (const key of keys) {
        characters += key.length;
        pending.push((next as Record<string, unknown>)[key]);
      }
    }
    if (over()) return false;
  }
  return true;
}

/**
 * How deeply objects and arrays nest, counting no further than `limit` levels nor `budget` values (so a hostile
 * value costs little; past the budget, sizeOf refuses it anyway).
 */
function depthOf(value: unknown, limit: number, budget: number): number {
  let deepest = 0;
  let seen = 0;
  const pending: Array<[object, number]> = value !== null && typeof value === 'object' ? [[value, 1]] : [];
  while (pending.length > 0) {
    const [next, depth] = pending.pop() as [object, number];
    deepest = Math.max(deepest, depth);
    if (deepest >= limit) return deepest;
    const members = Array.isArray(next) ? next : Object.values(next);
    seen += members.length;
    if (seen > budget) return deepest;
    for (const item of members) if (item !== null && typeof item === 'object') pending.push([item, depth + 1]);
  }
  return deepest;
}

/**
 * How many values `value` holds and how many characters its strings (keys included) have, up to `limit` values;
 * and whether any of those strings could not be stored (isStorableText).
 */
function sizeOf(value: unknown, limit: number): { nodes: number; text: number; unstorable: boolean } {
  let nodes = 1;
  let text = 0;
  let unstorable = false;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      text += next.length;
      unstorable ||= !isStorableText(next);
    }
    if (next === null || typeof next !== 'object') continue;
    const keys = Array.isArray(next) ? undefined : Object.keys(next);
    nodes += keys ? keys.length : (next as unknown[]).length; // counted before anything is copied
    if (nodes > limit) return { nodes, text, unstorable };
    if (keys) {
      for (const key of keys) {
        text += key.length;
        unstorable ||= !isStorableText(key);
      }
    }
    for (const item of Array.isArray(next) ? next : Object.values(next)) pending.push(item);
  }
  return { nodes, text, unstorable };
}

/**
 * The first feature whose cost the analysis does not model: dynamic references, anchors and nested `$id`s (which
 * change what a `$ref` points to), `$ref`s other than local JSON pointers, and formats with no linear-time check.
 */
function isolatingFeature(schema: Record<string, unknown>): string | undefined {
  const pending: Array<[unknown, boolean]> = [[schema, true]];
  while (pending.length > 0) {
    const [next, isRoot] = pending.pop() as [unknown, boolean];
    if (next === null || typeof next !== 'object') continue;
    if (!Array.isArray(next)) {
      const node = next as Record<string, unknown>;
      const keyword = ISOLATING_KEYWORDS.find((name) => name in node) ?? (!isRoot && typeof node.$id === 'string' ? '$id' : undefined);
      if (keyword) return `uses ${keyword}`;
      if (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) return 'a $ref that is not a local JSON pointer';
      if (typeof node.format === 'string' && FORMATS_WITHOUT_LINEAR_CHECK.has(node.format)) return `format "${node.format}"`;
    }
    for (const item of Object.values(next)) pending.push([item, false]);
  }
  return undefined;
}

/**
 * SchemaCost of the schema with every `$ref` replaced by its target (each target's cost computed once, so a
 * chain of 2^n references costs n steps), or why it cannot be computed. Without `patterns`, only `nodes` is
 * computed (no pattern is compiled).
 */
function expandedCost(root: Record<string, unknown>, patterns?: PatternCache): SchemaCost | 'recursive' | 'unresolved' {
  const done = new Map<object, SchemaCost>();
  const open = new Set<object>();
  const stack: object[] = [root];
  const formatWeights = linearFormats().weights;
  while (stack.length > 0) {
    const node = stack[stack.length - 1];
    if (done.has(node)) {
      stack.pop();
      continue;
    }
    const children = childrenOf(node, root);
    if (children === undefined) return 'unresolved';
    if (!open.has(node)) {
      open.add(node);
      for (const child of children) {
        if (open.has(child)) return 'recursive';
        if (!done.has(child)) stack.push(child);
      }
      continue;
    }
    let nodes = 1;
    let text = 0;
    for (const child of children) {
      const cost = done.get(child);
      if (!cost) return 'recursive'; // an ancestor still open: the graph has a cycle
      nodes = Math.min(SATURATED, nodes + cost.nodes);
      text = Math.min(SATURATED, text + cost.text);
    }
    for (const [key, value] of Object.entries(node)) {
      if (value === null || typeof value !== 'object') nodes += typeof value === 'string' ? 1 + Math.floor(value.length / 64) : 1;
      if (Array.isArray(node) || !patterns) continue;
      if (key === 'pattern' && typeof value === 'string') text += regexpWeight(linearPattern(patterns, value));
      if (key === 'format' && typeof value === 'string') text += formatWeights[value] ?? 0;
      if ((key === 'minLength' || key === 'maxLength') && typeof value === 'number') text += 1;
      if (key === 'uniqueItems' && value === true) {
        nodes += UNIQUE_ITEMS_WEIGHT;
        text += 1;
      }
      if (key === 'patternProperties' && value !== null && typeof value === 'object') {
        for (const source of Object.keys(value)) text += regexpWeight(linearPattern(patterns, source));
      }
    }
    done.set(node, { nodes, text });
    open.delete(node);
    stack.pop();
  }
  return done.get(root) as SchemaCost;
}

/** The objects and arrays a node holds, plus the target of its `$ref`; undefined if that target is not found. */
function childrenOf(node: object, root: Record<string, unknown>): object[] | undefined {
  const children = Object.values(node).filter((value): value is object => value !== null && typeof value === 'object');
  const ref = Array.isArray(node) ? undefined : (node as Record<string, unknown>).$ref;
  if (typeof ref !== 'string') return children;
  const target = resolvePointer(root, ref);
  if (target === undefined) return undefined;
  if (target !== null && typeof target === 'object') children.push(target);
  return children;
}

/** `#` or `#/json/pointer` (URI-fragment encoded) inside `root`; undefined when it does not resolve. */
function resolvePointer(root: Record<string, unknown>, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let current: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, token)) return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}
