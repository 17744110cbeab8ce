// Builds both apps with `next build` (static export) and packs each `out/` folder into one gzipped
// JSON file of path -> text under test/data/nextjs/, which test/support/next-builds.ts serves.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

const here = import.meta.dirname;
const target = join(here, '..', '..', 'test', 'data', 'nextjs');
const next = join(here, 'node_modules', '.bin', 'next');
const variants = [
  { name: 'app-router', args: [] },
  { name: 'pages-router', args: ['--webpack'] },
];

const files = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );

for (const { name, args } of variants) {
  const app = join(here, name);
  if (!existsSync(join(app, 'node_modules'))) symlinkSync(join(here, 'node_modules'), join(app, 'node_modules'));
  rmSync(join(app, 'out'), { recursive: true, force: true });
  execFileSync(next, ['build', ...args], {
    cwd: app,
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  const out = join(app, 'out');
  const packed = Object.fromEntries(files(out).map((file) => [`/${relative(out, file)}`, readFileSync(file, 'utf8')]));
  writeFileSync(join(target, `${name}.json.gz`), gzipSync(JSON.stringify(packed), { level: 9 }));
  rmSync(join(app, 'node_modules'));
  console.log(`${name}: ${Object.keys(packed).length} files`);
}
