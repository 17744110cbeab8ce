import type { Severity } from '../vocabulary.ts';
import {
  COMPONENT_KIND_NAMES,
  COMPONENT_KINDS,
  componentFindingType,
  severitiesOf,
  type ComponentFindingType,
  type ComponentKind,
} from '../vulndata/component-kinds.ts';
import type { CatalogEntry } from './entry.ts';
import { REF } from './references.ts';

type Entry = Omit<CatalogEntry, 'category'>;

/** Per kind: what it is, what to do, and the reference; the severity and version come with each finding. */
const KIND_TEXTS: Record<ComponentKind, { what: string; remediation: string; reference: string }> = {
  javascript_library: {
    what: 'Een JavaScript-bibliotheek die de site laadt',
    remediation:
      'Werk de bibliotheek bij naar de veilige versie die bij de bevinding staat (of een nieuwere) en publiceer de site opnieuw. Laadt u de bibliotheek van een CDN, pas dan het versienummer in de URL aan; is hij meegebundeld, werk dan package.json bij en bouw opnieuw.',
    reference: REF.vulnerableComponents,
  },
  nextjs: {
    what: 'De Next.js-versie van de site',
    remediation:
      'Werk Next.js bij naar de veilige versie op dezelfde versielijn die bij de bevinding staat (`npm install next@<versie>`), bouw opnieuw en publiceer. Werk React en react-dom mee bij als Next.js daarom vraagt.',
    reference: REF.nextjsSecurity,
  },
  wordpress_core: {
    what: 'De WordPress-versie van de site',
    remediation:
      'Werk WordPress bij via Dashboard > Updates (of `wp core update`) naar de veilige versie die bij de bevinding staat, en zet automatische beveiligingsupdates aan.',
    reference: REF.wordpressUpdates,
  },
  wordpress_plugin: {
    what: 'Een WordPress-plugin van de site',
    remediation:
      'Werk de plugin bij via Dashboard > Plugins (of `wp plugin update <slug>`) naar de veilige versie die bij de bevinding staat. Gebruikt u de plugin niet, verwijder hem dan helemaal: een uitgeschakelde plugin blijft op de server staan.',
    reference: REF.wordpressUpdates,
  },
  wordpress_theme: {
    what: 'Een WordPress-thema van de site',
    remediation:
      'Werk het thema bij via Dashboard > Weergave > Thema’s (of `wp theme update <slug>`) naar de veilige versie die bij de bevinding staat. Verwijder thema’s die u niet gebruikt.',
    reference: REF.wordpressUpdates,
  },
};

const IMPACT: Record<Severity, string> = {
  CRITICAL:
    'Voor deze versie zijn kwetsbaarheden gemeld waarmee een aanvaller zonder inlog de server kan overnemen of alle gegevens kan lezen; zulke lekken worden binnen dagen na publicatie massaal misbruikt.',
  HIGH: 'Voor deze versie zijn ernstige kwetsbaarheden gemeld (bijvoorbeeld cross-site scripting, het omzeilen van toegangscontrole of het platleggen van de site) die met publieke uitleg te misbruiken zijn.',
  MEDIUM:
    'Voor deze versie zijn kwetsbaarheden gemeld die onder voorwaarden te misbruiken zijn, bijvoorbeeld met invoer van een bezoeker of een ingelogde gebruiker.',
  LOW: 'Voor deze versie zijn kwetsbaarheden met beperkte gevolgen gemeld, of het gaat om een kopie die de distributie zelf bijwerkt; controleer of de oplossing in uw versie zit.',
};

function entry(kind: ComponentKind, severity: Severity): Entry {
  const texts = KIND_TEXTS[kind];
  return {
    severity,
    title: `${COMPONENT_KINDS[kind].label}: versie met gemelde kwetsbaarheden (${severity})`,
    description: `${texts.what} draait op een versie waarvoor openbare kwetsbaarheidsmeldingen bestaan. Bij de bevinding staan het onderdeel, de versie, hoe en waar die is vastgesteld (exact of afgeleid), de meldingen met hun oplossing en de bron en datum van de gegevens. Het zegt wat de bron over deze versie meldt, niet dat de site is binnengedrongen.`,
    impact: IMPACT[severity],
    remediation: texts.remediation,
    expected_value: 'Een versie waarvoor de kwetsbaarheidsgegevens geen meldingen hebben',
    reference_url: texts.reference,
  };
}

export const COMPONENT_CATALOG = Object.fromEntries(
  COMPONENT_KIND_NAMES.flatMap((kind) =>
    severitiesOf(kind).map((severity) => [componentFindingType(kind, severity), entry(kind, severity)]),
  ),
) as Record<ComponentFindingType, Entry>;
