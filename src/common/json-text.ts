/**
 * The index of the quote that closes the JSON string opened by the quote at `start` (text.length when there is
 * none). A quote counts when an even number of backslashes precedes it. Linear, and quick: the search for each
 * quote is native.
 */
export function closingQuote(text: string, start: number): number {
  let index = start;
  for (;;) {
    index = text.indexOf('"', index + 1);
    if (index === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(index - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return index;
  }
}

/** Whether `[` and `{` outside strings nest deeper than `limit` in JSON text; one pass, no recursion. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22) {
      index = closingQuote(text, index);
    } else if (code === 0x5b || code === 0x7b) {
      if (++depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) {
      depth -= 1;
    }
  }
  return false;
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** Valid JSON `text` without the whitespace between its tokens: keys, their order and every literal as written. */
export function compactJson(text: string): string {
  const parts: string[] = [];
  let from = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22) {
      index = closingQuote(text, index);
    } else if (WHITESPACE.has(code)) {
      parts.push(text.slice(from, index));
      while (index + 1 < text.length && WHITESPACE.has(text.charCodeAt(index + 1))) index++;
      from = index + 1;
    }
  }
  parts.push(text.slice(from));
  return parts.join('');
}

/**
 * The text of the value of `key` in the JSON object `text` (valid JSON, already parsed), as written: of its last
 * occurrence, the one JSON.parse keeps. Undefined when `text` is no object or has no such key. One pass over the
 * object's own members; what they hold is skipped, not read.
 */
export function memberText(text: string, key: string): string | undefined {
  let index = skipWhitespace(text, 0);
  if (text.charCodeAt(index) !== 0x7b) return undefined;
  let found: string | undefined;
  index = skipWhitespace(text, index + 1);
  while (text.charCodeAt(index) === 0x22) {
    const keyEnd = closingQuote(text, index);
    const name = text.slice(index, keyEnd + 1);
    const valueStart = skipWhitespace(text, skipWhitespace(text, keyEnd + 1) + 1); // past the colon
    const valueEnd = endOfValue(text, valueStart);
    if (name === `"${key}"` || (name.includes('\\') && JSON.parse(name) === key)) found = text.slice(valueStart, valueEnd);
    index = skipWhitespace(text, valueEnd);
    if (text.charCodeAt(index) === 0x2c) index = skipWhitespace(text, index + 1);
  }
  return found;
}

function skipWhitespace(text: string, index: number): number {
  while (index < text.length && WHITESPACE.has(text.charCodeAt(index))) index++;
  return index;
}

/** Where the JSON value starting at `start` ends (the index after it). */
function endOfValue(text: string, start: number): number {
  let depth = 0;
  for (let index = start; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22) {
      index = closingQuote(text, index);
      if (depth === 0) return index + 1;
    } else if (code === 0x5b || code === 0x7b) {
      depth++;
    } else if (code === 0x5d || code === 0x7d) {
      if (depth === 0) return index; // the end of the enclosing object: a literal ended here
      if (--depth === 0) return index + 1;
    } else if (depth === 0 && (code === 0x2c || WHITESPACE.has(code))) {
      return index;
    }
  }
  return text.length;
}

// The text a parsed JSON value was written as, for values whose exact spelling is given back (an action's
// json_schema: the same keys in the same order, which a JavaScript object does not keep for integer-like keys,
// and every number as written). Keyed by the parsed object, so it lives exactly as long as the value.
const WRITTEN = new WeakMap<object, string>();

/** Records that `value` was parsed from the JSON `text` (compact; see compactJson). */
export function keepWrittenText<T extends object>(value: T, text: string): T {
  WRITTEN.set(value, text);
  return value;
}

/** The JSON `value` was parsed from, when recorded; otherwise its JavaScript serialization. */
export function writtenText(value: unknown): string {
  return (typeof value === 'object' && value !== null && WRITTEN.get(value)) || JSON.stringify(value);
}
