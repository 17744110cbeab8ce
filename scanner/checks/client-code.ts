import { looksLikePeople, looksPersonal } from '../rules/personal-data.ts';
import { SECRET_RULES, secretFindingType, type SecretKind } from '../secrets/secret-rules.ts';
import type { Observation } from '../types.ts';
import { observe, type Check } from './context.ts';

const count = (n: number) => n.toLocaleString('nl-NL');

// Site text (URLs, table and key names) goes out raw: toFinding cleans every observation alike.

/** One finding per kind of credential and script; the value names each credential: the kind, a redacted preview and the length. */
export const checkClientSecrets: Check = (ctx) => {
  const byFinding = new Map<string, { url: string; kind: SecretKind; shown: string[] }>();
  for (const { url, secret } of ctx.evidence.clientCode?.secrets ?? []) {
    const key = `${secret.kind} ${url}`;
    const entry = byFinding.get(key) ?? { url, kind: secret.kind, shown: [] };
    // Found by its host: a vendor's key names the host as evidence; an unknown vendor's is named after it.
    const label =
      secret.kind === 'api_credential' && secret.host
        ? `inloggegeven voor ${secret.host}`
        : SECRET_RULES[secret.kind].label;
    const host = secret.host && secret.kind !== 'api_credential' ? `, naast ${secret.host}` : '';
    entry.shown.push(`${label} ${secret.preview} (${secret.length} tekens)${host}`);
    byFinding.set(key, entry);
  }
  // Every credential by name: an owner revokes each one, so none hides behind a count.
  return [...byFinding.values()].map(({ url, kind, shown }) => observe(secretFindingType(kind), url, shown.join('; ')));
};

/** A table anyone with the public key can read rows of: CRITICAL when its columns look personal, else MEDIUM. */
export const checkSupabaseTables: Check = (ctx) => {
  const found: Observation[] = [];
  for (const backend of ctx.evidence.backends?.supabase ?? []) {
    for (const table of backend.tables) {
      if (table.access !== 'readable' || table.rows === 0) continue;
      const personal = table.columns.filter(looksPersonal);
      const rows =
        table.rows === null
          ? 'een onbekend aantal rijen'
          : `${count(table.rows)} ${table.rows === 1 ? 'rij' : 'rijen'}`;
      const key = backend.keyKind === 'publishable' ? 'publishable key' : 'anon key';
      const value =
        personal.length > 0
          ? `tabel ${table.name}: ${rows} leesbaar met de ${key}; kolommen met persoonsgegevens: ${personal.join(', ')}`
          : `tabel ${table.name}: ${rows} leesbaar met de ${key}`;
      found.push(
        observe(
          personal.length > 0 ? 'supabase_table_personal_data_readable' : 'supabase_table_readable',
          table.url,
          value,
        ),
      );
    }
  }
  return found;
};

export const checkFirebase: Check = (ctx) => {
  const code = ctx.evidence.backends;
  const found: Observation[] = [];
  for (const database of code?.firebaseDatabases ?? []) {
    if (!database.open) continue;
    const people = database.keys.filter(looksLikePeople);
    const keys =
      database.keys.length > 0
        ? `; namen op het hoogste niveau: ${database.keys.slice(0, 10).join(', ')}${database.keys.length > 10 ? ', …' : ''}`
        : '';
    found.push(
      observe(
        people.length > 0 ? 'firebase_database_open_personal' : 'firebase_database_open',
        database.url,
        `HTTP ${database.status} zonder inloggen${keys}`,
      ),
    );
  }
  for (const storage of code?.firebaseStorage ?? []) {
    if (storage.listable)
      found.push(
        observe(
          'firebase_storage_listable',
          storage.url,
          `bucket ${storage.bucket}: bestandslijst zonder inloggen (HTTP ${storage.status})`,
        ),
      );
  }
  return found;
};

export const checkNextMiddleware: Check = (ctx) =>
  (ctx.evidence.middleware?.bypassed ?? []).map((bypass) =>
    observe(
      'nextjs_middleware_bypass',
      bypass.url,
      `HTTP ${bypass.status} (${bypass.bytes} bytes) met x-middleware-subrequest: ${bypass.header}, zonder die header afgeschermd (CVE-2025-29927)`,
    ),
  );
