import type { AnySchemaObject, ErrorObject, FuncKeywordDefinition, SchemaValidateFunction } from 'ajv';

type Duplicate = { i: number; j: number };

/**
 * `uniqueItems` in time linear in the array's size. Ajv compares every pair of items when they may be objects or
 * arrays (40,000 small arrays took 11 s); here each item becomes a canonical key (object keys sorted, as deep
 * equality ignores their order) and keys are looked up in a Map. The error, `i` and `j` included, is the one Ajv
 * gives: where `items` names only scalar types Ajv reports the first repeated value met walking from the end and
 * its nearest later copy, otherwise the last item that repeats an earlier one and the nearest such earlier item.
 */
const validate: SchemaValidateFunction = function uniqueItems(schema: boolean, data: unknown[], parentSchema?: AnySchemaObject): boolean {
  validate.errors = undefined;
  if (!schema || data.length < 2) return true;
  const scalarTypes = scalarItemTypes(parentSchema?.items);
  const duplicate = scalarTypes ? lastRepeatedScalar(data, scalarTypes) : lastRepeatedItem(data);
  if (!duplicate) return true;
  const error: Partial<ErrorObject> = {
    keyword: 'uniqueItems',
    message: `must NOT have duplicate items (items ## ${duplicate.j} and ${duplicate.i} are identical)`,
    params: duplicate,
  };
  validate.errors = [error];
  return false;
};

export const uniqueItemsKeyword: FuncKeywordDefinition = { keyword: 'uniqueItems', type: 'array', schemaType: 'boolean', errors: true, validate };

const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);

/** The types `items` allows when they are all scalar (Ajv's fast path), else undefined. */
function scalarItemTypes(items: unknown): string[] | undefined {
  if (items === null || typeof items !== 'object' || Array.isArray(items)) return undefined;
  const { type, nullable } = items as { type?: unknown; nullable?: unknown };
  const types = (Array.isArray(type) ? type : type === undefined ? [] : [type]).filter((name): name is string => typeof name === 'string');
  if (nullable === true && !types.includes('null') && types.length > 0) types.push('null');
  return types.length > 0 && types.every((name) => SCALAR_TYPES.has(name)) ? types : undefined;
}

function hasType(value: unknown, types: string[]): boolean {
  return types.some((type) => {
    switch (type) {
      case 'null':
        return value === null;
      case 'integer':
        return typeof value === 'number' && Number.isInteger(value);
      default:
        return typeof value === type;
    }
  });
}

/** Ajv's fast path: from the end, the first item whose value was already seen, and where it was last seen. */
function lastRepeatedScalar(data: unknown[], types: string[]): Duplicate | undefined {
  const seen = new Map<string, number>();
  for (let i = data.length - 1; i >= 0; i--) {
    const item = data[i];
    if (!hasType(item, types)) continue;
    const key = types.length > 1 && typeof item === 'string' ? `${item}_` : String(item);
    const j = seen.get(key);
    if (j !== undefined) return { i, j };
    seen.set(key, i);
  }
  return undefined;
}

/** Ajv's general path: the last item equal to an earlier one, and the last such earlier item. */
function lastRepeatedItem(data: unknown[]): Duplicate | undefined {
  const keys = data.map(canonicalKey);
  const first = new Map<string, number>();
  keys.forEach((key, index) => {
    if (!first.has(key)) first.set(key, index);
  });
  for (let i = keys.length - 1; i > 0; i--) {
    if ((first.get(keys[i]) as number) === i) continue;
    let j = i - 1;
    while (keys[j] !== keys[i]) j--;
    return { i, j };
  }
  return undefined;
}

/** A text equal for two JSON values exactly when they are deeply equal; built without recursion. */
function canonicalKey(value: unknown): string {
  const parts: string[] = [];
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next instanceof Literal) {
      parts.push(next.text);
    } else if (Array.isArray(next)) {
      pending.push(CLOSE_ARRAY);
      for (let index = next.length - 1; index >= 0; index--) pending.push(next[index], index > 0 ? COMMA : NOTHING);
      parts.push('[');
    } else if (next !== null && typeof next === 'object') {
      const keys = Object.keys(next).sort();
      pending.push(CLOSE_OBJECT);
      for (let index = keys.length - 1; index >= 0; index--) {
        pending.push((next as Record<string, unknown>)[keys[index]], new Literal(`${index > 0 ? ',' : ''}${JSON.stringify(keys[index])}:`));
      }
      parts.push('{');
    } else {
      parts.push(next === undefined ? 'null' : JSON.stringify(next));
    }
  }
  return parts.join('');
}

class Literal {
  constructor(readonly text: string) {}
}

const COMMA = new Literal(',');
const NOTHING = new Literal('');
const CLOSE_ARRAY = new Literal(']');
const CLOSE_OBJECT = new Literal('}');
