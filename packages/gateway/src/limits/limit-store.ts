/**
 * What a limits backend (memory, SQLite, Redis) does, each call one atomic step. The limiter
 * works out names, windows and amounts; a backend only checks and counts. Amounts of money are
 * whole nano-dollars (1e-9 USD), so sums are exact in every backend (Redis counts integers, Lua
 * numbers are doubles: exact to 2^53 nano-dollars, about 9 million USD).
 */
export interface LimitStore {
  /** `memory`, `sqlite` or `redis`: for logs and the readiness detail. */
  readonly kind: 'memory' | 'sqlite' | 'redis';
  /** False while a server-backed store is known to be disconnected (undefined: only failed commands tell). */
  readonly healthy?: boolean;
  /** Calls `listener` whenever a server-backed store's connection comes back. */
  onReconnect?(listener: () => void): void;
  /** Checks rpm, tpm and the budget in that order; when all pass, counts the request and holds the reservation. */
  admit(plan: AdmitPlan): Promise<AdmitVerdict>;
  /** Releases the reservation and counts tokens and spend. */
  settle(plan: SettlePlan): Promise<void>;
  read(plan: ReadPlan): Promise<{ spentNano: number; requests: number; tokens: number }>;
  close(): Promise<void>;
}

/** A counter's name and when it may be forgotten (undefined: never). */
export interface CounterRef {
  readonly name: string;
  readonly expiresAt: number | undefined;
}

export interface AdmitPlan {
  readonly now: number;
  /** Requests in the current minute. */
  readonly requests: CounterRef;
  /** Tokens in the current minute. */
  readonly tokens: CounterRef;
  readonly rpm: number | undefined;
  readonly tpm: number | undefined;
  /** Absent without a budget. */
  readonly budget?: {
    readonly spent: CounterRef;
    readonly limitNano: number;
    /** The key's reservations (in-flight requests), each forgotten at its own expiry. */
    readonly holds: string;
    readonly hold?: { readonly id: string; readonly nano: number; readonly expiresAt: number };
  };
}

export type AdmitVerdict = 'ok' | 'rpm' | 'tpm' | 'budget';

export interface SettlePlan {
  /** The reservation to release, when the admission made one. */
  readonly release?: { readonly holds: string; readonly id: string; readonly nano: number };
  readonly tokens: CounterRef;
  readonly tokenCount: number;
  /** One counter per budget period. */
  readonly spent: readonly CounterRef[];
  readonly costNano: number;
  readonly now: number;
}

export interface ReadPlan {
  readonly now: number;
  readonly requests: string;
  readonly tokens: string;
  readonly spent: string | undefined;
}
