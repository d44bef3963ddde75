import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';

/** Bytes of HMAC-SHA-256 a cursor carries: 128 bits, beyond guessing, 22 characters of base64url. */
const TAG_BYTES = 16;
/** The longest cursor read at all: a page position is a few keys, never kilobytes. */
const MAX_CURSOR_LENGTH = 1024;

/** Where the next page of a list starts: the sort key of the last item given, as strings. */
export type PagePosition = readonly string[];

/**
 * Opaque, tamper-proof cursors for every paged list (the management API's lists, the execution log, MCP's
 * `tools/list`): the position after which the next page starts, and an HMAC over the list's name, the scope it
 * was given to (a tenant id, or `operator`) and that position, as one base64url token. Only a cursor the server
 * gave, for that list and that scope, reads back: a made-up, edited or another tenant's cursor is undefined, and
 * the caller answers it as an invalid request. A position (not an offset) keeps paging stable while the list
 * changes between pages: nothing is repeated or skipped because something was added or removed before it.
 *
 * The key is derived (HKDF) from ENCRYPTION_KEY, which every replica shares, so any replica reads any replica's
 * cursor; the derivation keeps this use apart from the others of that key.
 */
@Injectable()
export class PageCursors {
  private readonly key: Buffer;

  constructor(config: AppConfig) {
    this.key = Buffer.from(hkdfSync('sha256', config.encryptionKey, Buffer.alloc(0), 'action-gateway page cursor', 32));
  }

  make(list: string, scope: string, position: PagePosition): string {
    const payload = Buffer.from(JSON.stringify(position), 'utf8');
    return Buffer.concat([payload, this.tag(list, scope, payload)]).toString('base64url');
  }

  /** The position a cursor continues after, or undefined when the server did not give this cursor for this list and scope. */
  read(list: string, scope: string, cursor: string): PagePosition | undefined {
    if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH) return undefined;
    const bytes = Buffer.from(cursor, 'base64url');
    // Base64url reads past characters it does not know; only the exact spelling the server wrote is accepted.
    if (bytes.length <= TAG_BYTES || bytes.toString('base64url') !== cursor) return undefined;
    const payload = bytes.subarray(0, bytes.length - TAG_BYTES);
    if (!timingSafeEqual(bytes.subarray(bytes.length - TAG_BYTES), this.tag(list, scope, payload))) return undefined;
    const position: unknown = JSON.parse(payload.toString('utf8'));
    return Array.isArray(position) && position.every((part) => typeof part === 'string') ? position : undefined;
  }

  private tag(list: string, scope: string, payload: Buffer): Buffer {
    // Lists are names in the code and scopes are ids or `operator`: neither holds a NUL, so the triple reads one way only.
    return createHmac('sha256', this.key).update(`${list}\0${scope}\0`, 'utf8').update(payload).digest().subarray(0, TAG_BYTES);
  }
}
