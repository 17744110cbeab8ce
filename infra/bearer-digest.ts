import { hash } from 'node:crypto';

/**
 * How bearer secrets are stored and looked up: API keys, session ids and invitation tokens alike
 * are kept only as their SHA-256 (hex), so the database never holds a usable secret.
 */
export const secretDigest = (secret: string): string => hash('sha256', secret, 'hex');
