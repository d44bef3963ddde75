/**
 * `@GenerateSql(...)` on a repository method gives the arguments to call it with, so that
 * `test/medium/sql-snapshots.medium-spec.ts` can run it on a real database and write the statements it sends to
 * `src/queries/<repository>.sql` (`npm run sql`; immich's model). A lost `tenant_id` predicate, a join that grew,
 * a changed ORDER BY: each shows in the review diff of that file, not in production. Every public method of a
 * `*.repository.ts` class needs one; the spec fails on a method without it and on a file that is not what the
 * code sends now.
 */
interface SqlExample {
  /** Told apart from the method's other examples in the file; absent for a method's only one. */
  name?: string;
  /** The method's arguments: DummyValue's, or entities built from them. */
  params: readonly unknown[];
}

/**
 * Values the examples are made of. TENANT_ID and OTHER_TENANT_ID are tenants the spec creates for the run (and
 * deletes after it), so inserts meet their foreign keys; the values never show in the files, only the SQL.
 */
export const DummyValue = {
  TENANT_ID: '5a1d0000-0000-4000-8000-00000000a001',
  OTHER_TENANT_ID: '5a1d0000-0000-4000-8000-00000000a002',
  UUID: '5a1d0000-0000-4000-8000-000000000001',
  STRING: 'example',
  HASH: 'f'.repeat(64),
  DATE: new Date('2026-01-01T00:00:00.000Z'),
  /** A `created_at` as PostgreSQL spells it (`created_at::text`): a list's exact position (TimePosition). */
  POSITION: '2026-01-01 00:00:00.123456+00',
  LIMIT: 100,
  /**
   * Stands for the connection a method of the log's upkeep runs on (its last parameter): the spec calls the
   * method inside `LogPartitionsRepository.withConnection`, with that connection in this place.
   */
  CONNECTION: Symbol('the upkeep\'s connection'),
} as const;

const examples = new Map<object, Map<string, readonly SqlExample[]>>();

export function GenerateSql(...variants: SqlExample[]): MethodDecorator {
  return (target, method) => {
    const ofClass = examples.get(target.constructor) ?? new Map<string, readonly SqlExample[]>();
    ofClass.set(String(method), variants);
    examples.set(target.constructor, ofClass);
  };
}

/** The examples of `repository`'s methods, by method name. */
export function sqlExamples(repository: abstract new (...args: never[]) => unknown): ReadonlyMap<string, readonly SqlExample[]> {
  return examples.get(repository) ?? new Map();
}
