import { CLIENT_CODE_CATALOG } from '../catalog/client-code.ts';
import type { FindingType } from '../catalog/index.ts';
import { forEach, type FixTable } from './fix.ts';
import { cspNote, headerTable, TLS_CONFIGURATION_FINDINGS } from './shared.ts';

/** A whole next.config.mjs: Next.js sends the headers from headers() for every path. */
export const NEXTJS_FIXES: FixTable = headerTable((header) => ({
  title: `${header.name} meesturen vanuit next.config.mjs`,
  language: 'javascript',
  snippet: `/** @type {import('next').NextConfig} */\nconst nextConfig = {\n  async headers() {\n    return [\n      {\n        source: '/:path*',\n        headers: [{ key: ${JSON.stringify(header.name)}, value: ${JSON.stringify(header.value)} }],\n      },\n    ];\n  },\n};\n\nexport default nextConfig;\n`,
  notes: `Heeft u al een next.config.mjs, voeg dan alleen de regel aan headers() toe.${cspNote(header) ? ` ${cspNote(header)}` : ''}`,
}));

export const VERCEL_FIXES: FixTable = {
  ...headerTable((header) => ({
    title: `${header.name} meesturen via vercel.json`,
    language: 'json',
    snippet: JSON.stringify(
      { headers: [{ source: '/(.*)', headers: [{ key: header.name, value: header.value }] }] },
      null,
      2,
    ),
    notes: cspNote(header),
  })),
  ...forEach(TLS_CONFIGURATION_FINDINGS, {
    title: 'TLS wordt door Vercel beheerd',
    language: 'text',
    snippet: 'Vercel stelt protocollen en suites zelf in; er is geen instelling voor.',
    notes: 'Meld een afwijking bij Vercel; een eigen proxy ervoor kan wel strenger zijn.',
  }),
};

export const NETLIFY_FIXES: FixTable = {
  ...headerTable((header) => ({
    title: `${header.name} meesturen via _headers`,
    language: 'text',
    snippet: `/*\n  ${header.name}: ${header.value}\n`,
    notes: `Het bestand _headers hoort in de publicatiemap (bijvoorbeeld dist/ of public/).${cspNote(header) ? ` ${cspNote(header)}` : ''}`,
  })),
  ...forEach(TLS_CONFIGURATION_FINDINGS, {
    title: 'TLS wordt door Netlify beheerd',
    language: 'text',
    snippet: 'Netlify stelt protocollen en suites zelf in; er is geen instelling voor.',
  }),
};

export const CLOUDFLARE_FIXES: FixTable = {
  ...headerTable((header) => ({
    title: `${header.name} meesturen met een Transform Rule`,
    language: 'text',
    snippet: `Rules > Transform Rules > Modify Response Header > Set static:\n${header.name}: ${header.value}`,
    notes:
      header.name === 'Strict-Transport-Security'
        ? 'Of: SSL/TLS > Edge Certificates > HTTP Strict Transport Security (HSTS).'
        : cspNote(header),
  })),
  ...forEach(TLS_CONFIGURATION_FINDINGS, {
    title: 'TLS aan de rand van Cloudflare',
    language: 'text',
    snippet:
      'SSL/TLS > Edge Certificates: Minimum TLS Version 1.2, TLS 1.3 aan. Cipher suites: Security Level "Modern" (Advanced Certificate Manager).',
  }),
};

/** A must-use plugin: WordPress loads every PHP file in wp-content/mu-plugins/ on every request. */
export const WORDPRESS_FIXES: FixTable = {
  ...headerTable((header) => ({
    title: `${header.name} meesturen met een mu-plugin`,
    language: 'php',
    snippet: `<?php\n/*\n * Plugin Name: Beveiligingsheaders\n * Description: Stuurt ${header.name} mee.\n */\nadd_action('send_headers', function () {\n    header(${JSON.stringify(`${header.name}: ${header.value}`).replace(/^"|"$/g, "'")});\n});\n`,
    notes: `Opslaan als wp-content/mu-plugins/beveiligingsheaders.php.${cspNote(header) ? ` ${cspNote(header)}` : ''}`,
  })),
  x_powered_by_disclosure: {
    title: 'X-Powered-By van PHP weglaten',
    language: 'text',
    snippet: 'expose_php = Off',
    notes: 'In php.ini (Debian: /etc/php/<versie>/fpm/php.ini), daarna PHP-FPM herstarten.',
  },
};

const WEBFLOW_LIMIT =
  'Webflow laat geen eigen HTTP-headers toe: deze header kunt u in Webflow niet instellen. Zet een proxy of CDN (bijvoorbeeld Cloudflare met een Transform Rule) voor de site als u hem nodig hebt.';
export const WEBFLOW_FIXES: FixTable = {
  ...headerTable((header) =>
    header.name === 'Content-Security-Policy'
      ? {
          title: 'CSP als meta-tag in de Custom Code',
          language: 'html',
          snippet: `<meta http-equiv="Content-Security-Policy" content="${header.value.replace("; frame-ancestors 'none'", '')}">`,
          notes:
            'Site settings > Custom Code > Head code. Een meta-tag kan frame-ancestors niet zetten; dat kan alleen een header.',
        }
      : {
          title: `${header.name}: niet in Webflow in te stellen`,
          language: 'text',
          snippet:
            header.name === 'Strict-Transport-Security'
              ? 'Site settings > Publishing > Advanced publishing options: "Enable HSTS" aan (met "Include subdomains").'
              : WEBFLOW_LIMIT,
        },
  ),
};

const SUPABASE_TYPES = (Object.keys(CLIENT_CODE_CATALOG) as FindingType[]).filter((type) =>
  type.startsWith('supabase_table_'),
);
export const SUPABASE_FIXES: FixTable = {
  ...forEach(SUPABASE_TYPES, {
    title: 'Row-level security aanzetten met een policy per gebruiker',
    language: 'sql',
    snippet:
      'alter table public.profiles enable row level security;\n\ncreate policy "Eigen profiel lezen" on public.profiles\n  for select to authenticated\n  using ((select auth.uid()) = id);\n\ncreate policy "Eigen profiel wijzigen" on public.profiles\n  for update to authenticated\n  using ((select auth.uid()) = id)\n  with check ((select auth.uid()) = id);',
    notes:
      'Vervang profiles door de tabel uit de bevinding en id door de kolom met het gebruikers-id. Uit te voeren in de SQL Editor van Supabase.',
  }),
  client_secret_supabase_secret: {
    title: 'De secret key intrekken en naar de server verplaatsen',
    language: 'text',
    snippet:
      'Project Settings > API Keys: maak een nieuwe secret key en verwijder de oude (bij een service_role-JWT: roteer het JWT-secret). Gebruik de sleutel alleen in een Edge Function of op uw server.',
  },
};
