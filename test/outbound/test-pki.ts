import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throwaway CA and one server certificate it signed, made by the system's openssl (EC P-256, valid 1 day). */
export interface TestPki {
  /** PEM of the CA: pass as `ca` to trust the server certificate. */
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
}

const openssl = (args: string[], cwd: string) => execFileSync('openssl', args, { cwd, stdio: 'pipe' });

/** `names` become DNS SANs, `ips` IP SANs; the first name (or IP) is also the subject CN. */
export function makeTestPki(subject: { names?: readonly string[]; ips?: readonly string[] }): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'tg-pki-'));
  try {
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    openssl(
      [
        'req',
        '-x509',
        ...ec,
        '-days',
        '1',
        '-subj',
        '/CN=Toolgate Test CA',
        '-addext',
        'basicConstraints=critical,CA:TRUE',
        '-addext',
        'keyUsage=critical,keyCertSign,cRLSign',
        '-keyout',
        'ca.key',
        '-out',
        'ca.pem',
      ],
      dir,
    );
    const names = subject.names ?? [];
    const ips = subject.ips ?? [];
    const cn = names[0] ?? ips[0] ?? 'localhost';
    openssl(['req', ...ec, '-subj', `/CN=${cn}`, '-keyout', 'leaf.key', '-out', 'leaf.csr'], dir);
    const sans = [...names.map((n) => `DNS:${n}`), ...ips.map((i) => `IP:${i}`)].join(',');
    writeFileSync(
      join(dir, 'ext.cnf'),
      `basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=${sans}\n`,
    );
    openssl(
      [
        'x509',
        '-req',
        '-in',
        'leaf.csr',
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-days',
        '1',
        '-extfile',
        'ext.cnf',
        '-out',
        'leaf.pem',
      ],
      dir,
    );
    const read = (f: string) => readFileSync(join(dir, f), 'utf8');
    return { ca: read('ca.pem'), cert: read('leaf.pem'), key: read('leaf.key') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
