import { sharedFileCredentials } from './aws-shared-credentials.js';
import type { ConfiguredUpstream, Env } from './cloud-adapter.js';

/** An AWS access key, with its session token when it is temporary (STS, SSO, an assumed role). */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/**
 * A Bedrock upstream's credentials: its `accessKeyId` / `secretAccessKey` / `sessionToken`, else the standard
 * `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` / `AWS_SESSION_TOKEN` variables, else the shared
 * credentials file (`AWS_PROFILE`). Undefined when none names a key pair (the config check reports it).
 */
export function awsCredentials(upstream: ConfiguredUpstream, env: Env): AwsCredentials | undefined {
  if (upstream.accessKeyId && upstream.secretAccessKey) return keyPair(upstream.accessKeyId, upstream.secretAccessKey, upstream.sessionToken);
  if (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) return keyPair(env.AWS_ACCESS_KEY_ID, env.AWS_SECRET_ACCESS_KEY, env.AWS_SESSION_TOKEN);
  return sharedFileCredentials(env);
}

/** A key pair, with its session token only when there is one (an empty token is none). */
function keyPair(accessKeyId: string, secretAccessKey: string, sessionToken: string | undefined): AwsCredentials {
  return sessionToken ? { accessKeyId, secretAccessKey, sessionToken } : { accessKeyId, secretAccessKey };
}

/** Credentials fetched when needed (the SDK's default chain), refreshed before they expire. */
export type AwsCredentialProvider = () => Promise<AwsCredentials>;

/**
 * The AWS SDK's default credential chain (`@aws-sdk/credential-provider-node`, loaded on the first
 * signature): environment, SSO and assumed-role profiles, `credential_process`, EKS web identity,
 * ECS and EC2 instance roles. The SDK caches what it fetched and fetches again when it is within
 * five minutes of its expiry. It reads the process's own environment (the AWS SDK has no other).
 */
export function awsCredentialChain(): AwsCredentialProvider {
  let provider: Promise<AwsCredentialProvider> | undefined;
  return async () => {
    provider ??= import('@aws-sdk/credential-provider-node').then(({ defaultProvider }) => defaultProvider());
    const { accessKeyId, secretAccessKey, sessionToken } = await (await provider)();
    return keyPair(accessKeyId, secretAccessKey, sessionToken);
  };
}

/** A Bedrock upstream's region: its `region`, else `AWS_REGION`, else `AWS_DEFAULT_REGION`. */
export function awsRegion(upstream: ConfiguredUpstream, env: Env): string | undefined {
  return upstream.region ?? (env.AWS_REGION || undefined) ?? (env.AWS_DEFAULT_REGION || undefined);
}
