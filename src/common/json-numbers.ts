import { parse as parseLossless } from 'lossless-json';
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

// Per object or array: its members' literals by key (array index as a string). An entry, possibly empty, also
// marks every container on the way to one, so a walk never descends where nothing was recorded.
const LITERALS = new WeakMap<object, Map<string, NumberLiteral>>();

// A number JSON.parse may not hold exactly has 16 or more digits (a dot allowed among them) or an exponent; with
// at most 15 digits and no exponent, the float's shortest form is the literal's own value. A fraction of zeros
// only (`1.0`) is recorded as a float. MAYBE_RECORDED is the quick test over the whole text, strings included;
// endOfPlainNumber() is the same test for one number.
const MAYBE_RECORDED = /(?:\d\.?){16}|\d[eE]|\d\.0+(?!\d)/;
const INTEGER = /^-?\d+$/;

/** The literals recorded for the members of `container`, if any. */
export function numberLiterals(container: object): ReadonlyMap<string, NumberLiteral> | undefined {
  return LITERALS.get(container);
}

/**
 * Records the literals of `text` (the JSON `value` was parsed from) that `value` does not hold exactly. Throws a
 * RangeError when the text nests too deeply for the exact reading.
 */
export function recordNumberLiterals(text: string, value: unknown): void {
  if (typeof value !== 'object' || value === null || !hasRecordedNumber(text)) return;
  // The same text read again, keeping every number's literal. JSON.parse has already accepted it (and refused
  // __proto__ keys), so this only repeats its reading; a repeated key keeps the last value, as JSON.parse does.
  const exact = parseLossless(text, undefined, {
    parseNumber: (literal: string) => new Literal(literal),
    onDuplicateKey: ({ newValue }: { newValue: unknown }) => newValue,
  });
  align(exact, value);
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
    const literals = LITERALS.get(node);
    if (!literals) continue;
    for (const [key, literal] of literals) {
      if (literal.problem && problems.length < limit) problems.push(`${at}.${key}: ${literal.problem}`);
    }
    // Children in reverse, so they come off the stack in key order (the order the caller wrote them).
    const children = Object.entries(node);
    for (let index = children.length - 1; index >= 0; index--) pending.push([children[index][1], `${at}.${children[index][0]}`]);
  }
  return problems;
}

class Literal {
  constructor(readonly text: string) {}
}

/** Walks the exact reading beside the parsed value; true when something was recorded below `parsed`. */
function align(exact: unknown, parsed: unknown): boolean {
  if (typeof exact !== 'object' || exact === null || exact instanceof Literal || typeof parsed !== 'object' || parsed === null) return false;
  const target = parsed as Record<string, unknown>;
  let recorded = false;
  const visit = (key: string, item: unknown) => {
    if (item instanceof Literal) {
      const literal = classify(item.text, target[key]);
      if (literal) {
        literalsOf(target).set(key, literal);
        recorded = true;
      }
    } else if (align(item, target[key])) {
      recorded = true;
    }
  };
  // Indexes and keys rather than Object.entries: a 1 MB array holds 150,000 numbers, each a pair to collect.
  if (Array.isArray(exact)) for (let index = 0; index < exact.length; index++) visit(String(index), exact[index]);
  else for (const key of Object.keys(exact)) visit(key, (exact as Record<string, unknown>)[key]);
  if (recorded) literalsOf(target);
  return recorded;
}

function literalsOf(container: object): Map<string, NumberLiteral> {
  let literals = LITERALS.get(container);
  if (!literals) LITERALS.set(container, (literals = new Map()));
  return literals;
}

function classify(text: string, value: unknown): NumberLiteral | undefined {
  // A plain number (at most 15 digits, no exponent, a fraction not all zeros) is the float's own shortest form.
  if (typeof value !== 'number' || endOfPlainNumber(text, 0) === text.length) return undefined;
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
