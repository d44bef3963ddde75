import { IsDefined, IsString, MaxLength } from 'class-validator';

export class TokenExchangeRequest {
  @IsDefined({ message: 'is required' })
  @IsString({ message: 'must be a string' })
  @MaxLength(512, { message: 'must be at most 512 characters' })
  api_token: string;
}
