const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Path ids are checked before they reach a uuid column, so a malformed one is a 404, not a database error. */
export const isUuid = (value: string): boolean => UUID.test(value);

/** The milliseconds since 1970 a UUID v7 carries (its first 48 bits, RFC 9562), or undefined for any other version. */
export function uuidV7Time(id: string): number | undefined {
  if (!isUuid(id) || id[14] !== '7') return undefined;
  return Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}
