import { IsObject, ValidateIf } from 'class-validator';
import { Checks } from '../../common/checks';

/** POST /actions/{name}/execute: `parameters` defaults to {}. */
export class ExecuteActionRequest {
  @Checks(ValidateIf((_, value) => value !== undefined), IsObject({ message: 'must be a JSON object' }))
  parameters?: Record<string, unknown>;
}
