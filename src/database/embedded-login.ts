import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Socket } from 'node:net';

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
const PASSWORD_REQUEST = Buffer.from([AUTHENTICATION, 0, 0, 0, 8, 0, 0, 0, 3]);

/** The most a TCP client may send before its password is accepted (PostgreSQL allows a 10,000-byte start-up). */
const MAX_LOGIN_BYTES = 16_384;

/**
 * A TCP client's login, from its first byte until its password is right, or until it is refused and cut off:
 * a wrong password, anything but a StartupMessage then a PasswordMessage, more than MAX_LOGIN_BYTES before the
 * password (rather than have pglite-socket's handler buffer whatever length a message claims), or no login
 * within the time allowed. A refused client gets PostgreSQL's FATAL error, then its socket is closed, and
 * nothing it sends afterwards is read.
 */
export class TcpLogin {
  private startup?: Uint8Array;
  private received = 0;
  private refused = false;
  private readonly deadline: NodeJS.Timeout;

  constructor(
    private readonly socket: Socket,
    private readonly password: string,
    timeoutMs: number,
  ) {
    this.deadline = setTimeout(() => socket.destroy(), timeoutMs).unref();
    socket.on('data', this.count);
  }

  /**
   * One message of the client's, read before it is logged in: what to answer, and the StartupMessage for PGlite
   * once the password is right (the login is then over).
   */
  receive(message: Uint8Array): { answer?: Buffer; admitted?: Uint8Array } {
    if (this.refused) return {};
    if (!this.startup && isStartupMessage(message)) {
      this.startup = message;
      return { answer: PASSWORD_REQUEST };
    }
    if (this.startup && isPassword(message, this.password)) {
      this.end();
      return { admitted: this.startup };
    }
    this.refused = true;
    const answer = this.startup
      ? fatalError('28P01', `password authentication failed for user "${userOf(this.startup)}"`)
      : fatalError('08P01', 'expected a startup message');
    // Closed once the error has gone out; whatever the client sends meanwhile is dropped above.
    setImmediate(() => closeAfterWriting(this.socket));
    return { answer };
  }

  /** The login is over (admitted, or the connection is gone): no more counting, no deadline. */
  end(): void {
    clearTimeout(this.deadline);
    this.socket.off('data', this.count);
  }

  private readonly count = (chunk: Buffer): void => {
    this.received += chunk.length;
    if (this.received > MAX_LOGIN_BYTES) this.socket.destroy();
  };
}

/** Ends `socket` after what was written to it has gone out, and destroys it then, whatever the peer does. */
export function closeAfterWriting(socket: Socket, last?: Buffer): void {
  socket.end(last ?? Buffer.alloc(0), () => socket.destroy());
}

/** A fresh password: 32 random bytes, URL-safe so it can stand in a connection URL as it is. */
export function newPassword(): string {
  return randomBytes(32).toString('base64url');
}

function isStartupMessage(message: Uint8Array): boolean {
  return message.length >= 8 && Buffer.from(message.buffer, message.byteOffset, message.length).readInt32BE(4) === PROTOCOL_3;
}

/** The `user` a StartupMessage names (its parameters are NUL-terminated name, value pairs after the version). */
function userOf(startup: Uint8Array): string {
  const fields = Buffer.from(startup.buffer, startup.byteOffset, startup.length).subarray(8).toString('utf8').split('\0');
  for (let index = 0; index + 1 < fields.length; index += 2) if (fields[index] === 'user') return fields[index + 1];
  return '';
}

/** Whether `message` is a PasswordMessage carrying `password` (compared in constant time). */
function isPassword(message: Uint8Array, password: string): boolean {
  if (message[0] !== PASSWORD_MESSAGE || message.length < 6 || message[message.length - 1] !== 0) return false;
  const sent = Buffer.from(message.buffer, message.byteOffset + 5, message.length - 6);
  return timingSafeEqual(digest(sent), digest(Buffer.from(password, 'utf8')));
}

/** A FATAL ErrorResponse as PostgreSQL sends it before closing the connection. */
export function fatalError(code: string, text: string): Buffer {
  return protocolMessage(ERROR_RESPONSE, Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${text}\0\0`, 'utf8'));
}

/** A protocol message: its type, its length, its body. */
export function protocolMessage(type: number, body: Buffer): Buffer {
  const message = Buffer.alloc(5 + body.length);
  message[0] = type;
  message.writeInt32BE(4 + body.length, 1);
  body.copy(message, 5);
  return message;
}

function digest(bytes: Buffer): Buffer {
  return createHash('sha256').update(bytes).digest();
}
