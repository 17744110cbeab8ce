// Type-checks the service and the dashboard at once: two tsc processes on two cores instead of one
// after the other (npm test, npm run typecheck). Exits non-zero when either fails.
import { runNode } from './run-node.mjs';

const codes = await Promise.all(
  ['.', 'web'].map((project) => runNode(['node_modules/typescript/bin/tsc', '-p', project])),
);
process.exit(codes.some((code) => code !== 0) ? 1 : 0);
