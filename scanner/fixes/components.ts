import type { FindingType } from '../catalog/index.ts';
import {
  COMPONENT_KINDS,
  componentFindingType,
  severitiesOf,
  type ComponentKind,
} from '../vulndata/component-kinds.ts';
import { FIX_LINE } from '../vulndata/component-report.ts';
import { forEach, type FixEntry, type FixTable } from './fix.ts';

/**
 * Fixes for a known-vulnerable component, per platform. Their snippets hold {package}, {from} and
 * {to}: the finding's own evidence fills them (its "Oplossing:" line), so a fix names the smallest
 * safe version on the component's release line.
 */
const typesOf = (kind: ComponentKind): FindingType[] => severitiesOf(kind).map((s) => componentFindingType(kind, s));

const NPM_UPDATE: FixEntry = {
  title: '{package} bijwerken naar {to}',
  language: 'shell',
  snippet: 'npm install {package}@{to}\nnpm run build',
  notes: 'Publiceer de nieuwe build. Laadt de site de bibliotheek van een CDN, zet dan {to} in de URL van het script.',
};

export const COMPONENT_FIXES: Partial<Record<'nextjs' | 'wordpress' | 'webflow' | 'lovable', FixTable>> = {
  nextjs: {
    ...forEach(typesOf('nextjs'), {
      title: 'Next.js bijwerken naar {to}',
      language: 'shell',
      snippet: 'npm install next@{to}\nnpm run build',
      notes:
        'Bouw opnieuw en publiceer (of deploy opnieuw op Vercel). Vraagt next om een nieuwere react en react-dom, werk die mee bij: npm install react@latest react-dom@latest.',
    }),
    ...forEach(typesOf('javascript_library'), NPM_UPDATE),
  },
  wordpress: {
    ...forEach(typesOf('wordpress_core'), {
      title: 'WordPress bijwerken naar {to}',
      language: 'shell',
      snippet: 'wp core update --version={to}\nwp core update-db',
      notes: 'Of in het dashboard: Dashboard > Updates > Nu bijwerken. Zet automatische beveiligingsupdates aan.',
    }),
    ...forEach(typesOf('wordpress_plugin'), {
      title: 'Plugin {package} bijwerken naar {to}',
      language: 'shell',
      snippet: 'wp plugin update {package} --version={to}',
      notes:
        'Of in het dashboard: Plugins > Geïnstalleerde plugins > Nu bijwerken. Gebruikt u de plugin niet, verwijder hem: wp plugin delete {package}.',
    }),
    ...forEach(typesOf('wordpress_theme'), {
      title: 'Thema {package} bijwerken naar {to}',
      language: 'shell',
      snippet: 'wp theme update {package} --version={to}',
      notes: 'Of in het dashboard: Weergave > Thema’s. Verwijder thema’s die u niet gebruikt.',
    }),
    ...forEach(typesOf('javascript_library'), {
      title: '{package} komt met WordPress, een plugin of het thema',
      language: 'shell',
      snippet: 'wp core update\nwp plugin update --all\nwp theme update --all',
      notes:
        'WordPress, plugins en thema’s leveren hun eigen kopie mee; werk ze bij zodat die kopie {to} of nieuwer wordt.',
    }),
  },
  webflow: forEach(typesOf('javascript_library'), {
    title: '{package} in de eigen code van het project bijwerken',
    language: 'text',
    snippet:
      'Project settings > Custom code (en Page settings > Custom code): zet in de script-URL van {package} versie {to}.',
    notes: 'De jQuery die Webflow zelf meelevert werkt Webflow bij; meld een oude versie bij Webflow.',
  }),
  lovable: forEach(typesOf('javascript_library'), {
    title: 'Lovable vragen {package} bij te werken',
    language: 'text',
    snippet:
      'Werk de npm-dependency {package} bij van {from} naar {to} (of nieuwer) in package.json, pas de code aan waar de nieuwe versie dat vraagt, controleer dat de app nog werkt en publiceer opnieuw.',
    notes: 'Plak dit als prompt in Lovable, of voer npm install {package}@{to} uit in een eigen kopie van de code.',
  }),
};

/** The values a component fix is filled with, from the finding's evidence; placeholders where it has none. */
export function fillComponentFix(entry: FixEntry, evidence: string | null | undefined): FixEntry {
  const match = evidence ? FIX_LINE.exec(evidence) : null;
  const values: Record<string, string> = {
    package: match?.[1] ?? '<pakket>',
    from: match?.[2] ?? '<huidige versie>',
    to: match?.[3] ?? '<veilige versie uit de bevinding>',
  };
  const fill = (text: string) => text.replace(/\{(package|from|to)\}/g, (_, key: string) => values[key]!);
  return {
    ...entry,
    title: fill(entry.title),
    snippet: fill(entry.snippet),
    ...(entry.notes ? { notes: fill(entry.notes) } : {}),
  };
}

export const isComponentType = (type: string): boolean =>
  Object.keys(COMPONENT_KINDS).some((kind) => type.startsWith(`known_vulnerable_${kind}_`));
