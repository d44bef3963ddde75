import { closingQuote } from './json-text';

/**
 * Keys in the order the caller wrote them. A JavaScript object lists its integer-like keys ("7", "10") first, in
 * numeric order, whatever order they were written in; Python's `json` keeps the written order. A gateway that
 * forwarded the JavaScript order would hand a receiver `{"1":…,"b":…}` for `{"b":…,"1":…}`, and a caller that
 * computes the signature over what it sent (spec 5.3) would not find it. So for the bodies that are forwarded,
 * the written order of every object holding such a key is recorded beside the parsed value, and the webhook body
 * (canonical-json.ts) follows it. Other objects already list their keys as written.
 *
 * A repeated key keeps its first place and its last value, as both JSON.parse and Python's `json` do. The record
 * is a WeakMap keyed by the parsed object, so it lives exactly as long as the body.
 */
const ORDER = new WeakMap<object, readonly string[]>();

/** A quick test over the whole text, strings included: a member whose key may be one JavaScript moves first. */
const MAYBE_INDEX_KEY = /"(?:\d|\\u003\d)+"\s*:/i;
const MAX_INDEX = 4_294_967_294;

/** Whether JavaScript lists `key` before the others: an array index (0 to 2³² − 2, no leading zero). */
function isIndexKey(key: string): boolean {
  const first = key.charCodeAt(0);
  return first >= 0x30 && first <= 0x39 && /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) <= MAX_INDEX;
}

/**
 * The keys of `object` in the order its JSON text wrote them, when that was recorded and still names exactly its
 * keys; otherwise in JavaScript's order.
 */
export function keysAsWritten(object: object): readonly string[] {
  const keys = Object.keys(object);
  // JavaScript lists integer-like keys first: an object whose first key is none has none to reorder.
  if (keys.length < 2 || !isIndexKey(keys[0])) return keys;
  let written = ORDER.get(object);
  if (!written) return keys;
  // A repeated key was recorded at each place; the first one counts.
  if (written.length !== keys.length) written = [...new Set(written)];
  if (written.length !== keys.length || !written.every((key) => Object.hasOwn(object, key))) return keys;
  return written;
}

/**
 * Records the written key order of every object in `value` (parsed from the valid JSON `text`) whose written order
 * is not JavaScript's: an integer-like key after a named one, or after a larger one. One pass, no recursion,
 * nothing at all when the text has no key of digits. A 1 MB body holds some 150,000 objects: the walk keeps their
 * state in flat, reused arrays and makes a key's string only where it is needed (a key of digits, or a member
 * holding an object or array), and only the objects whose order differs are recorded.
 */
export function recordKeyOrder(text: string, value: unknown): void {
  if (typeof value !== 'object' || value === null || !MAYBE_INDEX_KEY.test(text)) return;
  // Per open container, by depth: the parsed node, whether it is an array, an array's current item, whether an
  // object expects a key next, where its keys start in `keyAt`, whether it has had a named key, its last
  // integer-like key, and whether its written order differs from JavaScript's.
  const nodes: unknown[] = [];
  const arrays: boolean[] = [];
  const items: number[] = [];
  const expectingKey: boolean[] = [];
  const firstKey: number[] = [];
  const named: boolean[] = [];
  const lastIndex: number[] = [];
  const differs: boolean[] = [];
  // The open objects' keys, as the index of each key's opening quote, innermost object's last.
  const keyAt: number[] = [];
  // Each object closed so far whose order differs. A repeated key's value is the last one, which closes last, so
  // the order of the last occurrence stands (and an earlier one's is dropped).
  const found = new Map<object, string[]>();
  let depth = -1;
  const keyFrom = (quote: number) => {
    const end = closingQuote(text, quote);
    const raw = text.slice(quote + 1, end);
    return raw.includes('\\') ? (JSON.parse(text.slice(quote, end + 1)) as string) : raw;
  };
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22) {
      const end = closingQuote(text, index);
      if (depth >= 0 && !arrays[depth] && expectingKey[depth]) {
        keyAt.push(index);
        expectingKey[depth] = false;
        // A digit, or an escape that may be one (`"\u0031"` is the key "1").
        const first = text.charCodeAt(index + 1);
        const key = (first >= 0x30 && first <= 0x39) || first === 0x5c ? keyFrom(index) : undefined;
        if (key !== undefined && isIndexKey(key)) {
          const position = Number(key);
          if (named[depth] || position < lastIndex[depth]) differs[depth] = true;
          lastIndex[depth] = position;
        } else {
          named[depth] = true;
        }
      }
      index = end;
    } else if (code === 0x7b || code === 0x5b) {
      // Below an earlier occurrence of a repeated key, the parsed value may be a number, or nothing at all.
      const parent = nodes[depth];
      const node =
        depth < 0
          ? value
          : typeof parent !== 'object' || parent === null
            ? undefined
            : arrays[depth]
              ? (parent as unknown[])[items[depth]]
              : (parent as Record<string, unknown>)[keyFrom(keyAt[keyAt.length - 1])];
      depth++;
      nodes[depth] = node;
      arrays[depth] = code === 0x5b;
      items[depth] = 0;
      expectingKey[depth] = true;
      firstKey[depth] = keyAt.length;
      named[depth] = false;
      lastIndex[depth] = -1;
      differs[depth] = false;
    } else if (code === 0x2c) {
      if (arrays[depth]) items[depth]++;
      else expectingKey[depth] = true;
    } else if (code === 0x7d || code === 0x5d) {
      const node = nodes[depth];
      nodes[depth] = undefined;
      if (code === 0x7d && typeof node === 'object' && node !== null) {
        if (differs[depth]) found.set(node, keyAt.slice(firstKey[depth]).map(keyFrom));
        else found.delete(node);
      }
      keyAt.length = firstKey[depth];
      depth--;
    }
  }
  for (const [node, keys] of found) ORDER.set(node, keys);
}
