import { keysAsWritten } from '../common/json-key-order';
import { arrayLiterals, NumberLiteral, objectLiterals } from '../common/json-numbers';

/**
 * Serializes a JSON value exactly as Python's `json.dumps(value, separators=(",", ":"))` re-serializes it after
 * `json.loads`: keys in the order the caller wrote them (integer-like ones too: json-key-order.ts), every
 * character outside printable ASCII escaped as \uXXXX (lowercase hex, UTF-16 units, so lone surrogates survive),
 * integers written out in full and fractions in Python's float repr. A receiver that re-serializes in Python
 * therefore reproduces the signed bytes for any parameters.
 *
 * What json-numbers.ts recorded when the body was read keeps what a JavaScript number loses: an integer the
 * caller sent with more digits than it holds is written with the caller's digits, and an integral value the
 * caller wrote as a fraction or an exponent (`1.0`, `1e23`) as the float Python reads in it (`1.0`, `1e+23`).
 * So a receiver in Python reads the value and the type the caller wrote.
 */
export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  write(value, parts);
  return parts.join('');
}

/** Appends `value`'s serialization to `parts` (one join at the end, rather than one per object and array). */
function write(value: unknown, parts: string[]): void {
  switch (typeof value) {
    case 'string':
      parts.push(quote(value));
      return;
    case 'number':
      parts.push(formatNumber(value));
      return;
    case 'boolean':
      parts.push(value ? 'true' : 'false');
      return;
    case 'object': {
      if (value === null) {
        parts.push('null');
        return;
      }
      if (Array.isArray(value)) {
        const literals = arrayLiterals(value);
        parts.push('[');
        for (let index = 0; index < value.length; index++) {
          if (index > 0) parts.push(',');
          writeMember(value[index], literals?.[index], parts);
        }
        parts.push(']');
        return;
      }
      const object = value as Record<string, unknown>;
      const literals = objectLiterals(object);
      let first = true;
      parts.push('{');
      for (const key of keysAsWritten(object)) {
        const item = object[key];
        if (item === undefined) continue;
        parts.push(first ? `${quote(key)}:` : `,${quote(key)}:`);
        first = false;
        writeMember(item, literals?.get(key), parts);
      }
      parts.push('}');
      return;
    }
    default:
      throw new TypeError(`cannot serialize a ${typeof value} as JSON`);
  }
}

/** A member, as the caller wrote it when its literal was recorded and the value is still the one read then. */
function writeMember(item: unknown, literal: NumberLiteral | undefined, parts: string[]): void {
  if (literal === undefined || literal.value !== item) write(item, parts);
  else if (literal.forward !== undefined) parts.push(literal.forward);
  else if (literal.float) parts.push(pythonFloatRepr(item as number));
  else write(item, parts);
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

const ANY_ESCAPE = /[^ -~]|["\\]/;

function quote(text: string): string {
  if (!ANY_ESCAPE.test(text)) return `"${text}"`;
  return `"${text.replace(NEEDS_ESCAPE, (char) => SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) throw new TypeError('cannot serialize a non-finite number as JSON');
  // An integral value with no recorded literal is an int (a caller's float is recorded: member()), which Python
  // prints in full. Its digits are those of the number's shortest form, not of the binary float's exact value
  // (99999999999999991611392 for 1e+23).
  if (Number.isInteger(value)) return integerDigits(value);
  return pythonFloatRepr(value);
}

function integerDigits(value: number): string {
  const text = String(value); // plain digits below 1e21, else "d.ddde+NN"
  if (value < 1e21 && value > -1e21) return text;
  const match = /^(-?)(\d)(?:\.(\d+))?e\+(\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, first, rest = '', exponent] = match;
  return `${sign}${first}${rest}${'0'.repeat(Number(exponent) - rest.length)}`;
}

/**
 * Python's repr(float): the shortest round-trip digits, in scientific notation below 1e-4 and from 1e16 up (with a
 * two-digit exponent at least), else in fixed notation with at least one decimal (`1.0`, `-0.0`).
 */
function pythonFloatRepr(value: number): string {
  // Between 1e-4 and 1e16 both languages write the same shortest digits in fixed notation, Python with a `.0`
  // on integral values: the common case, with no exponent to take apart.
  const magnitude = Math.abs(value);
  if (magnitude >= 1e-4 && magnitude < 1e16) return Number.isInteger(value) ? `${String(value)}.0` : String(value);
  if (Object.is(value, -0)) return '-0.0';
  const [mantissa, exponentText] = value.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) {
    const sign = exponent < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  const fixed = String(value);
  return Number.isInteger(value) ? `${fixed}.0` : fixed;
}
