import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';

interface Entry {
  tenantId: string;
  valid: boolean;
  expiresAt: number | null;
  checkedUntil: number;
}

/**
 * Remembers for a short while whether an API token (and its tenant) still stands, so every bearer request does
 * not cost a query. Revocations in this process take effect at once (the services call `forget*`); in other
 * replicas within TTL_MS, which keeps the contract's 60-second promise.
 */
@Injectable()
export class PrincipalCache {
  static readonly TTL_MS = 30_000;
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly clock: Clock) {}

  /** true/false when known, undefined when it must be looked up. */
  isValid(apiTokenId: string, tenantId: string): boolean | undefined {
    const entry = this.entries.get(apiTokenId);
    const now = this.clock.now().getTime();
    if (!entry || entry.checkedUntil <= now) {
      this.entries.delete(apiTokenId);
      return undefined;
    }
    if (entry.tenantId !== tenantId) return false;
    return entry.valid && (entry.expiresAt === null || entry.expiresAt > now);
  }

  remember(apiTokenId: string, tenantId: string, valid: boolean, expiresAt: Date | null): void {
    const checkedUntil = this.clock.now().getTime() + PrincipalCache.TTL_MS;
    this.entries.set(apiTokenId, { tenantId, valid, expiresAt: expiresAt?.getTime() ?? null, checkedUntil });
  }

  forgetToken(apiTokenId: string): void {
    this.entries.delete(apiTokenId);
  }

  forgetTenant(tenantId: string): void {
    for (const [id, entry] of this.entries) if (entry.tenantId === tenantId) this.entries.delete(id);
  }
}
