import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** An API token as the management API shows it; `token` only in the response that created it. */
export class ApiTokenDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'deploy bot' })
  name: string;

  @ApiProperty({ example: 'agw_Xq3vT9aB' })
  prefix: string;

  @ApiPropertyOptional({ description: 'The token itself: in the creation response only, never again' })
  token?: string;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  expires_at: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  last_used_at: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  revoked_at: string | null;
}
