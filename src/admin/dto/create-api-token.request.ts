import { IsDefined, IsRFC3339, IsString, ValidateIf } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import { Checks } from '../../common/checks';
import { CodePointLength, IsNotBlank, IsStorableText } from '../../common/text.validators';

export class CreateApiTokenRequest {
  @Checks(
    ApiProperty({ example: 'deploy bot', minLength: 1, maxLength: 200, pattern: '\\S' }),
    IsDefined({ message: 'is required' }),
    IsString({ message: 'must be a string' }),
    CodePointLength(1, 200),
    IsNotBlank(),
    IsStorableText(),
  )
  name: string;

  @Checks(
    ApiProperty({
      required: false,
      type: 'string',
      format: 'date-time',
      nullable: true,
      example: '2027-01-31T00:00:00Z',
      description: 'When the token stops working: an RFC 3339 date-time in the future (400 otherwise); null or absent: never',
    }),
    ValidateIf((_, value) => value !== undefined && value !== null),
    IsRFC3339({ message: 'must be an ISO 8601 date-time' }),
  )
  expires_at?: string | null;
}
