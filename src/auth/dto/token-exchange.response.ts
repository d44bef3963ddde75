import { ApiProperty } from '@nestjs/swagger';

/** Spec 2.3. */
export class TokenExchangeResponse {
  @ApiProperty({ description: 'The bearer token (a JWT)' })
  jwt_token: string;

  @ApiProperty({ enum: ['Bearer'] })
  token_type: 'Bearer';

  @ApiProperty({ example: 86400 })
  expires_in: number;
}
