import { RE2JS } from 're2js';

/** A pattern the linear-time engine cannot run with ECMAScript's meaning (lookaround, backreference, ...). */
export class UnsupportedPatternError extends Error {}

/** ECMAScript's `\s` (WhiteSpace and LineTerminator), written for the inside of an RE2 character class. */
const WHITESPACE = '\\t\\n\\v\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';
/** ECMAScript's `.` without the `s` flag: anything but a line terminator. */
const DOT = '[^\\n\\r\\x{2028}\\x{2029}]';
const SYNTAX = new Set('^$\\.*+?()[]{}|/-');

/**
 * A JSON Schema `pattern` (an ECMAScript regular expression, read in Unicode mode as Ajv does) compiled for RE2,
 * which matches in time linear in the input: no backtracking, so no pattern can make a check take minutes.
 * The translation keeps ECMAScript's meaning where the two dialects differ (`.`, `\s`, `\S`, `[\b]`, `[]`,
 * `[^]`, escapes); what RE2 cannot express (lookaround, backreferences, lone surrogates, `\S` inside a class,
 * repetition counts over 1000, some Unicode properties) throws UnsupportedPatternError. An invalid pattern throws
 * the SyntaxError ECMAScript gives.
 */
export function compileLinear(pattern: string, options: { ignoreCase?: boolean } = {}): RE2JS {
  new RegExp(pattern, 'u'); // the ECMAScript verdict on syntax, so both engines refuse the same patterns
  const translated = toRe2Syntax(pattern);
  try {
    return RE2JS.compile(translated, options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    throw new UnsupportedPatternError((error as Error).message);
  }
}

/** How many instructions the compiled pattern has: what a check costs per character grows with it. */
export function programSize(regexp: RE2JS): number {
  const program = (regexp as unknown as { re2Input?: { prog?: { numInst?: () => number } } }).re2Input?.prog;
  return typeof program?.numInst === 'function' ? program.numInst() : regexp.pattern().length;
}

/**
 * What checking one character costs, in SchemaCost's units: the program size plus a fixed part, since even a small
 * program may run on RE2's slower NFA (about 1 µs a character for ajv-formats' 11-instruction json-pointer).
 */
export function regexpWeight(regexp: RE2JS): number {
  return 64 + programSize(regexp);
}

/** ECMAScript (Unicode mode) syntax to RE2 syntax with the same meaning; see compileLinear. */
function toRe2Syntax(pattern: string): string {
  let out = '';
  let i = 0;
  let inClass = false;
  const unsupported = (what: string): never => {
    throw new UnsupportedPatternError(`${what} is not supported by the linear-time engine`);
  };
  while (i < pattern.length) {
    const char = pattern[i];
    if (char === '\\') {
      const [text, length] = escape(pattern, i, inClass, unsupported);
      out += text;
      i += length;
      continue;
    }
    const code = pattern.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdfff) {
      const low = pattern.charCodeAt(i + 1);
      if (code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
        out += pattern.slice(i, i + 2);
        i += 2;
        continue;
      }
      unsupported('a lone surrogate');
    }
    if (inClass) {
      if (char === ']') inClass = false;
      out += char === '[' ? '\\[' : char;
      i += 1;
      continue;
    }
    switch (char) {
      case '.':
        out += DOT;
        i += 1;
        break;
      case '[': {
        if (pattern.startsWith('[]', i)) {
          out += '[^\\x{0}-\\x{10FFFF}]';
          i += 2;
        } else if (pattern.startsWith('[^]', i)) {
          out += '[\\x{0}-\\x{10FFFF}]';
          i += 3;
        } else {
          inClass = true;
          const negated = pattern[i + 1] === '^';
          out += negated ? '[^' : '[';
          i += negated ? 2 : 1;
        }
        break;
      }
      case '(': {
        if (pattern.startsWith('(?=', i) || pattern.startsWith('(?!', i) || pattern.startsWith('(?<=', i) || pattern.startsWith('(?<!', i)) {
          unsupported('lookaround');
        }
        if (pattern.startsWith('(?<', i)) {
          out += '(?P<';
          i += 3;
        } else {
          out += char;
          i += 1;
        }
        break;
      }
      default:
        out += char;
        i += 1;
    }
  }
  return out;
}

/** One escape sequence at `start` as RE2 text, and how many characters of the pattern it took. */
function escape(pattern: string, start: number, inClass: boolean, unsupported: (what: string) => never): [string, number] {
  const next = pattern[start + 1];
  switch (next) {
    case 'd':
    case 'D':
    case 'w':
    case 'W':
    case 't':
    case 'n':
    case 'v':
    case 'f':
    case 'r':
      return [`\\${next}`, 2];
    case 'b':
      return [inClass ? '\\x{8}' : '\\b', 2];
    case 'B':
      // RE2's \B never matches an empty text, and V8's matches inside a surrogate pair: not the same meaning.
      return unsupported('\\B');
    case 's':
      return [inClass ? WHITESPACE : `[${WHITESPACE}]`, 2];
    case 'S':
      return inClass ? unsupported('\\S inside a character class') : [`[^${WHITESPACE}]`, 2];
    case '0':
      return ['\\x{0}', 2];
    case 'k':
      return unsupported('a backreference');
    case 'c':
      return [`\\x{${(pattern.charCodeAt(start + 2) % 32).toString(16)}}`, 3];
    case 'x':
      return [`\\x{${pattern.slice(start + 2, start + 4)}}`, 4];
    case 'u':
      return unicodeEscape(pattern, start, unsupported);
    case 'p':
    case 'P': {
      const end = pattern.indexOf('}', start);
      const name = pattern.slice(start + 3, end).replace(/^(?:General_Category|gc|Script|sc)=/, '');
      return [`\\${next}{${name}}`, end - start + 1];
    }
    default:
      if (next >= '1' && next <= '9') return unsupported('a backreference');
      if (SYNTAX.has(next)) return [`\\${next}`, 2];
      return unsupported(`the escape \\${next}`);
  }
}

/** `\uXXXX` (a surrogate pair of two such escapes is one character, as in Unicode mode) or `\u{X...}`. */
function unicodeEscape(pattern: string, start: number, unsupported: (what: string) => never): [string, number] {
  if (pattern[start + 2] === '{') {
    const end = pattern.indexOf('}', start);
    return [`\\x{${pattern.slice(start + 3, end)}}`, end - start + 1];
  }
  const unit = parseInt(pattern.slice(start + 2, start + 6), 16);
  if (unit >= 0xd800 && unit <= 0xdbff && /^\\u[dD][c-fC-F][0-9a-fA-F]{2}/.test(pattern.slice(start + 6, start + 12))) {
    const low = parseInt(pattern.slice(start + 8, start + 12), 16);
    const codePoint = (unit - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
    return [`\\x{${codePoint.toString(16)}}`, 12];
  }
  if (unit >= 0xd800 && unit <= 0xdfff) return unsupported('a lone surrogate');
  return [`\\x{${unit.toString(16)}}`, 6];
}
