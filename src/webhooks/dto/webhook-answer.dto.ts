import { ApiProperty } from '@nestjs/swagger';

/** What a receiver answers to an execution (spec 2.5), for the OpenAPI description only. */
export class WebhookAnswerDto {
  @ApiProperty({ example: 'Weather in Oslo: sunny, 21 °C', description: 'Text describing the outcome' })
  result: string;

  @ApiProperty({ example: '', description: 'Why the action failed; the empty string on success' })
  error: string;
}
