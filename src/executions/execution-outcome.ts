import { MAX_BODY_DEPTH } from '../common/json-body-parser';
import { nestsDeeperThan } from '../common/json-text';
import { DeliveryOutcome } from '../webhooks/delivery-outcome';
import { FinishedStatus } from './execution.entity';

/**
 * The longest `result` or `error` the delivery log keeps, in characters (Unicode code points): a longer text is
 * stored and listed cut there, ending with CUT_MARKER. The execute answer carries the receiver's text whole (its
 * body is at most 1 MB). See docs/decisions.md, "Executions".
 */
export const MAX_STORED_TEXT = 4_096;
export const CUT_MARKER = '…[truncated]';

export interface ExecutionVerdict {
  status: FinishedStatus;
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
      const result = answer.result === null ? null : wellFormedText(answer.result);
      if (answer.error !== '') return { status: 'failed', httpStatus: outcome.status, result, error: wellFormedText(answer.error) };
      return { status: 'succeeded', httpStatus: outcome.status, result, error: '' };
    }
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The receiver's `{result, error}` (spec 2.5); a missing field is empty, a field of another type is invalid, and
 * so is a body that is not UTF-8 (RFC 8259), rather than read with its bad bytes replaced.
 */
function parseAnswer(body: Buffer | undefined): { result: string | null; error: string } | undefined {
  let parsed: unknown;
  try {
    const text = body ? UTF8.decode(body) : '';
    // Nested as deep as a request body may be, at most: JSON.parse of a 1 MB answer 500,000 levels deep held the
    // event loop for 0.2 to 0.3 s, and a receiver is the tenant's own.
    if (nestsDeeperThan(text, MAX_BODY_DEPTH)) return undefined;
    parsed = JSON.parse(text);
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

/**
 * A receiver's text as it can be stored and read back unchanged: U+0000 (which PostgreSQL text cannot hold) and
 * unpaired surrogates (which UTF-8 cannot encode) become U+FFFD.
 */
function wellFormedText(text: string): string {
  return (text as string & { toWellFormed(): string }).toWellFormed().replaceAll('\u0000', '\uFFFD');
}

/** A (well-formed) text as the delivery log keeps it: past MAX_STORED_TEXT characters, cut. */
export function loggedText(clean: string): string {
  if (clean.length <= MAX_STORED_TEXT) return clean;
  let units = 0;
  for (let characters = 0; characters < MAX_STORED_TEXT && units < clean.length; characters++) {
    const code = clean.charCodeAt(units);
    units += code >= 0xd800 && code <= 0xdbff ? 2 : 1;
  }
  return units >= clean.length ? clean : `${clean.slice(0, units)}${CUT_MARKER}`;
}
