import fc from 'fast-check';

type Schema = Record<string, any>;

/** Values for the formats strict mode supports, as a model would write them. */
const FORMAT_VALUES: Record<string, fc.Arbitrary<string>> = {
  'date-time': fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((date) => date.toISOString()),
  date: fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)),
  time: fc.constantFrom('10:00:00Z', '23:59:59+02:00'),
  duration: fc.constantFrom('P1D', 'PT2H30M', 'P1Y2M'),
  email: fc.emailAddress(),
  hostname: fc.domain(),
  ipv4: fc.ipV4(),
  ipv6: fc.ipV6(),
  uuid: fc.uuid(),
};

/**
 * Values a model constrained by a strict-mode schema could send: fast-check arbitraries built from the subset of
 * JSON Schema strict mode takes (objects with every property required, arrays with items, enums, anyOf, local
 * $refs, the supported formats, patterns and numeric bounds). Recursion through `$ref` stops at `depth`.
 */
export function valuesOf(schema: Schema, root: Schema = schema, depth = 3): fc.Arbitrary<unknown> {
  if (typeof schema.$ref === 'string') {
    if (depth === 0) throw new Error('recursion too deep: an array on the way should have stopped it');
    const target = schema.$ref === '#' ? root : root.$defs[schema.$ref.replace('#/$defs/', '')];
    return valuesOf(target, root, depth - 1);
  }
  if (Array.isArray(schema.anyOf)) return fc.oneof(...schema.anyOf.map((branch: Schema) => valuesOf(branch, root, depth)));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  if ('const' in schema) return fc.constant(schema.const);
  const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  return fc.oneof(...types.map((type) => valuesOfType(type, schema, root, depth)));
}

function valuesOfType(type: string, schema: Schema, root: Schema, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const step = schema.multipleOf ?? 1;
      return fc.integer({ min: Math.ceil((schema.minimum ?? -1_000) / step), max: Math.floor((schema.maximum ?? 1_000) / step) }).map((n) => n * step);
    }
    case 'number': {
      const min = schema.minimum ?? schema.exclusiveMinimum ?? -1e6;
      const max = schema.maximum ?? schema.exclusiveMaximum ?? 1e6;
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true, minExcluded: schema.exclusiveMinimum !== undefined, maxExcluded: schema.exclusiveMaximum !== undefined });
    }
    case 'string':
      if (schema.format) return FORMAT_VALUES[schema.format];
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern, 'u'));
      return fc.string();
    case 'array':
      // Recursive schemas end in empty lists.
      if (depth <= 1 && typeof schema.items?.$ref === 'string' && !schema.minItems) return fc.constant([]);
      return fc.array(valuesOf(schema.items, root, depth), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 3, 3) });
    case 'object':
      return fc.record(Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, child]) => [name, valuesOf(child as Schema, root, depth)])));
    default:
      throw new Error(`no values for type ${type}`);
  }
}
