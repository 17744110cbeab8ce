import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { secretDigest } from './bearer-digest.ts';

// Key format: "sak_" + 40 random base62 characters + 6-character base62 CRC32 of those 40,
// so secret scanners can recognise a key offline and typos are rejected without a database hit.
export const KEY_PREFIX = 'sak_';
const BODY_LENGTH = 40;
const CHECKSUM_LENGTH = 6;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);

function base62(value: number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: rejecting higher bytes keeps every character equally likely.
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

const checksum = (body: string) => base62(crc32(body), CHECKSUM_LENGTH);

export interface GeneratedKey {
  key: string;
  hash: string;
  /** Shown in listings to tell keys apart; reveals 4 random characters only. */
  prefix: string;
}

export function generateApiKey(): GeneratedKey {
  const body = randomBase62(BODY_LENGTH);
  const key = `${KEY_PREFIX}${body}${checksum(body)}`;
  return { key, hash: secretDigest(key), prefix: `${key.slice(0, KEY_PREFIX.length + 4)}…` };
}

/** Format and checksum are valid (says nothing about whether the key exists). */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const body = key.slice(KEY_PREFIX.length, KEY_PREFIX.length + BODY_LENGTH);
  return key.slice(KEY_PREFIX.length + BODY_LENGTH) === checksum(body);
}
