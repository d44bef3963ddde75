import type { DeepReadonly } from './deep-readonly';

interface Cached {
  list: Array<{ name: string; schema: Record<string, unknown> }>;
  byName: Map<string, { name: string }>;
  at: Date;
  describe: () => string;
}

// Each @ts-expect-error fails `npm run typecheck` if DeepReadonly ever lets that change through.
function changeEverything(value: DeepReadonly<Cached>): void {
  // @ts-expect-error the array is read-only
  value.list.push({ name: 'x', schema: {} });
  // @ts-expect-error an element's field is read-only
  value.list[0].name = 'changed';
  // @ts-expect-error and so is what nests inside it
  value.list[0].schema.type = 'object';
  // @ts-expect-error a map is read-only
  value.byName.set('x', { name: 'x' });
  // @ts-expect-error the value itself is read-only
  value.list = [];
}

describe('DeepReadonly', () => {
  it('keeps what it does not make read-only usable: reading, dates, functions', () => {
    const value: DeepReadonly<Cached> = { list: [{ name: 'a', schema: { type: 'string' } }], byName: new Map(), at: new Date(0), describe: () => 'cached' };
    expect([value.list[0].schema.type, value.at.getTime(), value.describe()]).toEqual(['string', 0, 'cached']);
    expect(typeof changeEverything).toBe('function');
  });
});
