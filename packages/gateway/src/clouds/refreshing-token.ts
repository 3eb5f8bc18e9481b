/** An access token and how long it stays valid, as a token endpoint answers. */
export interface IssuedToken {
  token: string;
  /** Milliseconds from issue until the token expires. */
  lifetimeMs: number;
}

/**
 * How long before its expiry a token is replaced (default five minutes, as Google's and Azure's
 * own libraries do): a request signed just before expiry could otherwise reach the cloud just
 * after it. A token living less than twice this is replaced at half its life instead.
 */
export const DEFAULT_REFRESH_MARGIN_MS = 300_000;

/**
 * A cached OAuth2 access token, fetched on first use and again once it is within its refresh
 * margin of expiry. Concurrent callers share one fetch; a failed fetch is not cached (the next
 * call tries again).
 */
export class RefreshingToken {
  private current: { token: string; refreshAt: number } | undefined;
  private pending: Promise<string> | undefined;

  constructor(
    private readonly issue: () => Promise<IssuedToken>,
    private readonly now: () => number = Date.now,
    private readonly marginMs = DEFAULT_REFRESH_MARGIN_MS,
  ) {}

  get(): Promise<string> {
    if (this.current && this.now() < this.current.refreshAt) return Promise.resolve(this.current.token);
    this.pending ??= this.issue().then(
      ({ token, lifetimeMs }) => {
        this.current = { token, refreshAt: this.now() + lifetimeMs - Math.min(this.marginMs, lifetimeMs / 2) };
        this.pending = undefined;
        return token;
      },
      (error: unknown) => {
        this.pending = undefined;
        throw error;
      },
    );
    return this.pending;
  }
}
