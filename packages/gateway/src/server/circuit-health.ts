import type { CircuitState, RouteRule, RoutingState } from '@llm/router';

/** The value of `llm_gateway_upstream_circuit_state` for each state. */
export const CIRCUIT_STATE_VALUES: Readonly<Record<CircuitState, number>> = Object.freeze({ closed: 0, 'half-open': 1, open: 2 });

/** What the circuits of a config's upstreams say, read at each probe or scrape (the config may be reloaded). */
export class CircuitHealth {
  constructor(
    private readonly routing: RoutingState,
    private readonly config: () => { upstreams: Record<string, unknown>; routes: readonly RouteRule[]; breaking: boolean },
  ) {}

  /** Every configured upstream and its circuit's state. */
  states(): [string, CircuitState][] {
    return Object.keys(this.config().upstreams).map((name) => [name, this.routing.circuitState(name)]);
  }

  /** The upstreams whose circuit is not closed (the `/health/ready` detail), or undefined when none. */
  notClosed(): Record<string, CircuitState> | undefined {
    const states = this.states().filter(([, state]) => state !== 'closed');
    return states.length === 0 ? undefined : Object.fromEntries(states);
  }

  /**
   * False only when every upstream any route names is open: then no request can be served, and a
   * load balancer should send them elsewhere. One open upstream among others is a fallback's job.
   */
  ready(): boolean {
    const { routes, breaking } = this.config();
    if (!breaking) return true;
    const names = new Set(
      routes.flatMap((rule) =>
        (Array.isArray(rule.upstream) ? rule.upstream : [rule.upstream]).map((entry) => (typeof entry === 'string' ? entry : entry.name)),
      ),
    );
    for (const name of names) if (this.routing.circuitState(name) !== 'open') return true;
    return names.size === 0;
  }
}
