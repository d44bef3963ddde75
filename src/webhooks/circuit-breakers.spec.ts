import { AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { CircuitBreakers } from './circuit-breakers';

/** At most three circuits, so the bound can be seen. */
class SmallCircuitBreakers extends CircuitBreakers {
  protected override readonly maxCircuits = 3;
}

const config = { webhook: { breakerFailures: 2, breakerCooldownMs: 60_000, timeoutMs: 1_000 } } as AppConfig;
const failing = async () => ({ failed: true });
const working = async () => ({ failed: false });

describe('CircuitBreakers', () => {
  it('keeps at most its bound of circuits, forgetting the least recently used closed one before any open one', async () => {
    const circuits = new SmallCircuitBreakers(config, new Metrics());
    await circuits.run('open-a', 'https://r.example', failing);
    await circuits.run('open-a', 'https://r.example', failing);
    await circuits.run('closed-b', 'https://r.example', working);
    await circuits.run('open-c', 'https://r.example', failing);
    await circuits.run('open-c', 'https://r.example', failing);
    expect(circuits.counts()).toEqual({ closed: 1, open: 2, half_open: 0 });

    // A fourth forgets closed-b (used after open-a), never an open one.
    await circuits.run('closed-d', 'https://r.example', working);
    expect(circuits.size).toBe(3);
    expect(circuits.view('open-a', 'https://r.example').state).toBe('open');
    expect(circuits.view('open-c', 'https://r.example').state).toBe('open');
    expect(circuits.view('closed-b', 'https://r.example')).toEqual({ state: 'closed', since: null, consecutiveFailures: 0, retryAt: null });

    // A flood of new keys keeps the bound: the closed ones make room for each other, the open ones stay.
    for (let i = 0; i < 1_000; i++) await circuits.run(`flood-${i}`, 'https://r.example', working);
    expect(circuits.size).toBe(3);
    expect(circuits.counts()).toEqual({ closed: 1, open: 2, half_open: 0 });
  });

  it('forgets the least recently used open circuit when every circuit is open', async () => {
    const circuits = new SmallCircuitBreakers(config, new Metrics());
    for (const key of ['a', 'b', 'c']) for (let i = 0; i < 2; i++) await circuits.run(key, 'https://r.example', failing);
    await circuits.run('a', 'https://r.example', working); // refused, but a use: b is now the least recently used
    expect(await circuits.run('d', 'https://r.example', failing)).toEqual({ ran: true, value: { failed: true } });
    expect(circuits.size).toBe(3);
    expect(circuits.view('b', 'https://r.example').state).toBe('closed');
    expect(circuits.view('a', 'https://r.example').state).toBe('open');
  });

  it('never refuses with WEBHOOK_BREAKER_FAILURES=0, and keeps no circuit', async () => {
    const circuits = new CircuitBreakers({ webhook: { ...config.webhook, breakerFailures: 0 } } as AppConfig, new Metrics());
    for (let i = 0; i < 10; i++) expect(await circuits.run('a', 'https://r.example', failing)).toEqual({ ran: true, value: { failed: true } });
    expect(circuits.size).toBe(0);
  });
});
