import type { HttpClient } from '../net/http-client.ts';

/**
 * Whether a Firebase project's data is readable by anyone: the Realtime Database read with
 * `shallow=true` (top-level keys only, never the data under them) and a Cloud Storage listing of at
 * most one object name.
 */
export interface FirebaseDatabaseEvidence {
  /** The URL read, `<databaseURL>/.json?shallow=true`. */
  url: string;
  status: number | null;
  /** 200 with data: the rules let anyone read. */
  open: boolean;
  /** Top-level keys (at most MAX_KEYS), the names of what is stored. */
  keys: string[];
}

export interface FirebaseStorageEvidence {
  bucket: string;
  url: string;
  status: number | null;
  /** 200 with an object listing: anyone can list (and so fetch) the bucket's files. */
  listable: boolean;
}

/** Google's Cloud Storage for Firebase REST API; a test points the scanner at a loopback stand-in. */
export const FIREBASE_STORAGE_API = 'https://firebasestorage.googleapis.com';
const MAX_KEYS = 50;
const SHALLOW_BYTES = 64 * 1024;

function json(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

export async function probeFirebaseDatabase(
  client: HttpClient,
  databaseUrl: string,
): Promise<FirebaseDatabaseEvidence> {
  // Without shallow=true the answer would be the whole database.
  const url = `${databaseUrl}/.json?shallow=true`;
  const answer = await client.fetch(url, { maxBytes: SHALLOW_BYTES });
  const data = answer?.status === 200 ? json(answer.body) : undefined;
  const open = data !== undefined && data !== null;
  const keys = open && typeof data === 'object' ? Object.keys(data as object).slice(0, MAX_KEYS) : [];
  return { url, status: answer?.status ?? null, open, keys };
}

export async function probeFirebaseStorage(
  client: HttpClient,
  bucket: string,
  api = FIREBASE_STORAGE_API,
): Promise<FirebaseStorageEvidence> {
  const url = `${api}/v0/b/${encodeURIComponent(bucket)}/o?maxResults=1`;
  const answer = await client.fetch(url, { maxBytes: SHALLOW_BYTES });
  const data = answer?.status === 200 ? json(answer.body) : undefined;
  const listable = typeof data === 'object' && data !== null && ('items' in data || 'prefixes' in data);
  return { bucket, url, status: answer?.status ?? null, listable };
}
