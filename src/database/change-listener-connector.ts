import { Injectable } from '@nestjs/common';
import { Client } from 'pg';
import { DatabaseSettings } from './database-settings';

/** Opens the connection the read model listens on (a provider, so a test can route it through a proxy). */
@Injectable()
export class ChangeListenerConnector {
  constructor(private readonly settings: DatabaseSettings) {}

  create(): Client {
    return new Client({ ...this.settings.clientOptions('action-gateway read model'), keepAliveInitialDelayMillis: 10_000 });
  }
}
