import type { core, ZodType } from 'zod';

/** At most this many problems in one `Invalid params` message: enough to fix a request, short enough to read. */
const MAX_PROBLEMS = 3;

const NOUNS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  record: 'an object',
  array: 'an array',
};

/**
 * Why a JSON-RPC request's params are not the protocol's shape for its method, checked against the SDK's own
 * request schema (what its handlers would parse): `params.cursor: must be a string; …`, or undefined when they
 * are. The paths are the schema's own keys, so nothing of the request is echoed; the schema library's report
 * (a JSON dump of its issues) never reaches the client.
 */
export function paramsProblem(schema: ZodType, request: unknown): string | undefined {
  const parsed = schema.safeParse(request);
  if (parsed.success) return undefined;
  const problems = new Map<string, string>();
  for (const issue of parsed.error.issues) {
    const path = issue.path.map(String).join('.');
    // A value may fail several ways (an object and a record); the first says enough.
    if (!problems.has(path)) problems.set(path, problemOf(issue, valueAt(request, issue.path)));
    if (problems.size === MAX_PROBLEMS) break;
  }
  return [...problems].map(([path, problem]) => `${path}: ${problem}`).join('; ');
}

function problemOf(issue: core.$ZodIssue, value: unknown): string {
  if (value === undefined) return 'is required';
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${NOUNS[issue.expected] ?? issue.expected}`;
    case 'invalid_union': {
      // A choice of types (a progress token is a string or a number): name them; anything else is just invalid.
      const types = issue.errors.map(([only, ...more]) =>
        more.length === 0 && only?.code === 'invalid_type' && only.path.length === 0 ? NOUNS[only.expected] : undefined,
      );
      return types.length > 0 && types.every(Boolean) ? `must be ${types.join(' or ')}` : 'is invalid';
    }
    case 'invalid_value':
      return `must be one of ${issue.values.map((allowed) => JSON.stringify(allowed)).join(', ')}`;
    default:
      return 'is invalid';
  }
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
