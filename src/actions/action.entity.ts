import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('actions')
export class Action {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'tenant_id' })
  tenantId: string;

  @Column('varchar', { length: 100 })
  name: string;

  @Column('varchar', { length: 500 })
  description: string;

  /** Stored as `json`, not `jsonb`, so it comes back with the keys in the order they were sent. */
  @Column('json', { name: 'json_schema' })
  jsonSchema: Record<string, unknown>;

  @Column('varchar', { length: 2048, name: 'webhook_url' })
  webhookUrl: string;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;

  /**
   * Whether the delivery log keeps what its executions sent and got back (docs/decisions.md, "The delivery log").
   * Not one of the Action's fields in the gateway API (spec 2.1): set through its log settings.
   */
  @Column('boolean', { name: 'payload_logging', default: true })
  payloadLogging: boolean;
}
