import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../server/config.ts';
import { scanSite, ScanError, SEVERITIES, type ScanResult } from '../scanner/index.ts';

const USAGE = 'Usage: npm run scan -- <url> [--json]';

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
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { json: { type: 'boolean', default: false } } });
  if (positionals.length !== 1) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const config = loadConfig();
  const result = await scanSite(positionals[0]!, {
    allowPrivateTargets: config.SCANNER_ALLOW_PRIVATE_TARGETS,
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
    process.stderr.write(`${known ? (error as Error).message : `Unexpected error: ${String(error)}`}\n${known ? '' : `${USAGE}\n`}`);
    process.exit(1);
  },
);
