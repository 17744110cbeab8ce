import { randomBytes } from 'node:crypto';
import {
  checksOfSite,
  claimsOfTenant,
  putClaim,
  setTenantToken,
  storeCheck,
  tenantsWithDueClaims,
  tenantToken,
  updateClaim,
  type ClaimRow,
} from '../db/claims.ts';
import { enqueueEvents } from '../db/outbox.ts';
import { findSite, listSites } from '../db/sites.ts';
import { assertPermission, type Actor } from '../domain/actor.ts';
import { NotFound, TooManyRequests } from '../domain/errors.ts';
import {
  CLAIM_TIMES,
  CONTROL_METHODS,
  type ControlMethod,
  type VerificationMethod,
  type VerificationStatus,
} from '../domain/vocabulary.ts';
import { claimCovers, hostKey, NOT_PROVEN, type ProofOfControl } from '../scanner/index.ts';
import {
  checkDnsProof,
  checkFileProof,
  checkMetaProof,
  landingOrigin,
  proofInstructions,
  type ProofCheck,
  type ProofSettings,
} from '../scanner/probes/control-proof.ts';
import { siteOf } from '../scanner/net/registrable-domain.ts';
import { isoNow, nowOf, type ServiceDeps } from './deps.ts';
import { scanSettingsOf } from './scan-settings.ts';

// Proof of control before intrusive scanning (docs/security.md): a tenant's token, the names it has
// shown control of, the checks that keep a claim true only while its proof is in place, and the
// scope a scan gets from them.

/** A site's proof of control as the API shows it. */
export interface SiteVerification {
  status: VerificationStatus;
  method: VerificationMethod | null;
  /** The name the claim speaks for: with DNS, that name and every name below it. */
  covers: string | null;
  verified_at: string | null;
  checked_at: string | null;
  lost_at: string | null;
  reason: string | null;
}

/** POST /verify checks per site per minute: each call asks the site and its name servers again. */
export const VERIFY_LIMIT = { perWindow: 6, windowMs: 60_000 } as const;

const UNVERIFIED: SiteVerification = {
  status: 'unverified',
  method: null,
  covers: null,
  verified_at: null,
  checked_at: null,
  lost_at: null,
  reason: null,
};

/** A URL's host as claims name it. */
export const hostOfUrl = (url: string) => hostKey(new URL(url).hostname);
const day = (iso: string) => iso.slice(0, 10);

/** An operator's claim past its end stands as lost from that moment. */
function asOf(claim: ClaimRow, now: number): ClaimRow {
  if (claim.status !== 'verified' || claim.until === null || Date.parse(claim.until) > now) return claim;
  return {
    ...claim,
    status: 'lost',
    lost_at: claim.until,
    reason: `de verklaring van de beheerder liep af op ${day(claim.until)}`,
  };
}

/** The claims of a tenant in force now. */
const inForce = (claims: readonly ClaimRow[], now: number) =>
  claims.map((c) => asOf(c, now)).filter((c) => c.status === 'verified');

/** A site's verification from its tenant's claims: a claim in force wins, else the latest lost one. */
export function verificationOf(claims: readonly ClaimRow[], siteUrl: string, now: number): SiteVerification {
  const host = hostOfUrl(siteUrl);
  const covering = claims.map((c) => asOf(c, now)).filter((c) => claimCovers(c, host));
  const shown = (c: ClaimRow, status: VerificationStatus): SiteVerification => ({
    status,
    method: c.method,
    covers: c.name,
    verified_at: c.verified_at,
    checked_at: c.checked_at,
    lost_at: c.lost_at,
    reason: c.reason,
  });
  const current = covering
    .filter((c) => c.status === 'verified')
    .sort((a, b) => (a.verified_at < b.verified_at ? -1 : 1));
  if (current[0]) return shown(current[0], 'verified');
  const lost = covering.sort((a, b) => ((a.lost_at ?? '') > (b.lost_at ?? '') ? -1 : 1))[0];
  return lost ? shown(lost, 'lost') : UNVERIFIED;
}

/** Every site of a tenant with its verification, for lists. */
export async function verificationsOfTenant(deps: ServiceDeps, tenantId: string) {
  const claims = await claimsOfTenant(deps.db, tenantId);
  const now = nowOf(deps);
  return (url: string) => verificationOf(claims, url, now);
}

/** The tenant's token, made on first use: at least 128 random bits (RFC 8555 section 8.1), here 192. */
export async function tokenOfTenant(deps: ServiceDeps, tenantId: string): Promise<string> {
  const existing = await tenantToken(deps.db, tenantId);
  if (existing) return existing;
  await setTenantToken(deps.db, tenantId, newToken(), true);
  return (await tenantToken(deps.db, tenantId))!;
}

export const newToken = () => randomBytes(24).toString('base64url');

/** Verification asks as scans do: the same address policy, resolvers and time-out. */
const proofSettings = (deps: ServiceDeps): ProofSettings => scanSettingsOf(deps.config);

/** One method's check of a name (DNS) or an origin (file, meta). */
function check(method: ControlMethod, origin: string, token: string, settings: ProofSettings): Promise<ProofCheck> {
  if (method === 'dns') return checkDnsProof(hostOfUrl(origin), token, settings);
  return method === 'file' ? checkFileProof(origin, token, settings) : checkMetaProof(origin, token, settings);
}

/**
 * Applies one check's outcome to the tenant's claims: present makes (or renews) the claim; absent
 * loses every claim of that method it speaks for at once; unknown keeps a claim for at most
 * CLAIM_TIMES.unknownForMs after its proof was last seen.
 */
async function applyCheck(deps: ServiceDeps, tenantId: string, result: ProofCheck, origin: string, claims: ClaimRow[]) {
  const now = isoNow(deps);
  const affected = claims.filter(
    (c) =>
      c.method === result.method &&
      c.status === 'verified' &&
      (result.method === 'dns' ? claimCovers(c, result.name) : c.name === result.name),
  );
  if (result.outcome === 'present') {
    const same = claims.find((c) => c.method === result.method && c.name === result.name && c.status === 'verified');
    await putClaim(deps.db, {
      tenant_id: tenantId,
      method: result.method,
      name: result.name,
      origin: result.method === 'dns' ? null : origin,
      status: 'verified',
      verified_at: same?.verified_at ?? now,
      confirmed_at: now,
      checked_at: now,
      lost_at: null,
      reason: result.reason,
      until: null,
    });
    return;
  }
  for (const claim of affected) {
    const stale = nowOf(deps) - Date.parse(claim.confirmed_at) >= CLAIM_TIMES.unknownForMs;
    if (result.outcome === 'absent' || stale)
      await updateClaim(deps.db, tenantId, claim.id, {
        status: 'lost',
        lost_at: now,
        checked_at: now,
        reason: result.outcome === 'absent' ? result.reason : `niet opnieuw te controleren: ${result.reason}`,
      });
    else await updateClaim(deps.db, tenantId, claim.id, { checked_at: now, reason: result.reason });
  }
}

/**
 * Runs a change to a tenant's claims and, in the same transaction, queues site_verified or
 * site_verification_lost for every site whose verification it changed.
 */
export async function withSiteEvents<T>(
  deps: ServiceDeps,
  tenantId: string,
  change: (trx: ServiceDeps) => Promise<T>,
): Promise<T> {
  return deps.db.transaction().execute(async (db) => {
    const inTrx = { ...deps, db };
    return siteEvents(inTrx, tenantId, () => change(inTrx));
  });
}

async function siteEvents<T>(deps: ServiceDeps, tenantId: string, change: () => Promise<T>): Promise<T> {
  const sites = (await listSites(deps.db, tenantId, {})).rows;
  const before = await verificationsOfTenant(deps, tenantId);
  const was = new Map(sites.map((s) => [s.id, before(s.url).status]));
  const result = await change();
  const after = await verificationsOfTenant(deps, tenantId);
  const events = sites.flatMap((site) => {
    const now = after(site.url);
    const then = was.get(site.id);
    if (now.status === then) return [];
    const type =
      now.status === 'verified'
        ? ('site_verified' as const)
        : then === 'verified'
          ? ('site_verification_lost' as const)
          : null;
    if (!type) return [];
    return [
      {
        type,
        data: { site_id: site.id, site_url: site.url, status: now.status, method: now.method, reason: now.reason },
      },
    ];
  });
  await enqueueEvents(deps.db, tenantId, events, isoNow(deps));
  return result;
}

/** The origins a site's checks run on: its own, and the host its `/` lands on within its registrable domain. */
async function originsOf(siteUrl: string, settings: ProofSettings): Promise<string[]> {
  const origin = new URL(siteUrl).origin;
  const landed = await landingOrigin(origin, settings);
  return landed && landed !== origin ? [origin, landed] : [origin];
}

/** What to publish, and the last outcome of each method on this site (GET /sites/{site_id}/verification). */
export async function getVerification(deps: ServiceDeps, actor: Actor, input: { site_id: string }) {
  assertPermission(actor, 'read_config');
  const site = await findSite(deps.db, actor.tenantId, input.site_id);
  if (!site) throw new NotFound('Site');
  const token = await tokenOfTenant(deps, actor.tenantId);
  const rows = await checksOfSite(deps.db, actor.tenantId, site.id);
  const checks = Object.fromEntries(
    CONTROL_METHODS.map((method) => {
      const row = rows.find((r) => r.method === method);
      return [method, row ? { outcome: row.outcome, reason: row.reason, checked_at: row.checked_at } : null];
    }),
  ) as Record<ControlMethod, { outcome: ProofCheck['outcome']; reason: string; checked_at: string } | null>;
  return { token, ...proofInstructions(new URL(site.url).origin, token), checks };
}

/**
 * Checks a site's proof now (every method, or the one given), never from a cache, and answers its
 * verification. Rate limited per site: each call asks the site and its name servers.
 */
export async function verifySite(deps: ServiceDeps, actor: Actor, input: { site_id: string; method?: ControlMethod }) {
  assertPermission(actor, 'write_config');
  const site = await findSite(deps.db, actor.tenantId, input.site_id);
  if (!site) throw new NotFound('Site');
  if (deps.counters) {
    const window = await deps.counters.increment(`verify:${site.id}`, VERIFY_LIMIT.windowMs);
    if (window.count > VERIFY_LIMIT.perWindow) {
      const seconds = Math.min(60, Math.max(1, Math.ceil(window.ttlMs / 1000)));
      throw new TooManyRequests(
        `Te veel controles van deze site: probeer het over ${seconds} seconden opnieuw.`,
        seconds,
      );
    }
  }
  const token = await tokenOfTenant(deps, actor.tenantId);
  const settings = proofSettings(deps);
  const origins = await originsOf(site.url, settings);
  const methods = input.method ? [input.method] : [...CONTROL_METHODS];
  const results = await Promise.all(
    methods.flatMap((method) =>
      origins.map(async (origin) => ({ origin, result: await check(method, origin, token, settings) })),
    ),
  );
  await withSiteEvents(deps, actor.tenantId, async (trx) => {
    for (const { origin, result } of results) {
      await applyCheck(trx, actor.tenantId, result, origin, await claimsOfTenant(trx.db, actor.tenantId));
      // The site's own origin is what its checks list shows.
      if (origin === origins[0])
        await storeCheck(trx.db, {
          site_id: site.id,
          tenant_id: actor.tenantId,
          method: result.method,
          outcome: result.outcome,
          reason: result.reason,
          checked_at: isoNow(deps),
        });
    }
  });
  return verificationOf(await claimsOfTenant(deps.db, actor.tenantId), site.url, nowOf(deps));
}

/** Checks again every claim of the tenant in force whose last check is older than CLAIM_TIMES.recheckAfterMs. */
export async function recheckDueClaims(deps: ServiceDeps, tenantId: string, onSite?: string): Promise<void> {
  const due = inForce(await claimsOfTenant(deps.db, tenantId), nowOf(deps)).filter(
    (c) =>
      c.method !== 'operator' &&
      nowOf(deps) - Date.parse(c.checked_at) >= CLAIM_TIMES.recheckAfterMs &&
      (onSite === undefined || siteOf(c.name) === siteOf(onSite)),
  );
  if (due.length === 0) return;
  const token = await tokenOfTenant(deps, tenantId);
  const settings = proofSettings(deps);
  const results = await Promise.all(
    due.map(async (claim) => {
      const origin = claim.origin ?? `https://${claim.name}`;
      return { origin, result: await check(claim.method as ControlMethod, origin, token, settings) };
    }),
  );
  await withSiteEvents(deps, tenantId, async (trx) => {
    for (const { origin, result } of results)
      await applyCheck(trx, tenantId, result, origin, await claimsOfTenant(trx.db, tenantId));
  });
}

/**
 * What a scan of a tenant's site may do: claims older than a day on the site's domain are checked
 * again first; intrusive tests then run on the hosts the claims in force cover.
 */
export async function proofForScan(deps: ServiceDeps, tenantId: string, siteUrl: string): Promise<ProofOfControl> {
  await recheckDueClaims(deps, tenantId, hostOfUrl(siteUrl));
  const claims = await claimsOfTenant(deps.db, tenantId);
  const now = nowOf(deps);
  const shown = verificationOf(claims, siteUrl, now);
  const refusal =
    shown.status === 'lost' && shown.lost_at
      ? `verificatie verloren op ${day(shown.lost_at)}: ${shown.reason ?? 'onbekende reden'}`
      : NOT_PROVEN;
  return { claims: inForce(claims, now).map((c) => ({ name: c.name, method: c.method })), refusal };
}

/** The scheduler's daily re-check: the due claims of every tenant with a scheduled site. Returns the tenants checked. */
export async function recheckScheduledClaims(deps: ServiceDeps): Promise<number> {
  const before = new Date(nowOf(deps) - CLAIM_TIMES.recheckAfterMs).toISOString();
  const tenants = await tenantsWithDueClaims(deps.db, before);
  for (const tenantId of tenants) await recheckDueClaims(deps, tenantId);
  return tenants.length;
}
