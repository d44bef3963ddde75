import type { OutputUnit } from '@cfworker/json-schema';

/** One thing wrong with a value, where it is (a JSON Pointer, '' for the whole value) and what. */
export interface Problem {
  path: string;
  keyword: string;
  message: string;
  /** For `required`: the missing property. */
  missingProperty?: string;
}

// Keywords that only say "something below failed": the leaf below them says what.
const WRAPPERS = new Set([
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'dependentSchemas',
  'propertyNames',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  'contains',
]);

/**
 * The validator's output (@cfworker/json-schema) as short messages in Ajv's words, as the service words them:
 * leaf failures only, and one per place (the first), so a value that fails two branches of an `anyOf` reads as
 * one problem.
 */
export function describeProblems(units: readonly OutputUnit[]): Problem[] {
  const seen = new Set<string>();
  const problems: Problem[] = [];
  for (const unit of units) {
    if (WRAPPERS.has(unit.keyword)) continue;
    const problem = describe(unit);
    const place = `${problem.path}\0${problem.missingProperty ?? ''}`;
    if (seen.has(place)) continue;
    seen.add(place);
    problems.push(problem);
  }
  return problems;
}

function describe(unit: OutputUnit): Problem {
  const path = unit.instanceLocation.replace(/^#/, '');
  const quoted = [...unit.error.matchAll(/"([^"]*)"/g)].map((match) => match[1]);
  switch (unit.keyword) {
    case 'type': {
      const expected = quoted.slice(1);
      return { path, keyword: 'type', message: `must be ${expected.join(' or ')}` };
    }
    case 'required': {
      const missingProperty = quoted[0] ?? '';
      return { path, keyword: 'required', message: `must have required property '${missingProperty}'`, missingProperty };
    }
    case 'enum': {
      const allowed = /any of (\[.*\])\.?$/.exec(unit.error)?.[1];
      return { path, keyword: 'enum', message: allowed ? `must be one of ${allowed.slice(1, -1).replace(/,/g, ', ')}` : 'must be equal to one of the allowed values' };
    }
    case 'const':
      return { path, keyword: 'const', message: 'must be equal to constant' };
    default:
      return { path, keyword: unit.keyword, message: unit.error.replace(/^Instance /, 'value ') };
  }
}
