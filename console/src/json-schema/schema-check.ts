import { draftOf, metaSchemaValidator } from './meta-schemas';
import { describeProblems, Problem } from './problems';

/**
 * What the service would refuse in an action's `json_schema`, found in the browser before sending: not JSON, not
 * an object, a top-level `type` other than "object", an unknown `$schema`, and what the draft's meta-schema finds.
 * The service checks again (it also compiles the schema); this only saves a round trip.
 */
export function schemaProblems(text: string): Problem[] {
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    return [{ path: '', keyword: 'json', message: `not valid JSON: ${(error as Error).message}` }];
  }
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return [{ path: '', keyword: 'type', message: 'must be a JSON object' }];
  const record = schema as Record<string, unknown>;
  const problems: Problem[] = [];
  if ('type' in record && record.type !== 'object') problems.push({ path: '/type', keyword: 'type', message: 'must be "object" (parameters are an object)' });
  const draft = draftOf(record);
  if (!draft) return [...problems, { path: '/$schema', keyword: '$schema', message: 'unsupported $schema (use draft 2020-12 or draft-07)' }];
  const found = describeProblems(metaSchemaValidator(draft).validate(record).errors);
  // A wrong top-level type was named above already, in this service's words.
  return [...problems, ...found.filter((problem) => !(problem.path === '/type' && problems.length > 0))];
}
