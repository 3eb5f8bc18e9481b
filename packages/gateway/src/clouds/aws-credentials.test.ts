import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { awsCredentials, awsRegion } from './aws-credentials.js';
import type { ConfiguredUpstream } from './cloud-adapter.js';

const BEDROCK = { protocol: 'claude', flavor: 'bedrock' } as ConfiguredUpstream;
const file = join(mkdtempSync(join(tmpdir(), 'aws-')), 'credentials');
writeFileSync(
  file,
  [
    '# the AWS CLI writes this',
    '[default]',
    'aws_access_key_id = AKIDDEFAULT',
    'aws_secret_access_key = default-secret',
    '',
    '[work]',
    'aws_access_key_id=ASIAWORK',
    'aws_secret_access_key=work-secret',
    'aws_session_token=work-token',
    '[empty]',
  ].join('\n'),
);

describe('AWS credentials', () => {
  it('takes the config first, then the AWS_* variables, then the shared file', () => {
    const env = { AWS_ACCESS_KEY_ID: 'AKIDENV', AWS_SECRET_ACCESS_KEY: 'env-secret', AWS_SESSION_TOKEN: 'env-token', AWS_SHARED_CREDENTIALS_FILE: file };
    expect(awsCredentials({ ...BEDROCK, accessKeyId: 'AKIDCONF', secretAccessKey: 'conf-secret', sessionToken: '' }, env)).toEqual({
      accessKeyId: 'AKIDCONF',
      secretAccessKey: 'conf-secret',
    });
    expect(awsCredentials(BEDROCK, env)).toEqual({ accessKeyId: 'AKIDENV', secretAccessKey: 'env-secret', sessionToken: 'env-token' });
    expect(awsCredentials(BEDROCK, { AWS_SHARED_CREDENTIALS_FILE: file })).toEqual({ accessKeyId: 'AKIDDEFAULT', secretAccessKey: 'default-secret' });
    expect(awsCredentials(BEDROCK, { AWS_SHARED_CREDENTIALS_FILE: file, AWS_PROFILE: 'work' })).toEqual({
      accessKeyId: 'ASIAWORK',
      secretAccessKey: 'work-secret',
      sessionToken: 'work-token',
    });
  });

  it('finds none in an empty profile or a missing file', () => {
    expect(awsCredentials(BEDROCK, { AWS_SHARED_CREDENTIALS_FILE: file, AWS_PROFILE: 'empty' })).toBeUndefined();
    expect(awsCredentials(BEDROCK, { AWS_SHARED_CREDENTIALS_FILE: join(tmpdir(), 'no-such-aws-file') })).toBeUndefined();
  });

  it('takes the region from the config, then AWS_REGION, then AWS_DEFAULT_REGION', () => {
    expect(awsRegion({ ...BEDROCK, region: 'eu-west-1' }, { AWS_REGION: 'us-east-1' })).toBe('eu-west-1');
    expect(awsRegion(BEDROCK, { AWS_REGION: '', AWS_DEFAULT_REGION: 'ap-south-1' })).toBe('ap-south-1');
    expect(awsRegion(BEDROCK, {})).toBeUndefined();
  });
});
