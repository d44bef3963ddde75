import { ApiProperty } from '@nestjs/swagger';
import { TenantStatus } from './tenant.entity';

/** A tenant as the management API shows it. */
export class TenantDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'Acme' })
  name: string;

  @ApiProperty({ enum: ['active', 'disabled'] })
  status: TenantStatus;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}
