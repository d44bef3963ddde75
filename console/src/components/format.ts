const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });

export function formatTime(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : '—';
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/**
 * An id short enough for a table: its last 8 hex digits, which are random. (Ids are UUID v7: the first digits
 * are the time, the same for records made within a minute of each other, such as the keys of one rotation.)
 */
export function shortId(id: string): string {
  return id.slice(-8);
}

const clock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', fractionalSecondDigits: 3 });

/** A time of day to the millisecond: attempts of one execution are often within a second of each other. */
export function formatClock(iso: string): string {
  return clock.format(new Date(iso));
}
