import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** An HMAC key as the management API shows it; `key` only in the response that created it. */
export class HmacKeyDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiPropertyOptional({ description: 'whsec_…: in the creation response only, never again' })
  key?: string;

  @ApiProperty({ description: 'The newest active key: it signs the body; every active key signs the header' })
  primary: boolean;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  revoked_at: string | null;
}
