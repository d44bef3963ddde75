import { NumberLiteral, numberLiterals } from '../common/json-numbers';

/**
 * Serializes a JSON value exactly as Python's `json.dumps(value, separators=(",", ":"))` re-serializes it after
 * `json.loads`: keys in insertion order, every character outside printable ASCII escaped as \uXXXX (lowercase
 * hex, UTF-16 units, so lone surrogates survive), integers written out in full and fractions in Python's float
 * repr. A receiver that re-serializes in Python therefore reproduces the signed bytes for any parameters.
 *
 * An integer the caller sent with more digits than a JavaScript number holds (recorded by json-numbers.ts when
 * the body was read) is written with the caller's digits, so it reaches the receiver unchanged.
 */
export function canonicalJson(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return formatNumber(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      const literals = numberLiterals(value);
      if (Array.isArray(value)) return `[${value.map((item, index) => member(item, literals?.get(String(index)))).join(',')}]`;
      return `{${Object.entries(value as Record<string, unknown>)
        .filter(([, item]) => item !== undefined)
        .map(([key, item]) => `${quote(key)}:${member(item, literals?.get(key))}`)
        .join(',')}}`;
    }
    default:
      throw new TypeError(`cannot serialize a ${typeof value} as JSON`);
  }
}

/** A member, as the caller wrote it when its literal was recorded and the value is still the one read then. */
function member(item: unknown, literal: NumberLiteral | undefined): string {
  return literal?.forward !== undefined && literal.value === item ? literal.forward : canonicalJson(item);
}

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};

// Python's ESCAPE_ASCII: anything that is not a printable ASCII character, plus the quote and backslash.
const NEEDS_ESCAPE = /[^ -~]|["\\]/g;

function quote(text: string): string {
  return `"${text.replace(NEEDS_ESCAPE, (char) => SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) throw new TypeError('cannot serialize a non-finite number as JSON');
  // An integral value is an int to Python (it has no '.' or exponent), which it prints in full. Its digits are
  // those of the number's shortest form (1e+23 is 1 and 23 zeros, as a caller who wrote 1e23 meant), not of the
  // binary float's exact value (99999999999999991611392).
  if (Number.isInteger(value)) return integerDigits(value);
  return pythonFloatRepr(value);
}

function integerDigits(value: number): string {
  const text = String(value); // plain digits below 1e21, else "d.ddde+NN"
  const match = /^(-?)(\d)(?:\.(\d+))?e\+(\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, first, rest = '', exponent] = match;
  return `${sign}${first}${rest}${'0'.repeat(Number(exponent) - rest.length)}`;
}

/** Python's repr(float): shortest round-trip digits, scientific below 1e-4 (fractions are never >= 1e16). */
function pythonFloatRepr(value: number): string {
  const [mantissa, exponentText] = value.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent < -4) {
    const sign = exponent < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return String(value);
}
