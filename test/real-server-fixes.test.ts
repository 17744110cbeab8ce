import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanSite, type ScanResult } from '../scanner/index.ts';
import { FIX_TABLES, fixesFor } from '../scanner/fixes/index.ts';
import { CATALOG, type FindingType } from '../scanner/catalog/index.ts';
import { NO_CONFIGURATION_FIX } from '../scanner/fixes/no-configuration-fix.ts';
import { scoreBreakdown, SCORE_CAPS } from '../scanner/report/scoring.ts';
import { realServersAvailable, startApache, startNginx, type RealServer } from './support/real-servers.ts';

const scan = (server: RealServer) => scanSite(server.url, { allowPrivateTargets: true });
const typesOf = (result: ScanResult) => result.findings.map((f) => f.finding_type);

/**
 * Applies every fix of the target for the scan's findings as a site owner would: each snippet once,
 * in the context it names, replacing the directives of the same name; then the server's own config
 * test and a restart on the same port.
 */
function directivesFor(target: 'nginx' | 'apache', result: ScanResult, context: string): string {
  const snippets = new Set<string>();
  for (const finding of result.findings) {
    const fix = fixesFor(finding.finding_type, target, null).find((f) => f.target === target);
    if (fix && (fix.context ?? 'server') === context) snippets.add(fix.snippet);
  }
  return [...snippets].join('\n');
}

describe.runIf(realServersAvailable() || process.env.CI)(
  'fixes on real servers, configured as Debian ships them',
  () => {
    it.each([
      ['nginx', startNginx, 'server', 'http'],
      ['apache', startApache, 'virtualhost', 'server'],
    ] as const)(
      '%s: every fixed finding is gone after applying the fixes, nothing new appears, and the grade is goed or better',
      { timeout: 60_000 },
      async (target, start, inner, outer) => {
        const server = await start();
        try {
          const before = await scan(server);
          expect(before.detected_server).toBe(target);
          const fixed = typesOf(before).filter((type) => FIX_TABLES[target]?.[type]);
          expect(fixed.length).toBeGreaterThan(8);
          // The files a deploy left behind are found, and their fixes are among those applied.
          const exposed = [
            'exposed_git_head',
            'exposed_git_config',
            'exposed_env_file',
            'exposed_sql_dump',
            'exposed_htpasswd',
            'exposed_debug_log',
            'exposed_config_backup',
          ];
          expect(fixed).toEqual(expect.arrayContaining(exposed));
          await server.reconfigure(directivesFor(target, before, inner), directivesFor(target, before, outer));
          const after = await scan(server);
          expect(typesOf(after).filter((type) => fixed.includes(type))).toEqual([]);
          // The probes were refused, not answered with the file under another status.
          for (const path of ['/.git/config', '/.env', '/backup.sql', '/.htpasswd', '/wp-content/debug.log']) {
            expect((await fetch(new URL(path, server.url))).status, path).toBe(403);
          }
          expect((await fetch(new URL('/index.html', server.url))).status).toBe(200);
          expect(typesOf(after).filter((type) => !typesOf(before).includes(type))).toEqual([]);
          expect(['uitstekend', 'goed']).toContain(after.grade);
          expect(after.detected_server).toBe(target);
        } finally {
          await server.close();
        }
      },
    );
  },
);

describe.runIf(realServersAvailable() || process.env.CI)('every fix of a server, applied at once', () => {
  it.each([
    ['nginx', startNginx, 'server', 'http'],
    ['apache', startApache, 'virtualhost', 'server'],
  ] as const)(
    '%s passes its own config test and serves the site',
    { timeout: 60_000 },
    async (target, start, inner, outer) => {
      const server = await start();
      try {
        const entries = [...new Set(Object.values(FIX_TABLES[target] ?? {}))];
        const inContext = (context: string) =>
          [...new Set(entries.filter((fix) => (fix!.context ?? 'server') === context).map((fix) => fix!.snippet))].join(
            '\n',
          );
        // Cookie, proxy and WordPress fixes are checked here: the round trip above has no application behind the server.
        await server.reconfigure(inContext(inner), inContext(outer));
        expect((await fetch(new URL('/index.html', server.url))).status).toBe(200);
      } finally {
        await server.close();
      }
    },
  );
});

describe('fix tables', () => {
  it('give every finding type fixes, or say why no configuration fixes it', () => {
    const covered = new Set(Object.values(FIX_TABLES).flatMap((table) => Object.keys(table ?? {})));
    const neither = Object.keys(CATALOG).filter(
      (type) => !covered.has(type) && !NO_CONFIGURATION_FIX[type as FindingType],
    );
    expect(neither).toEqual([]);
    // A reason for a type that has fixes would hide them.
    expect(Object.keys(NO_CONFIGURATION_FIX).filter((type) => covered.has(type))).toEqual([]);
    for (const type of [
      'exposed_git_config',
      'exposed_env_file',
      'exposed_sql_dump',
      'directory_listing',
      'cookie_missing_secure',
    ]) {
      expect(
        fixesFor(type as FindingType, null, null).map((fix) => fix.target),
        type,
      ).toEqual(expect.arrayContaining(['nginx', 'apache']));
    }
  });

  it('gives the detected server first, then the platform, then the common targets', () => {
    expect(fixesFor('hsts_missing', 'apache', 'wordpress').map((f) => f.target)).toEqual(['apache', 'wordpress']);
    expect(fixesFor('hsts_missing', null, null).map((f) => f.target)).toEqual([
      'nginx',
      'apache',
      'caddy',
      'cloudflare',
      'vercel',
      'netlify',
    ]);
    expect(fixesFor('caa_missing', 'nginx', null).map((f) => f.target)).toEqual(['dns']);
    expect(fixesFor('supabase_table_personal_data_readable', null, 'lovable').map((f) => f.target)).toEqual([
      'supabase',
    ]);
  });

  it('writes next.config.mjs files that Node can parse', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nextjs-fix-'));
    for (const [type, fix] of Object.entries(FIX_TABLES.nextjs ?? {})) {
      // Shell commands (npm install for a vulnerable version) are no configuration file.
      if (fix!.language !== 'javascript') continue;
      const file = join(dir, `${type}.mjs`);
      writeFileSync(file, fix!.snippet);
      execFileSync(process.execPath, ['--check', file]);
    }
  });

  it('explains every score exactly: start plus points, clamped, under the smallest cap', () => {
    const sets: FindingType[][] = [
      [],
      ['hsts_missing'],
      [
        'https_unavailable',
        'tls_cipher_static_rsa',
        'csp_missing',
        'exposed_git_config',
        'exposed_env_file',
        'exposed_sql_dump',
      ],
      Array(9).fill('exposed_git_config'),
    ];
    const severity = {
      hsts_missing: 'MEDIUM',
      https_unavailable: 'CRITICAL',
      tls_cipher_static_rsa: 'MEDIUM',
      csp_missing: 'MEDIUM',
      exposed_git_config: 'CRITICAL',
      exposed_env_file: 'CRITICAL',
      exposed_sql_dump: 'CRITICAL',
    } as const;
    const category = {
      hsts_missing: 'SSL_TLS',
      https_unavailable: 'SSL_TLS',
      tls_cipher_static_rsa: 'SSL_TLS',
      csp_missing: 'SECURITY_HEADER',
      exposed_git_config: 'EXPOSED_ENDPOINT',
      exposed_env_file: 'EXPOSED_ENDPOINT',
      exposed_sql_dump: 'EXPOSED_ENDPOINT',
    } as const;
    for (const set of sets) {
      const findings = set.map((type, i) => ({
        id: String(i),
        finding_type: type,
        severity: severity[type as keyof typeof severity],
        category: category[type as keyof typeof category],
      }));
      const breakdown = scoreBreakdown(findings);
      const total = Math.min(
        100,
        Math.max(0, breakdown.start + breakdown.items.reduce((sum, item) => sum + item.points, 0)),
      );
      const score = Math.min(total, ...breakdown.caps.map((c) => c.max));
      const lost = { SSL_TLS: 0, SECURITY_HEADER: 0, EXPOSED_ENDPOINT: 0 };
      for (const f of findings) lost[f.category] += { CRITICAL: 40, HIGH: 20, MEDIUM: 8, LOW: 2 }[f.severity];
      const weighted = Math.round(
        0.4 * Math.max(0, 100 - lost.SSL_TLS) +
          0.3 * Math.max(0, 100 - lost.SECURITY_HEADER) +
          0.3 * Math.max(0, 100 - lost.EXPOSED_ENDPOINT),
      );
      const caps = SCORE_CAPS.filter((c) => findings.some((f) => c.applies(f))).map((c) => c.cap);
      expect(score, set.join(',')).toBe(Math.min(weighted, ...caps));
    }
  });
});
