import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AwsCredentials } from './aws-credentials.js';
import type { Env } from './cloud-adapter.js';

/**
 * The key pair of one profile of the AWS shared credentials file (`AWS_SHARED_CREDENTIALS_FILE`,
 * default `~/.aws/credentials`; profile `AWS_PROFILE`, default `default`), the INI file the AWS
 * CLI writes: `aws_access_key_id`, `aws_secret_access_key` and `aws_session_token`. Undefined
 * when the file or the profile or its key pair is missing. Static keys only: profiles that assume
 * roles or use SSO need the AWS CLI to export their temporary keys as variables.
 */
export function sharedFileCredentials(env: Env): AwsCredentials | undefined {
  const path = env.AWS_SHARED_CREDENTIALS_FILE || join(env.HOME || homedir(), '.aws', 'credentials');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const profile = readProfile(text, env.AWS_PROFILE || 'default');
  const accessKeyId = profile.get('aws_access_key_id');
  const secretAccessKey = profile.get('aws_secret_access_key');
  if (!accessKeyId || !secretAccessKey) return undefined;
  const sessionToken = profile.get('aws_session_token');
  return sessionToken ? { accessKeyId, secretAccessKey, sessionToken } : { accessKeyId, secretAccessKey };
}

/** The `key = value` lines of `[name]` (comments `#` / `;` and other sections skipped). */
function readProfile(text: string, name: string): Map<string, string> {
  const values = new Map<string, string>();
  let inside = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (section) {
      inside = section[1] === name;
      continue;
    }
    const equals = line.indexOf('=');
    if (inside && equals > 0) values.set(line.slice(0, equals).trim().toLowerCase(), line.slice(equals + 1).trim());
  }
  return values;
}
