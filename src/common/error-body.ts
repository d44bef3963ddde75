import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The JSON body of every error response (spec 2.6). */
export class ErrorBody {
  @ApiProperty({ example: 'Invalid request' })
  error: string;

  @ApiPropertyOptional({ example: 'name: must match ^[a-z0-9_]+$ (lowercase letters, digits and underscores)' })
  details?: string;
}
