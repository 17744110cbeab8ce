import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

// Webhook signing secrets must be readable to sign, so they are encrypted at rest (AES-256-GCM)
// rather than hashed. Stored form: "enc:v1:<key id>:<iv>:<tag>:<ciphertext>", base64 parts.

const PREFIX = 'enc:v1:';
export const SECRETS_KEY_FILE = 'secrets.key';

/** Where the generated key lives: beside the SQLite database. */
export const secretsKeyFileOf = (databasePath: string): string => join(dirname(databasePath), SECRETS_KEY_FILE);

const keyId = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);

export class SecretBox {
  private readonly byId: Map<string, Buffer>;

  /** `keys[0]` encrypts; every key decrypts, so an old key keeps working during a rotation. */
  constructor(private readonly keys: Buffer[]) {
    if (keys.length === 0 || keys.some((key) => key.length !== 32)) throw new Error('secret keys must be 32 bytes');
    this.byId = new Map(keys.map((key) => [keyId(key), key]));
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys[0]!, iv);
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${keyId(this.keys[0]!)}:${[iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64')).join(':')}`;
  }

  /** The plain secret; values stored before encryption existed are returned as they are. */
  decrypt(stored: string): string {
    if (!stored.startsWith(PREFIX)) return stored;
    const [id, iv, tag, ciphertext] = stored.slice(PREFIX.length).split(':');
    const key = this.byId.get(id ?? '');
    if (!key) throw new Error(`no secret key with id ${id}: add it to SECRETS_KEY`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv!, 'base64'));
    decipher.setAuthTag(Buffer.from(tag!, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext!, 'base64')), decipher.final()]).toString('utf8');
  }

  /**
   * A signed token for a link (an unsubscribe): the text and an HMAC-SHA256 under a key derived
   * for `purpose`, base64url. Any key of SECRETS_KEY verifies it, so a rotation keeps old links.
   */
  sign(purpose: string, text: string): string {
    const mac = createHmac('sha256', this.keys[0]!).update(`${purpose}\n${text}`).digest('base64url');
    return `${Buffer.from(text).toString('base64url')}.${mac}`;
  }

  /** The text of a token `sign` made for this purpose, or null for anything else. */
  verify(purpose: string, token: string): string | null {
    const [encoded, mac] = token.split('.');
    if (!encoded || !mac) return null;
    const text = Buffer.from(encoded, 'base64url').toString('utf8');
    const given = Buffer.from(mac, 'base64url');
    for (const key of this.keys) {
      const expected = createHmac('sha256', key).update(`${purpose}\n${text}`).digest();
      if (expected.length === given.length && timingSafeEqual(expected, given)) return text;
    }
    return null;
  }

  /** Whether a stored value is encrypted with the current key (otherwise a rotation re-encrypts it). */
  isCurrent(stored: string): boolean {
    return stored.startsWith(`${PREFIX}${keyId(this.keys[0]!)}:`);
  }
}

/**
 * The keys from SECRETS_KEY (comma-separated base64 of 32 bytes, current first), or from
 * secrets.key beside the database, which is generated on first start. An in-memory database gets a
 * key of its own lifetime.
 */
export function loadSecretKeys(secretsKey: string | undefined, databasePath: string): Buffer[] {
  if (secretsKey) return secretsKey.split(',').map((part) => Buffer.from(part.trim(), 'base64'));
  if (databasePath === ':memory:') return [randomBytes(32)];
  const file = secretsKeyFileOf(databasePath);
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    try {
      writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
      chmodSync(file, 0o600);
    } catch (error) {
      // Another process (the admin CLI, a second instance) made it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return [Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')];
}

const boxes = new WeakMap<object, SecretBox>();

/** The secret box of a configuration, made once (the key file is read or generated on first use). */
export function secretBoxFor(config: { SECRETS_KEY?: string; DATABASE_PATH: string }): SecretBox {
  let box = boxes.get(config);
  if (!box) {
    box = new SecretBox(loadSecretKeys(config.SECRETS_KEY, config.DATABASE_PATH));
    boxes.set(config, box);
  }
  return box;
}
