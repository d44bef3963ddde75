import { IsDefined, IsString } from 'class-validator';
import { Checks } from '../../common/checks';

export class TokenExchangeRequest {
  @Checks(
    IsDefined({ message: 'is required' }),
    IsString({ message: 'must be a string' }),
  )
  api_token: string;
}
