// Issues and checks bearer tokens for the cloud mocks: each issued token is valid until its
// expiry, so a gateway that reused a token past it (no refresh) is refused with a 401.

/** The request headers a cloud mock reads. */
export type MockHeaders = Pick<Headers, 'get' | 'has'>;

export interface TokenIssuer {
  /** Answers a token request's form: 200 with a new token, or 400 `invalid_grant`. */
  issue(form: URLSearchParams): { status: number; body: Record<string, unknown> };
  /** Whether `authorization` carries a token issued here and not yet expired. */
  accepts(authorization: string | null): boolean;
  /** How many tokens were issued. */
  readonly issued: number;
}

export function issuer(prefix: string, lifetimeS: number, problem: (form: URLSearchParams) => string | undefined): TokenIssuer {
  const expiry = new Map<string, number>();
  return {
    issue(form) {
      const why = problem(form);
      if (why) return { status: 400, body: { error: 'invalid_grant', error_description: `mock refuses: ${why}` } };
      const token = `${prefix}${expiry.size + 1}`;
      expiry.set(token, Date.now() + lifetimeS * 1000);
      return { status: 200, body: { access_token: token, expires_in: lifetimeS, token_type: 'Bearer' } };
    },
    accepts(authorization) {
      const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
      const until = token === undefined ? undefined : expiry.get(token);
      return until !== undefined && Date.now() < until;
    },
    get issued() {
      return expiry.size;
    },
  };
}
