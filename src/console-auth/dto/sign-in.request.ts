import { IsDefined, IsString, MaxLength } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import { Checks } from '../../common/checks';

/** POST /session: an operator trades the ADMIN_API_KEY for a session cookie. */
export class SignInRequest {
  @Checks(
    ApiProperty({ description: 'The ADMIN_API_KEY', maxLength: 1000 }),
    IsDefined({ message: 'is required' }),
    IsString({ message: 'must be a string' }),
    MaxLength(1000, { message: 'must be at most 1000 characters' }),
  )
  admin_api_key: string;
}
