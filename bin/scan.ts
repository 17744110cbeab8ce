import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../services/config.ts';
import { scanSite, ScanError, SEVERITIES, TargetRefusedError, type ScanResult } from '../scanner/index.ts';

const USAGE = `Usage: npm run -s scan -- <url> [--json]

Scans one website (SSL/TLS, security headers, exposed endpoints) and prints the report, or the
result as JSON with --json. Settings from the environment (or .env): SCANNER_ALLOW_PRIVATE_TARGETS,
SCANNER_REQUEST_TIMEOUT, SCANNER_DEADLINE, SCANNER_DNS_SERVERS.`;

function report(result: ScanResult): string {
  const lines = [
    `Scan van ${result.url} (${result.scanned_at})`,
    `Cijfer: ${result.grade}   Score: ${result.score}/100`,
    `  SSL/TLS ${result.ssl_score}   Headers ${result.headers_score}   Endpoints ${result.endpoints_score}`,
    `Platform: ${result.detected_platform ?? 'niet herkend'}   Verzoeken: ${result.requests_made}`,
    '',
  ];
  for (const severity of SEVERITIES) {
    const findings = result.findings.filter((f) => f.severity === severity);
    if (findings.length === 0) continue;
    lines.push(`${severity} (${findings.length})`);
    for (const f of findings) lines.push(`  - ${f.title} [${f.finding_type}]`, `    ${f.endpoint}${f.actual_value ? `  (${f.actual_value})` : ''}`);
    lines.push('');
  }
  if (result.findings.length === 0) lines.push('Geen bevindingen.');
  if (result.failed_checks.length > 0) lines.push(`Niet uitgevoerd: ${result.failed_checks.join(', ')}`);
  return lines.join('\n');
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } } });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 1) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig();
  const result = await scanSite(positionals[0]!, {
    allowPrivateTargets: config.SCANNER_ALLOW_PRIVATE_TARGETS,
    dnsServers: config.SCANNER_DNS_SERVERS,
    requestTimeoutMs: config.SCANNER_REQUEST_TIMEOUT,
    deadlineMs: config.SCANNER_DEADLINE,
    onProgress: (message) => process.stderr.write(`… ${message}\n`),
  });
  process.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : `${report(result)}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const known = error instanceof ScanError || error instanceof ConfigError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    // On the command line the operator can change the guard; say how.
    const hint = error instanceof TargetRefusedError ? '\nLoopback and private addresses are refused unless SCANNER_ALLOW_PRIVATE_TARGETS=true is set.' : '';
    process.stderr.write(`${known ? (error as Error).message : `Unexpected error: ${String(error)}`}${hint}\n${known ? '' : `${USAGE}\n`}`);
    process.exit(1);
  },
);
