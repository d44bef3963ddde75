import { ApiProperty } from '@nestjs/swagger';
import { CircuitView } from '../../webhooks/circuit-breakers';

/** An action's circuit breaker as the replica answering sees it: kept apart from the Action, whose fields the spec fixes. */
class CircuitDto {
  @ApiProperty({
    enum: ['closed', 'open', 'half_open'],
    description: 'closed: calls go out; open: executions fail at once, nothing sent, until retry_at; half_open: one probe call is under way, other executions fail at once',
  })
  state: 'closed' | 'open' | 'half_open';

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the circuit took this state; null: closed, and not seen failing by this replica since it started' })
  since: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'While open: when the next execution is let through as the probe' })
  retry_at: string | null;

  @ApiProperty({ minimum: 0, description: 'Failed executions in a row (connection failures, timeouts, 429/5xx after the retries); WEBHOOK_BREAKER_FAILURES of them open the circuit' })
  consecutive_failures: number;
}

export class CircuitResponse {
  @ApiProperty({ type: CircuitDto })
  circuit: CircuitDto;
}

export function circuitBody(view: CircuitView): CircuitResponse {
  return {
    circuit: {
      state: view.state,
      since: view.since?.toISOString() ?? null,
      retry_at: view.retryAt?.toISOString() ?? null,
      consecutive_failures: view.consecutiveFailures,
    },
  };
}
