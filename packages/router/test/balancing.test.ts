import { describe, expect, it } from 'vitest';
import { RoutingState, type RoutingEvent } from '../src/balancing/routing-state.js';
import { orderTargets } from '../src/balancing/strategies.js';
import { CircuitBreakers } from '../src/circuit/circuit-breaker.js';

/** A `random` giving `values` in turn. */
function sequence(...values: number[]): () => number {
  let index = 0;
  return () => values[index++ % values.length] as number;
}

const names = (targets: readonly { name: string }[]) => targets.map((target) => target.name);

describe('balancing strategies', () => {
  const abc = [{ name: 'a', weight: 3 }, { name: 'b', weight: 1 }, { name: 'c' }];

  it('weighted: each draw in proportion to the weights, the rest after as fallbacks', () => {
    // Total 5: [0, 3) a, [3, 4) b, [4, 5) c; then among those left.
    const state = new RoutingState({ random: sequence(0.1, 0.5, 0.7, 0.1, 0.9, 0.9) });
    // 0.1 * 5 = 0.5 -> a; then [b, c] total 2: 0.5 * 2 = 1 -> c; b last.
    expect(names(orderTargets('weighted', abc, state, 'r'))).toEqual(['a', 'c', 'b']);
    // 0.7 * 5 = 3.5 -> b; then [a, c] total 4: 0.1 * 4 = 0.4 -> a.
    expect(names(orderTargets('weighted', abc, state, 'r'))).toEqual(['b', 'a', 'c']);
    // 0.9 * 5 = 4.5 -> c; then [a, b] total 4: 0.9 * 4 = 3.6 -> b.
    expect(names(orderTargets('weighted', abc, state, 'r'))).toEqual(['c', 'b', 'a']);
  });

  it('weighted: the boundary between two deployments sits at their weight', () => {
    const state = new RoutingState({ random: sequence(0, 0.59, 0.61, 0.99) });
    const firsts = [];
    // Two deployments take one draw per request. Total 5: [0, 3) a, [3, 5) b.
    for (let i = 0; i < 4; i++)
      firsts.push(
        orderTargets(
          'weighted',
          [
            { name: 'a', weight: 3 },
            { name: 'b', weight: 2 },
          ],
          state,
          'r',
        )[0]?.name,
      );
    expect(firsts).toEqual(['a', 'a', 'b', 'b']);
  });

  it('round-robin: each request starts one further, per route counter', () => {
    const state = new RoutingState();
    const orders = [0, 1, 2, 3].map(() => names(orderTargets('round-robin', abc, state, 'route:x')));
    expect(orders).toEqual([
      ['a', 'b', 'c'],
      ['b', 'c', 'a'],
      ['c', 'a', 'b'],
      ['a', 'b', 'c'],
    ]);
    expect(names(orderTargets('round-robin', abc, state, 'route:y'))).toEqual(['a', 'b', 'c']);
  });

  it('least-busy: fewest in flight first, ties in the configured order; ending a call once frees it', () => {
    const state = new RoutingState();
    const endA = state.begin('a');
    state.begin('a');
    state.begin('b');
    expect(names(orderTargets('least-busy', abc, state, 'r'))).toEqual(['c', 'b', 'a']);
    endA();
    endA();
    expect(state.inFlight('a')).toBe(1);
    expect(names(orderTargets('least-busy', abc, state, 'r'))).toEqual(['c', 'a', 'b']);
  });

  it('lowest-latency: unmeasured first, then the lowest moving average (new sample weighs 0.3)', () => {
    const state = new RoutingState();
    state.answered('a', 100);
    state.answered('b', 300);
    expect(names(orderTargets('lowest-latency', abc, state, 'r'))).toEqual(['c', 'a', 'b']);
    state.answered('c', 200);
    state.answered('a', 500); // 100 + (500 - 100) * 0.3 = 220
    expect(state.latency('a')).toBe(220);
    expect(names(orderTargets('lowest-latency', abc, state, 'r'))).toEqual(['c', 'a', 'b']);
    state.answered('a', 100); // 220 + (100 - 220) * 0.3 = 184
    expect(state.latency('a')).toBe(184);
    expect(names(orderTargets('lowest-latency', abc, state, 'r'))).toEqual(['a', 'c', 'b']);
  });
});

describe('circuit breaker', () => {
  const breakers = () => new CircuitBreakers({ failures: 3, windowMs: 1_000, cooldownMs: 500 });

  it('opens after N failures within the window, not when they are spread wider', () => {
    const spread = breakers();
    spread.failure('a', 0);
    spread.failure('a', 600);
    spread.failure('a', 1_100); // the first is out of the window
    expect(spread.state('a', 1_100)).toBe('closed');
    spread.failure('a', 1_200);
    expect(spread.state('a', 1_200)).toBe('open');
    expect(spread.allows('a', 1_699)).toBe(false);
  });

  it('half-open after the cool-down: one probe; its success closes, its failure re-opens for another cool-down', () => {
    const circuits = breakers();
    for (const at of [0, 1, 2]) circuits.failure('a', at);
    expect(circuits.state('a', 501)).toBe('open'); // opened at the third failure (2) for 500 ms
    expect(circuits.state('a', 502)).toBe('half-open');
    expect(circuits.allows('a', 502)).toBe(true);
    circuits.probe('a', 502);
    expect(circuits.allows('a', 503)).toBe(false); // the probe is out
    expect(circuits.notClosed(503)).toEqual(new Map([['a', 'half-open']]));
    circuits.failure('a', 600);
    expect(circuits.state('a', 1_099)).toBe('open');
    expect(circuits.state('a', 1_100)).toBe('half-open');
    circuits.probe('a', 1_100);
    circuits.success('a');
    expect(circuits.state('a', 1_100)).toBe('closed');
    expect(circuits.notClosed(1_100)).toEqual(new Map());
  });

  it('a probe that never reports frees the half-open circuit after one cool-down', () => {
    const circuits = breakers();
    for (const at of [0, 1, 2]) circuits.failure('a', at);
    circuits.probe('a', 502);
    expect(circuits.allows('a', 1_001)).toBe(false);
    expect(circuits.allows('a', 1_002)).toBe(true);
  });

  it('a success closes a circuit and forgets its failures', () => {
    const circuits = breakers();
    circuits.failure('a', 0);
    circuits.failure('a', 1);
    circuits.success('a');
    circuits.failure('a', 2);
    expect(circuits.state('a', 2)).toBe('closed');
  });
});

describe('routing state shared through a channel', () => {
  /** An in-process channel: what one instance publishes, the others receive. */
  function bus() {
    const receivers: ((event: RoutingEvent) => void)[] = [];
    const published: RoutingEvent[] = [];
    const channel = () => {
      let own: ((event: RoutingEvent) => void) | undefined;
      return {
        publish(event: RoutingEvent) {
          published.push(event);
          for (const receive of receivers) if (receive !== own) receive(event);
        },
        subscribe(receive: (event: RoutingEvent) => void) {
          own = receive;
          receivers.push(receive);
        },
      };
    };
    return { channel, published };
  }

  it('two instances see one circuit and one latency average; a closed circuit publishes no success', () => {
    let now = 0;
    const { channel, published } = bus();
    const options = { circuitBreaker: { failures: 2, windowMs: 1_000, cooldownMs: 100 }, now: () => now };
    const one = new RoutingState({ ...options, channel: channel() });
    const two = new RoutingState({ ...options, channel: channel() });
    one.failed('a');
    two.failed('a');
    expect(one.circuitState('a')).toBe('open');
    expect(two.circuitState('a')).toBe('open');
    now = 100;
    expect(two.allows('a')).toBe(true);
    two.sending('a'); // the probe: the other instance holds back
    expect(one.allows('a')).toBe(false);
    two.answered('a', 40);
    expect(one.circuitState('a')).toBe('closed');
    expect(one.latency('a')).toBe(40);
    one.answered('a', 50);
    expect(published.map((event) => event.type)).toEqual(['failure', 'failure', 'probe', 'success', 'latency', 'latency']);
    // Latency samples go out at most once a second per upstream; each still moves the local average.
    expect(one.latency('a')).toBe(43); // 40 + (50 - 40) * 0.3
    one.answered('a', 60); // 43 + 17 * 0.3 = 48.1
    now = 1_099;
    one.answered('a', 63); // 48.1 + 14.9 * 0.3 = 52.57
    expect(one.latency('a')).toBeCloseTo(52.57, 10);
    expect(published).toHaveLength(6);
    now = 1_100;
    one.answered('a', 56);
    expect(published.at(-1)).toEqual({ type: 'latency', upstream: 'a', ms: 56 });
  });
});
