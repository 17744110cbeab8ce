import { accountRouter } from './account/router.ts';
import { authRouter } from './auth/router.ts';
import { configRouter } from './config/router.ts';
import { docsRouter } from './docs/router.ts';
import { findingsRouter } from './findings/router.ts';
import { scansRouter } from './scans/router.ts';
import { sitesRouter } from './sites/router.ts';
import { suggestionsRouter } from './suggestions/router.ts';
import { router } from './trpc.ts';
import { webhooksRouter } from './webhooks/router.ts';
import { notificationsRouter } from './notifications/router.ts';
import { keysRouter } from './keys/router.ts';
import { teamRouter } from './team/router.ts';
import { staffRouter } from './staff/router.ts';

export const appRouter = router({
  auth: authRouter,
  sites: sitesRouter,
  scans: scansRouter,
  findings: findingsRouter,
  suggestions: suggestionsRouter,
  config: configRouter,
  webhooks: webhooksRouter,
  notifications: notificationsRouter,
  docs: docsRouter,
  account: accountRouter,
  keys: keysRouter,
  team: teamRouter,
  staff: staffRouter,
});

/** Import this type in TypeScript clients: `import type { AppRouter } from '<repo>/routers/index.ts'`. */
export type AppRouter = typeof appRouter;
