import {
  SECRET_KIND_NAMES,
  SECRET_RULES,
  secretFindingType,
  type SecretFindingType,
  type SecretKind,
} from '../secrets/secret-rules.ts';
import type { CatalogEntry } from './entry.ts';
import { REF } from './references.ts';

type Entry = Omit<CatalogEntry, 'category'>;

const MOVE_SERVER_SIDE =
  'Zet geheime sleutels nooit in code die de browser laadt: roep de dienst aan vanaf de server (Next.js route handlers of server actions, Supabase Edge Functions, een eigen API) en lees de sleutel daar uit een omgevingsvariabele zonder NEXT_PUBLIC_- of VITE_-voorvoegsel. Bouw en publiceer de site daarna opnieuw.';

function secretEntry(kind: SecretKind): Entry {
  const { label, severity, revoke } = SECRET_RULES[kind];
  return {
    severity,
    title: `Geheime sleutel in JavaScript van de site (${label})`,
    description: `Een ${label} staat in JavaScript dat iedere bezoeker downloadt. Het gevonden deel (begin, einde en lengte) staat bij de bevinding; de volledige sleutel wordt niet opgeslagen.`,
    impact:
      severity === 'CRITICAL'
        ? 'Iedereen die de site bezoekt kan de sleutel gebruiken: kosten maken op uw rekening, betalingen of gegevens inzien en wijzigen, of uw database buiten de beveiliging om lezen en beschrijven.'
        : 'Iedereen die de site bezoekt kan de sleutel gebruiken om namens u de gekoppelde dienst te gebruiken en gegevens te lezen.',
    remediation: `${revoke}: de sleutel is openbaar geweest, dus verwijderen uit de code alleen is niet genoeg. ${MOVE_SERVER_SIDE}`,
    expected_value:
      'Geen geheime sleutels in JavaScript dat de browser laadt (publieke sleutels zoals Stripe pk_ of Supabase publishable zijn wel toegestaan)',
    reference_url: REF.hardCodedCredentials,
  };
}

const SECRET_CATALOG = Object.fromEntries(
  SECRET_KIND_NAMES.map((kind) => [secretFindingType(kind), secretEntry(kind)]),
) as Record<SecretFindingType, Entry>;

const RLS_REMEDIATION =
  'Zet row-level security aan en geef alleen toegang via policies, bijvoorbeeld: `alter table public.<tabel> enable row level security;` en `create policy "eigen rij" on public.<tabel> for select to authenticated using ((select auth.uid()) = user_id);`. Controleer daarna met de publieke sleutel dat anonieme verzoeken 0 rijen of 401 krijgen. Tabellen die echt openbaar mogen zijn krijgen een expliciete policy `for select to anon using (true)`.';

export const CLIENT_CODE_CATALOG = {
  ...SECRET_CATALOG,
  supabase_table_personal_data_readable: {
    severity: 'CRITICAL',
    title: 'Supabase-tabel met persoonsgegevens leesbaar voor iedereen',
    description:
      'Met de publieke Supabase-sleutel uit het JavaScript van de site kan iedere bezoeker rijen van deze tabel lezen, en de tabel heeft kolommen die op persoonsgegevens lijken. Row-level security staat uit of een policy laat anonieme lezers toe (zoals bij CVE-2025-48757 in Lovable-apps). De scanner telde de rijen zonder er één te downloaden.',
    impact:
      'Iedereen kan alle persoonsgegevens in deze tabel downloaden (e-mailadressen, telefoonnummers, adressen). Dat is een datalek dat u bij de Autoriteit Persoonsgegevens moet melden als het is misbruikt.',
    remediation: RLS_REMEDIATION,
    expected_value: 'Anonieme verzoeken krijgen 0 rijen, 401 of permission denied (42501)',
    reference_url: REF.supabaseRls,
  },
  supabase_table_readable: {
    severity: 'MEDIUM',
    title: 'Supabase-tabel leesbaar voor iedereen',
    description:
      'Met de publieke Supabase-sleutel uit het JavaScript van de site kan iedere bezoeker rijen van deze tabel lezen. Er zijn geen kolommen gevonden die op persoonsgegevens lijken: controleer of dit de bedoeling is (de berichten van een blog zijn openbaar, bestellingen niet).',
    impact: 'Iedereen kan de hele tabel downloaden, ook rijen die de site zelf niet toont.',
    remediation: RLS_REMEDIATION,
    expected_value: 'Alleen tabellen die openbaar bedoeld zijn, met een expliciete select-policy voor anon',
    reference_url: REF.supabaseRls,
  },
  firebase_database_open_personal: {
    severity: 'CRITICAL',
    title: 'Firebase Realtime Database met persoonsgegevens leesbaar voor iedereen',
    description:
      'De Realtime Database uit de firebaseConfig van de site geeft zonder inloggen antwoord, en de namen op het hoogste niveau wijzen op gegevens van mensen (gebruikers, klanten, bestellingen). De scanner las alleen die namen (shallow=true).',
    impact: 'Iedereen kan de hele database downloaden, inclusief persoonsgegevens, met één verzoek.',
    remediation:
      'Stel Realtime Database Security Rules in die lezen alleen toestaan aan ingelogde gebruikers voor hun eigen gegevens, bijvoorbeeld `{"rules": {"users": {"$uid": {".read": "auth != null && auth.uid === $uid"}}}}`, en nooit `".read": true` op het hoogste niveau.',
    expected_value: 'Permission denied (401) zonder inloggen',
    reference_url: REF.firebaseDatabaseRules,
  },
  firebase_database_open: {
    severity: 'HIGH',
    title: 'Firebase Realtime Database leesbaar voor iedereen',
    description:
      'De Realtime Database uit de firebaseConfig van de site geeft zonder inloggen antwoord. De scanner las alleen de namen op het hoogste niveau (shallow=true).',
    impact: 'Iedereen kan de hele database downloaden.',
    remediation:
      'Stel Realtime Database Security Rules in die lezen alleen toestaan waar dat nodig is (`".read": "auth != null"` of per pad), nooit `".read": true` op het hoogste niveau.',
    expected_value: 'Permission denied (401) zonder inloggen',
    reference_url: REF.firebaseDatabaseRules,
  },
  firebase_storage_listable: {
    severity: 'HIGH',
    title: 'Firebase Storage-bucket openbaar op te sommen',
    description:
      'De Cloud Storage-bucket uit de firebaseConfig van de site geeft zonder inloggen een lijst van bestanden. De scanner vroeg om ten hoogste één bestandsnaam.',
    impact: 'Iedereen kan alle bestanden in de bucket vinden en downloaden, ook uploads van gebruikers.',
    remediation:
      'Stel Storage Security Rules in die lezen en opsommen alleen toestaan aan ingelogde gebruikers voor hun eigen map, bijvoorbeeld `match /users/{uid}/{file=**} { allow read: if request.auth != null && request.auth.uid == uid; }`.',
    expected_value: 'Permission denied (403) zonder inloggen',
    reference_url: REF.firebaseStorageRules,
  },
  nextjs_middleware_bypass: {
    severity: 'CRITICAL',
    title: 'Next.js-middleware te omzeilen (CVE-2025-29927)',
    description:
      'Een pagina die de middleware afschermt (doorverwijzing naar inloggen, 401 of 403) is met de header x-middleware-subrequest gewoon te openen. Next.js vóór 15.2.3, 14.2.25, 13.5.9 en 12.3.5 slaat de middleware dan over.',
    impact:
      "Iedereen kan de controle op inloggen en rechten in de middleware overslaan en afgeschermde pagina's en gegevens openen.",
    remediation:
      'Werk Next.js bij naar 15.2.3, 14.2.25, 13.5.9, 12.3.5 of nieuwer. Kan dat niet direct, verwijder dan de header x-middleware-subrequest bij de proxy of CDN voordat verzoeken de app bereiken (nginx: `proxy_set_header x-middleware-subrequest "";`). Controleer rechten ook in de pagina of API-route zelf, niet alleen in de middleware.',
    expected_value: 'De afgeschermde pagina blijft doorverwijzen of 401/403 geven, ook met de header',
    reference_url: REF.nextjsMiddlewareAdvisory,
  },
} satisfies Record<string, Entry>;
