import { closingQuote } from './json-text';

/**
 * Numbers as the caller wrote them. `JSON.parse` makes every number a 64-bit float, which cannot hold
 * 9007199254740993 (it becomes ...992) nor a 30-digit fraction; a gateway that forwarded the float would change
 * the value in transit, silently. So for the bodies whose numbers are forwarded (an execution's parameters), the
 * literals that a float does not carry are recorded beside the parsed value:
 *
 * - an integer literal beyond 2^53 is forwarded as its digits: every JSON reader keeps the value it can, and
 *   Python's `json` keeps it exactly, so `json.dumps` still reproduces the signed bytes;
 * - a fraction or exponent whose value is integral (`1.0`, `-0.0`, `1e23`) is marked as a float: Python's `json`
 *   reads it as one, and writes it back so (`1.0`, `-0.0`, `1e+23`), where a JavaScript number would be written
 *   as the integer `1`, `0` or 1 and 23 zeros, which Python reads as an int (and 10**23 is not the float 1e23);
 * - a fraction or exponent whose decimal value is not the float's own shortest form (a 30-digit fraction,
 *   `1e-400`) cannot be forwarded unchanged at all: it is reported, and the execution refuses it (400).
 *
 * Everything else in the service (validation above all) keeps working on the plain JavaScript value. The record
 * is a WeakMap keyed by the parsed object or array holding the number, so it lives exactly as long as the body.
 * (A symbol-keyed property on the container was faster to fill, but validators that list every own key, such as
 * zod's records in the MCP SDK, then saw it as a member.)
 */
export interface NumberLiteral {
  /** The JavaScript number the parsed body holds at this place. */
  readonly value: number;
  /** The text to send instead of the number's own serialization, for an integer a float does not hold. */
  readonly forward?: string;
  /** Written with a fraction or an exponent though its value is integral: a float to Python, sent as one. */
  readonly float?: true;
  /** Why the literal cannot be forwarded: the value a float makes of it. */
  readonly problem?: string;
}

// Per object, its members' literals by key; per array, by index (a sparse array: a Map of 260,000 entries cost
// five times as much to fill). An entry, possibly empty, also marks every container on the way to a literal that
// cannot be forwarded, so inexactNumbers() never descends where there is none.
type Literals = Map<string, NumberLiteral> | (NumberLiteral | undefined)[];
const LITERALS = new WeakMap<object, Literals>();

/** What is recorded for `container`, if anything. */
function recorded(container: object): Literals | undefined {
  return LITERALS.get(container);
}

// A number JSON.parse may not hold exactly has 16 or more digits (a dot allowed among them) or an exponent; with
// at most 15 digits and no exponent, the float's shortest form is the literal's own value. A fraction of zeros
// only (`1.0`) is recorded as a float. MAYBE_RECORDED is the quick test over the whole text, strings included;
// endOfPlainNumber() is the same test for one number.
const MAYBE_RECORDED = /(?:\d\.?){16}|\d[eE]|\d\.0+(?!\d)/;
const INTEGER = /^-?\d+$/;
const ZERO_FRACTION = /^-?\d+\.0+$/;

/** The literals recorded for the members of the object `object`, by key, if any. */
export function objectLiterals(object: object): ReadonlyMap<string, NumberLiteral> | undefined {
  return recorded(object) as ReadonlyMap<string, NumberLiteral> | undefined;
}

/** The literals recorded for the items of `array`, by index, if any. */
export function arrayLiterals(array: readonly unknown[]): readonly (NumberLiteral | undefined)[] | undefined {
  return recorded(array) as readonly (NumberLiteral | undefined)[] | undefined;
}

/** What was recorded for the members of `container` (array items by their index as a string), for inspection. */
export function numberLiterals(container: object): ReadonlyMap<string, NumberLiteral> | undefined {
  const literals = recorded(container);
  return Array.isArray(literals) ? new Map(entriesOf(literals)) : literals;
}

/**
 * Records the literals of `text` (the JSON `value` was parsed from) that `value` does not hold exactly. One pass
 * over the text, no recursion, and nothing allocated but the records: a 1 MB body may hold 260,000 numbers that
 * need one (`[1.0,1.0,...]`), and a second parser building an object per number took 0.4 s of the event loop for
 * it. JSON.parse has already accepted the text (and refused `__proto__` keys), so the walk only follows its
 * structure. A repeated key's last value is the parsed one: an earlier occurrence's numbers are recorded on it
 * and then overwritten or removed by the last occurrence's, and a record whose value is no longer the member's
 * is ignored by its readers.
 */
export function recordNumberLiterals(text: string, value: unknown): void {
  if (typeof value !== 'object' || value === null || !hasRecordedNumber(text)) return;
  // Per open container, by depth: the parsed node (undefined where the text's container has no parsed
  // counterpart), whether it is an array, an array's current item, an object's current key (as the index of its
  // opening quote) and whether it expects a key next, and whether the node and its ancestors are marked.
  const nodes: (Record<string, unknown> | undefined)[] = [];
  const arrays: boolean[] = [];
  const items: number[] = [];
  const keyAt: number[] = [];
  const expectingKey: boolean[] = [];
  const marked: boolean[] = [];
  let depth = -1;
  const memberKey = (level: number) => (arrays[level] ? items[level] : keyText(text, keyAt[level]));
  // The literal recorded last: the next one with the same text and value is the same record (`[1.0,1.0,...]`).
  let last: NumberLiteral | undefined;
  let lastText = '';
  const mark = (level: number) => {
    for (let up = level; up >= 0 && !marked[up]; up--) {
      marked[up] = true;
      const node = nodes[up];
      if (node !== undefined) literalsOf(node);
    }
  };
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22) {
      if (depth >= 0 && !arrays[depth] && expectingKey[depth]) {
        keyAt[depth] = index;
        expectingKey[depth] = false;
      }
      index = closingQuote(text, index);
    } else if (code === 0x7b || code === 0x5b) {
      const parent = nodes[depth];
      const node = depth < 0 ? value : parent === undefined ? undefined : parent[memberKey(depth)];
      const isArray = code === 0x5b;
      depth++;
      nodes[depth] = typeof node === 'object' && node !== null && Array.isArray(node) === isArray ? (node as Record<string, unknown>) : undefined;
      arrays[depth] = isArray;
      items[depth] = 0;
      expectingKey[depth] = true;
      marked[depth] = false;
    } else if (code === 0x2c) {
      if (arrays[depth]) items[depth]++;
      else expectingKey[depth] = true;
    } else if (code === 0x7d || code === 0x5d) {
      nodes[depth] = undefined;
      depth--;
    } else if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      // Most numbers are plain: the one scan that says so also finds their end.
      const plainEnd = endOfPlainNumber(text, index);
      const end = plainEnd === -1 ? endOfNumber(text, index) : plainEnd;
      const node = nodes[depth];
      if (node !== undefined && plainEnd === -1) {
        const key = memberKey(depth);
        const literalText = text.slice(index, end);
        const member = (node as Record<string | number, unknown>)[key];
        const same = last !== undefined && literalText === lastText && Object.is(last.value, member);
        const literal = same ? last : classify(literalText, member);
        if (literal) {
          if (literal.problem) mark(depth);
          setLiteral(node, key, literal);
          last = literal;
          lastText = literalText;
        } else {
          setLiteral(node, key, undefined);
        }
      } else if (node !== undefined && recorded(node) !== undefined) {
        // A plain number where an earlier occurrence of a repeated key may have recorded one.
        setLiteral(node, memberKey(depth), undefined);
      }
      index = end - 1;
    }
  }
}

/** The key whose opening quote is at `quote`, unescaped only when it holds an escape. */
function keyText(text: string, quote: number): string {
  const end = closingQuote(text, quote);
  const raw = text.slice(quote + 1, end);
  return raw.includes('\\') ? (JSON.parse(text.slice(quote, end + 1)) as string) : raw;
}

/** Where the JSON number starting at `start` ends. */
function endOfNumber(text: string, start: number): number {
  let index = start + 1;
  for (; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // Digits, `.`, `e`, `E`, `+`, `-`.
    if (!((code >= 0x30 && code <= 0x39) || code === 0x2e || code === 0x65 || code === 0x45 || code === 0x2b || code === 0x2d)) break;
  }
  return index;
}

/**
 * Whether the JSON `text` holds a number literal that is recorded (see MAYBE_RECORDED), outside its strings: a
 * version "2.0" or an address "10.0.0.1" in a string costs no exact reading. One pass, after a quick test of
 * the whole text.
 */
export function hasRecordedNumber(text: string): boolean {
  if (!MAYBE_RECORDED.test(text)) return false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22) {
      index = closingQuote(text, index);
    } else if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      const end = endOfPlainNumber(text, index);
      if (end === -1) return true;
      index = end - 1;
    }
  }
  return false;
}

/** Where the number at `start` ends, or -1 when it is one to record (16 digits, an exponent, a fraction of zeros). */
function endOfPlainNumber(text: string, start: number): number {
  let digits = 0;
  let fraction: 'none' | 'zeros' | 'other' = 'none';
  let index = text.charCodeAt(start) === 0x2d ? start + 1 : start;
  for (; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0x30 && code <= 0x39) {
      digits += 1;
      if (fraction === 'zeros' && code !== 0x30) fraction = 'other';
    } else if (code === 0x2e) {
      fraction = 'zeros';
    } else if (code === 0x65 || code === 0x45) {
      return -1;
    } else {
      break;
    }
  }
  return digits >= 16 || fraction === 'zeros' ? -1 : index;
}

/**
 * Why each number below `value` cannot be forwarded exactly, as `path.to.field: ...` lines (array items `.0`), at
 * most `limit` of them. Iterative, and stopping at the limit: a 1 MB body may hold 50,000 such numbers.
 */
export function inexactNumbers(value: unknown, path: string, limit = Number.POSITIVE_INFINITY): string[] {
  const problems: string[] = [];
  const pending: [unknown, string][] = [[value, path]];
  while (pending.length > 0 && problems.length < limit) {
    const [node, at] = pending.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    const literals = recorded(node);
    if (!literals) continue;
    for (const [key, literal] of Array.isArray(literals) ? entriesOf(literals) : literals) {
      // A record whose value is no longer the member's came from an earlier occurrence of a repeated key.
      const current = literal.problem && (node as Record<string, unknown>)[key] === literal.value;
      if (current && problems.length < limit) problems.push(`${at}.${key}: ${literal.problem}`);
    }
    // Children in reverse, so they come off the stack in key order (the order the caller wrote them).
    const children = Object.entries(node);
    for (let index = children.length - 1; index >= 0; index--) pending.push([children[index][1], `${at}.${children[index][0]}`]);
  }
  return problems;
}

function literalsOf(container: object): Literals {
  let literals = recorded(container);
  if (!literals) LITERALS.set(container, (literals = Array.isArray(container) ? [] : new Map()));
  return literals;
}

/** Records (or, with undefined, forgets) the literal of the member `key` of `container`. */
function setLiteral(container: object, key: string | number, literal: NumberLiteral | undefined): void {
  const literals = literal === undefined ? recorded(container) : literalsOf(container);
  if (Array.isArray(literals)) {
    if (literal !== undefined || literals[key as number] !== undefined) literals[key as number] = literal;
  } else if (literals !== undefined) {
    if (literal === undefined) literals.delete(key as string);
    else literals.set(key as string, literal);
  }
}

/** The recorded items of a sparse array of literals, as [index as a string, literal] pairs. */
function entriesOf(literals: readonly (NumberLiteral | undefined)[]): [string, NumberLiteral][] {
  const entries: [string, NumberLiteral][] = [];
  literals.forEach((literal, index) => {
    if (literal !== undefined) entries.push([String(index), literal]);
  });
  return entries;
}

/** What to record of a literal that is not plain (see endOfPlainNumber), which JSON.parse read as `value`. */
function classify(text: string, value: unknown): NumberLiteral | undefined {
  if (typeof value !== 'number') return undefined;
  // A fraction of zeros with at most 15 digits in all (`1.0`, `-20.000`): an integral float, held exactly.
  if (ZERO_FRACTION.test(text) && text.length - (text.charCodeAt(0) === 0x2d ? 2 : 1) <= 15) return { value, float: true };
  if (INTEGER.test(text)) return Number.isSafeInteger(value) ? undefined : { value, forward: text };
  const shortest = String(value);
  // Most literals are the float's own shortest form, letter for letter: no need to compare their decimals.
  if (shortest === text || sameDecimal(text, shortest)) return Number.isInteger(value) ? { value, float: true } : undefined;
  return { value, problem: `cannot be forwarded exactly: a 64-bit float makes it ${shortest} (send such a number as a string)` };
}

/** Whether two JSON number texts denote the same decimal value (the sign of zero aside). */
function sameDecimal(a: string, b: string): boolean {
  const left = decimal(a);
  const right = decimal(b);
  return left.digits === right.digits && (left.digits === '' || (left.negative === right.negative && left.exponent === right.exponent));
}

/** A number text as sign, significant digits (no leading or trailing zeros) and the power of ten of the last. */
function decimal(text: string): { negative: boolean; digits: string; exponent: number } {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) throw new TypeError(`not a JSON number: ${text}`);
  const [, sign, whole, fraction = '', power = '0'] = match;
  const all = `${whole}${fraction}`.replace(/^0+/, '');
  const digits = all.replace(/0+$/, '');
  return { negative: sign === '-', digits, exponent: Number(power) - fraction.length + (all.length - digits.length) };
}
