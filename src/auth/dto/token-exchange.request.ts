import { IsDefined, IsString, MaxLength } from 'class-validator';
import { Checks } from '../../common/checks';

export class TokenExchangeRequest {
  @Checks(
    IsDefined({ message: 'is required' }),
    IsString({ message: 'must be a string' }),
    MaxLength(512, { message: 'must be at most 512 characters' }),
  )
  api_token: string;
}
