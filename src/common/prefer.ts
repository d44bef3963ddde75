/**
 * Whether a request's `Prefer` header(s) (RFC 7240) ask for `respond-async`: preferences are separated by commas,
 * each a token (compared without regard to case) with an optional `=value` and `;`-parameters, and a request may
 * carry several Prefer headers. A preference that is not understood is ignored, as RFC 7240 asks.
 */
export function prefersRespondAsync(header: string | readonly string[] | undefined): boolean {
  const values = header === undefined ? [] : typeof header === 'string' ? [header] : header;
  return values.some((value) => value.split(',').some((preference) => preference.split(/[;=]/, 1)[0].trim().toLowerCase() === 'respond-async'));
}
