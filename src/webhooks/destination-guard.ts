import { isIP, LookupFunction } from 'node:net';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { isRefusedAddress } from './address-policy';
import { DnsResolver } from './dns-resolver';

/** Why a destination was refused; it becomes the reason in `webhook endpoint unreachable (...)`. */
export class RefusedDestinationError extends Error {
  readonly code = 'ERR_REFUSED_DESTINATION';
  constructor(readonly address: string) {
    super(`destination ${address} is not allowed`);
  }
}

/**
 * Keeps webhooks away from internal networks when private networks are not allowed (production). The check runs
 * inside the connection's own DNS lookup, so the address checked is the address connected to and a name that
 * re-resolves to something private between registration and delivery (DNS rebinding) is still refused.
 */
@Injectable()
export class DestinationGuard {
  constructor(
    private readonly config: AppConfig,
    private readonly resolver: DnsResolver,
  ) {}

  get enforcing(): boolean {
    return !this.config.webhook.allowPrivateNetworks;
  }

  /** For registration: the refused address the URL's host resolves to, if any. Unresolvable hosts pass here. */
  async refusedAddressOf(url: URL): Promise<string | undefined> {
    if (!this.enforcing) return undefined;
    const host = stripBrackets(url.hostname);
    if (isIP(host)) return isRefusedAddress(host) ? host : undefined;
    const addresses = await this.resolver.resolve(host).catch(() => []);
    return addresses.find(({ address }) => isRefusedAddress(address))?.address;
  }

  /** For connecting to a literal IP, which never goes through `lookup`. */
  assertLiteralAllowed(url: URL): void {
    const host = stripBrackets(url.hostname);
    if (this.enforcing && isIP(host) && isRefusedAddress(host)) throw new RefusedDestinationError(host);
  }

  /** A `net.connect` lookup that resolves through the resolver and refuses forbidden addresses. */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.resolver.resolve(hostname).then(
      (addresses) => {
        const refused = this.enforcing ? addresses.find(({ address }) => isRefusedAddress(address)) : undefined;
        if (refused) return callback(new RefusedDestinationError(refused.address), '', 0);
        if (addresses.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
        const usable = wanted.length > 0 ? wanted : addresses;
        if (options.all) (callback as unknown as (e: null, a: typeof usable) => void)(null, usable);
        else callback(null, usable[0].address, usable[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}
