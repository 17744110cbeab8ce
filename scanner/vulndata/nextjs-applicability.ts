/**
 * What each Next.js advisory needs to apply, by GHSA id, read from the advisory texts (GitHub's
 * advisory database, as retire.js carries them). The scanner sees some of these from outside with
 * GET requests (docs/scanner.md, "Next.js by version and context"); an advisory whose need it
 * sees absent is dropped, one that needs the development server is never reported, and the rest
 * name the condition the owner checks.
 */
export const NEXTJS_CONDITIONS = {
  live_server: { observable: true, label: 'een draaiende Next.js-server (geen statische export)' },
  app_router: { observable: true, label: 'de App Router' },
  pages_router: { observable: true, label: 'de Pages Router' },
  self_hosted: { observable: true, label: 'eigen hosting (niet op Vercel)' },
  dev_server: { observable: true, label: 'de ontwikkelserver (next dev)' },
  middleware: { observable: false, label: 'middleware' },
  image_optimizer: { observable: false, label: 'de beeldoptimalisatie (/_next/image)' },
  i18n: { observable: false, label: 'i18n-routering' },
  ppr: { observable: false, label: 'Partial Prerendering' },
  turbopack: { observable: false, label: 'een build met Turbopack' },
  rewrites: { observable: false, label: 'rewrites naar andere hosts' },
  shared_cache: { observable: false, label: 'een gedeelde cache (CDN) ervoor' },
  custom_server: { observable: false, label: 'een eigen server' },
  edge_runtime: { observable: false, label: 'de Edge-runtime' },
  before_interactive: { observable: false, label: 'beforeInteractive-scripts met invoer van buiten' },
} as const;
export type NextjsCondition = keyof typeof NEXTJS_CONDITIONS;

type Entry = { needs: NextjsCondition[]; name?: string; cve?: string };

const LIVE: NextjsCondition[] = ['live_server'];
const RSC: NextjsCondition[] = ['live_server', 'app_router'];
const IMAGE: NextjsCondition[] = ['live_server', 'image_optimizer'];
const SELF_HOSTED_IMAGE: NextjsCondition[] = ['live_server', 'self_hosted', 'image_optimizer'];

export const NEXTJS_APPLICABILITY: Record<string, Entry> = {
  'GHSA-9qr9-h5gf-34mp': { needs: RSC, name: 'React2Shell', cve: 'CVE-2025-66478' },
  'GHSA-3f5c-4qxj-vmpf': { needs: LIVE },
  'GHSA-m34x-wgrh-g897': { needs: LIVE },
  'GHSA-5vj8-3v2h-h38v': { needs: LIVE },
  'GHSA-qw96-mm2g-c8m7': { needs: LIVE },
  'GHSA-fq77-7p7r-83rj': { needs: LIVE },
  'GHSA-x56p-c8cg-q435': { needs: LIVE },
  'GHSA-vxf5-wxwp-m7g9': { needs: LIVE },
  'GHSA-9gr3-7897-pp7m': { needs: IMAGE },
  'GHSA-25mp-g6fv-mqxx': { needs: LIVE },
  'GHSA-wr66-vrwm-5g5x': { needs: ['live_server', 'self_hosted'] },
  'GHSA-fmvm-x8mv-47mj': { needs: IMAGE },
  'GHSA-wff4-fpwg-qqv3': { needs: LIVE },
  'GHSA-f82v-jwr5-mffw': { needs: ['live_server', 'middleware'] },
  'GHSA-223j-4rm8-mrmf': { needs: ['live_server', 'middleware'] },
  'GHSA-c59h-r6p8-q9wc': { needs: LIVE },
  'GHSA-fq54-2j52-jc42': { needs: LIVE },
  'GHSA-77r5-gw3j-2mpf': { needs: LIVE },
  'GHSA-gp8f-8m3g-qvj9': { needs: LIVE },
  'GHSA-7m27-7ghc-44w9': { needs: RSC },
  'GHSA-fr5h-rqp8-mj6g': { needs: [...RSC, 'self_hosted'] },
  'GHSA-g77x-44xx-532m': { needs: IMAGE },
  'GHSA-7gfc-8cq8-jh5f': { needs: ['live_server', 'middleware'] },
  'GHSA-qpjv-v59x-3qc4': { needs: ['live_server', 'pages_router'] },
  'GHSA-3h52-269p-cp9r': { needs: ['dev_server'] },
  'GHSA-g5qg-72qw-gw5v': { needs: IMAGE },
  'GHSA-xv57-4mr9-wg8v': { needs: IMAGE },
  'GHSA-4342-x723-ch2f': { needs: ['live_server', 'middleware', 'self_hosted'] },
  'GHSA-mwv6-3258-q52c': { needs: RSC },
  'GHSA-5j59-xgg2-r9c4': { needs: RSC },
  'GHSA-5f7q-jpqc-wp7h': { needs: [...RSC, 'ppr'] },
  'GHSA-w37m-7fhw-fmv9': { needs: RSC },
  'GHSA-h25m-26qc-wcjf': { needs: RSC },
  'GHSA-67rr-84xm-4c7r': { needs: LIVE },
  'GHSA-r2fc-ccr8-96c4': { needs: [...RSC, 'middleware'] },
  'GHSA-9g9p-9gw9-jx7f': { needs: SELF_HOSTED_IMAGE },
  'GHSA-ggv3-7p47-pfv8': { needs: ['live_server', 'rewrites'] },
  'GHSA-3x4c-7xq6-9pq8': { needs: SELF_HOSTED_IMAGE },
  'GHSA-q4gf-8mx6-v5v3': { needs: RSC },
  'GHSA-h64f-5h5j-jqjh': { needs: SELF_HOSTED_IMAGE },
  'GHSA-36qx-fr4f-26g5': { needs: ['live_server', 'pages_router', 'middleware', 'i18n'] },
  'GHSA-3g8h-86w9-wvmq': { needs: ['live_server', 'middleware'] },
  'GHSA-8h8q-6873-q5fj': { needs: RSC },
  'GHSA-gx5p-jg67-6x7h': { needs: ['before_interactive'] },
  'GHSA-ffhc-5mcf-pf4q': { needs: [...RSC, 'shared_cache'] },
  'GHSA-vfv6-92ff-j949': { needs: [...RSC, 'shared_cache'] },
  'GHSA-c4j6-fc7j-m34r': { needs: ['live_server', 'self_hosted'] },
  'GHSA-wfc6-r584-vfw7': { needs: [...RSC, 'shared_cache'] },
  'GHSA-mg66-mrh9-m8jx': { needs: [...RSC, 'ppr'] },
  'GHSA-267c-6grr-h53f': { needs: [...RSC, 'middleware'] },
  'GHSA-492v-c6pp-mqqv': { needs: [...RSC, 'middleware'] },
  'GHSA-26hh-7cqf-hhc6': { needs: ['live_server', 'middleware', 'turbopack'] },
  'GHSA-p9j2-gv94-2wf4': { needs: ['live_server', 'rewrites'] },
  'GHSA-4633-3j49-mh5q': { needs: LIVE },
  'GHSA-4c39-4ccg-62r3': { needs: [...RSC, 'edge_runtime'] },
  'GHSA-68g3-v927-f742': { needs: LIVE },
  'GHSA-955p-x3mx-jcvp': { needs: RSC },
  'GHSA-m99w-x7hq-7vfj': { needs: RSC },
  'GHSA-89xv-2m56-2m9x': { needs: [...RSC, 'custom_server'] },
  'GHSA-q8wf-6r8g-63ch': { needs: IMAGE },
  'GHSA-h27x-g6w4-24gq': { needs: [...RSC, 'ppr'] },
  'GHSA-jcc7-9wpm-mj36': { needs: ['dev_server'] },
  'GHSA-mq59-m269-xvcx': { needs: RSC },
  'GHSA-6gpp-xcg3-4w24': { needs: [...RSC, 'middleware', 'turbopack', 'i18n'] },
};

/** An advisory not in the table yet (a newer feed): Next.js's advisories are about its server, so it needs one. */
export const UNLISTED_NEXTJS_ADVISORY: Entry = { needs: LIVE };

/** What GET requests showed of the app. Null where they could not tell. */
export interface NextjsContext {
  router: 'app' | 'pages' | null;
  server: 'live' | 'static' | null;
  vercel: boolean;
}

/** Conditions the context shows absent (the advisory is dropped), or 'dev' for dev-server-only advisories. */
export function absentConditions(needs: readonly NextjsCondition[], context: NextjsContext): NextjsCondition[] {
  return needs.filter(
    (need) =>
      need === 'dev_server' ||
      (need === 'live_server' && context.server === 'static') ||
      (need === 'app_router' && context.router === 'pages') ||
      (need === 'pages_router' && context.router === 'app') ||
      (need === 'self_hosted' && context.vercel),
  );
}
