// The service's own check of mistakes JSON Schema lets pass, so that the console says what the API says, word for
// word: a module with no imports, written to be shared (see its header).
import { MISTAKES_LISTED, schemaMistakes } from '../../../src/actions/schema/schema-mistakes';
import { draftOf, metaSchemaValidator } from './meta-schemas';
import { describeProblems, Problem } from './problems';

/**
 * What the service would refuse in an action's `json_schema`, found in the browser before sending: not JSON, not
 * an object, the mistakes JSON Schema lets pass (unknown keywords, `required` names no property defines, types that
 * do not exist: the service's words, and like the service, only those when there are any), a top-level `type`
 * other than "object", an unknown `$schema`, and what the draft's meta-schema finds. The service checks again (it
 * also compiles the schema); this only saves a round trip.
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
  const draft = draftOf(record);
  const problems: Problem[] = [];
  if ('type' in record && record.type !== 'object') problems.push({ path: '/type', keyword: 'type', message: 'must be "object" (parameters are an object)' });
  const mistakes = draft ? schemaMistakes(record, draft === '7' ? 'draft-07' : '2020-12') : [];
  if (mistakes.length > 0) {
    const listed: Problem[] = mistakes.slice(0, MISTAKES_LISTED).map(({ path, message }) => ({ path, keyword: 'mistake', message }));
    const more: Problem[] = mistakes.length > MISTAKES_LISTED ? [{ path: '', keyword: 'mistake', message: 'and more' }] : [];
    // A top-level type that is no type at all was named among the mistakes.
    return [...problems.filter(() => !listed.some((problem) => problem.path === '/type')), ...listed, ...more];
  }
  if (!draft) return [...problems, { path: '/$schema', keyword: '$schema', message: 'unsupported $schema (use draft 2020-12 or draft-07)' }];
  const found = describeProblems(metaSchemaValidator(draft).validate(record).errors);
  // A wrong top-level type was named above already, in this service's words.
  return [...problems, ...found.filter((problem) => !(problem.path === '/type' && problems.length > 0))];
}
