import { CircuitBreakers, type CircuitBreakerConfig, type CircuitSnapshot, type CircuitState } from '../circuit/circuit-breaker.js';

/**
 * What one router saw of an upstream call, applied by every router sharing a
 * {@link RoutingEventChannel}: failures, successes and probes drive the circuits; latency samples
 * the `lowest-latency` strategy. `upstream` is an upstream's name in the config.
 */
export type RoutingEvent =
  | { type: 'failure'; upstream: string; at: number }
  | { type: 'success'; upstream: string; at: number }
  | { type: 'probe'; upstream: string; at: number }
  | { type: 'latency'; upstream: string; ms: number };

/**
 * Carries routing events between instances (the gateway's is Redis pub/sub). `publish` must not
 * block nor throw: events are sent fire-and-forget, never awaited on the request path.
 * `subscribe` delivers the other instances' events only (this instance applied its own already).
 */
export interface RoutingEventChannel {
  publish(event: RoutingEvent): void;
  subscribe(receive: (event: RoutingEvent) => void): void;
}

/** Options of {@link RoutingState}. */
export interface RoutingStateOptions {
  circuitBreaker?: CircuitBreakerConfig;
  /** Weight of a new latency sample in the moving average (default 0.3): older samples decay by 0.7 each. */
  latencyDecay?: number;
  /** Least time between two latency samples of one upstream sent over the channel (default 1000 ms). */
  latencyShareIntervalMs?: number;
  /** Shares circuits and latencies with other instances; default none (this process only). */
  channel?: RoutingEventChannel;
  /** Clock (default `Date.now`). */
  now?: () => number;
  /** Uniform in [0, 1) for the `weighted` strategy (default `Math.random`; tests pass a seeded one). */
  random?: () => number;
}

export const DEFAULT_LATENCY_DECAY = 0.3;
/**
 * Least time between two latency samples of one upstream sent over the channel (default 1000 ms):
 * every sample updates this instance's average, but a busy gateway does not publish one message
 * per request. Circuit events are always sent.
 */
export const DEFAULT_LATENCY_SHARE_INTERVAL_MS = 1_000;

/**
 * The routing state of a router (or of every router of one gateway, across config reloads):
 * circuits, in-flight counts, latencies and round-robin counters. Every read is local and
 * synchronous, so no request waits on another instance; with a channel, circuits and latencies
 * follow the events of every instance, as stale as the channel is slow.
 */
export class RoutingState {
  readonly circuits: CircuitBreakers;
  readonly now: () => number;
  readonly random: () => number;
  private readonly inFlightCounts = new Map<string, number>();
  private readonly latencies = new Map<string, number>();
  private readonly counters = new Map<string, number>();
  private readonly decay: number;
  private readonly latencyShareIntervalMs: number;
  /** When each upstream's last latency sample went over the channel. */
  private readonly latencySharedAt = new Map<string, number>();
  private readonly channel: RoutingEventChannel | undefined;

  constructor(options: RoutingStateOptions = {}) {
    this.circuits = new CircuitBreakers(options.circuitBreaker);
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.decay = options.latencyDecay ?? DEFAULT_LATENCY_DECAY;
    this.latencyShareIntervalMs = options.latencyShareIntervalMs ?? DEFAULT_LATENCY_SHARE_INTERVAL_MS;
    this.channel = options.channel;
    this.channel?.subscribe((event) => this.apply(event));
  }

  /** Requests this instance has out to `upstream` (the `least-busy` strategy). */
  inFlight(upstream: string): number {
    return this.inFlightCounts.get(upstream) ?? 0;
  }

  /** Counts a call to `upstream` in flight until the function returned is called (once). */
  begin(upstream: string): () => void {
    this.inFlightCounts.set(upstream, this.inFlight(upstream) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = this.inFlight(upstream) - 1;
      if (left > 0) this.inFlightCounts.set(upstream, left);
      else this.inFlightCounts.delete(upstream);
    };
  }

  /** Moving average of `upstream`'s time to response headers in ms; undefined before any sample. */
  latency(upstream: string): number | undefined {
    return this.latencies.get(upstream);
  }

  /** The counter `name`'s value, then increments it (round-robin turns). */
  turn(name: string): number {
    const value = this.counters.get(name) ?? 0;
    this.counters.set(name, value + 1 >= Number.MAX_SAFE_INTEGER ? 0 : value + 1);
    return value;
  }

  /** Whether a call to `upstream` may go now (its circuit is closed, or half-open with no probe out). */
  allows(upstream: string): boolean {
    return this.circuits.allows(upstream, this.now());
  }

  /** Records that a call goes to `upstream`: the probe, when its circuit is half-open. */
  sending(upstream: string): void {
    const at = this.now();
    if (this.circuits.state(upstream, at) === 'half-open') this.record({ type: 'probe', upstream, at });
  }

  /** A call to `upstream` failed (429, 5xx, timeout, no connection). */
  failed(upstream: string): void {
    this.record({ type: 'failure', upstream, at: this.now() });
  }

  /** `upstream` answered after `ms` (any answer but a failure: the upstream is healthy). */
  answered(upstream: string, ms: number): void {
    const at = this.now();
    // Only a change is shared: a closed circuit's success would be one message per request.
    if (this.circuits.state(upstream, at) !== 'closed') this.record({ type: 'success', upstream, at });
    const sample: RoutingEvent = { type: 'latency', upstream, ms };
    this.apply(sample);
    const sharedAt = this.latencySharedAt.get(upstream);
    if (this.channel && (sharedAt === undefined || at - sharedAt >= this.latencyShareIntervalMs)) {
      this.latencySharedAt.set(upstream, at);
      this.channel.publish(sample);
    }
  }

  /** The circuit state of `upstream` now. */
  circuitState(upstream: string): CircuitState {
    return this.circuits.state(upstream, this.now());
  }

  /** The circuit of `upstream` now, with its failures and cool-down (see {@link CircuitBreakers.snapshot}). */
  circuitSnapshot(upstream: string): CircuitSnapshot {
    return this.circuits.snapshot(upstream, this.now());
  }

  private record(event: RoutingEvent): void {
    this.apply(event);
    this.channel?.publish(event);
  }

  private apply(event: RoutingEvent): void {
    switch (event.type) {
      case 'failure':
        this.circuits.failure(event.upstream, event.at);
        break;
      case 'success':
        this.circuits.success(event.upstream);
        break;
      case 'probe':
        this.circuits.probe(event.upstream, event.at);
        break;
      case 'latency': {
        const previous = this.latencies.get(event.upstream);
        this.latencies.set(event.upstream, previous === undefined ? event.ms : previous + (event.ms - previous) * this.decay);
        break;
      }
    }
  }
}
