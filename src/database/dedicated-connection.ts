import type { Client } from 'pg';
import { DatabaseSettings } from './database-settings';
import { ParametersOf, Statement } from './statement';

/**
 * A connection of its own, outside the pool, for work that holds a session's lock or runs longer than a request
 * should wait for a connection (the delivery log's upkeep). Like DatabasePool, it runs declared statements only
 * (statement.ts); the transaction's own BEGIN, COMMIT and ROLLBACK are its own.
 */
export class DedicatedConnection {
  private constructor(private readonly client: Client) {}

  /** `work` on a new connection (`applicationName` in pg_stat_activity), closed afterwards. */
  static async open<T>(settings: DatabaseSettings, applicationName: string, work: (connection: DedicatedConnection) => Promise<T>): Promise<T> {
    const client = settings.newClient(applicationName);
    client.on('error', () => undefined);
    await client.connect();
    try {
      return await work(new DedicatedConnection(client));
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  async query<Params extends readonly unknown[], Row>(statement: Statement<Params, Row>, ...parameters: ParametersOf<Params>): Promise<Row[]> {
    return (await this.client.query<Row & object>(statement.text, (parameters[0] ?? []) as unknown[])).rows;
  }

  /** `work` in a transaction, committed when it resolves and rolled back when it throws. */
  async transaction<T>(work: () => Promise<T>): Promise<T> {
    await this.client.query('BEGIN');
    try {
      const result = await work();
      await this.client.query('COMMIT');
      return result;
    } catch (error) {
      await this.client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }
}
