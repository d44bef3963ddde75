import { IsObject, ValidateIf } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import { BodyOptional, RefusesUnknownFields, shownName } from '../../common/body-validation.pipe';
import { Checks } from '../../common/checks';

/** How many of the misplaced fields the suggested body shows. */
const SUGGESTED_FIELDS = 3;

/**
 * `{"city":"Oslo"}` meant as parameters: what the body should have been, with the caller's own field names. When
 * `parameters` is there too, only where the fields belong.
 */
function parametersHint(unknown: string[], body: Record<string, unknown>): string {
  if ('parameters' in body) return 'the action\'s parameters go inside "parameters"';
  const shown = unknown.slice(0, SUGGESTED_FIELDS).map((name) => `${JSON.stringify(shownName(name))}: …`);
  const rest = unknown.length > SUGGESTED_FIELDS ? ', …' : '';
  return `the action's parameters go inside "parameters": {"parameters": {${shown.join(', ')}${rest}}}`;
}

/**
 * POST /actions/{name}/execute: `parameters` defaults to {}, when left out or null (Python's `None`), and so does a
 * request with no body at all. Any other field is refused (400 naming it): a call with its parameters at the top
 * level would otherwise run the action, for real, with {} (docs/decisions.md, "Executions").
 */
@BodyOptional()
@RefusesUnknownFields(parametersHint)
export class ExecuteActionRequest {
  @Checks(
    ApiProperty({ required: false, type: Object, additionalProperties: true, example: { city: 'Oslo' }, nullable: true, description: 'Checked against the action\'s json_schema; left out or null: {}' }),
    ValidateIf((_, value) => value !== undefined && value !== null), IsObject({ message: 'must be a JSON object' }))
  parameters?: Record<string, unknown> | null;
}
