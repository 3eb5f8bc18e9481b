/** One condition the gateway must meet to take traffic (`GET /health/ready`). */
export interface ReadinessCheck {
  /** Named in the 503 body when failing: `draining`, `ledger`... */
  readonly name: string;
  ready(): boolean;
}

/**
 * The readiness checks `GET /health/ready` runs: the gateway adds `draining` (true once shutdown
 * began); a store the gateway depends on adds its own with {@link add}.
 */
export class Readiness {
  private readonly checks: ReadinessCheck[] = [];
  private readonly details = new Map<string, () => unknown>();

  add(check: ReadinessCheck): void {
    this.checks.push(check);
  }

  /** Adds `name` to the probe's body whenever `detail` gives a value (e.g. upstream circuits not closed). */
  addDetail(name: string, detail: () => unknown): void {
    this.details.set(name, detail);
  }

  /** The details with a value now; a detail that throws is left out. */
  detail(): Record<string, unknown> | undefined {
    let out: Record<string, unknown> | undefined;
    for (const [name, detail] of this.details) {
      try {
        const value = detail();
        if (value !== undefined) (out ??= {})[name] = value;
      } catch {
        // A broken detail must not break the probe.
      }
    }
    return out;
  }

  /** Names of the failing checks (empty: ready). A check that throws is failing. */
  failing(): string[] {
    const failing: string[] = [];
    for (const check of this.checks) {
      let ready = false;
      try {
        ready = check.ready();
      } catch {
        // A broken check must not make the probe answer 500: it reads as not ready.
      }
      if (!ready) failing.push(check.name);
    }
    return failing;
  }
}
