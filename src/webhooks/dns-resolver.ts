import { lookup } from 'node:dns/promises';

/** Resolves a host name to all of its addresses. A provider, so tests can answer without real DNS. */
export abstract class DnsResolver {
  abstract resolve(hostname: string): Promise<{ address: string; family: number }[]>;
}

export class SystemDnsResolver extends DnsResolver {
  resolve(hostname: string): Promise<{ address: string; family: number }[]> {
    return lookup(hostname, { all: true, verbatim: true });
  }
}
