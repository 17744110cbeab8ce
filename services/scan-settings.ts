import type { Config } from '../infra/config.ts';
import type { ScanOptions } from '../scanner/scan.ts';
import type { SmtpSettings } from '../scanner/mail-servers.ts';

/**
 * The scanner's settings from the configuration: one place, so the service and the scan command
 * line scan alike (the same address policy, time-outs, resolvers and internet.nl settings).
 */
export function scanSettingsOf(config: Config) {
  return {
    allowPrivateTargets: config.SCANNER_ALLOW_PRIVATE_TARGETS,
    dnsServers: config.SCANNER_DNS_SERVERS,
    requestTimeoutMs: config.SCANNER_REQUEST_TIMEOUT,
    deadlineMs: config.SCANNER_DEADLINE,
    internetnl: {
      dnssecProbeName: config.SCANNER_DNSSEC_PROBE_NAME,
      nameServerPort: config.SCANNER_NAME_SERVER_PORT,
      webPorts: { http: config.SCANNER_WEB_HTTP_PORT, https: config.SCANNER_WEB_HTTPS_PORT },
      rpkiValidatorUrl: config.SCANNER_RPKI_VALIDATOR_URL,
      rpkiOriginUrl: config.SCANNER_RPKI_ORIGIN_URL,
    },
    mail: {
      smtp: config.SCANNER_SMTP,
      dnssecProbeName: config.SCANNER_DNSSEC_PROBE_NAME,
      nameServerPort: config.SCANNER_NAME_SERVER_PORT,
      httpsPort: config.SCANNER_WEB_HTTPS_PORT,
      rpkiValidatorUrl: config.SCANNER_RPKI_VALIDATOR_URL,
      rpkiOriginUrl: config.SCANNER_RPKI_ORIGIN_URL,
    },
  } satisfies Partial<ScanOptions>;
}

/** The SMTP part's settings (the mail test's job after a scan), from the same configuration. */
export function smtpSettingsOf(config: Config, now: () => Date): SmtpSettings & { probeHost?: string } {
  return {
    allowPrivateTargets: config.SCANNER_ALLOW_PRIVATE_TARGETS,
    dnsServers: config.SCANNER_DNS_SERVERS,
    helo: config.SCANNER_SMTP_HELO,
    probeHost: config.SCANNER_SMTP_PROBE_HOST,
    timeoutMs: config.SCANNER_REQUEST_TIMEOUT,
    // Each address is tested on a few dozen connections, and mail servers often pause before their
    // greeting: the job, which runs after the scan's answer, gets five minutes at least.
    signal: AbortSignal.timeout(Math.max(5 * 60_000, config.SCANNER_DEADLINE, 30 * config.SCANNER_REQUEST_TIMEOUT)),
    now,
  };
}
