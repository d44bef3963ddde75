import { IsDefined, IsRFC3339, IsString, ValidateIf } from 'class-validator';
import { Checks } from '../../common/checks';
import { CodePointLength, IsStorableText } from '../../common/text.validators';

export class CreateApiTokenRequest {
  @Checks(
    IsDefined({ message: 'is required' }),
    IsString({ message: 'must be a string' }),
    CodePointLength(1, 200),
    IsStorableText(),
  )
  name: string;

  @Checks(
    ValidateIf((_, value) => value !== undefined && value !== null),
    IsRFC3339({ message: 'must be an ISO 8601 date-time' }),
  )
  expires_at?: string | null;
}
