/** When an upstream's circuit opens and for how long (defaults in {@link DEFAULT_CIRCUIT_BREAKER}). */
export interface CircuitBreakerConfig {
  /** Failed calls within `windowMs` that open the circuit (default 5). */
  failures?: number;
  /** The window failures are counted in, in milliseconds (default 60000). */
  windowMs?: number;
  /** How long an open circuit skips its upstream before one probe is let through (default 30000). */
  cooldownMs?: number;
}

export const DEFAULT_CIRCUIT_BREAKER: Readonly<Required<CircuitBreakerConfig>> = Object.freeze({ failures: 5, windowMs: 60_000, cooldownMs: 30_000 });

/** `closed`: used; `open`: skipped until the cool-down ends; `half-open`: one probe may go. */
export type CircuitState = 'closed' | 'open' | 'half-open';

/** What an upstream's circuit holds at one time: for reports (the admin API, a dashboard). */
export interface CircuitSnapshot {
  state: CircuitState;
  /** Failures inside the window now (0 while open: opening clears them). */
  recentFailures: number;
  /** While open or half-open: when the cool-down ends (ended) in epoch ms. */
  openUntil?: number;
  /** While half-open with a probe out: when it left, epoch ms. */
  probeAt?: number;
}

interface Circuit {
  /** Times of the failures still inside the window, oldest first (at most `failures` kept). */
  failures: number[];
  /** Set while open: the end of the cool-down. */
  openUntil?: number;
  /** Set while a half-open probe is out: when it left (a probe never reported expires after a cool-down). */
  probeAt?: number;
}

/**
 * The circuit of each upstream, driven by call outcomes. Pure bookkeeping over times passed in:
 * every instance fed the same events (see `RoutingState`'s channel) reaches the same states.
 */
export class CircuitBreakers {
  private readonly circuits = new Map<string, Circuit>();
  private readonly policy: Required<CircuitBreakerConfig>;

  constructor(config: CircuitBreakerConfig = {}) {
    this.policy = { ...DEFAULT_CIRCUIT_BREAKER, ...config };
  }

  /** The state of `upstream` at `now`. */
  state(upstream: string, now: number): CircuitState {
    const circuit = this.circuits.get(upstream);
    if (circuit?.openUntil === undefined) return 'closed';
    return now < circuit.openUntil ? 'open' : 'half-open';
  }

  /**
   * Whether a call to `upstream` may go now: always when closed, never when open, and when
   * half-open only if no probe is out (a probe out longer than a cool-down counts as lost).
   */
  allows(upstream: string, now: number): boolean {
    const circuit = this.circuits.get(upstream);
    if (circuit?.openUntil === undefined) return true;
    if (now < circuit.openUntil) return false;
    return circuit.probeAt === undefined || now - circuit.probeAt >= this.policy.cooldownMs;
  }

  /** A half-open upstream's probe left at `at`: no other call goes until it reports. */
  probe(upstream: string, at: number): void {
    const circuit = this.circuits.get(upstream);
    if (circuit?.openUntil !== undefined && at >= circuit.openUntil) circuit.probeAt = at;
  }

  /** A call failed at `at` (429, 5xx, timeout, no connection). */
  failure(upstream: string, at: number): void {
    let circuit = this.circuits.get(upstream);
    if (!circuit) this.circuits.set(upstream, (circuit = { failures: [] }));
    if (circuit.openUntil !== undefined) {
      // A failed probe (or a late failure of a call sent before the circuit opened) re-opens it.
      if (at >= circuit.openUntil) this.open(circuit, at);
      return;
    }
    const since = at - this.policy.windowMs;
    circuit.failures = circuit.failures.filter((time) => time > since);
    circuit.failures.push(at);
    if (circuit.failures.length > this.policy.failures) circuit.failures.shift();
    if (circuit.failures.length >= this.policy.failures) this.open(circuit, at);
  }

  /** A call answered (2xx, or an error that is the request's fault): the circuit closes. */
  success(upstream: string): void {
    this.circuits.delete(upstream);
  }

  /** The circuit of `upstream` at `now`, as a plain snapshot. */
  snapshot(upstream: string, now: number): CircuitSnapshot {
    const circuit = this.circuits.get(upstream);
    const since = now - this.policy.windowMs;
    const recentFailures = circuit ? circuit.failures.filter((time) => time > since).length : 0;
    return {
      state: this.state(upstream, now),
      recentFailures,
      ...(circuit?.openUntil !== undefined && { openUntil: circuit.openUntil }),
      ...(circuit?.probeAt !== undefined && { probeAt: circuit.probeAt }),
    };
  }

  /** Every upstream with a circuit not closed, and its state at `now`. */
  notClosed(now: number): Map<string, CircuitState> {
    const states = new Map<string, CircuitState>();
    for (const name of this.circuits.keys()) {
      const state = this.state(name, now);
      if (state !== 'closed') states.set(name, state);
    }
    return states;
  }

  private open(circuit: Circuit, at: number): void {
    circuit.openUntil = at + this.policy.cooldownMs;
    circuit.failures = [];
    circuit.probeAt = undefined;
  }
}
