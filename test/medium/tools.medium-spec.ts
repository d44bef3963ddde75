import { ActionNotFoundError } from '../../src/actions/actions.errors';
import { ActionsService } from '../../src/actions/actions.service';
import { IDEMPOTENCY_KEY_USE } from '../../src/executions/idempotency';
import { TOOL_FORMATS } from '../../src/tools/dto/tool-list.response';
import { TOOL_IDEMPOTENCY_META_KEY } from '../../src/tools/tool-definitions';
import { ToolsModule } from '../../src/tools/tools.module';
import { ToolsService } from '../../src/tools/tools.service';
import { signedWith, TwoTenants, twoTenantSuite } from '../support/medium';
import { Receiver } from '../support/receiver';

/** A tool call made now, without an idempotency key. */
const SYNC = { respondAsync: false };

/** Tenant A's actions as tools, next to tenant B's actions of the same name: B's are never listed, described or run. */
describe('tools: tenant A never reaches tenant B (medium)', () => {
  const suite = twoTenantSuite({}, [ToolsModule]);
  let world: TwoTenants;
  let receivers: { a: Receiver; b: Receiver };
  let tools: ToolsService;
  beforeEach(() => {
    ({ world, receivers } = suite);
    tools = suite.services.get(ToolsService);
  });

  /**
   * B's actions read (and cached) first, so a mix-up in memory would show as well as one in the database. Only a
   * warm-up: what A is given is checked by the test, not here.
   */
  const readBFirst = async () => {
    expect((await tools.mcpTools(world.b.id)).map((tool) => tool.name)).toEqual(expect.arrayContaining(['only_b', 'shared']));
    await suite.services.get(ActionsService).findExecutable(world.b.id, 'shared');
  };

  /** What `call` threw, as far as a caller can tell one error from another. */
  const refusal = async (call: Promise<unknown>) => {
    const error = await call.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ActionNotFoundError);
    const { name, message, kind, details, headers } = error as ActionNotFoundError;
    return { name, message, kind, details, headers, text: String(error) };
  };

  describe('ToolsService', () => {
    it.each(TOOL_FORMATS)('list (%s) describes A’s action of a name B also has, and nothing of B’s', async (format) => {
      await readBFirst();
      const listed = await world.byA(() => tools.list(world.a.id, format));
      expect(listed.format).toBe(format);
      expect(listed.actions.map((action) => action.action_name)).toEqual(['shared']);
      expect(listed.tools).toHaveLength(1);
      expect(listed.omitted).toEqual([]);
      expect(JSON.stringify(listed.tools)).toContain('A shared');
    });

    it('mcpTools gives A’s action of a name B also has, with A’s description, and none of a name only B has', async () => {
      await readBFirst();
      const listed = await world.byA(() => tools.mcpTools(world.a.id));
      expect(listed).toEqual([
        {
          name: 'shared',
          description: 'A shared',
          inputSchema: expect.objectContaining({ type: 'object' }),
          execution: { taskSupport: 'optional' },
          _meta: { [TOOL_IDEMPOTENCY_META_KEY]: IDEMPOTENCY_KEY_USE },
        },
      ]);
    });

    it('call with an idempotency key B used too runs A’s own action: keys are per tenant, and B’s stays as it was', async () => {
      const keyed = { respondAsync: false, idempotencyKey: 'same-key' };
      const b = await tools.call(world.b.id, 'shared', { city: 'Oslo' }, keyed);
      // B's own call made and forgotten: what A's call must leave alone is B's state from here on.
      world.b.receiver.calls.splice(0);
      await world.rememberB();
      const outcome = await world.byA(() => tools.call(world.a.id, 'shared', { city: 'Oslo' }, keyed));
      expect(outcome).toEqual({ ran: true, execution: expect.objectContaining({ action_name: 'shared', status: 'succeeded' }), replayed: false });
      expect(b.ran && outcome.ran && outcome.execution.id !== b.execution.id).toBe(true);
      expect(receivers.a.calls.map((call) => call.path)).toEqual(['/a-hook']);
    });

    it('call runs A’s action of a name B also has: A’s receiver, signed with A’s key, stored as A’s', async () => {
      await readBFirst();
      const outcome = await world.byA(() => tools.call(world.a.id, 'shared', { city: 'Oslo' }, SYNC));
      expect(outcome).toEqual({ ran: true, execution: expect.objectContaining({ action_name: 'shared', status: 'succeeded' }), replayed: false });
      expect(receivers.a.calls.map((call) => call.path)).toEqual(['/a-hook']);
      const [call] = receivers.a.calls;
      expect(signedWith(call, world.a.hmacKeys[0].key)).toEqual({ body: true, headers: true });
      for (const { key } of world.b.hmacKeys) expect(signedWith(call, key)).toEqual({ body: false, headers: false });
      const stored = (await world.stored(world.a.id)).executions as Array<{ tenant_id: string; action_id: string }>;
      expect(stored).toEqual([expect.objectContaining({ tenant_id: world.a.id, action_id: world.a.actions.shared.id })]);
    });

    it('call of a name only B has is the same refusal as an unknown tool, and sends nothing to anyone', async () => {
      await readBFirst();
      const unknown = await refusal(world.byA(() => tools.call(world.a.id, 'no_such_tool', { city: 'Oslo' }, SYNC)));
      const onlyB = await refusal(world.byA(() => tools.call(world.a.id, 'only_b', { city: 'Oslo' }, SYNC)));
      expect(onlyB).toEqual(unknown);
      expect(receivers.a.calls).toEqual([]);
      expect(receivers.b.calls).toEqual([]);
    });
  });
});
