import type { FindingType } from '../catalog/index.ts';
import { firstHeader } from '../net/headers.ts';
import { looksLikeHtml } from '../probes/html.ts';
import { isSecurityTxt, parseExpires, parseSecurityTxt, type SecurityTxt } from '../probes/security-txt.ts';
import type { FetchedResponse, Observation, SecurityTxtEvidence } from '../types.ts';
import { observe, type Check } from './context.ts';

const DAY_MS = 86_400_000;
/** RFC 9116 section 2.5.5: Expires should be less than a year in the future. */
const MAX_EXPIRES_AHEAD_MS = 366 * DAY_MS;
/** Within this the file is about to go stale: time to renew it (the same 30 days as certificates). */
const EXPIRES_SOON_MS = 30 * DAY_MS;

/** The answer when it is a security.txt: a 200 with the RFC's fields that is not an HTML page. */
function fileIn(response: FetchedResponse | null): SecurityTxt | null {
  if (response?.status !== 200) return null;
  const text = response.body.subarray(0, 32 * 1024).toString('utf8');
  if (looksLikeHtml(text) || /<\/?(html|body|div|p|a)[\s>]/i.test(text)) return null;
  const file = parseSecurityTxt(text);
  return isSecurityTxt(file) ? file : null;
}

function defects(file: SecurityTxt, response: FetchedResponse, now: number): Array<[FindingType, string | null]> {
  const found: Array<[FindingType, string | null]> = [];
  const contentType = firstHeader(response.headers, 'content-type');
  if (contentType?.split(';')[0]?.trim().toLowerCase() !== 'text/plain')
    found.push(['security_txt_wrong_content_type', contentType ?? 'geen Content-Type']);
  if (!file.fields.get('contact')?.some((value) => value.length > 0)) found.push(['security_txt_no_contact', null]);
  const expires = file.fields.get('expires') ?? [];
  if (expires.length === 0) found.push(['security_txt_no_expires', null]);
  else if (expires.length > 1) found.push(['security_txt_multiple_expires', expires.join('; ')]);
  else {
    const date = parseExpires(expires[0]!);
    if (!date) found.push(['security_txt_expires_invalid', expires[0]!]);
    else if (date.getTime() <= now) found.push(['security_txt_expired', expires[0]!]);
    else if (date.getTime() - now > MAX_EXPIRES_AHEAD_MS) found.push(['security_txt_expires_too_far', expires[0]!]);
    else if (date.getTime() - now < EXPIRES_SOON_MS) found.push(['security_txt_expires_soon', expires[0]!]);
  }
  return found;
}

/** The file the checks judge: the well-known one, else the legacy one; null when neither is a security.txt. */
export function servedSecurityTxt(evidence: SecurityTxtEvidence) {
  const wellKnown = fileIn(evidence.wellKnown);
  if (wellKnown) return { file: wellKnown, response: evidence.wellKnown!, url: evidence.wellKnownUrl, legacy: false };
  const legacy = fileIn(evidence.legacy);
  return legacy ? { file: legacy, response: evidence.legacy!, url: evidence.legacyUrl, legacy: true } : null;
}

/** The single valid Expires of a served security.txt, or null. */
export function securityTxtExpires(file: SecurityTxt): Date | null {
  const expires = file.fields.get('expires') ?? [];
  return expires.length === 1 ? parseExpires(expires[0]!) : null;
}

/**
 * RFC 9116 security.txt on the HTTPS origin, as internet.nl checks it: found at
 * /.well-known/security.txt (the legacy /security.txt is a finding of its own), text/plain, at
 * least one Contact and exactly one Expires, in the future and less than a year ahead.
 */
export const checkSecurityTxt: Check = (ctx) => {
  const evidence = ctx.evidence.securityTxt;
  if (!evidence) return [];
  const served = servedSecurityTxt(evidence);
  if (!served)
    return [
      observe(
        'security_txt_missing',
        evidence.wellKnownUrl,
        evidence.wellKnown ? `HTTP ${evidence.wellKnown.status}` : 'geen antwoord',
      ),
    ];
  const found: Observation[] = [];
  if (served.legacy)
    found.push(observe('security_txt_legacy_location', evidence.legacyUrl, 'alleen gevonden op /security.txt'));
  for (const [type, actual] of defects(served.file, served.response, ctx.evidence.scannedAt.getTime()))
    found.push(observe(type, served.url, actual));
  return found;
};
