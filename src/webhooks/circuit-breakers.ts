import { Injectable } from '@nestjs/common';
import { CircuitBreakerPolicy, CircuitState, ConsecutiveBreaker, circuitBreaker, handleWhenResult } from 'cockatiel';
import { AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';

/**
 * The most circuits a replica keeps. Past it the least recently used closed one is forgotten (an open one only when
 * the OLDEST_SCANNED oldest are all open): a forgotten circuit is a closed one with no failures counted, so the
 * worst a flood of actions can do is let a dead receiver be called again. About 1.7 kB each (docs/reliability.md).
 */
export const MAX_CIRCUITS = 10_000;
/** How many of the least recently used circuits are looked through for a closed one to forget. */
const OLDEST_SCANNED = 100;

export type CircuitStateName = 'closed' | 'open' | 'half_open';

/** A circuit as the management API shows it. `retryAt`: when an open one lets its probe through. */
export interface CircuitView {
  state: CircuitStateName;
  /** When it took this state; null for a closed circuit this replica has not seen fail since it started. */
  since: Date | null;
  consecutiveFailures: number;
  retryAt: Date | null;
}

/** A call the circuit let through (`value`), or did not, and why. */
export type Guarded<T> = { ran: true; value: T } | { ran: false; state: 'open' | 'half_open'; consecutiveFailures: number; until: Date };

interface Circuit {
  /** The receiver it guards: another one (a new webhook_url) gets a new circuit. */
  receiver: string;
  policy: CircuitBreakerPolicy;
  breaker: ConsecutiveBreaker;
  since: Date | null;
  retryAt: Date | null;
  /** While half-open: when the probe's call must have ended (it started plus WEBHOOK_TIMEOUT_MS). */
  probeEndsBy: Date | null;
}

interface Judged {
  failed: boolean;
}

const STATE_NAMES: Record<CircuitState, CircuitStateName> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.Open]: 'open',
  [CircuitState.HalfOpen]: 'half_open',
  [CircuitState.Isolated]: 'open',
};

/**
 * A circuit breaker per action's receiver (cockatiel's CircuitBreakerPolicy with a ConsecutiveBreaker), in this
 * replica's memory: WEBHOOK_BREAKER_FAILURES consecutive failed calls open it; while open, calls fail at once for
 * WEBHOOK_BREAKER_COOLDOWN_MS; then the next call is the probe (half-open) and its outcome closes or reopens it.
 * Unlike cockatiel, which makes the calls arriving during the probe wait for it, they fail at once too: nobody
 * waits on a receiver that has just been failing. Keyed by the caller (an action's id), for one receiver (its
 * webhook URL: a new one starts closed), at most
 * MAX_CIRCUITS of them. See docs/reliability.md, "Circuit breaker".
 */
@Injectable()
export class CircuitBreakers {
  /** In order of use, least recent first (a Map keeps insertion order: a use re-inserts). */
  private readonly circuits = new Map<string, Circuit>();
  private readonly failures: number;
  private readonly cooldownMs: number;
  /** MAX_CIRCUITS; a test's subclass sets a smaller bound. */
  protected readonly maxCircuits: number = MAX_CIRCUITS;

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    this.failures = config.webhook.breakerFailures;
    this.cooldownMs = config.webhook.breakerCooldownMs;
    metrics.observeCircuits(() => this.counts());
  }

  /** Whether a breaker is configured at all (WEBHOOK_BREAKER_FAILURES above 0). */
  get enabled(): boolean {
    return this.failures > 0;
  }

  /**
   * Runs `call` through the circuit `key` unless it is open (or half-open, its probe under way); the call's
   * `failed` says whether it counts against the receiver.
   */
  async run<T extends Judged>(key: string, receiver: string, call: () => Promise<T>): Promise<Guarded<T>> {
    if (!this.enabled) return { ran: true, value: await call() };
    const circuit = this.circuit(key, receiver);
    const refused = this.refusal(circuit);
    if (refused) return refused;
    try {
      return { ran: true, value: await circuit.policy.execute(() => call()) };
    } catch (error) {
      // Between the check above and execute nothing awaits, so this is only a safety net.
      if (error instanceof Error && 'isBrokenCircuitError' in error) return this.refusal(circuit) ?? this.openRefusal(circuit);
      throw error;
    }
  }

  /** The circuit `key` of `receiver` as this replica sees it (closed when it has none). */
  view(key: string, receiver: string): CircuitView {
    const circuit = this.circuits.get(key);
    if (!circuit || circuit.receiver !== receiver) return { state: 'closed', since: null, consecutiveFailures: 0, retryAt: null };
    const state = STATE_NAMES[circuit.policy.state];
    return { state, since: circuit.since, consecutiveFailures: circuit.breaker.state, retryAt: state === 'open' ? circuit.retryAt : null };
  }

  /** How many circuits are open and half-open now (for the metric). */
  counts(): Record<CircuitStateName, number> {
    const counts: Record<CircuitStateName, number> = { closed: 0, open: 0, half_open: 0 };
    for (const circuit of this.circuits.values()) counts[STATE_NAMES[circuit.policy.state]]++;
    return counts;
  }

  get size(): number {
    return this.circuits.size;
  }

  private refusal(circuit: Circuit): Guarded<never> | undefined {
    switch (circuit.policy.state) {
      case CircuitState.HalfOpen:
        return { ran: false, state: 'half_open', consecutiveFailures: circuit.breaker.state, until: circuit.probeEndsBy ?? new Date() };
      case CircuitState.Open:
        // Cockatiel lets the probe through once the cooldown has passed (its own Date.now()).
        return circuit.retryAt && Date.now() < circuit.retryAt.getTime() ? this.openRefusal(circuit) : undefined;
      default:
        return undefined;
    }
  }

  private openRefusal(circuit: Circuit): Guarded<never> {
    return { ran: false, state: 'open', consecutiveFailures: circuit.breaker.state, until: circuit.retryAt ?? new Date() };
  }

  /**
   * The circuit `key` of `receiver`, made the most recently used; a new one (closed) past the bound forgets another
   * first.
   */
  private circuit(key: string, receiver: string): Circuit {
    const known = this.circuits.get(key);
    if (known) this.circuits.delete(key);
    if (known?.receiver === receiver) {
      this.circuits.set(key, known);
      return known;
    }
    if (this.circuits.size >= this.maxCircuits) this.forgetOne();
    const breaker = new ConsecutiveBreaker(this.failures);
    const policy = circuitBreaker(
      handleWhenResult((value) => (value as Judged).failed),
      { halfOpenAfter: this.cooldownMs, breaker },
    );
    const circuit: Circuit = { receiver, policy, breaker, since: null, retryAt: null, probeEndsBy: null };
    policy.onBreak(() => {
      const now = Date.now();
      circuit.since = new Date(now);
      circuit.retryAt = new Date(now + this.cooldownMs);
      circuit.probeEndsBy = null;
      this.metrics.circuitOpenings.inc();
    });
    policy.onHalfOpen(() => {
      const now = Date.now();
      circuit.since = new Date(now);
      circuit.probeEndsBy = new Date(now + this.config.webhook.timeoutMs);
    });
    policy.onReset(() => {
      circuit.since = new Date();
      circuit.retryAt = null;
      circuit.probeEndsBy = null;
    });
    this.circuits.set(key, circuit);
    return circuit;
  }

  /** Forgets the least recently used closed circuit among the oldest few, else the least recently used. */
  private forgetOne(): void {
    let scanned = 0;
    let oldest: string | undefined;
    for (const [key, circuit] of this.circuits) {
      oldest ??= key;
      if (circuit.policy.state === CircuitState.Closed) {
        this.circuits.delete(key);
        return;
      }
      if (++scanned >= OLDEST_SCANNED) break;
    }
    if (oldest !== undefined) this.circuits.delete(oldest);
  }
}
