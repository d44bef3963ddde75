import { ApiProperty } from '@nestjs/swagger';

/** Spec 2.3. */
export class TokenExchangeResponse {
  @ApiProperty({ description: 'The bearer token (a JWT)' })
  jwt_token: string;

  @ApiProperty({ enum: ['Bearer'] })
  token_type: 'Bearer';

  @ApiProperty({ type: 'integer', example: 86400, description: 'Lifetime in seconds: always 86400 (24 hours)' })
  expires_in: number;
}
