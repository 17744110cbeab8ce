import { createHash } from 'node:crypto';
import { decodeBody } from '../net/charset.ts';
import { refusalIn } from '../errors.ts';
import { firstHeader } from '../net/headers.ts';
import { linkedPaths, type HtmlFacts } from './html.ts';
import {
  chunkReferences,
  httpUrl,
  nextBuildManifest,
  nextChunks,
  webpackChunkUrl,
  type WebpackChunkTemplate,
} from './chunk-references.ts';
import type { FetchFailure, HttpClient } from '../net/http-client.ts';
import { UNAVAILABLE_STATUSES } from '../net/http-evidence.ts';
import { readBackendReferences, type BackendReferences, type SupabaseKey } from './backend-references.ts';
import {
  FIREBASE_STORAGE_API,
  probeFirebaseDatabase,
  probeFirebaseStorage,
  type FirebaseDatabaseEvidence,
  type FirebaseStorageEvidence,
} from './firebase-probe.ts';
import { siteOf } from '../net/registrable-domain.ts';
import { nextTurn } from '../turns.ts';
import { findSecrets, type RedactedSecret } from '../secrets/secret-scan.ts';
import { probeSupabase, type SupabaseEvidence } from './supabase-probe.ts';
import type { ComponentIndex, Sighting } from '../vulndata/sightings.ts';

/** Bounds of what a scan reads of a site's JavaScript (scripts and chunks; RSC payloads of other routes apart). */
export const CLIENT_CODE_LIMITS = {
  scripts: 60,
  scriptBytes: 3 * 1024 * 1024,
  totalBytes: 12 * 1024 * 1024,
  rscRoutes: 10,
  rscBytes: 1024 * 1024,
} as const;
const SCRIPT_CONCURRENCY = 4;
const MAX_SUPABASE_BACKENDS = 2;
const MAX_FIREBASE_TARGETS = 3;

export interface ClientCodeEvidence {
  /** Credentials by the script they were found in, redacted. */
  secrets: Array<{ url: string; secret: RedactedSecret }>;
  /** The backends the scripts call and the public keys beside them (read, never yet asked). */
  references: BackendReferences[];
  /** Libraries whose versions the scripts' own text gives (with the component index of the scan's data). */
  components: Sighting[];
  /**
   * Scripts found but not read whole: no answer, a body cut short, an answer that says the server
   * could not serve it now (its status), or beyond CLIENT_CODE_LIMITS.
   */
  unread: Array<{ url: string; failure: FetchFailure | 'limit' | number }>;
}

/** What the backends the scripts call let anyone read with their public keys (counted, never downloaded). */
export interface BackendEvidence {
  supabase: SupabaseEvidence[];
  firebaseDatabases: FirebaseDatabaseEvidence[];
  firebaseStorage: FirebaseStorageEvidence[];
}

export interface ClientCodeOptions {
  /** Cloud Storage for Firebase's API origin (tests point it at a loopback stand-in). */
  firebaseStorageApi?: string;
  /** The vulnerability data's library patterns: every script read is matched against them too. */
  componentIndex?: ComponentIndex;
  /** What the scan has read so far, when it reads several pages: each script once, one budget. */
  ledger?: ScriptLedger;
}

/**
 * The scripts one scan has read over all its pages, and the budget they share: a script (by URL, or
 * by its text) is read for the first page that loads it; the later pages that load it are noted.
 */
export class ScriptLedger {
  /** Same-site script URLs queued or read. */
  readonly urls = new Set<string>();
  /** Digests of the texts read (inline scripts and fetched ones), with the URL they were found at. */
  readonly texts = new Map<string, string>();
  /** Pages that load each script (by the URL its findings are reported at). */
  readonly pagesOf = new Map<string, string[]>();
  rscRoutes = 0;
  fetched = 0;
  /** Bytes read so far, and bytes promised to reads in flight: together never above totalBytes. */
  used = 0;
  reserved = 0;
  private waiting: Array<() => void> = [];

  /** Notes that `page` loads the script reported at `url`. */
  loads(url: string, page: string): void {
    const pages = this.pagesOf.get(url) ?? [];
    if (!pages.includes(page)) this.pagesOf.set(url, [...pages, page]);
  }

  /** The URL a text was first found at, or null after recording it at `url`. */
  readBefore(text: string, url: string): string | null {
    const digest = createHash('sha256').update(text).digest('base64');
    const first = this.texts.get(digest);
    if (first !== undefined) return first;
    this.texts.set(digest, url);
    return null;
  }

  /** Waits until reads in flight give back what they reserved. */
  wait(): Promise<void> {
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const wake = this.waiting;
    this.waiting = [];
    for (const resolve of wake) resolve();
  }
}

/** Script types a browser runs as JavaScript, plus JSON data islands such as __NEXT_DATA__. */
const READ_TYPES = new Set([null, 'text/javascript', 'application/javascript', 'module', 'application/json']);
const FLIGHT_DATA = /self\.__next_f\b/;

interface Inspected {
  secrets: RedactedSecret[];
  references: BackendReferences;
  components: Sighting[];
}

async function inspect(text: string, url: string, index: ComponentIndex | undefined): Promise<Inspected> {
  const secrets = await findSecrets(text);
  await nextTurn();
  const references = readBackendReferences(text);
  if (!index) return { secrets, references, components: [] };
  await nextTurn();
  return { secrets, references, components: await index.scriptSightings(text, url) };
}

function sameSiteScripts(urls: string[], pageUrl: string): string[] {
  const site = siteOf(new URL(pageUrl).hostname);
  const kept: string[] = [];
  for (const raw of urls) {
    // An unparsable or non-http src loads nothing.
    const url = httpUrl(raw, pageUrl);
    if (url && siteOf(new URL(url).hostname) === site) kept.push(url);
  }
  return [...new Set(kept)];
}

/**
 * The app router's RSC payloads of up to `rscRoutes` same-origin links (GET with `RSC: 1`, as the
 * router fetches them on navigation): data every visitor receives, and the chunks those routes load.
 */
async function readOtherRoutes(client: HttpClient, pageUrl: string, facts: HtmlFacts, ledger: ScriptLedger) {
  const routes = linkedPaths(pageUrl, facts, CLIENT_CODE_LIMITS.rscRoutes)
    .map((path) => `rsc ${new URL(path, pageUrl).href}`)
    .filter((key) => !ledger.urls.has(key))
    .slice(0, CLIENT_CODE_LIMITS.rscRoutes - ledger.rscRoutes)
    .map((key) => {
      ledger.urls.add(key);
      return key.slice(4);
    });
  ledger.rscRoutes += routes.length;
  const read: Array<{ url: string; text: string }> = [];
  for (let i = 0; i < routes.length; i += SCRIPT_CONCURRENCY) {
    const answers = await Promise.all(
      routes
        .slice(i, i + SCRIPT_CONCURRENCY)
        .map((url) => client.fetch(url, { headers: { rsc: '1' }, maxBytes: CLIENT_CODE_LIMITS.rscBytes })),
    );
    for (const answer of answers) {
      const contentType = answer ? firstHeader(answer.headers, 'content-type') : null;
      if (answer?.status === 200 && !/html/i.test(contentType ?? ''))
        read.push({ url: answer.url, text: decodeBody(answer.body, contentType) });
    }
  }
  return read;
}

/**
 * Reads the JavaScript a visitor's browser runs, keeping of each script only what it reveals:
 * redacted secrets and backend references. Order, within CLIENT_CODE_LIMITS: inline scripts; the
 * page's same-site scripts and preloads (the entry chunks); the chunks Next.js's flight data, build
 * manifest and other routes name; then every chunk a script read refers to (imports, Vite's preload
 * lists, webpack's chunk function). It only reads: asking the backends is probeBackends's job.
 */
export async function readClientCode(
  client: HttpClient,
  pageUrl: string,
  facts: HtmlFacts,
  options: ClientCodeOptions = {},
): Promise<ClientCodeEvidence> {
  const ledger = options.ledger ?? new ScriptLedger();
  const secrets: ClientCodeEvidence['secrets'] = [];
  const references: BackendReferences[] = [];
  const components: Sighting[] = [];
  const record = (url: string, found: Inspected) => {
    for (const secret of found.secrets) secrets.push({ url, secret });
    references.push(found.references);
    components.push(...found.components);
  };
  const look = (text: string, url: string) => inspect(text, url, options.componentIndex);

  const manifests: string[] = [];
  let appRouter = false;
  for (const script of facts.inlineScripts) {
    if (!READ_TYPES.has(script.type) || !script.text.trim()) continue;
    if (FLIGHT_DATA.test(script.text)) {
      appRouter = true;
      manifests.push(...nextChunks(script.text, pageUrl));
    }
    // The same inline script on another page was judged where it was first read.
    const before = ledger.readBefore(script.text, pageUrl);
    ledger.loads(before ?? pageUrl, pageUrl);
    if (before === null) record(pageUrl, await look(script.text, pageUrl));
  }
  const entries = sameSiteScripts([...facts.scripts.map((s) => s.src), ...facts.scriptPreloads], pageUrl);
  const nextData =
    facts.inlineScripts.find((s) => s.type === 'application/json' && /"buildId"/.test(s.text))?.text ?? null;
  const buildManifest = nextBuildManifest(pageUrl, entries, nextData);
  if (buildManifest) manifests.push(buildManifest);
  if (appRouter) {
    for (const route of await readOtherRoutes(client, pageUrl, facts, ledger)) {
      record(route.url, await look(route.text, route.url));
      manifests.push(...nextChunks(route.text, pageUrl));
    }
  }

  for (const url of entries) ledger.loads(url, pageUrl);
  const queue = sameSiteScripts([...entries, ...manifests], pageUrl).filter((url) => !ledger.urls.has(url));
  for (const url of queue) ledger.urls.add(url);
  // A webpack runtime names how chunks are loaded, other scripts which ids they load: either may come first.
  const webpack = { templates: [] as WebpackChunkTemplate[], ids: new Set<string>() };
  const unread: ClientCodeEvidence['unread'] = [];
  const worker = async () => {
    while (queue.length > 0) {
      const room = CLIENT_CODE_LIMITS.totalBytes - ledger.used - ledger.reserved;
      if (ledger.fetched >= CLIENT_CODE_LIMITS.scripts || (room <= 0 && ledger.reserved === 0)) {
        for (const url of queue) unread.push({ url, failure: 'limit' });
        queue.length = 0;
        return;
      }
      if (room <= 0) {
        // Reads in flight hold the rest of the budget; what they leave unused comes back when they end.
        await ledger.wait();
        continue;
      }
      const url = queue.shift()!;
      ledger.fetched += 1;
      const maxBytes = Math.min(CLIENT_CODE_LIMITS.scriptBytes, room);
      ledger.reserved += maxBytes;
      const answer = await client.fetch(url, { maxBytes }).finally(() => {
        ledger.reserved -= maxBytes;
      });
      const body = answer?.body;
      ledger.used += body?.length ?? 0;
      ledger.release();
      const failure =
        client.failureOf(url) ?? (answer && UNAVAILABLE_STATUSES.has(answer.status) ? answer.status : undefined);
      if (failure !== undefined) unread.push({ url, failure });
      const contentType = answer ? firstHeader(answer.headers, 'content-type') : null;
      // A missing chunk answered with the app's HTML shell is no script.
      if (answer?.status !== 200 || !body || /html/i.test(contentType ?? '')) continue;
      const text = decodeBody(body, contentType);
      // The same file under another URL (a cache-busting query) was judged where it was first read.
      const before = ledger.readBefore(text, url);
      if (before !== null) {
        ledger.loads(before, pageUrl);
        continue;
      }
      record(url, await look(text, url));
      await nextTurn();
      const found = chunkReferences(text, url);
      webpack.templates.push(...found.webpack.map((w) => w.template));
      for (const id of [...found.webpackIds, ...found.webpack.flatMap((w) => w.ids)]) webpack.ids.add(id);
      const webpackUrls = webpack.templates
        .flatMap((template) => [...webpack.ids].map((id) => webpackChunkUrl(template, id)))
        .filter((u): u is string => u !== null);
      for (const chunk of sameSiteScripts([...found.urls, ...webpackUrls], pageUrl)) {
        if (ledger.urls.has(chunk)) continue;
        ledger.urls.add(chunk);
        queue.push(chunk);
      }
    }
  };
  // Workers that find the queue empty stop; a chunk found later is read by a worker still running.
  await Promise.all(Array.from({ length: SCRIPT_CONCURRENCY }, worker));

  return { secrets, references, components, unread };
}

/**
 * Asks the Supabase and Firebase backends the scripts call, with the public keys beside them, what
 * anyone may read: row counts and top-level names, never rows. A visitor's browser does not do this,
 * so it runs only with proof of control (the client_backends test).
 */
export async function probeBackends(
  client: HttpClient,
  references: BackendReferences[],
  options: Pick<ClientCodeOptions, 'firebaseStorageApi'> = {},
): Promise<BackendEvidence> {
  const [supabase, firebase] = await Promise.all([
    probeSupabaseBackends(client, references),
    probeFirebase(client, references, options.firebaseStorageApi ?? FIREBASE_STORAGE_API),
  ]);
  return { supabase, ...firebase };
}

/** A backend the scanner may not reach (the address policy) is left out, not a reason to fail. */
async function unlessRefused<T>(probe: Promise<T>): Promise<T | null> {
  try {
    return await probe;
  } catch (error) {
    if (refusalIn(error)) return null;
    throw error;
  }
}

/**
 * Where a public key is used, in two tiers: the URLs that stand next to a key in the code (what the
 * client really calls: a custom domain, self-hosting or <ref>.supabase.co), and only when none of
 * those answers as Supabase, the project URLs of the keys' ref claims and other supabase.co literals.
 */
export function supabaseTargets(references: BackendReferences[]): Array<Array<{ backend: string; key: SupabaseKey }>> {
  const keys = references.flatMap((r) => r.supabaseKeys);
  if (keys.length === 0) return [];
  const isProject = (url: string) => /^https:\/\/[a-z0-9-]+\.supabase\.co$/.test(url);
  const nearby = [...new Set(keys.flatMap((k) => k.nearbyUrls))].sort(
    (a, b) => Number(isProject(b)) - Number(isProject(a)),
  );
  const projects = [
    ...new Set([
      ...keys.flatMap((k) => (k.ref ? [`https://${k.ref}.supabase.co`] : [])),
      ...references.flatMap((r) => r.supabaseUrls),
    ]),
  ].filter((url) => !nearby.includes(url));
  const keyFor = (backend: string) =>
    keys.find((k) => k.nearbyUrls.includes(backend)) ??
    keys.find((k) => k.ref !== null && backend === `https://${k.ref}.supabase.co`) ??
    keys[0]!;
  return [nearby, projects]
    .filter((tier) => tier.length > 0)
    .map((tier) => tier.slice(0, MAX_SUPABASE_BACKENDS).map((backend) => ({ backend, key: keyFor(backend) })));
}

async function probeSupabaseBackends(client: HttpClient, references: BackendReferences[]): Promise<SupabaseEvidence[]> {
  const tables = [...new Set(references.flatMap((r) => r.tables))];
  const selects: Record<string, string[]> = {};
  for (const r of references)
    for (const [table, columns] of Object.entries(r.selectedColumns))
      selects[table] = [...new Set([...(selects[table] ?? []), ...columns])];
  for (const tier of supabaseTargets(references)) {
    const results = await Promise.all(
      tier.map(({ backend, key }) => unlessRefused(probeSupabase(client, backend, key, tables, selects))),
    );
    const backends = results.filter((r): r is SupabaseEvidence => r?.answeredAsPostgrest === true);
    if (backends.length > 0) return backends;
  }
  return [];
}

async function probeFirebase(client: HttpClient, references: BackendReferences[], storageApi: string) {
  const databases = [...new Set(references.flatMap((r) => r.firebaseDatabaseUrls))].slice(0, MAX_FIREBASE_TARGETS);
  const buckets = [...new Set(references.flatMap((r) => r.firebaseStorageBuckets))].slice(0, MAX_FIREBASE_TARGETS);
  const [firebaseDatabases, firebaseStorage] = await Promise.all([
    Promise.all(databases.map((url) => unlessRefused(probeFirebaseDatabase(client, url)))),
    Promise.all(buckets.map((bucket) => unlessRefused(probeFirebaseStorage(client, bucket, storageApi)))),
  ]);
  return {
    firebaseDatabases: firebaseDatabases.filter((d) => d !== null),
    firebaseStorage: firebaseStorage.filter((s) => s !== null),
  };
}
