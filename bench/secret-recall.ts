/**
 * Recall of the secret rules on a peer's own samples: every `examples` entry of Kingfisher's rule
 * files (github.com/mongodb/kingfisher, data/rules/*.yml, Apache-2.0), run through findSecrets as
 * the rule file gives it, and as a string in bundle-style code. Nothing of it is stored in this
 * repository; point the script at a checkout:
 *
 *   npm run recall:secrets -- /path/to/kingfisher/data/rules
 *
 * It prints found/total over all examples and over those of the vendors our table names, and every
 * `negative_examples` entry it reports (false positives).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { findSecrets } from '../scanner/secrets/secret-scan.ts';
import { SECRET_KIND_NAMES, SECRET_RULES } from '../scanner/secrets/secret-rules.ts';

interface PeerRule {
  id: string;
  name: string;
  examples?: string[];
  negative_examples?: string[];
}

const dir = process.argv[2];
if (!dir) {
  console.error('usage: npm run recall:secrets -- <kingfisher>/data/rules');
  process.exit(2);
}

const words = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
const named = SECRET_KIND_NAMES.flatMap((kind) => [words(kind), words(SECRET_RULES[kind].label.split(' ')[0]!)]);
const isNamed = (rule: PeerRule) => {
  const vendor = words(rule.id.split('.')[1] ?? rule.name);
  return named.some((name) => name.length >= 3 && (vendor.startsWith(name) || name.startsWith(vendor)));
};

const totals = { all: 0, allFound: 0, named: 0, namedFound: 0, negatives: 0, falsePositives: 0 };
const missed: string[] = [];
for (const file of readdirSync(dir).filter((name) => name.endsWith('.yml'))) {
  const rules = (parse(readFileSync(join(dir, file), 'utf8')) as { rules?: PeerRule[] })?.rules ?? [];
  for (const rule of rules) {
    for (const example of rule.examples ?? []) {
      const raw = await findSecrets(example);
      const inCode = await findSecrets(`const Xr=new Client({apiKey:${JSON.stringify(example.trim())}});`);
      const found = raw.length > 0 || inCode.length > 0;
      totals.all += 1;
      totals.allFound += Number(found);
      if (isNamed(rule)) {
        totals.named += 1;
        totals.namedFound += Number(found);
        if (!found)
          missed.push(`${rule.id}: ${process.env.RECALL_SHOW ? example.trim() : `${example.trim().slice(0, 12)}…`}`);
      }
    }
    for (const negative of rule.negative_examples ?? []) {
      totals.negatives += 1;
      if ((await findSecrets(negative)).length > 0) {
        totals.falsePositives += 1;
        console.log(`false positive: ${rule.id}: ${negative.trim().slice(0, 12)}…`);
      }
    }
  }
}
const pct = (a: number, b: number) => `${a}/${b} (${b ? Math.round((a / b) * 100) : 0}%)`;
console.log(`all examples: ${pct(totals.allFound, totals.all)}`);
console.log(`examples of vendors the table names: ${pct(totals.namedFound, totals.named)}`);
console.log(`negative examples reported: ${pct(totals.falsePositives, totals.negatives)}`);
console.log(`missed among named:\n${missed.join('\n')}`);
