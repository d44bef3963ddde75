import { IsDefined, IsString } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import { Checks } from '../../common/checks';

export class TokenExchangeRequest {
  @Checks(
    ApiProperty({ example: 'agw_Xq3vT9aB…', description: 'The long-lived API token from the admin panel' }),
    IsDefined({ message: 'is required' }),
    IsString({ message: 'must be a string' }),
  )
  api_token: string;
}
