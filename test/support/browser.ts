import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'vite';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * Where Debian's chromium is missing: in CI that is a broken setup (.ci/run installs it), so it
 * fails naming the package; on a developer's machine the browser tests are skipped, loudly.
 */
export function requireChromiumOrSkip(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI) throw new Error('chromium is missing: install the Debian package chromium (.ci/run does this)');
  process.stderr.write('\n*** SKIPPED: the dashboard browser tests need chromium (apt-get install chromium) ***\n\n');
  return false;
}

/** Builds the dashboard from source into a temporary folder, so the test runs what the tree holds. */
export async function buildDashboard(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'scanner-web-'));
  await build({ configFile: 'web/vite.config.ts', logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  return outDir;
}

/** Headless Debian chromium; no downloaded browsers. As root (CI containers) it needs --no-sandbox. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
}

const axeSource: string = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core's serious and critical violations on the page as it is now. The script is evaluated
 * through the DevTools protocol, which the page's CSP does not govern: the page stays as served.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const result: { violations: AxeViolation[] } = await page.evaluate('axe.run()');
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Screenshots for the README: `npm run screenshots` writes them to docs/screenshots. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'scanner-screenshots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}
