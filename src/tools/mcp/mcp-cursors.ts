import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { isActionName } from '../../actions/action-name';
import { AppConfig } from '../../config/app-config';
import { TenantId } from '../../common/tenant-id';

/** Bytes of HMAC-SHA-256 a cursor carries: 128 bits, beyond guessing, 22 characters of base64url. */
const TAG_BYTES = 16;

/**
 * `tools/list` cursors: the last tool name of the page, and an HMAC over the tenant and that name, as one
 * base64url token. Only a cursor the server gave, for that tenant, reads back; the name keeps paging stable when
 * actions are created or deleted between pages. The key is derived (HKDF) from ENCRYPTION_KEY, which every
 * replica shares, so any replica reads any replica's cursor; the derivation keeps the two uses apart.
 */
@Injectable()
export class McpCursors {
  private readonly key: Buffer;

  constructor(config: AppConfig) {
    this.key = Buffer.from(hkdfSync('sha256', config.encryptionKey, Buffer.alloc(0), 'action-gateway mcp tools/list cursor', 32));
  }

  make(tenantId: TenantId, lastName: string): string {
    return Buffer.concat([Buffer.from(lastName, 'utf8'), this.tag(tenantId, lastName)]).toString('base64url');
  }

  /** The name a cursor continues after, or undefined when the server did not give this cursor to this tenant. */
  read(tenantId: TenantId, cursor: string): string | undefined {
    const bytes = Buffer.from(cursor, 'base64url');
    if (bytes.length <= TAG_BYTES || bytes.toString('base64url') !== cursor) return undefined;
    const name = bytes.subarray(0, bytes.length - TAG_BYTES).toString('utf8');
    if (!isActionName(name)) return undefined;
    return timingSafeEqual(bytes.subarray(bytes.length - TAG_BYTES), this.tag(tenantId, name)) ? name : undefined;
  }

  private tag(tenantId: TenantId, name: string): Buffer {
    // Tenant ids and action names hold no NUL, so the pair reads one way only.
    return createHmac('sha256', this.key).update(`${tenantId}\0${name}`, 'utf8').digest().subarray(0, TAG_BYTES);
  }
}
