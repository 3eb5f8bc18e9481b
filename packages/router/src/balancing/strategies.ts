import type { BalancingStrategy, RouteTarget } from '../config.js';
import type { RoutingState } from './routing-state.js';

/**
 * A balanced route's deployments in the order to try them for one request: the strategy's pick
 * first, then the others as fallbacks in the strategy's order.
 */
export function orderTargets<T extends RouteTarget>(strategy: BalancingStrategy, targets: readonly T[], state: RoutingState, counter: string): T[] {
  switch (strategy) {
    case 'weighted':
      return weightedOrder(targets, state.random);
    case 'round-robin': {
      const start = state.turn(counter) % targets.length;
      return [...targets.slice(start), ...targets.slice(0, start)];
    }
    case 'least-busy':
      // A stable sort: ties keep the configured order.
      return [...targets].sort((a, b) => state.inFlight(a.name) - state.inFlight(b.name));
    case 'lowest-latency':
      // Unmeasured deployments first, so each gets measured, then the fastest.
      return [...targets].sort((a, b) => (state.latency(a.name) ?? -1) - (state.latency(b.name) ?? -1));
  }
}

/** Draws without replacement, each draw in proportion to `weight` (default 1). */
function weightedOrder<T extends RouteTarget>(targets: readonly T[], random: () => number): T[] {
  const left = [...targets];
  const order: T[] = [];
  while (left.length > 1) {
    const total = left.reduce((sum, target) => sum + weightOf(target), 0);
    let point = random() * total;
    let index = 0;
    while (index < left.length - 1 && point >= weightOf(left[index] as T)) point -= weightOf(left[index++] as T);
    order.push(...left.splice(index, 1));
  }
  order.push(...left);
  return order;
}

function weightOf(target: RouteTarget): number {
  return target.weight ?? 1;
}
