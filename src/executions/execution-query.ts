import { InvalidRequestError } from '../common/common.errors';
import { ExecutionStatus } from './execution.entity';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
export const STATUSES: readonly ExecutionStatus[] = ['succeeded', 'failed', 'pending', 'running'];
/** RFC 3339's date-time: a full date, a full time (fraction optional) and an offset (Z or ±hh:mm). */
const RFC_3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** A query parameter as Fastify gives it: absent, once, or repeated. */
export type QueryValue = string | string[] | undefined;

/** The query of an execution list, parsed: what to select and where to start. */
export interface ExecutionListQuery {
  limit: number;
  status?: ExecutionStatus;
  /** The action's name (tenant-wide list only). */
  action?: string;
  since?: Date;
  until?: Date;
  cursor?: string;
}

/**
 * `?limit=N` of an execution list: a positive integer, default 20. One answer holds at most 100 (the contract's
 * "at most 100"), so a larger N gives the newest 100.
 */
function parseExecutionLimit(raw: QueryValue): number {
  const text = once('limit', raw);
  if (text === undefined) return DEFAULT_LIMIT;
  const limit = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(limit >= 1)) throw new InvalidRequestError('limit: must be a positive integer');
  return Math.min(limit, MAX_LIMIT);
}

/** `?status=succeeded|failed|pending|running` of an execution list; absent: every status. */
function parseExecutionStatus(raw: QueryValue): ExecutionStatus | undefined {
  const text = once('status', raw);
  if (text === undefined) return undefined;
  if (!(STATUSES as readonly string[]).includes(text)) throw new InvalidRequestError('status: must be "succeeded", "failed", "pending" or "running"');
  return text as ExecutionStatus;
}

/**
 * An RFC 3339 date-time (`2026-11-27T10:00:00Z`, `2026-11-27T11:00:00.5+01:00`); absent: undefined. `inQuery`: it
 * came in a query string, where an offset's unencoded + has become a space, which the refusal then says.
 */
function parseDateTime(name: string, raw: QueryValue, inQuery = false): Date | undefined {
  const text = once(name, raw);
  if (text === undefined) return undefined;
  const match = RFC_3339.exec(text);
  const date = match ? new Date(text.toUpperCase()) : undefined;
  // Date.parse rolls 2026-02-30 over to March: a date that does not exist is refused, not moved.
  const exists =
    match && date && !Number.isNaN(date.getTime()) && Number(match[2]) <= 12 && Number(match[3]) <= daysIn(Number(match[1]), Number(match[2])) && Number(match[4]) < 24;
  if (!exists) {
    // In a query string a bare + is a space: `since=…T21:34:30+02:00` arrives as `…T21:34:30 02:00`.
    const plus = inQuery ? text.replace(/ (?=\d{2}:\d{2}$)/, '+') : text;
    if (plus !== text && RFC_3339.test(plus)) {
      throw new InvalidRequestError(`${name}: its offset's + arrived as a space (a + in a query string means a space): send it as %2B, ${name}=${plus.replace('+', '%2B')}`);
    }
    throw new InvalidRequestError(`${name}: must be an RFC 3339 date-time, like 2026-11-27T10:00:00Z`);
  }
  return date;
}

/**
 * Every filter of an execution list. Problems are named together, as the body validation does:
 * `status: ...; since: ...`. `action` is read only where the list is tenant-wide.
 */
export function parseExecutionListQuery(query: Record<string, QueryValue>, tenantWide: boolean): ExecutionListQuery {
  const problems: string[] = [];
  const read = <T>(parse: () => T): T | undefined => {
    try {
      return parse();
    } catch (error) {
      if (!(error instanceof InvalidRequestError)) throw error;
      problems.push(error.details ?? error.message);
      return undefined;
    }
  };
  const limit = read(() => parseExecutionLimit(query.limit)) ?? DEFAULT_LIMIT;
  const status = read(() => parseExecutionStatus(query.status));
  const since = read(() => parseDateTime('since', query.since, true));
  const until = read(() => parseDateTime('until', query.until, true));
  const action = tenantWide ? read(() => once('action', query.action)) : undefined;
  if (action !== undefined && !/^[a-z0-9_]{1,100}$/.test(action)) problems.push('action: must be an action name');
  const cursor = read(() => once('cursor', query.cursor));
  if (cursor === '') problems.push('cursor: must not be empty');
  if (since && until && since >= until) problems.push('until: must be later than since');
  if (problems.length > 0) throw new InvalidRequestError(problems.join('; '));
  return { limit, status, action, since, until, cursor };
}

function once(name: string, raw: QueryValue): string | undefined {
  if (Array.isArray(raw)) throw new InvalidRequestError(`${name}: must be given once`);
  return raw;
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The period of a bulk replay: `since` required and before `now` (the period ends at `until` or now, whichever is
 * earlier, so a `since` from now on would select nothing), `until` optional and later than `since`; each an RFC 3339
 * date-time. Every problem is named, as for the lists.
 */
export function parseReplayPeriod(body: { since: string; until?: string }, now: Date): { since: Date; until?: Date } {
  const problems: string[] = [];
  const read = (name: string, raw: string | undefined) => {
    try {
      return parseDateTime(name, raw);
    } catch (error) {
      if (!(error instanceof InvalidRequestError)) throw error;
      problems.push(error.details ?? error.message);
      return undefined;
    }
  };
  const since = read('since', body.since);
  const until = read('until', body.until);
  if (since && since >= now) problems.push('since: must be in the past');
  if (since && until && since >= until) problems.push('until: must be later than since');
  if (problems.length > 0) throw new InvalidRequestError(problems.join('; '));
  return { since: since!, until };
}
