import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Dialect, dialectOf as dialectOfSchema } from '../actions/schema/schema-ajv';

export type JsonObject = Record<string, unknown>;
export type { Dialect };

/** The dialect a stored action's schema is checked in, as the actions module reads `$schema` (it refused any other). */
export const dialectOf = (schema: JsonObject): Dialect => dialectOfSchema(schema.$schema) ?? '2020-12';

/** Keywords whose value is one subschema. */
export const SINGLE_SCHEMA_KEYWORDS = new Set([
  'additionalItems',
  'additionalProperties',
  'contains',
  'contentSchema',
  'else',
  'if',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
]);

/** Keywords whose value is a list of subschemas (`items` too, in draft-07's tuple form). */
export const SCHEMA_LIST_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

/** Keywords whose value maps names to subschemas (`dependencies` also maps names to property lists). */
export const SCHEMA_MAP_KEYWORDS = new Set(['$defs', 'definitions', 'dependentSchemas', 'dependencies', 'patternProperties', 'properties']);

/** Keywords that describe and never constrain: dropping one changes no validation outcome. */
export const ANNOTATION_KEYWORDS = new Set([
  'title',
  'description',
  'default',
  'examples',
  'readOnly',
  'writeOnly',
  'deprecated',
  '$comment',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
]);

/** Keywords the validator handles itself, outside its keyword table (identifiers, references, definitions). */
const CORE_KEYWORDS = new Set(['$schema', '$id', '$anchor', '$dynamicAnchor', '$ref', '$defs', 'definitions', '$vocabulary']);

/**
 * Which keywords constrain values, as the gateway's own validator sees them: Ajv with ajv-formats in non-strict
 * mode, one instance per dialect, as `JsonSchemaCompiler` runs them. A keyword Ajv does not know is ignored when
 * parameters are checked, so a tool definition may leave it out without letting anything new through.
 */
export class ValidatorKeywords {
  private readonly ajv = { '2020-12': withFormats(new Ajv2020({ strict: false, logger: false })), 'draft-07': withFormats(new Ajv({ strict: false, logger: false })) };

  constrains(dialect: Dialect, keyword: string): boolean {
    if (ANNOTATION_KEYWORDS.has(keyword) || keyword === '$comment') return false;
    return CORE_KEYWORDS.has(keyword) || Boolean(this.ajv[dialect].getKeyword(keyword));
  }
}

function withFormats<T extends Ajv>(ajv: T): T {
  addFormats(ajv);
  return ajv;
}

export const isJsonObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
