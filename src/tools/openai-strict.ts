import { isJsonObject, JsonObject } from './schema-keywords';

/**
 * OpenAI's strict mode (Structured Outputs) takes a subset of JSON Schema; these are its documented limits.
 * https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
 */
const STRICT_LIMITS = {
  nestingDepth: 10,
  properties: 5_000,
  enumValues: 1_000,
  /** Property names, definition names, enum and const values together. */
  stringLength: 120_000,
  /** For an enum of more than 250 values, the length of its string values together. */
  largeEnumValues: 250,
  largeEnumStringLength: 15_000,
} as const;

const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/** Copied as they are: strict mode supports them with the same meaning. */
const SUPPORTED = new Set([
  'type',
  'enum',
  'const',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'description',
  'title',
]);

/** Annotations strict mode does not take; they constrain nothing, so leaving them out is exact. */
const DROPPED = new Set(['default', 'examples', 'readOnly', 'writeOnly', 'deprecated', '$comment', 'contentEncoding', 'contentMediaType', 'contentSchema']);

/** Regular-expression features beyond what strict mode's pattern support can be relied on for. */
const UNSUPPORTED_PATTERN = /\(\?<?[=!]|\\[1-9]|\\k</;

const MAX_REASONS = 5;

/** A reference to the whole schema (`#`) or to one of its definitions. */
const DEFINITION_REF = /^#\/(\$defs|definitions)\/([^/]+)$/;

type StrictSchema = { ok: true; schema: JsonObject } | { ok: false; reasons: string[] };

/**
 * Converts a provider schema (see `toProviderSchema`) into one OpenAI accepts with `strict: true`, or says why it
 * cannot. The conversion never lets through anything the action's schema refuses. Two narrowings are made, as
 * strict mode requires: every object declaring properties gets `additionalProperties: false`, and an optional
 * property that accepts `null` becomes required (the model sends `null` to leave it out). Anything else that
 * strict mode cannot express with the same meaning — an optional property that does not accept `null`, an object
 * open to undeclared properties, a keyword strict mode lacks (`minLength`, `oneOf`, ...), a format or pattern
 * feature it does not support, a size beyond its limits — keeps the tool out of strict mode.
 */
export function toOpenAiStrict(schema: JsonObject): StrictSchema {
  const converter = new StrictConverter(schema);
  const converted = converter.run();
  const reasons = converter.reasons;
  if (reasons.length === 0) reasons.push(...checkLimits(converted));
  if (reasons.length > 0) {
    const shown = reasons.slice(0, MAX_REASONS);
    if (reasons.length > MAX_REASONS) shown.push(`and ${reasons.length - MAX_REASONS} more`);
    return { ok: false, reasons: shown };
  }
  return { ok: true, schema: converted };
}

class StrictConverter {
  readonly reasons: string[] = [];
  private readonly definitions: JsonObject;

  constructor(private readonly root: JsonObject) {
    this.definitions = (isJsonObject(root.$defs) ? root.$defs : isJsonObject(root.definitions) ? root.definitions : {}) as JsonObject;
  }

  run(): JsonObject {
    const root: JsonObject = { ...this.root };
    // The root's own `$id` only sets the base for references, and every reference here is local.
    delete root.$id;
    if ('definitions' in root) {
      if ('$defs' in root) {
        this.refuse('', 'both `definitions` and `$defs`');
      } else {
        root.$defs = root.definitions;
        delete root.definitions;
      }
    }
    const out = this.node(root, '', true);
    if (isJsonObject(root.$defs)) {
      out.$defs = Object.fromEntries(Object.entries(root.$defs).map(([name, child]) => [name, this.node(child, `/$defs/${escape(name)}`)]));
    }
    return out;
  }

  private node(input: unknown, path: string, isRoot = false): JsonObject {
    if (!isJsonObject(input)) {
      this.refuse(path, 'a subschema that is not an object');
      return {};
    }
    const node = { ...input };
    if ('nullable' in node) this.foldNullable(node, path);
    if ('$ref' in node) return this.reference(node, path);
    const out: JsonObject = {};
    for (const [keyword, value] of Object.entries(node)) {
      if (keyword === '$defs' && isRoot) continue;
      if (DROPPED.has(keyword) || keyword === 'properties' || keyword === 'required' || keyword === 'additionalProperties') continue;
      if (keyword === 'items') {
        out.items = this.node(value, `${path}/items`);
      } else if (keyword === 'anyOf' && Array.isArray(value)) {
        out.anyOf = value.map((branch, index) => this.node(branch, `${path}/anyOf/${index}`));
      } else if (keyword === 'format' && !STRICT_FORMATS.has(String(value))) {
        this.refuse(path, `format \`${String(value)}\``);
      } else if (keyword === 'pattern' && (typeof value !== 'string' || UNSUPPORTED_PATTERN.test(value))) {
        this.refuse(path, 'a pattern with lookaround or backreferences');
      } else if (keyword === 'multipleOf' && !Number.isInteger(value)) {
        // The gateway's validator divides in floating point: 8.94 is not a multiple of 0.01 there, though a model
        // held to that multipleOf may send it.
        this.refuse(path, 'a fractional `multipleOf`');
      } else if (SUPPORTED.has(keyword)) {
        out[keyword] = value;
      } else {
        this.refuse(path, `\`${keyword}\``);
      }
    }
    if ('type' in out) this.valuesOfType(out, path);
    if (!('type' in out) && !('anyOf' in out)) {
      const inferred = typeOfValues(node);
      if (inferred) out.type = inferred;
      else if ('properties' in node && isRoot) out.type = 'object';
      else this.refuse(path, 'a value of any type (no `type`)');
    }
    if (allows(out.type, 'object') || 'properties' in node) this.object(node, out, path);
    else if ('properties' in node || 'required' in node || 'additionalProperties' in node) this.refuse(path, 'object keywords on a non-object');
    if (allows(out.type, 'array') && !('items' in out)) this.refuse(path, 'an array without `items`');
    return out;
  }

  /** Strict objects declare every property, require every one and allow no other. */
  private object(node: JsonObject, out: JsonObject, path: string): void {
    const properties = isJsonObject(node.properties) ? node.properties : undefined;
    if (!properties) {
      // The root without properties is an action that takes none: closing it is the same narrowing as closing an
      // object with declared properties. A nested object without properties is free-form data: closing it would
      // leave the model nothing it could put there.
      if (node.additionalProperties === false || (path === '' && !('additionalProperties' in node))) {
        Object.assign(out, { properties: {}, required: [], additionalProperties: false });
      } else {
        this.refuse(path, 'an object without declared properties');
      }
      return;
    }
    if ('additionalProperties' in node && node.additionalProperties !== false) {
      this.refuse(path, 'an object that accepts undeclared properties');
    }
    const required = Array.isArray(node.required) ? (node.required as string[]) : [];
    for (const name of required) {
      if (!(name in properties)) this.refuse(path, `required property \`${name}\` that is not declared`);
    }
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([name, child]) => {
        const converted = this.node(child, `${path}/properties/${escape(name)}`);
        if (!required.includes(name) && !this.acceptsNull(converted)) {
          this.refuse(path, `optional property \`${name}\` that does not accept null`);
        }
        return [name, converted];
      }),
    );
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }

  /** Strict mode takes `$ref` only on its own; annotations beside it go. */
  private reference(node: JsonObject, path: string): JsonObject {
    const ref = node.$ref;
    const others = Object.keys(node).filter((keyword) => keyword !== '$ref' && keyword !== 'description' && keyword !== 'title' && !DROPPED.has(keyword));
    if (typeof ref !== 'string' || !(ref === '#' || DEFINITION_REF.test(ref))) {
      this.refuse(path, 'a reference other than to `#` or `#/$defs/...`');
    }
    for (const keyword of others) this.refuse(path, `\`${keyword}\` beside \`$ref\``);
    return { $ref: typeof ref === 'string' ? ref.replace(/^#\/definitions\//, '#/$defs/') : ref };
  }

  /** OpenAPI's `nullable: true` (which Ajv honours) is `null` among the types. */
  private foldNullable(node: JsonObject, path: string): void {
    const nullable = node.nullable;
    delete node.nullable;
    if (nullable !== true) return;
    if (typeof node.type === 'string') node.type = [node.type, 'null'];
    else if (Array.isArray(node.type)) node.type = node.type.includes('null') ? node.type : [...node.type, 'null'];
    else this.refuse(path, '`nullable` without `type`');
    if ('enum' in node || 'const' in node) this.refuse(path, '`nullable` beside `enum` or `const`');
  }

  /**
   * An `enum` or `const` beside a `type` is checked against both: a value of another type can never pass the
   * action's check, so such enum values are left out (exact), and a `const` of another type is refused, as is an
   * enum with nothing left. Strict mode would otherwise be handed a schema that contradicts itself.
   */
  private valuesOfType(out: JsonObject, path: string): void {
    const fits = (value: unknown) => allows(out.type, jsonType(value)) || (jsonType(value) === 'integer' && allows(out.type, 'number'));
    if ('const' in out && !fits(out.const)) this.refuse(path, 'a `const` that its `type` excludes');
    if (!Array.isArray(out.enum)) return;
    const kept = out.enum.filter(fits);
    if (kept.length === 0) this.refuse(path, 'an `enum` whose values its `type` all excludes');
    else if (kept.length < out.enum.length) out.enum = kept;
  }

  /** Whether `null` passes every keyword of the (converted) schema that constrains it. */
  private acceptsNull(schema: JsonObject, seen = new Set<string>()): boolean {
    if (typeof schema.$ref === 'string') {
      const target = this.resolve(schema.$ref);
      if (!target || seen.has(schema.$ref)) return false;
      seen.add(schema.$ref);
      return this.acceptsNull(target, seen);
    }
    if (Array.isArray(schema.anyOf) && !schema.anyOf.some((branch) => isJsonObject(branch) && this.acceptsNull(branch, seen))) return false;
    if ('const' in schema && schema.const !== null) return false;
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return false;
    return !('type' in schema) || allows(schema.type, 'null');
  }

  private resolve(ref: string): JsonObject | undefined {
    if (ref === '#') return this.root;
    const match = DEFINITION_REF.exec(ref);
    if (!match) return undefined;
    let name: string;
    try {
      name = unescape(decodeURIComponent(match[2]));
    } catch {
      return undefined;
    }
    const target = this.definitions[name];
    return isJsonObject(target) ? target : undefined;
  }

  private refuse(path: string, what: string): void {
    const reason = `${what} (at ${path || '/'}) is not supported in strict mode`;
    if (!this.reasons.includes(reason)) this.reasons.push(reason);
  }
}

function checkLimits(schema: JsonObject): string[] {
  const totals = { properties: 0, enumValues: 0, stringLength: 0, depth: 0 };
  const reasons: string[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (!isJsonObject(node)) return;
    const isObject = isJsonObject(node.properties);
    const level = isObject ? depth + 1 : depth;
    totals.depth = Math.max(totals.depth, level);
    if (isObject) {
      const properties = node.properties as JsonObject;
      totals.properties += Object.keys(properties).length;
      for (const name of Object.keys(properties)) totals.stringLength += name.length;
      for (const child of Object.values(properties)) visit(child, level);
    }
    for (const values of [node.enum, 'const' in node ? [node.const] : undefined]) {
      if (!Array.isArray(values)) continue;
      if (values === node.enum) totals.enumValues += values.length;
      const length = values.reduce<number>((sum, value) => sum + (typeof value === 'string' ? value.length : 0), 0);
      totals.stringLength += length;
      if (values === node.enum && values.length > STRICT_LIMITS.largeEnumValues && length > STRICT_LIMITS.largeEnumStringLength) {
        reasons.push(`an enum of ${values.length} values whose text exceeds ${STRICT_LIMITS.largeEnumStringLength} characters`);
      }
    }
    visit(node.items, level);
    if (Array.isArray(node.anyOf)) for (const branch of node.anyOf) visit(branch, level);
    if (isJsonObject(node.$defs)) {
      for (const [name, child] of Object.entries(node.$defs)) {
        totals.stringLength += name.length;
        visit(child, 0);
      }
    }
  };
  visit(schema, 0);
  if (totals.depth > STRICT_LIMITS.nestingDepth) reasons.push(`objects nested ${totals.depth} levels deep (strict mode allows ${STRICT_LIMITS.nestingDepth})`);
  if (totals.properties > STRICT_LIMITS.properties) reasons.push(`${totals.properties} properties (strict mode allows ${STRICT_LIMITS.properties})`);
  if (totals.enumValues > STRICT_LIMITS.enumValues) reasons.push(`${totals.enumValues} enum values (strict mode allows ${STRICT_LIMITS.enumValues})`);
  if (totals.stringLength > STRICT_LIMITS.stringLength) {
    reasons.push(`${totals.stringLength} characters of names and values (strict mode allows ${STRICT_LIMITS.stringLength})`);
  }
  return reasons.map((reason) => `${reason} is not supported in strict mode`);
}

/** The JSON type(s) of an `enum` or `const`, which strict mode wants spelled out. */
function typeOfValues(node: JsonObject): string | string[] | undefined {
  const values = Array.isArray(node.enum) ? node.enum : 'const' in node ? [node.const] : undefined;
  if (!values || values.length === 0) return undefined;
  const types = [...new Set(values.map(jsonType))];
  if (types.includes('object') || types.includes('array')) return undefined;
  if (types.includes('number') && types.includes('integer')) types.splice(types.indexOf('integer'), 1);
  return types.length === 1 ? types[0] : types;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const allows = (type: unknown, name: string): boolean => type === name || (Array.isArray(type) && type.includes(name));

const escape = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1');
const unescape = (name: string): string => name.replace(/~1/g, '/').replace(/~0/g, '~');
