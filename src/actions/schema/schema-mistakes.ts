// Shared word for word with the console (console/src/json-schema/schema-check.ts imports this file), so that the
// API and the browser say the same about a schema: no imports, nothing Node-specific.

/** The contract's dialects, as `$schema` names them (schema-ajv.ts `dialectOf`). */
export type SchemaDialect = '2020-12' | 'draft-07';

/** One mistake: where (a JSON Pointer into the schema, '' for the schema itself) and what. */
interface SchemaMistake {
  path: string;
  message: string;
}

/** Mistakes reported at most; a schema with more gets `and N more`. */
export const MISTAKES_LISTED = 10;

/**
 * Keywords Ajv knows in each dialect (its `RULES.keywords` with ajv-formats' keywords; schema-mistakes.spec checks
 * the lists against Ajv itself), plus `$anchor`, which Ajv resolves without listing it. Anything else is unknown,
 * but for names starting with `x-`, the extension prefix OpenAPI uses, which stay free for a tenant's own use.
 */
const SHARED_KEYWORDS = [
  '$async', '$comment', '$defs', '$id', '$ref', '$schema', '$vocabulary', 'additionalProperties', 'allOf', 'anyOf', 'const',
  'contains', 'contentEncoding', 'contentMediaType', 'contentSchema', 'default', 'definitions', 'dependencies', 'deprecated',
  'description', 'else', 'enum', 'examples', 'exclusiveMaximum', 'exclusiveMinimum', 'format', 'formatExclusiveMaximum',
  'formatExclusiveMinimum', 'formatMaximum', 'formatMinimum', 'id', 'if', 'items', 'maxItems', 'maxLength', 'maxProperties',
  'maximum', 'minItems', 'minLength', 'minProperties', 'minimum', 'multipleOf', 'not', 'nullable', 'oneOf', 'pattern',
  'patternProperties', 'properties', 'propertyNames', 'readOnly', 'required', 'then', 'title', 'type', 'uniqueItems', 'writeOnly',
];
export const DIALECT_KEYWORDS: Record<SchemaDialect, readonly string[]> = {
  'draft-07': [...SHARED_KEYWORDS, 'additionalItems'],
  '2020-12': [
    ...SHARED_KEYWORDS, '$anchor', '$dynamicAnchor', '$dynamicRef', '$recursiveAnchor', '$recursiveRef', 'dependentRequired',
    'dependentSchemas', 'maxContains', 'minContains', 'prefixItems', 'unevaluatedItems', 'unevaluatedProperties',
  ],
};
const KNOWN: Record<SchemaDialect, ReadonlySet<string>> = { 'draft-07': new Set(DIALECT_KEYWORDS['draft-07']), '2020-12': new Set(DIALECT_KEYWORDS['2020-12']) };
const DIALECT_NAMES: Record<SchemaDialect, string> = { 'draft-07': 'draft-07', '2020-12': 'draft 2020-12' };

const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];
/** Type names from other languages and formats, and what JSON Schema calls them. */
const TYPE_ALIASES: Record<string, string> = {
  str: 'string', text: 'string', char: 'string', varchar: 'string',
  int: 'integer', int32: 'integer', int64: 'integer', long: 'integer', short: 'integer',
  float: 'number', double: 'number', decimal: 'number', real: 'number', numeric: 'number',
  bool: 'boolean',
  dict: 'object', map: 'object', hash: 'object', record: 'object', json: 'object',
  list: 'array', tuple: 'array', set: 'array',
  none: 'null', nil: 'null',
};
/** Formats written as types: `"type": "date"` means `"type": "string", "format": "date"`. */
const FORMATS_AS_TYPES = new Set(['date', 'time', 'date-time', 'datetime', 'email', 'uri', 'url', 'uuid', 'hostname', 'ipv4', 'ipv6']);

/** What a known keyword's value must be. Keywords not listed take any value (`const`, `default`, ...). */
type Expected =
  | 'schema' | 'schemas' | 'schema map' | 'items' | 'dependencies' | 'type' | 'property names' | 'required map'
  | 'non-negative integer' | 'number' | 'positive number' | 'string' | 'boolean' | 'array';
const EXPECTED: Record<string, Expected> = {
  not: 'schema', if: 'schema', then: 'schema', else: 'schema', contains: 'schema', additionalProperties: 'schema',
  propertyNames: 'schema', unevaluatedItems: 'schema', unevaluatedProperties: 'schema', contentSchema: 'schema', additionalItems: 'schema',
  allOf: 'schemas', anyOf: 'schemas', oneOf: 'schemas', prefixItems: 'schemas',
  properties: 'schema map', patternProperties: 'schema map', $defs: 'schema map', definitions: 'schema map', dependentSchemas: 'schema map',
  items: 'items', dependencies: 'dependencies', type: 'type', required: 'property names', dependentRequired: 'required map',
  maxLength: 'non-negative integer', minLength: 'non-negative integer', maxItems: 'non-negative integer', minItems: 'non-negative integer',
  maxProperties: 'non-negative integer', minProperties: 'non-negative integer', maxContains: 'non-negative integer', minContains: 'non-negative integer',
  minimum: 'number', maximum: 'number', exclusiveMinimum: 'number', exclusiveMaximum: 'number', multipleOf: 'positive number',
  pattern: 'string', format: 'string', $ref: 'string', $id: 'string', $schema: 'string', $comment: 'string', title: 'string',
  description: 'string', contentEncoding: 'string', contentMediaType: 'string', $anchor: 'string', $dynamicRef: 'string', $dynamicAnchor: 'string',
  uniqueItems: 'boolean', deprecated: 'boolean', readOnly: 'boolean', writeOnly: 'boolean', nullable: 'boolean',
  enum: 'array', examples: 'array',
};
const EXPECTED_TEXT: Record<Exclude<Expected, 'type' | 'schema map' | 'schemas' | 'dependencies' | 'required map' | 'items'>, string> = {
  schema: 'must be a schema (an object, or true or false)',
  'property names': 'must be an array of property names, e.g. ["city"]',
  'non-negative integer': 'must be a whole number, 0 or more',
  number: 'must be a number',
  'positive number': 'must be a number greater than 0',
  string: 'must be a string',
  boolean: 'must be true or false',
  array: 'must be an array',
};
/** Keywords whose subschemas apply to the same value, so properties they define count for a `required` beside them. */
const IN_PLACE = new Set(['allOf', 'anyOf', 'oneOf', 'if', 'then', 'else', 'not', 'dependentSchemas']);

type Json = Record<string, unknown>;
/** Work left, in document order: a schema to visit, or a mistake found in one visited before it. */
type Pending =
  | {
      node: unknown;
      path: string;
      /** Properties defined by the schemas this one is applied in place with (its parents through allOf, then, ...). */
      inherited: readonly string[];
    }
  | SchemaMistake;

/**
 * What JSON Schema lets pass but the author cannot have meant, found before anything is compiled: an unknown
 * keyword (`"require"`, `"propertis"`: the check it stands for never runs), a `required` property that
 * `properties` beside it does not define (`"citty"`), a `type` no JSON Schema has (`"strng"`), and a known
 * keyword with a value of the wrong kind, each with a suggestion when one is close. Reported in the order they
 * are written; visits at most `budget` values (a larger schema is refused for its size anyway) and reports at
 * most MISTAKES_LISTED + 1 mistakes.
 */
export function schemaMistakes(schema: Json, dialect: SchemaDialect, budget = 2_000): SchemaMistake[] {
  const mistakes: SchemaMistake[] = [];
  const pending: Pending[] = [{ node: schema, path: '', inherited: [] }];
  let visited = 0;
  while (pending.length > 0 && mistakes.length <= MISTAKES_LISTED) {
    const next = pending.pop() as Pending;
    if ('message' in next) {
      mistakes.push(next);
      continue;
    }
    const { node, path, inherited } = next;
    if (!isObject(node)) continue; // a boolean schema (anything else was reported where it is)
    const keys = Object.keys(node);
    visited += keys.length + 1;
    if (visited > budget) break;
    const found: Pending[] = [];
    const defined = [...inherited, ...definedProperties(node)];
    for (const key of keys) {
      if (found.length > MISTAKES_LISTED) break;
      if (key.startsWith('x-')) continue;
      const value = node[key];
      const at = `${path}/${escape(key)}`;
      if (!KNOWN[dialect].has(key)) {
        found.push({ path, message: unknownKeyword(key, value, dialect) });
        continue;
      }
      const problem = valueProblem(key, value, dialect);
      if (problem) {
        found.push({ path: at, message: problem });
        continue;
      }
      if (key === 'required') found.push(...requiredMistakes(node, at, defined));
      const passed = IN_PLACE.has(key) ? defined : [];
      for (const [child, childPath] of subschemas(key, value, at)) {
        const expected = key === 'dependencies' ? 'must be a schema, or an array of property names' : EXPECTED_TEXT.schema;
        found.push(isSchema(child) ? { node: child, path: childPath, inherited: passed } : { path: childPath, message: notSchema(child, expected) });
      }
    }
    for (let index = found.length - 1; index >= 0; index--) pending.push(found[index]);
  }
  return mistakes.slice(0, MISTAKES_LISTED + 1);
}

/** The mistakes as one `details` text of the API: `json_schema.properties.city: ...; ...`. */
export function mistakesText(mistakes: readonly SchemaMistake[], field = 'json_schema'): string {
  const listed = mistakes.slice(0, MISTAKES_LISTED).map((mistake) => `${field}${pointerAsPath(mistake.path)}: ${mistake.message}`);
  if (mistakes.length > MISTAKES_LISTED) listed.push('and more');
  return listed.join('; ');
}

/** `/properties/city` as `.properties.city`, the way parameters' places are written (`parameters.city`). */
function pointerAsPath(pointer: string): string {
  return pointer.replace(/\//g, '.');
}

function unknownKeyword(key: string, value: unknown, dialect: SchemaDialect): string {
  const other: SchemaDialect = dialect === '2020-12' ? 'draft-07' : '2020-12';
  const name = cut(key);
  if (KNOWN[other].has(key)) return `unknown keyword "${name}" in a ${DIALECT_NAMES[dialect]} schema (it is ${DIALECT_NAMES[other]}'s)`;
  const near = closest(key, DIALECT_KEYWORDS[dialect]);
  if (near) return `unknown keyword "${name}" (did you mean "${near}"?)`;
  if (looksLikeSchema(value)) return `unknown keyword "${name}" (to define a property "${name}", put it inside "properties")`;
  return `unknown keyword "${name}" (a keyword of your own must start with "x-")`;
}

function valueProblem(key: string, value: unknown, dialect: SchemaDialect): string | undefined {
  const expected = EXPECTED[key];
  switch (expected) {
    case undefined:
      return undefined;
    case 'type':
      return typeProblem(value);
    case 'schema':
      return isSchema(value) ? undefined : notSchema(value, EXPECTED_TEXT.schema);
    case 'schemas':
      return Array.isArray(value) && value.length > 0 ? undefined : `must be a non-empty array of schemas${shown(value)}`;
    case 'schema map':
      return isObject(value) ? undefined : `must be an object of schemas by name${shown(value)}`;
    case 'items':
      if (isSchema(value) || (dialect === 'draft-07' && Array.isArray(value))) return undefined;
      return Array.isArray(value) ? 'must be a schema in draft 2020-12 (an array of schemas is "prefixItems")' : notSchema(value, EXPECTED_TEXT.schema);
    case 'dependencies':
    case 'required map':
      return isObject(value) ? undefined : `must be an object${shown(value)}`;
    case 'property names': {
      if (!Array.isArray(value) || !value.every((name) => typeof name === 'string')) return `${EXPECTED_TEXT[expected]}${shown(value)}`;
      const twice = value.find((name, index) => value.indexOf(name) !== index);
      return twice === undefined ? undefined : `lists "${cut(twice)}" twice`;
    }
    case 'non-negative integer':
      return Number.isInteger(value) && (value as number) >= 0 ? undefined : `${EXPECTED_TEXT[expected]}${shown(value)}`;
    case 'number':
      return typeof value === 'number' ? undefined : `${EXPECTED_TEXT[expected]}${shown(value)}`;
    case 'positive number':
      return typeof value === 'number' && value > 0 ? undefined : `${EXPECTED_TEXT[expected]}${shown(value)}`;
    case 'string':
      return typeof value === 'string' ? undefined : `${EXPECTED_TEXT[expected]}${shown(value)}`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${EXPECTED_TEXT[expected]}${shown(value)}`;
    case 'array':
      return Array.isArray(value) ? undefined : `${EXPECTED_TEXT[expected]}${shown(value)}`;
  }
}

function typeProblem(value: unknown): string | undefined {
  const names = Array.isArray(value) ? value : [value];
  if (Array.isArray(value) && value.length === 0) return 'must name at least one type';
  const twice = Array.isArray(value) ? value.find((name, index) => value.indexOf(name) !== index) : undefined;
  if (typeof twice === 'string') return `lists "${cut(twice)}" twice`;
  for (const name of names) {
    if (typeof name !== 'string') return `must be a type name or an array of them, such as "string" or ["string", "null"]${shown(value)}`;
    if (JSON_TYPES.includes(name)) continue;
    const lower = name.toLowerCase();
    if (FORMATS_AS_TYPES.has(lower)) {
      const format = lower === 'datetime' ? 'date-time' : lower === 'url' ? 'uri' : lower;
      return `"${cut(name)}" is not a JSON Schema type (did you mean "type": "string", "format": "${format}"?)`;
    }
    const near = TYPE_ALIASES[lower] ?? closest(name, JSON_TYPES);
    if (near) return `"${cut(name)}" is not a JSON Schema type (did you mean "${near}"?)`;
    return `"${cut(name)}" is not a JSON Schema type (use one of ${JSON_TYPES.join(', ')})`;
  }
  return undefined;
}

function notSchema(value: unknown, text: string): string {
  if (typeof value === 'string' && JSON_TYPES.includes(value)) return `must be a schema: write {"type": "${value}"}, not "${value}"`;
  return `${text}${shown(value)}`;
}

/**
 * `required` names that `properties` beside it does not define, when the properties are listed there: the
 * presence check runs, but every check the author wrote under the intended name does not. Not judged where
 * `patternProperties` might define the name, or where `properties` is not given at all (a `required` in an
 * `anyOf` branch of a parent that lists them counts the parent's).
 */
function requiredMistakes(node: Json, at: string, defined: readonly string[]): SchemaMistake[] {
  if (!Array.isArray(node.required) || !isObject(node.properties) || 'patternProperties' in node) return [];
  const mistakes: SchemaMistake[] = [];
  for (const name of node.required) {
    if (typeof name !== 'string' || defined.includes(name)) continue;
    const near = closest(name, defined);
    const advice = near ? `did you mean "${near}"?` : `add "${cut(name)}": {} to properties to allow any value`;
    mistakes.push({ path: at, message: `"${cut(name)}" is required but not among the properties (${advice})` });
  }
  return mistakes;
}

/** The properties a schema defines: its own, and those of the subschemas it applies in place. */
function definedProperties(node: Json): string[] {
  const names = isObject(node.properties) ? Object.keys(node.properties) : [];
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const branches = node[key];
    if (Array.isArray(branches)) for (const branch of branches) if (isObject(branch) && isObject(branch.properties)) names.push(...Object.keys(branch.properties));
  }
  for (const key of ['if', 'then', 'else']) {
    const branch = node[key];
    if (isObject(branch) && isObject(branch.properties)) names.push(...Object.keys(branch.properties));
  }
  if (isObject(node.dependentSchemas)) {
    for (const branch of Object.values(node.dependentSchemas)) if (isObject(branch) && isObject(branch.properties)) names.push(...Object.keys(branch.properties));
  }
  return names;
}

/** The subschemas a keyword's (well-formed) value holds, with their paths. */
function subschemas(key: string, value: unknown, at: string): Array<[unknown, string]> {
  switch (EXPECTED[key]) {
    case 'schema':
      return [[value, at]];
    case 'schemas':
      return (value as unknown[]).map((item, index) => [item, `${at}/${index}`]);
    case 'items':
      return Array.isArray(value) ? value.map((item, index) => [item, `${at}/${index}`]) : [[value, at]];
    case 'schema map':
    case 'dependencies':
      return Object.entries(value as Json)
        .filter(([, item]) => !Array.isArray(item))
        .map(([name, item]) => [item, `${at}/${escape(name)}`]);
    default:
      return [];
  }
}

/**
 * The candidate nearest to `word` when it is near enough to be a slip: the same but for case, or at most one edit
 * (two past six characters, three past twelve) away, counting a swap of neighbours as one edit.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  if (word.length > 100) return undefined;
  const lower = word.toLowerCase();
  const sameButCase = candidates.find((candidate) => candidate.toLowerCase() === lower);
  if (sameButCase) return sameButCase;
  const allowed = word.length > 12 ? 3 : word.length > 6 ? 2 : 1;
  let best: string | undefined;
  let bestDistance = allowed + 1;
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - word.length) >= bestDistance) continue;
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}

function looksLikeSchema(value: unknown): boolean {
  return isObject(value) && Object.keys(value).some((key) => key === 'type' || key === 'properties' || key === 'enum' || key === '$ref');
}

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);
const isSchema = (value: unknown): boolean => typeof value === 'boolean' || isObject(value);

/** `, not <value>` with the value cut short: the schema author's own text, echoed briefly. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return `, not ${cut(text)}`;
}

function cut(text: string): string {
  const characters = [...text];
  return characters.length > 40 ? `${characters.slice(0, 40).join('')}…` : text;
}

function escape(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
