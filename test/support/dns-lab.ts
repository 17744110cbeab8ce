import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { queryDns } from '../../scanner/net/dns-client.ts';
import { killWithThisProcess } from './orphan-guard.ts';
import { waitFor } from './receiver.ts';

// An offline DNSSEC lab: zones signed at start with ldns-keygen/ldns-signzone, served by knot on a
// high port on 127.0.0.1 and ::1, and a validating unbound (ede: yes) whose trust anchor is the lab's
// parent zone. Debian packages knot, unbound and ldnsutils (.ci/run installs them).

export const LAB_PARENT = 'lab.test';

export interface LabZone {
  /** The zone's name below LAB_PARENT, e.g. "secure" for secure.lab.test. */
  label: string;
  /** Records of the zone besides SOA and NS, in zone-file syntax relative to the zone. */
  records: string[];
  /** Sign the zone and put its DS in the parent. */
  signed: boolean;
  /** After signing, replace this text of the signed file (a record changed after signing: bogus). */
  tamper?: [from: string, to: string];
  /** Sign with signatures that expired yesterday: every answer of the zone is bogus. */
  expired?: boolean;
  /** The zone's name servers, labels under LAB_PARENT: ns1 and ns2 have A and AAAA, ns3 has A only. */
  nameServers?: string[];
  /** The parent's DS names another key than the one that signs: the zone is bogus from the top. */
  wrongDs?: boolean;
  /** NSEC3 with opt-out instead of NSEC. */
  nsec3OptOut?: boolean;
  /** Delegated by the parent but served by no one: every question about it fails (SERVFAIL). */
  unserved?: boolean;
}

export interface DnsLab {
  /** unbound, as SCANNER_DNS_SERVERS takes it. */
  resolver: string;
  /** knot's port: name servers in the lab answer here instead of 53 (NS records carry no port). */
  nameServerPort: number;
  close: () => Promise<void>;
}

const BINARIES = ['/usr/sbin/knotd', '/usr/sbin/unbound', '/usr/bin/ldns-keygen', '/usr/bin/ldns-signzone'];

export function dnsLabAvailable(): boolean {
  try {
    for (const binary of BINARIES) execFileSync('test', ['-x', binary]);
    return true;
  } catch {
    return false;
  }
}

/** Whether the loopback interface has ::1 (containers sometimes run without IPv6). */
export function loopbackIpv6(): boolean {
  return Object.values(networkInterfaces()).some((addresses) =>
    (addresses ?? []).some((a) => a.family === 'IPv6' && a.address === '::1'),
  );
}

/** A TCP and UDP port free on both 127.0.0.1 and ::1. */
export async function freeDualPort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const probe = createServer();
      probe.once('error', reject);
      probe.listen(0, '::1', () => {
        const { port: chosen } = probe.address() as { port: number };
        probe.close(() => resolve(chosen));
      });
    });
    const freeOn4 = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (freeOn4) return port;
  }
}

const SOA = (zone: string) => `@ 3600 IN SOA ns1.${LAB_PARENT}. hostmaster.${zone}. 2026112601 3600 600 86400 300`;
const nsRecords = (labels = ['ns1', 'ns2']) => labels.map((label) => `@ 3600 IN NS ${label}.${LAB_PARENT}.`);
const NS = nsRecords();

function sign(
  dir: string,
  zone: string,
  file: string,
  how: Pick<LabZone, 'expired' | 'wrongDs' | 'nsec3OptOut'> = {},
): { signedFile: string; ds: string[] } {
  const keygen = (ksk: boolean) =>
    execFileSync('ldns-keygen', ['-a', 'ECDSAP256SHA256', ...(ksk ? ['-k'] : []), zone], { cwd: dir })
      .toString()
      .trim();
  const ksk = keygen(true);
  const zsk = keygen(false);
  // Valid from yesterday for 30 days: the lab's signatures never expire during a run. An expired
  // zone's were valid for a day, ten days ago.
  const day = (offset: number) =>
    new Date(Date.now() + offset * 86_400_000).toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const [from, until] = how.expired ? [day(-10), day(-9)] : [day(-1), day(30)];
  const nsec3 = how.nsec3OptOut ? ['-n', '-p'] : [];
  execFileSync('ldns-signzone', [...nsec3, '-i', from, '-e', until, '-o', zone, file, zsk, ksk], { cwd: dir });
  const published = how.wrongDs ? keygen(true) : ksk;
  const ds = readFileSync(join(dir, `${published}.ds`), 'utf8')
    .split('\n')
    .filter((line) => line.includes('\tDS\t') || / DS /.test(line))
    .map((line) => line.trim());
  return { signedFile: `${file}.signed`, ds };
}

/** A zone outside LAB_PARENT, served unsigned (another organisational domain, e.g. a DMARC report host's). */
export interface OuterZone {
  name: string;
  records: string[];
}

/**
 * Starts the lab with these child zones of LAB_PARENT; `parentRecords` go into the parent itself,
 * `outer` zones are served beside it (unsigned, outside the trust anchor).
 */
export async function startDnsLab(
  zones: LabZone[],
  parentRecords: string[] = [],
  outer: OuterZone[] = [],
): Promise<DnsLab> {
  const dir = mkdtempSync(join(tmpdir(), 'dns-lab-'));
  const [knotPort, unboundPort, deadPort] = [await freeDualPort(), await freeDualPort(), await freeDualPort()];
  const served: Array<{ name: string; file: string }> = [];
  const delegations: string[] = [];
  for (const zone of zones) {
    const name = `${zone.label}.${LAB_PARENT}`;
    const file = `${name}.zone`;
    const ns = nsRecords(zone.nameServers);
    writeFileSync(join(dir, file), [`$ORIGIN ${name}.`, SOA(name), ...ns, ...zone.records, ''].join('\n'));
    delegations.push(...ns.map((record) => record.replace('@', zone.label)));
    if (zone.signed) {
      const { signedFile, ds } = sign(dir, name, file, zone);
      delegations.push(...ds.map((line) => line.replace(/^(\S+)\.\s/, (_, owner: string) => `${owner}. `)));
      if (zone.tamper) {
        const path = join(dir, signedFile);
        writeFileSync(path, readFileSync(path, 'utf8').replace(zone.tamper[0], zone.tamper[1]));
      }
      if (!zone.unserved) served.push({ name, file: signedFile });
    } else if (!zone.unserved) served.push({ name, file });
  }
  const parentFile = `${LAB_PARENT}.zone`;
  writeFileSync(
    join(dir, parentFile),
    [
      `$ORIGIN ${LAB_PARENT}.`,
      SOA(LAB_PARENT),
      ...NS,
      'ns1 3600 IN A 127.0.0.1',
      'ns1 3600 IN AAAA ::1',
      'ns2 3600 IN A 127.0.0.1',
      'ns2 3600 IN AAAA ::1',
      'ns3 3600 IN A 127.0.0.1',
      ...parentRecords,
      ...delegations,
      '',
    ].join('\n'),
  );
  const parent = sign(dir, LAB_PARENT, parentFile);
  served.push({ name: LAB_PARENT, file: parent.signedFile });
  for (const zone of outer) {
    const file = `${zone.name}.zone`;
    writeFileSync(join(dir, file), [`$ORIGIN ${zone.name}.`, SOA(zone.name), ...NS, ...zone.records, ''].join('\n'));
    served.push({ name: zone.name, file });
  }
  const anchor = readdirSync(dir).find((f) => f.startsWith(`K${LAB_PARENT}.`) && f.endsWith('.ds'))!;
  writeFileSync(join(dir, 'anchor.ds'), readFileSync(join(dir, anchor), 'utf8'));

  writeFileSync(
    join(dir, 'knot.conf'),
    [
      'server:',
      `  rundir: "${dir}"`,
      `  listen: [ 127.0.0.1@${knotPort}, ::1@${knotPort} ]`,
      'database:',
      `  storage: "${dir}"`,
      'log:',
      '  - target: stderr',
      '    any: error',
      'zone:',
      ...served.flatMap((z) => [`  - domain: ${z.name}`, `    file: "${join(dir, z.file)}"`, '    zonefile-sync: -1']),
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'unbound.conf'),
    [
      'server:',
      `  interface: 127.0.0.1@${unboundPort}`,
      `  interface: ::1@${unboundPort}`,
      `  port: ${unboundPort}`,
      '  do-ip6: yes',
      '  do-not-query-localhost: no',
      '  username: ""',
      '  chroot: ""',
      `  directory: "${dir}"`,
      `  pidfile: "${join(dir, 'unbound.pid')}"`,
      '  use-syslog: no',
      '  logfile: ""',
      '  verbosity: 0',
      '  access-control: 127.0.0.0/8 allow',
      '  access-control: ::1 allow',
      '  module-config: "validator iterator"',
      `  trust-anchor-file: "${join(dir, 'anchor.ds')}"`,
      '  ede: yes',
      // RFC 6761's test. is answered here (NXDOMAIN, as the root would answer it): nothing under it
      // goes out to a root server this machine cannot reach, except the lab's own zones.
      '  local-zone: "test." static',
      `  local-zone: "${LAB_PARENT}." transparent`,
      ...outer.map((z) => `  local-zone: "${z.name}." transparent`),
      '  val-log-level: 0',
      '  harden-dnssec-stripped: yes',
      '  cache-max-ttl: 0',
      '  cache-max-negative-ttl: 0',
      '  qname-minimisation: no',
      // An unserved zone's stub points at a port where nothing listens: every question fails.
      ...[{ label: null, unserved: false }, ...zones].flatMap((z) => [
        'stub-zone:',
        `  name: "${z.label ? `${z.label}.` : ''}${LAB_PARENT}"`,
        `  stub-addr: 127.0.0.1@${z.unserved ? deadPort : knotPort}`,
      ]),
      ...outer.flatMap((z) => ['stub-zone:', `  name: "${z.name}"`, `  stub-addr: 127.0.0.1@${knotPort}`]),
      '',
    ].join('\n'),
  );
  // Tied to the test process: a killed test run leaves no name server holding its ports.
  const children: ChildProcess[] = [
    killWithThisProcess(
      spawn('/usr/sbin/knotd', ['-c', join(dir, 'knot.conf')], { stdio: ['ignore', 'ignore', 'pipe'] }),
    ),
    killWithThisProcess(
      spawn('/usr/sbin/unbound', ['-d', '-c', join(dir, 'unbound.conf')], { stdio: ['ignore', 'ignore', 'pipe'] }),
    ),
  ];
  let errors = '';
  for (const child of children) child.stderr?.on('data', (chunk) => (errors += chunk));
  const answers = (port: number) =>
    queryDns(LAB_PARENT, 'SOA', { servers: [{ address: '127.0.0.1', port }], timeoutMs: 300 }).then(
      (response) => response.rcode === 'NOERROR',
      () => false,
    );
  try {
    await waitFor(async () => (await answers(knotPort)) && (await answers(unboundPort)), 15_000);
  } catch {
    for (const child of children) child.kill('SIGKILL');
    throw new Error(`the DNS lab in ${dir} did not start: ${errors.slice(0, 2000)}`);
  }
  return {
    resolver: `127.0.0.1:${unboundPort}`,
    nameServerPort: knotPort,
    close: async () => {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGTERM');
            }),
        ),
      );
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
