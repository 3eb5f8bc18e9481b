import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installPackages } from '../../../../scripts/services.mjs';

/** A private CA and a server certificate it signed, as PEM files in a temp dir. */
export interface TestCertificates {
  dir: string;
  /** The CA's certificate: what a client must trust. */
  caPath: string;
  ca: string;
  /** The server's key and certificate, for 127.0.0.1 and localhost. */
  key: string;
  cert: string;
  remove(): void;
}

/**
 * Installs the `openssl` command when it is missing (Debian's package, as the service tests
 * install PostgreSQL): the certificates are made with it, and a test that skipped without it
 * would prove nothing.
 */
export function ensureOpenssl(): void {
  if (spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0) return;
  installPackages(['openssl']);
}

/**
 * Makes a private CA and a server certificate for 127.0.0.1 / localhost with the `openssl` CLI
 * (Node has no API to issue certificates). EC keys: generated in milliseconds. Valid for two days,
 * as nothing outlives the test run.
 */
export function makeTestCertificates(): TestCertificates {
  ensureOpenssl();
  const dir = mkdtempSync(join(tmpdir(), 'llm-tls-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ecKey,
    '-keyout',
    'ca-key.pem',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=llm test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign',
  );
  openssl('req', '-new', ...ecKey, '-keyout', 'key.pem', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  openssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca-key.pem',
    '-set_serial',
    '1',
    '-days',
    '2',
    '-extfile',
    'server.ext',
    '-out',
    'cert.pem',
  );
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  return {
    dir,
    caPath: join(dir, 'ca.pem'),
    ca: read('ca.pem'),
    key: read('key.pem'),
    cert: read('cert.pem'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
