import { IsObject, ValidateIf } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import { BodyOptional } from '../../common/body-validation.pipe';
import { Checks } from '../../common/checks';

/**
 * POST /actions/{name}/execute: `parameters` defaults to {}, when left out or null (Python's `None`), and so does a
 * request with no body at all.
 */
@BodyOptional()
export class ExecuteActionRequest {
  @Checks(
    ApiProperty({ required: false, type: Object, additionalProperties: true, example: { city: 'Oslo' }, nullable: true, description: 'Checked against the action\'s json_schema; left out or null: {}' }),
    ValidateIf((_, value) => value !== undefined && value !== null), IsObject({ message: 'must be a JSON object' }))
  parameters?: Record<string, unknown> | null;
}
