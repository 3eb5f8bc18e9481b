import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { reasonOf } from '../store/postgres/connect.js';
import { storeUnavailable } from '../store/store-unavailable.js';
import { CounterNamesByKey } from './counter-names.js';
import type { LimitStore } from './limit-store.js';
import { budgetPeriod, minuteWindow, secondsUntil } from './periods.js';

/** day / week / month: UTC calendar periods (a week starts on Monday); total: never resets. */
export type BudgetPeriod = 'day' | 'week' | 'month' | 'total';

export interface KeyLimits {
  /** Requests per minute. */
  rpm?: number;
  /** Tokens (input + output) per minute. */
  tpm?: number;
  budget?: { usd: number; period: BudgetPeriod };
}

export type Admission =
  | { allowed: true; ticket: AdmissionTicket }
  | { allowed: false; limit: 'rpm' | 'tpm' | 'budget'; retryAfterSeconds?: number; message: string };

/** What {@link Limiter.settle} needs of an admission. */
export interface AdmissionTicket {
  readonly key: string;
}

export interface Limiter {
  /** Before the upstream call: counts the request (rpm), checks tpm and the budget (spent + reserved so far). */
  admit(key: string, limits: KeyLimits, options?: { reserveUsd?: number; now?: number }): Promise<Admission>;
  /** After the answer (a stream at its end, cut or not): tokens used and their cost (undefined: unpriced). Releases the reservation. */
  settle(ticket: AdmissionTicket, used: { tokens: number; costUsd: number | undefined }, now?: number): Promise<void>;
  /** For reports: spend in the current budget period, requests and tokens in the current minute. */
  usage(key: string, limits: KeyLimits, now?: number): Promise<{ spentUsd: number; requests: number; tokens: number }>;
  close(): Promise<void>;
}

/** What an admission does when its store cannot be reached: admit without limits (default), or refuse with a 503. */
export type OnStoreDown = 'open' | 'closed';

/**
 * How long a reservation holds budget when its request never settles (a process that died
 * mid-request): one hour, longer than any request the gateway lets run.
 */
export const RESERVATION_TTL_MS = 3_600_000;
/** Keys whose unpriced requests were logged, at most this many (a bound on memory, not on keys). */
const UNPRICED_LOGGED_MAX = 10_000;
const NANO_PER_USD = 1e9;
const PERIOD_ADJECTIVES: Record<BudgetPeriod, string> = { day: 'daily', week: 'weekly', month: 'monthly', total: 'total' };

/**
 * Reservation ids: unique among every process sharing a store (a random prefix per process, then
 * a count), without a `randomUUID()` per request.
 */
const HOLD_ID_PREFIX = `${randomUUID()}-`;
let holdCount = 0;

class Ticket implements AdmissionTicket {
  settled = false;
  constructor(
    readonly key: string,
    readonly id: string,
    /** The reservation held, in nano-dollars (0: none). */
    readonly holdNano: number,
    /** False when admitted while the store was down: nothing to release or count. */
    readonly stored: boolean,
  ) {}
}

/**
 * The {@link Limiter} over one {@link LimitStore}. Rate limits count in fixed UTC minutes: a
 * burst that straddles a minute's end can see up to twice `rpm` within 60 seconds, the price of a
 * check that is one counter read (see the README's "Limits store" for every bound).
 */
export class StoreLimiter implements Limiter {
  private down = false;
  private readonly unpricedLogged = new Set<string>();
  private readonly names = new CounterNamesByKey();

  constructor(
    private readonly store: LimitStore,
    private readonly logger: Logger,
    private readonly onStoreDown: OnStoreDown = 'open',
  ) {
    // A refusing gateway (closed) gets no traffic to find the store back: the connection tells.
    store.onReconnect?.(() => this.answered());
  }

  /** True while the store is known to be down: its last command failed, or its connection is lost. */
  get storeDown(): boolean {
    return this.down || this.store.healthy === false;
  }

  /** The backend's name: `memory`, `sqlite` or `redis`. */
  get storeKind(): LimitStore['kind'] {
    return this.store.kind;
  }

  async admit(key: string, limits: KeyLimits, options: { reserveUsd?: number; now?: number } = {}): Promise<Admission> {
    const now = options.now ?? Date.now();
    const window = minuteWindow(now);
    const names = this.names.of(key);
    // A limit that is no finite number (Infinity, NaN) is none; one below 0 admits nothing, as 0.
    const budget = limits.budget && Number.isFinite(limits.budget.usd) ? limits.budget : undefined;
    const holdNano = budget ? toNano(options.reserveUsd) : 0;
    const id = `${HOLD_ID_PREFIX}${++holdCount}`;
    const plan = {
      now,
      requests: names.requests(window.start),
      tokens: names.tokens(window.start),
      rpm: finiteLimit(limits.rpm),
      tpm: finiteLimit(limits.tpm),
      ...(budget && {
        budget: {
          spent: names.spent(budget.period, now),
          limitNano: toNano(budget.usd),
          holds: names.holds,
          ...(holdNano > 0 && { hold: { id, nano: holdNano, expiresAt: now + RESERVATION_TTL_MS } }),
        },
      }),
    };
    let verdict: Awaited<ReturnType<LimitStore['admit']>>;
    try {
      verdict = await this.store.admit(plan);
    } catch (error) {
      this.failed(error);
      return { allowed: true, ticket: new Ticket(key, id, 0, false) };
    }
    this.answered();
    switch (verdict) {
      case 'ok':
        return { allowed: true, ticket: new Ticket(key, id, holdNano, true) };
      case 'rpm':
      case 'tpm': {
        const retryAfterSeconds = secondsUntil(window.end, now);
        const message =
          verdict === 'rpm'
            ? `rate limit reached: ${limits.rpm} requests per minute for this key; retry in ${retryAfterSeconds} s`
            : `rate limit reached: ${limits.tpm} tokens per minute for this key; retry in ${retryAfterSeconds} s`;
        return { allowed: false, limit: verdict, retryAfterSeconds, message };
      }
      case 'budget': {
        const { period, usd } = budget as NonNullable<KeyLimits['budget']>;
        const end = budgetPeriod(period, now).end;
        const message = `budget exhausted: this key's ${PERIOD_ADJECTIVES[period]} budget of $${usd} is spent`;
        return { allowed: false, limit: 'budget', ...(end !== undefined && { retryAfterSeconds: secondsUntil(end, now) }), message };
      }
    }
  }

  async settle(ticket: AdmissionTicket, used: { tokens: number; costUsd: number | undefined }, at?: number): Promise<void> {
    if (!(ticket instanceof Ticket) || ticket.settled) return;
    ticket.settled = true;
    if (!ticket.stored) return;
    const now = at ?? Date.now();
    if (used.costUsd === undefined) this.logUnpriced(ticket.key);
    const names = this.names.of(ticket.key);
    const window = minuteWindow(now);
    try {
      await this.store.settle({
        now,
        ...(ticket.holdNano > 0 && { release: { holds: names.holds, id: ticket.id, nano: ticket.holdNano } }),
        tokens: names.tokens(window.start),
        tokenCount: Number.isFinite(used.tokens) && used.tokens > 0 ? Math.round(used.tokens) : 0,
        spent: names.everySpent(now),
        costNano: toNano(used.costUsd),
      });
      this.answered();
    } catch (error) {
      // The request was served: its count is lost for this outage, never its answer.
      this.down = true;
      this.logger.debug({ err: reasonOf(error) }, 'limits store: settle not counted');
    }
  }

  async usage(key: string, limits: KeyLimits, at?: number): Promise<{ spentUsd: number; requests: number; tokens: number }> {
    const now = at ?? Date.now();
    const names = this.names.of(key);
    const start = minuteWindow(now).start;
    try {
      const read = await this.store.read({
        now,
        requests: names.requests(start).name,
        tokens: names.tokens(start).name,
        spent: limits.budget && names.spent(limits.budget.period, now).name,
      });
      this.answered();
      return { spentUsd: read.spentNano / NANO_PER_USD, requests: read.requests, tokens: read.tokens };
    } catch (error) {
      this.failed(error);
      // A report must not show zeros it did not read.
      throw storeUnavailable('the limits store');
    }
  }

  close(): Promise<void> {
    return this.store.close();
  }

  /** Logs the first failure of an outage; refuses (503 in the client's protocol) when the store must be up. */
  private failed(error: unknown): void {
    if (!this.down)
      this.logger.error(
        { err: reasonOf(error), store: this.store.kind, onStoreDown: this.onStoreDown },
        this.onStoreDown === 'open'
          ? 'limits store unreachable; admitting requests without limits until it returns'
          : 'limits store unreachable; refusing limited requests until it returns',
      );
    this.down = true;
    if (this.onStoreDown === 'closed') throw storeUnavailable('the rate limits store');
  }

  private answered(): void {
    if (this.down) this.logger.info({ store: this.store.kind }, 'limits store reachable again');
    this.down = false;
  }

  private logUnpriced(key: string): void {
    if (this.unpricedLogged.has(key) || this.unpricedLogged.size >= UNPRICED_LOGGED_MAX) return;
    this.unpricedLogged.add(key);
    this.logger.warn({ keyName: key }, 'unpriced request counted as $0 against the key budget (logged once per key)');
  }
}

function finiteLimit(limit: number | undefined): number | undefined {
  return limit !== undefined && Number.isFinite(limit) ? Math.max(0, limit) : undefined;
}

/** Whole nano-dollars; anything not a positive finite number counts 0. */
function toNano(usd: number | undefined): number {
  return usd !== undefined && Number.isFinite(usd) && usd > 0 ? Math.round(usd * NANO_PER_USD) : 0;
}
