import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * What the service POSTs to a webhook URL (spec 2.4), for the OpenAPI description only: the body itself is built
 * by `buildWebhookBody`, keys in this order, compact, non-ASCII escaped as \uXXXX.
 */
export class WebhookCallDto {
  @ApiProperty({ example: 'get_weather' })
  action_name: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { city: 'Oslo' },
    description: 'The parameters of the execution, exactly as the caller sent them (integers keep every digit); {} in the registration test',
  })
  parameters: Record<string, unknown>;

  @ApiProperty({ type: 'integer', example: 1767225600, description: 'Unix time in whole seconds, the same as webhook-timestamp' })
  timestamp: number;

  @ApiPropertyOptional({ enum: [true], description: 'Present, and true, in the registration test only' })
  test?: true;

  @ApiPropertyOptional({
    pattern: '^[0-9a-f]{64}$',
    example: 'b2efa497c8ff756c12d0c2f52fc91d5928c55ecb4fe9a35bc0ba4f2fdeeda7cd',
    description:
      'Spec 5.3: lowercase hex HMAC-SHA256, keyed with the UTF-8 bytes of the tenant\'s newest HMAC key (whsec_ included), ' +
      'over the body without this field; always the last key. Absent from the registration test of a tenant without a key.',
  })
  signature?: string;
}
