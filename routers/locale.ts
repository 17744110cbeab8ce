import { z } from 'zod';

/**
 * Validation messages are user-facing, so zod speaks Dutch. zod's locale is process-wide, so the
 * composition root (server/app.ts) calls this once instead of a module setting it on import.
 */
export function applyDutchValidationMessages(): void {
  z.config(z.locales.nl());
}
