import {
  ANNOTATION_KEYWORDS,
  Dialect,
  dialectOf,
  isJsonObject,
  JsonObject,
  SCHEMA_LIST_KEYWORDS,
  SCHEMA_MAP_KEYWORDS,
  SINGLE_SCHEMA_KEYWORDS,
  ValidatorKeywords,
} from './schema-keywords';

/** Root keywords OpenAI and Anthropic refuse in a tool's parameters: the root must be a plain object schema. */
const REFUSED_AT_ROOT = ['anyOf', 'oneOf', 'allOf', 'not', 'enum'];

type ProviderSchema = { ok: true; schema: JsonObject } | { ok: false; reason: string };

/**
 * An action's `json_schema` rewritten into the JSON Schema 2020-12 that tool-calling APIs read, accepting exactly
 * the parameters the gateway's validator accepts:
 * - the root gets `type: "object"` when it has none (parameters are always an object);
 * - `$schema` goes (the result is 2020-12 whatever was declared); draft-07's tuple `items`, `additionalItems`
 *   and `dependencies` become `prefixItems`, `items`, `dependentRequired` and `dependentSchemas`;
 * - boolean subschemas become `{}` and `{"not": {}}` (some providers take only objects there), except the
 *   `additionalProperties: false` every provider knows;
 * - keywords the validator ignores (unknown ones, and a draft's keywords in the other draft) go; annotations
 *   (`description`, `default`, ...) stay.
 * Refused when the root is a combinator (`anyOf`, `oneOf`, `allOf`, `not`, `enum`): OpenAI and Anthropic both
 * reject those, and flattening one would let the model send parameters the action refuses.
 */
export function toProviderSchema(schema: JsonObject, keywords: ValidatorKeywords): ProviderSchema {
  const refused = REFUSED_AT_ROOT.filter((keyword) => keyword in schema);
  if (refused.length > 0) {
    return { ok: false, reason: `the schema's root uses ${refused.map((keyword) => `\`${keyword}\``).join(', ')}, which tool parameters cannot have at the top level` };
  }
  const converted = convert(schema, dialectOf(schema), keywords, true) as JsonObject;
  return { ok: true, schema: { type: 'object', ...converted } };
}

function convert(node: unknown, dialect: Dialect, keywords: ValidatorKeywords, root = false): unknown {
  if (node === true) return {};
  if (node === false) return { not: {} };
  if (!isJsonObject(node)) return node; // Ajv compiled it, so this is not reached for stored schemas
  const out: JsonObject = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === '$schema' && root) continue;
    if (!keywords.constrains(dialect, keyword) && !ANNOTATION_KEYWORDS.has(keyword)) continue;
    if (keyword === 'items' && Array.isArray(value)) {
      out.prefixItems = value.map((item) => convert(item, dialect, keywords));
      if ('additionalItems' in node) out.items = convert(node.additionalItems, dialect, keywords);
    } else if (keyword === 'additionalItems') {
      // draft-07 only, and only beside tuple `items` (handled there); elsewhere the validator ignores it.
      continue;
    } else if ((keyword === 'dependencies' || keyword === 'dependentRequired' || keyword === 'dependentSchemas') && isJsonObject(value)) {
      for (const [name, dependency] of Object.entries(value)) {
        if (Array.isArray(dependency)) addDependency(out, 'dependentRequired', name, dependency);
        else addDependency(out, 'dependentSchemas', name, convert(dependency, dialect, keywords));
      }
    } else {
      out[keyword] = convertValue(keyword, value, dialect, keywords);
    }
  }
  return out;
}

/** draft-07's `dependencies` and 2020-12's split keywords may meet in one schema: both apply, so merge them. */
function addDependency(out: JsonObject, keyword: 'dependentRequired' | 'dependentSchemas', name: string, dependency: unknown): void {
  const map = (out[keyword] ??= {}) as JsonObject;
  const existing = map[name];
  if (existing === undefined) map[name] = dependency;
  else if (keyword === 'dependentRequired') map[name] = [...new Set([...(existing as string[]), ...(dependency as string[])])];
  else map[name] = { allOf: [existing, dependency] };
}

/** `additionalProperties: false` is how every provider spells a closed object: those keep their boolean. */
const BOOLEAN_KEPT = new Set(['additionalProperties', 'unevaluatedProperties']);

function convertValue(keyword: string, value: unknown, dialect: Dialect, keywords: ValidatorKeywords): unknown {
  if (BOOLEAN_KEPT.has(keyword) && typeof value === 'boolean') return value;
  if (SINGLE_SCHEMA_KEYWORDS.has(keyword) || keyword === 'items') return convert(value, dialect, keywords);
  if (SCHEMA_LIST_KEYWORDS.has(keyword) && Array.isArray(value)) return value.map((item) => convert(item, dialect, keywords));
  if (SCHEMA_MAP_KEYWORDS.has(keyword) && isJsonObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([name, child]) => [name, keyword === 'dependencies' && Array.isArray(child) ? child : convert(child, dialect, keywords)]),
    );
  }
  return value;
}
