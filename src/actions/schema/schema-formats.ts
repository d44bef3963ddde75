import type { Format } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats';
import type { RE2JS } from 're2js';
import { compileLinear, regexpWeight } from './linear-regexp';

/**
 * Formats with no linear-time check: ajv-formats' `url` expression backtracks quadratically (128 KB of `::`
 * takes 11 s). A schema that uses one is only ever checked off the event loop, under a deadline.
 */
export const FORMATS_WITHOUT_LINEAR_CHECK: ReadonlySet<string> = new Set(['url']);

/** ajv-formats' `hostname` is 253 characters at most (a trailing dot aside): its lookahead says so. */
const MAX_HOSTNAME = 254;
/** What a check by a hand-written format function costs per character, in the units of SchemaCost. */
const FUNCTION_FORMAT_WEIGHT = 64;

interface LinearFormats {
  formats: Record<string, Format>;
  /** Per format, how much a check costs per character of the string (an RE2 program's size, or a constant). */
  weights: Record<string, number>;
}

let built: LinearFormats | undefined;

/**
 * ajv-formats' full formats, each with a cost linear in the string it checks. The regular expressions run on RE2
 * (compileLinear). The rest keep ajv-formats' own code: the date and time functions, `uri`, `byte` and `regex`
 * use anchored expressions with no ambiguous repetition (test/isolation and schema-formats.spec check them on
 * long hostile strings), `duration`'s lookaheads are a fixed prefix, and `hostname`'s lookahead is a length cap,
 * applied first. `url` stays as it is and is listed in FORMATS_WITHOUT_LINEAR_CHECK.
 */
export function linearFormats(): LinearFormats {
  if (built) return built;
  const formats: Record<string, Format> = {};
  const weights: Record<string, number> = {};
  for (const [name, format] of Object.entries(fullFormats) as Array<[string, Format]>) {
    weights[name] = FUNCTION_FORMAT_WEIGHT;
    formats[name] = format;
    if (!(format instanceof RegExp) || FORMATS_WITHOUT_LINEAR_CHECK.has(name)) continue;
    if (name === 'hostname') {
      formats[name] = (text: string) => text.length <= MAX_HOSTNAME && format.test(text);
      continue;
    }
    const linear = linearVersion(format);
    if (!linear) continue;
    formats[name] = (text: string) => linear.test(text);
    weights[name] = regexpWeight(linear);
  }
  built = { formats, weights };
  return built;
}

/** The RE2 version of one of ajv-formats' expressions, or undefined when RE2 cannot say the same thing. */
function linearVersion(format: RegExp): RE2JS | undefined {
  try {
    return compileLinear(format.source, { ignoreCase: format.flags.includes('i') });
  } catch {
    return undefined;
  }
}
