// npm run compare:testssl — runs testssl.sh and the scanner against the TLS fixture servers of the
// test suite and prints, per server, what each reports at MEDIUM or above side by side, and the
// NCSC-NL guideline's verdict on the server as the scanner finds it against the expected one.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CATALOG } from '../scanner/catalog/index.ts';
import { SEVERITIES, type Severity } from '../scanner/vocabulary.ts';
import { createCa } from '../test/support/test-ca.ts';

const SERIOUS = ['CRITICAL', 'HIGH', 'MEDIUM'];

/** testssl.sh result ids (and finding texts) and the scanner's finding types that diagnose the same. */
const MAPPING: Array<{ id: RegExp; finding?: RegExp; types: string[] }> = [
  { id: /^cert_chain_of_trust/, finding: /chain incomplete/, types: ['tls_certificate_chain_incomplete'] },
  { id: /^cert_chain_of_trust/, finding: /self signed/, types: ['tls_certificate_self_signed'] },
  { id: /^cert_chain_of_trust/, finding: /expired/, types: ['tls_certificate_expired'] },
  {
    id: /^cert_chain_of_trust/,
    types: ['tls_certificate_untrusted', 'tls_certificate_chain_incomplete', 'tls_certificate_self_signed'],
  },
  {
    id: /^cert_(expirationStatus|notAfter)/,
    finding: /expired|^\d{4}-/,
    types: [
      'tls_certificate_expired',
      'tls_certificate_expires_within_14_days',
      'tls_certificate_expires_within_30_days',
    ],
  },
  {
    id: /^cert_(expirationStatus|notAfter)/,
    types: ['tls_certificate_expires_within_14_days', 'tls_certificate_expires_within_30_days'],
  },
  { id: /^cert_keySize/, types: ['tls_certificate_weak_key', 'tls_certificate_broken_key'] },
  { id: /^cert_signatureAlgorithm/, types: ['tls_certificate_weak_signature'] },
  { id: /^cert_subjectAltName/, types: ['tls_certificate_no_subject_alt_name'] },
  { id: /^cert_trust/, types: ['tls_certificate_hostname_mismatch'] },
  // A missing TLS 1.2 is MEDIUM for testssl.sh 3.0; the scanner reports the obsolete version served
  // instead (HIGH) and, as browsers refuse such servers, tls_modern_protocols_missing (CRITICAL).
  { id: /^TLS1_[23]$/, types: ['tls_modern_protocols_missing', 'tls_1_0_supported', 'tls_1_1_supported'] },
  { id: /^TLS1(_1)?$/, types: ['tls_1_0_supported', 'tls_1_1_supported'] },
  { id: /^P?FS$/, types: ['tls_no_forward_secrecy'] },
  { id: /^cipherlist_NULL$/, types: ['tls_cipher_null'] },
  { id: /^cipherlist_aNULL$/, types: ['tls_cipher_anonymous'] },
  { id: /^cipherlist_EXPORT$/, types: ['tls_cipher_export'] },
  { id: /^cipherlist_LOW$/, types: ['tls_cipher_rc4'] },
  { id: /^cipherlist_3DES_IDEA$/, types: ['tls_cipher_3des'] },
  { id: /^cipherlist_STRONG$/, types: ['tls_no_aead'] },
  { id: /^cipher_order/, types: ['tls_cipher_order_missing', 'tls_cipher_order_weak_first'] },
  { id: /^(DH_groups|LOGJAM)/, types: ['tls_dh_group_insufficient'] },
  { id: /^(FS_ECDHE_curves|PFS_ECDHE_curves)/, types: ['tls_curve_insufficient', 'tls_curve_phase_out'] },
  { id: /^SWEET32$/, types: ['tls_cipher_3des'] },
  { id: /^RC4$/, types: ['tls_cipher_rc4'] },
  { id: /^(FREAK|LOGJAM-common_primes)$/, types: ['tls_cipher_export', 'tls_dh_group_insufficient'] },
  { id: /^BEAST/, types: ['tls_1_0_supported'] },
  {
    id: /^(LUCKY13|cipherlist_OBSOLETED|cipherlist_AVERAGE)$/,
    types: ['tls_cipher_cbc_sha1', 'tls_cipher_static_rsa', 'tls_no_aead'],
  },
  { id: /^secure_renego$/, types: ['tls_secure_renegotiation_missing'] },
  { id: /^secure_client_renego$/, types: ['tls_client_renegotiation_allowed'] },
  { id: /^CRIME_TLS$/, types: ['tls_compression_enabled'] },
];

interface TestsslEntry {
  id: string;
  severity: string;
  finding: string;
}

const rank = (severity: string) => SEVERITIES.length - SEVERITIES.indexOf(severity as Severity);

/** Runs testssl.sh without blocking: the fixture server answering it lives in this process. */
async function testssl(url: string, caFile: string, dir: string): Promise<TestsslEntry[]> {
  const out = join(dir, `testssl-${Date.now()}.json`);
  await promisify(execFile)(
    'testssl',
    [
      '--quiet',
      '--warnings',
      'off',
      '--openssl-timeout',
      '5',
      '--add-ca',
      caFile,
      '-p',
      '-S',
      '-s',
      '-f',
      '-P',
      '-J',
      '-R',
      '--jsonfile',
      out,
      url,
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  ).catch(() => undefined);
  return (JSON.parse(readFileSync(out, 'utf8')) as TestsslEntry[]).filter((entry) => SERIOUS.includes(entry.severity));
}

async function compare(dir: string): Promise<number> {
  const { scanSite } = await import('../scanner/index.ts');
  const { ncscVerdict } = await import('../scanner/report/scoring.ts');
  const { TLS_CASES, startTlsSite } = await import('../test/support/tls-sites.ts');
  const rows: string[] = [
    '| server | testssl.sh (MEDIUM and above) | scanner (MEDIUM and above) | NCSC guideline (scanner / table) | agrees |',
    '|---|---|---|---|---|',
  ];
  let disagreements = 0;
  for (const tlsCase of TLS_CASES) {
    const site = await startTlsSite(tlsCase);
    try {
      process.stderr.write(`… ${tlsCase.name}\n`);
      const result = await scanSite(site.url, { allowPrivateTargets: true, probeExposures: false });
      const ours = result.findings.filter((f) => f.category === 'SSL_TLS' && f.severity !== 'LOW');
      const theirs = await testssl(site.url, join(dir, 'ca.pem'), dir);
      const verdicts = theirs.map((entry) => {
        const rule = MAPPING.find((m) => m.id.test(entry.id) && (!m.finding || m.finding.test(entry.finding)));
        if (!rule) return { entry, agrees: null };
        const match = ours.find(
          (f) => rule.types.includes(f.finding_type) && Math.abs(rank(f.severity) - rank(entry.severity)) <= 1,
        );
        return { entry, agrees: Boolean(match) };
      });
      const compared = verdicts.filter((v) => v.agrees !== null);
      const ncsc = ncscVerdict(result.findings);
      const agrees = compared.every((v) => v.agrees) && ncsc === tlsCase.ncsc;
      if (!agrees) disagreements += 1;
      const describe =
        verdicts
          .map((v) => `${v.entry.id} ${v.entry.severity}${v.agrees === null ? ' (not compared)' : ''}`)
          .join('<br>') || 'nothing';
      const scanner =
        ours.map((f) => `${f.finding_type} ${CATALOG[f.finding_type]!.severity}`).join('<br>') || 'nothing';
      rows.push(
        `| ${tlsCase.name} | ${describe} | ${scanner} | ${ncsc} / ${tlsCase.ncsc} | ${agrees ? 'yes' : '**no**'} |`,
      );
    } finally {
      await site.close();
    }
  }
  process.stdout.write(`${rows.join('\n')}\n`);
  return disagreements === 0 ? 0 : 1;
}

if (process.argv.includes('--help')) {
  process.stdout.write(
    'Usage: npm run compare:testssl\n\nStarts the TLS fixture servers, runs testssl.sh (Debian package testssl.sh) and the scanner on each,\nand prints what each reports at MEDIUM or above with the NCSC guideline verdict; exit 1 when they disagree.\n',
  );
  process.exit(0);
}
if (process.env.COMPARE_TESTSSL_CHILD) {
  process.exitCode = await compare(process.env.TEST_CA_DIR!);
} else {
  try {
    execFileSync('testssl', ['--version'], { stdio: 'ignore' });
  } catch {
    process.stderr.write(
      'testssl.sh is not installed: apt-get install -y testssl.sh (Debian package testssl.sh, command testssl)\n',
    );
    process.exit(1);
  }
  // The fixture servers' certificates come from a test CA that Node must trust from its start.
  const dir = mkdtempSync(join(tmpdir(), 'scanner-testssl-'));
  const ca = createCa();
  writeFileSync(join(dir, 'ca.pem'), ca.certPem);
  writeFileSync(join(dir, 'ca-key.pem'), ca.keyPem);
  const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!], {
    stdio: 'inherit',
    env: { ...process.env, COMPARE_TESTSSL_CHILD: '1', TEST_CA_DIR: dir, NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem') },
  });
  rmSync(dir, { recursive: true, force: true });
  process.exit(child.status ?? 1);
}
