const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Path ids are checked before they reach a uuid column, so a malformed one is a 404, not a database error. */
export const isUuid = (value: string): boolean => UUID.test(value);
