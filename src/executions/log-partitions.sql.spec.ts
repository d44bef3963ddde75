import { ATTACH_PARTITION_DDL, CREATE_PARTITION_DDL, DROP_PARTITION_DDL, PartitionDdl } from './log-partitions.sql';

describe('the partitions\' DDL: declared templates, filled with checked names only', () => {
  it('fills each slot with a value its pattern accepts', () => {
    expect(CREATE_PARTITION_DDL.with({ partition: 'executions_p20261129', table: 'executions' }).text).toBe(
      'CREATE TABLE executions_p20261129 (LIKE executions INCLUDING DEFAULTS INCLUDING CONSTRAINTS)',
    );
    expect(ATTACH_PARTITION_DDL.with({ table: 'execution_payloads', partition: 'execution_payloads_p20261129', from: '2026-11-29T00:00:00.000Z', to: '2026-11-30T00:00:00.000Z' }).text).toBe(
      "ALTER TABLE execution_payloads ATTACH PARTITION execution_payloads_p20261129 FOR VALUES FROM ('2026-11-29T00:00:00.000Z') TO ('2026-11-30T00:00:00.000Z')",
    );
    expect(DROP_PARTITION_DDL.with({ name: 'executions_legacy' }).text).toBe('DROP TABLE executions_legacy');
  });

  it.each([
    ['a table that is not the log\'s', () => CREATE_PARTITION_DDL.with({ partition: 'executions_p20261129', table: 'tenants' })],
    ['a new partition not named <table>_pYYYYMMDD', () => CREATE_PARTITION_DDL.with({ partition: 'executions_x', table: 'executions' })],
    ['a name that would need quotes', () => DROP_PARTITION_DDL.with({ name: 'executions_p1; DROP TABLE tenants' })],
    ['a bound that is not a UTC midnight', () => ATTACH_PARTITION_DDL.with({ table: 'executions', partition: 'executions_p20261129', from: "2026-11-29') TO (MAXVALUE", to: '2026-11-30T00:00:00.000Z' })],
    ['a slot left empty', () => DROP_PARTITION_DDL.with({} as { name: string })],
  ])('refuses %s', (_, make) => {
    expect(make).toThrow(/Not a \w+ of the delivery log's partitions/);
  });

  it('refuses a template with a slot it cannot check', () => {
    expect(() => new PartitionDdl<never>('DROP TABLE {anything}')).toThrow(/fills only/);
  });
});
