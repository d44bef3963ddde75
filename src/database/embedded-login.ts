import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The password check of the embedded database's TCP port, in PostgreSQL's own protocol: the server asks for the
 * password in clear text (AuthenticationCleartextPassword), which every client sends when asked (`pg`, `psql`,
 * JDBC); on a loopback socket nobody but root sees it, and root can read the data directory anyway.
 */

/** The protocol version of a StartupMessage (3.0), after its length. */
const PROTOCOL_3 = 196_608;
const PASSWORD_MESSAGE = 0x70; // 'p'
const AUTHENTICATION = 0x52; // 'R'
const ERROR_RESPONSE = 0x45; // 'E'
/** AuthenticationCleartextPassword: 'R', length 8, code 3. */
export const PASSWORD_REQUEST = Buffer.from([AUTHENTICATION, 0, 0, 0, 8, 0, 0, 0, 3]);

/** A fresh password: 32 random bytes, URL-safe so it can stand in a connection URL as it is. */
export function newPassword(): string {
  return randomBytes(32).toString('base64url');
}

export function isStartupMessage(message: Uint8Array): boolean {
  return message.length >= 8 && Buffer.from(message.buffer, message.byteOffset, message.length).readInt32BE(4) === PROTOCOL_3;
}

/** The `user` a StartupMessage names (its parameters are NUL-terminated name, value pairs after the version). */
export function userOf(startup: Uint8Array): string {
  const fields = Buffer.from(startup.buffer, startup.byteOffset, startup.length).subarray(8).toString('utf8').split('\0');
  for (let index = 0; index + 1 < fields.length; index += 2) if (fields[index] === 'user') return fields[index + 1];
  return '';
}

/** Whether `message` is a PasswordMessage carrying `password` (compared in constant time). */
export function isPassword(message: Uint8Array, password: string): boolean {
  if (message[0] !== PASSWORD_MESSAGE || message.length < 6 || message[message.length - 1] !== 0) return false;
  const sent = Buffer.from(message.buffer, message.byteOffset + 5, message.length - 6);
  return timingSafeEqual(digest(sent), digest(Buffer.from(password, 'utf8')));
}

/** A FATAL ErrorResponse as PostgreSQL sends it before closing the connection. */
export function fatalError(code: string, text: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${text}\0\0`, 'utf8');
  const message = Buffer.alloc(5 + fields.length);
  message[0] = ERROR_RESPONSE;
  message.writeInt32BE(4 + fields.length, 1);
  fields.copy(message, 5);
  return message;
}

function digest(bytes: Buffer): Buffer {
  return createHash('sha256').update(bytes).digest();
}
