import { DeliveryOutcome } from '../webhooks/delivery-outcome';
import { ExecutionStatus } from './execution.entity';

export interface ExecutionVerdict {
  status: ExecutionStatus;
  httpStatus: number | null;
  result: string | null;
  error: string;
}

/**
 * What a delivery means (contract "Executions"): succeeded only on a 2xx whose JSON body has an empty `error`;
 * otherwise failed, with the receiver's own error text or the reason the call did not get that far.
 */
export function judge(outcome: DeliveryOutcome): ExecutionVerdict {
  switch (outcome.kind) {
    case 'timed_out':
      return failed(null, `webhook timed out after ${outcome.timeoutMs} ms`);
    case 'unreachable':
      return failed(null, `webhook endpoint unreachable (${outcome.reason})`);
    case 'body_too_large':
      return failed(outcome.status, 'invalid response body');
    case 'answered': {
      if (outcome.status < 200 || outcome.status >= 300) return failed(outcome.status, `webhook endpoint returned status ${outcome.status}`);
      const answer = parseAnswer(outcome.body);
      if (!answer) return failed(outcome.status, 'invalid response body');
      if (answer.error !== '') return { status: 'failed', httpStatus: outcome.status, result: answer.result, error: answer.error };
      return { status: 'succeeded', httpStatus: outcome.status, result: answer.result, error: '' };
    }
  }
}

/** The receiver's `{result, error}` (spec 2.5); a missing field is empty, a field of another type is invalid. */
function parseAnswer(body: Buffer | undefined): { result: string | null; error: string } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body?.toString('utf8') ?? '');
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const { result, error } = parsed as { result?: unknown; error?: unknown };
  if ((result !== undefined && result !== null && typeof result !== 'string') || (error !== undefined && error !== null && typeof error !== 'string')) {
    return undefined;
  }
  return { result: result ?? null, error: error ?? '' };
}

function failed(httpStatus: number | null, error: string): ExecutionVerdict {
  return { status: 'failed', httpStatus, result: null, error };
}
