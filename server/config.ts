import { resolve } from 'node:path';
import { z } from 'zod';

const booleanFlag = z
  .enum(['true', 'false', '1', '0'], { message: 'verwacht true of false' })
  .transform((value) => value === 'true' || value === '1');

const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_PATH: z.string().min(1).default('./data/scanner.db'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SCANNER_ALLOW_PRIVATE_TARGETS: booleanFlag.default(false),
});

export type Config = z.infer<typeof ConfigSchema> & { DATABASE_PATH: string };

export class ConfigError extends Error {}

/** Reads and validates the environment; a bad value is one clear line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const defined = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = ConfigSchema.safeParse(defined);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid environment variable ${issue.path.join('.')}: ${issue.message}`);
  }
  return { ...parsed.data, DATABASE_PATH: parsed.data.DATABASE_PATH === ':memory:' ? ':memory:' : resolve(parsed.data.DATABASE_PATH) };
}
