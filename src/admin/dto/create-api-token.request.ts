import { IsDefined, IsISO8601, IsString, Length, ValidateIf } from 'class-validator';
import { Checks } from '../../common/checks';
import { HasNoNulCharacter } from '../../common/text.validators';

export class CreateApiTokenRequest {
  @Checks(
    IsDefined({ message: 'is required' }),
    IsString({ message: 'must be a string' }),
    Length(1, 200, { message: 'must be 1 to 200 characters' }),
    HasNoNulCharacter(),
  )
  name: string;

  @Checks(
    ValidateIf((_, value) => value !== undefined && value !== null),
    IsISO8601({ strict: true }, { message: 'must be an ISO 8601 date-time' }),
  )
  expires_at?: string | null;
}
