import { GOOGLE_CLOUD_SCOPE } from './google-service-account.js';

/**
 * Application Default Credentials through google-auth-library, loaded only when a Vertex upstream
 * names no key file and no token: `GOOGLE_APPLICATION_CREDENTIALS`, gcloud's user credentials,
 * workload identity, or the metadata server on Google Cloud. The library caches the token and
 * refreshes it before expiry itself.
 */
export function applicationDefaultToken(): () => Promise<string> {
  let client: Promise<{ getAccessToken(): Promise<{ token?: string | null }> }> | undefined;
  return async () => {
    client ??= import('google-auth-library').then(({ GoogleAuth }) => new GoogleAuth({ scopes: [GOOGLE_CLOUD_SCOPE] }).getClient());
    try {
      const { token } = await (await client).getAccessToken();
      if (!token) throw new Error('Application Default Credentials gave no access token');
      return token;
    } catch (error) {
      // Found no credentials (yet): look again on the next request rather than never.
      client = undefined;
      throw error;
    }
  };
}
