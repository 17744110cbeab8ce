import type { CatalogEntry } from './entry.ts';
import { REF } from './references.ts';

type Entry = Omit<CatalogEntry, 'category'>;

const CSP_GOOD = "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'";

const csp = (
  severity: Entry['severity'],
  title: string,
  description: string,
  impact: string,
  remediation: string,
): Entry => ({
  severity,
  title,
  description,
  impact,
  remediation,
  expected_value: CSP_GOOD,
  reference_url: REF.cspCheatSheet,
  observatory: 'content-security-policy',
});

const mixed = (severity: Entry['severity'], title: string, description: string, impact: string): Entry => ({
  severity,
  title,
  description,
  impact,
  remediation:
    'Laad alle bronnen via https:// (of met een relatieve URL) en stuur formulieren naar https://. Voeg voor afbeeldingen en media die u niet direct kunt aanpassen upgrade-insecure-requests toe aan de Content-Security-Policy, zodat browsers ze via HTTPS ophalen.',
  expected_value: 'Alleen https://-bronnen op een HTTPS-pagina',
  reference_url: REF.mixedContent,
});

const SECURITY_TXT_EXAMPLE =
  'Contact: mailto:security@voorbeeld.nl, Expires binnen een jaar, als text/plain op /.well-known/security.txt';

const securityTxt = (
  title: string,
  description: string,
  remediation: string,
  expected_value = SECURITY_TXT_EXAMPLE,
): Entry => ({
  severity: 'LOW',
  title,
  description,
  impact:
    'Wie een kwetsbaarheid vindt, weet niet hoe die veilig te melden; meldingen komen te laat, bij de verkeerde persoon of niet. De Nederlandse overheid verplicht security.txt ("pas toe of leg uit").',
  remediation,
  expected_value,
  reference_url: REF.securityTxt,
});

const cookie = (
  severity: Entry['severity'],
  title: string,
  description: string,
  impact: string,
  remediation: string,
  expected: string,
): Entry => ({
  severity,
  title,
  description,
  impact,
  remediation,
  expected_value: expected,
  reference_url: REF.sessions,
  observatory: 'cookies',
});

const XSS_IMPACT =
  'Bij een XSS-lek kan een aanvaller eigen scripts in de pagina uitvoeren en zo sessies, gegevens of acties van bezoekers overnemen.';

export const SECURITY_HEADER_CATALOG = {
  csp_missing: {
    ...csp(
      'MEDIUM',
      'Content-Security-Policy ontbreekt',
      'De pagina stuurt geen Content-Security-Policy mee.',
      XSS_IMPACT,
      `Stel een Content-Security-Policy in, bijvoorbeeld: ${CSP_GOOD}.`,
    ),
    reference_url: REF.csp,
  },
  csp_report_only: csp(
    'MEDIUM',
    'Content-Security-Policy staat alleen in report-only-modus',
    'Er is alleen een Content-Security-Policy-Report-Only-header: overtredingen worden gemeld maar niet geblokkeerd.',
    XSS_IMPACT,
    'Zet het beleid, na het verwerken van de meldingen, om naar een afdwingende Content-Security-Policy-header.',
  ),
  csp_invalid: csp(
    'MEDIUM',
    'Content-Security-Policy is ongeldig',
    'Het beleid kan niet correct worden gelezen (leeg, dubbele directives, of strict-dynamic zonder nonce of hash).',
    'Browsers passen een ongeldig beleid anders toe dan bedoeld, waardoor de bescherming tegen XSS kan ontbreken.',
    "Corrigeer de syntaxis: elke directive één keer, gescheiden door puntkomma's, en strict-dynamic alleen samen met een nonce of hash.",
  ),
  csp_unsafe_inline: csp(
    'MEDIUM',
    "CSP staat 'unsafe-inline' of data: toe in script-src",
    "De script-src van het beleid staat inline scripts ('unsafe-inline') of data:-URL's toe.",
    XSS_IMPACT,
    "Verwijder 'unsafe-inline' en data: uit script-src en gebruik nonces of hashes voor inline scripts.",
  ),
  csp_script_src_wildcard: csp(
    'MEDIUM',
    'CSP beperkt de bronnen van scripts niet',
    'script-src (of default-src) ontbreekt of staat elke bron toe via *, https: of http:.',
    XSS_IMPACT,
    "Beperk script-src tot 'self' en de specifieke hosts die u nodig hebt, of gebruik nonces met 'strict-dynamic'.",
  ),
  csp_object_src_unrestricted: csp(
    'MEDIUM',
    'CSP beperkt object-src niet',
    'object-src (of default-src) ontbreekt of staat elke bron toe, zodat plugins en <object>-inhoud van overal mogen laden.',
    'Een aanvaller kan via <object> of <embed> eigen code laden en de scriptbeperkingen omzeilen.',
    "Voeg object-src 'none' toe aan het beleid.",
  ),
  csp_unsafe_eval: csp(
    'MEDIUM',
    "CSP staat 'unsafe-eval' toe",
    "script-src of style-src bevat 'unsafe-eval', waardoor eval() en vergelijkbare functies zijn toegestaan.",
    'Geïnjecteerde tekst kan als code worden uitgevoerd, wat XSS-aanvallen vergemakkelijkt.',
    "Verwijder 'unsafe-eval' en herschrijf code die eval(), new Function() of setTimeout met tekst gebruikt.",
  ),
  csp_insecure_scheme: csp(
    'MEDIUM',
    'CSP staat onversleutelde bronnen toe voor actieve inhoud',
    'Het beleid op een HTTPS-pagina staat http:- of ftp:-bronnen toe voor scripts, stijlen of frames.',
    'Een aanvaller op het netwerk kan die onversleuteld geladen inhoud aanpassen en zo code in de pagina injecteren.',
    'Vervang http://-bronnen door https://-bronnen en voeg eventueel upgrade-insecure-requests toe.',
  ),
  csp_insecure_scheme_passive: csp(
    'LOW',
    'CSP staat onversleutelde afbeeldingen of media toe',
    'img-src of media-src staat http:-bronnen toe op een HTTPS-pagina.',
    'Onversleuteld geladen afbeeldingen en media kunnen worden bekeken of vervangen door een aanvaller op het netwerk.',
    'Gebruik alleen https://-bronnen voor afbeeldingen en media.',
  ),
  csp_style_unsafe_inline: csp(
    'LOW',
    "CSP staat 'unsafe-inline' of brede bronnen toe in style-src",
    'style-src staat inline stijlen, data: of elke bron toe.',
    'Via CSS-injectie kan een aanvaller de pagina misleidend aanpassen of gegevens weglekken.',
    "Beperk style-src tot 'self' en gebruik nonces of hashes voor inline stijlen.",
  ),
  csp_frame_ancestors_missing: csp(
    'LOW',
    'CSP zonder frame-ancestors',
    'Het beleid in de header bepaalt niet welke sites de pagina in een frame mogen tonen.',
    'Zonder frame-ancestors (of X-Frame-Options) kan de pagina worden misbruikt voor clickjacking.',
    "Voeg frame-ancestors 'none' (of 'self') toe aan de Content-Security-Policy-header.",
  ),
  csp_frame_ancestors_wildcard: csp(
    'MEDIUM',
    'CSP frame-ancestors staat elke site toe',
    'frame-ancestors staat elke bron toe, zodat elke site de pagina in een frame mag tonen.',
    'Een aanvaller kan de pagina onzichtbaar inbedden en bezoekers laten klikken op acties die ze niet bedoelen (clickjacking).',
    "Beperk frame-ancestors tot 'none' of 'self'.",
  ),
  csp_base_uri_missing: csp(
    'LOW',
    'CSP beperkt base-uri niet',
    'base-uri ontbreekt of staat elke bron toe; base-uri valt niet terug op default-src.',
    "Via een geïnjecteerde <base>-tag kan een aanvaller relatieve script-URL's naar een eigen server laten wijzen.",
    "Voeg base-uri 'self' (of 'none') toe aan het beleid.",
  ),
  csp_meta_only: csp(
    'LOW',
    'CSP staat alleen in een meta-tag',
    'Het beleid wordt alleen via <meta http-equiv> gezet; daarin werken frame-ancestors, report-uri en sandbox niet.',
    'Bescherming tegen clickjacking en het melden van overtredingen ontbreken.',
    'Stuur het beleid als HTTP-header Content-Security-Policy mee.',
  ),
  x_frame_options_missing: {
    severity: 'MEDIUM',
    title: 'Bescherming tegen clickjacking ontbreekt',
    description: 'De pagina stuurt geen X-Frame-Options en geen CSP frame-ancestors mee.',
    impact:
      'Een aanvaller kan de pagina onzichtbaar inbedden en bezoekers laten klikken op acties die ze niet bedoelen (clickjacking).',
    remediation: "Stuur X-Frame-Options: DENY (of SAMEORIGIN) mee, of gebruik CSP frame-ancestors 'none'.",
    expected_value: 'DENY',
    reference_url: REF.xfo,
    observatory: 'x-frame-options',
  },
  x_frame_options_invalid: {
    severity: 'MEDIUM',
    title: 'X-Frame-Options is ongeldig',
    description: 'De waarde van X-Frame-Options is niet DENY of SAMEORIGIN.',
    impact: 'Browsers negeren een ongeldige waarde, waardoor clickjacking mogelijk blijft.',
    remediation: 'Gebruik precies één header met DENY of SAMEORIGIN.',
    expected_value: 'DENY',
    reference_url: REF.xfo,
    observatory: 'x-frame-options',
  },
  x_frame_options_allow_from: {
    severity: 'LOW',
    title: 'X-Frame-Options gebruikt het verouderde ALLOW-FROM',
    description: 'ALLOW-FROM wordt door moderne browsers niet meer ondersteund.',
    impact: 'In moderne browsers geldt geen beperking, waardoor clickjacking mogelijk is.',
    remediation: 'Gebruik CSP frame-ancestors met de toegestane origin in plaats van ALLOW-FROM.',
    expected_value: "frame-ancestors 'self' https://toegestane-site.example",
    reference_url: REF.xfo,
    observatory: 'x-frame-options',
  },
  x_content_type_options_missing: {
    severity: 'LOW',
    title: 'X-Content-Type-Options ontbreekt',
    description: 'De pagina stuurt geen X-Content-Type-Options: nosniff mee.',
    impact:
      'Browsers kunnen het inhoudstype raden (MIME-sniffing) en bijvoorbeeld een geüpload bestand als script uitvoeren.',
    remediation: 'Stuur X-Content-Type-Options: nosniff mee op alle responses.',
    expected_value: 'nosniff',
    reference_url: REF.xcto,
    observatory: 'x-content-type-options',
  },
  x_content_type_options_invalid: {
    severity: 'LOW',
    title: 'X-Content-Type-Options is ongeldig',
    description: 'De waarde van X-Content-Type-Options is niet nosniff.',
    impact: 'Browsers negeren de header en kunnen het inhoudstype raden.',
    remediation: 'Stuur precies X-Content-Type-Options: nosniff mee.',
    expected_value: 'nosniff',
    reference_url: REF.xcto,
    observatory: 'x-content-type-options',
  },
  referrer_policy_missing: {
    severity: 'LOW',
    title: 'Referrer-Policy ontbreekt',
    description: 'De pagina bepaalt niet welke referrer-informatie de browser naar andere sites stuurt.',
    impact:
      "Browsers gebruiken hun standaardbeleid; oudere browsers sturen volledige URL's, inclusief eventuele tokens, naar derden.",
    remediation: 'Stuur Referrer-Policy: strict-origin-when-cross-origin (of no-referrer) mee.',
    expected_value: 'strict-origin-when-cross-origin',
    reference_url: REF.referrer,
    observatory: 'referrer-policy',
  },
  referrer_policy_unsafe: {
    severity: 'MEDIUM',
    title: "Referrer-Policy lekt URL's naar andere sites",
    description:
      'Het referrerbeleid stuurt (delen van) de URL mee naar andere origins of via onversleutelde verbindingen.',
    impact: 'Paden en queryparameters, soms met tokens of persoonsgegevens, lekken naar derden.',
    remediation: 'Gebruik strict-origin-when-cross-origin, strict-origin, same-origin of no-referrer.',
    expected_value: 'strict-origin-when-cross-origin',
    reference_url: REF.referrer,
    observatory: 'referrer-policy',
  },
  referrer_policy_invalid: {
    severity: 'LOW',
    title: 'Referrer-Policy is ongeldig',
    description: 'De Referrer-Policy bevat geen waarde die browsers herkennen.',
    impact: 'Browsers negeren de header en vallen terug op hun standaardbeleid.',
    remediation: 'Gebruik een geldige waarde, zoals strict-origin-when-cross-origin.',
    expected_value: 'strict-origin-when-cross-origin',
    reference_url: REF.referrer,
    observatory: 'referrer-policy',
  },
  permissions_policy_missing: {
    severity: 'LOW',
    title: 'Permissions-Policy ontbreekt',
    description:
      'De pagina beperkt niet welke browserfuncties (camera, microfoon, locatie) zij en ingebedde frames mogen gebruiken.',
    impact: 'Ingebedde of geïnjecteerde inhoud kan krachtige browserfuncties aanvragen.',
    remediation:
      'Stuur een Permissions-Policy mee die ongebruikte functies uitschakelt, bijvoorbeeld: camera=(), microphone=(), geolocation=().',
    expected_value: 'camera=(), microphone=(), geolocation=()',
    reference_url: REF.permissions,
  },
  coop_missing: {
    severity: 'LOW',
    title: 'Cross-Origin-Opener-Policy ontbreekt',
    description: 'De pagina isoleert haar browservenster niet van vensters van andere origins.',
    impact:
      "Pagina's van andere sites die dit venster openen of erdoor worden geopend, houden een verwijzing ernaar (XS-Leaks, tabnabbing).",
    remediation:
      'Stuur Cross-Origin-Opener-Policy: same-origin mee (of same-origin-allow-popups als u pop-ups nodig hebt).',
    expected_value: 'same-origin',
    reference_url: REF.coop,
    observatory: 'cross-origin-opener-policy',
  },
  coop_invalid: {
    severity: 'LOW',
    title: 'Cross-Origin-Opener-Policy is ongeldig',
    description:
      'De waarde van Cross-Origin-Opener-Policy wordt niet herkend (let op hoofdletters, aanhalingstekens en dubbele headers).',
    impact: 'Browsers negeren de header, waardoor de beoogde isolatie ontbreekt.',
    remediation:
      'Gebruik precies één header met same-origin, same-origin-allow-popups, noopener-allow-popups of unsafe-none.',
    expected_value: 'same-origin',
    reference_url: REF.coop,
    observatory: 'cross-origin-opener-policy',
  },
  coep_invalid: {
    severity: 'LOW',
    title: 'Cross-Origin-Embedder-Policy is ongeldig',
    description: 'De waarde van Cross-Origin-Embedder-Policy wordt niet herkend.',
    impact: 'Browsers negeren de header, waardoor de beoogde cross-origin-isolatie ontbreekt.',
    remediation: 'Gebruik precies één header met require-corp, credentialless of unsafe-none.',
    expected_value: 'require-corp',
    reference_url: REF.coep,
    observatory: 'cross-origin-embedder-policy',
  },
  corp_invalid: {
    severity: 'LOW',
    title: 'Cross-Origin-Resource-Policy is ongeldig',
    description: 'De waarde van Cross-Origin-Resource-Policy wordt niet herkend.',
    impact: 'Browsers negeren de header, zodat andere sites deze bron toch kunnen laden.',
    remediation: 'Gebruik precies één header met same-origin, same-site of cross-origin.',
    expected_value: 'same-origin',
    reference_url: REF.corp,
    observatory: 'cross-origin-resource-policy',
  },
  cookie_missing_secure: cookie(
    'MEDIUM',
    'Cookie zonder Secure-vlag',
    'Een of meer cookies worden zonder het Secure-attribuut gezet.',
    'De cookies kunnen over onversleutelde HTTP-verbindingen worden verstuurd en onderschept.',
    'Zet het Secure-attribuut op alle cookies.',
    'Secure',
  ),
  session_cookie_missing_secure: cookie(
    'HIGH',
    'Sessiecookie zonder Secure-vlag',
    'Een sessie- of logincookie wordt zonder het Secure-attribuut gezet.',
    'Een aanvaller op het netwerk kan de sessiecookie onderscheppen en de sessie van de gebruiker overnemen.',
    'Zet Secure (en HttpOnly en SameSite) op sessiecookies, bij voorkeur met het __Host--voorvoegsel.',
    'Secure; HttpOnly; SameSite=Lax',
  ),
  session_cookie_missing_httponly: cookie(
    'MEDIUM',
    'Sessiecookie zonder HttpOnly-vlag',
    'Een sessie- of logincookie is leesbaar voor JavaScript.',
    'Bij een XSS-lek kan een aanvaller de sessiecookie uitlezen en de sessie overnemen.',
    'Zet het HttpOnly-attribuut op sessiecookies.',
    'HttpOnly',
  ),
  cookie_samesite_invalid: cookie(
    'MEDIUM',
    'Cookie met ongeldige SameSite-waarde',
    'Een cookie heeft een SameSite-attribuut met een lege of onbekende waarde.',
    'Browsers negeren de waarde, waardoor de bedoelde CSRF-bescherming ontbreekt.',
    'Gebruik SameSite=Strict, SameSite=Lax of (samen met Secure) SameSite=None.',
    'SameSite=Lax',
  ),
  cookie_samesite_none_without_secure: cookie(
    'MEDIUM',
    'Cookie met SameSite=None zonder Secure',
    'Een cookie gebruikt SameSite=None maar mist het Secure-attribuut.',
    "Moderne browsers weigeren zo'n cookie, en oudere sturen haar mee met cross-site verzoeken over HTTP.",
    'Combineer SameSite=None altijd met Secure, of kies SameSite=Lax.',
    'SameSite=None; Secure',
  ),
  csrf_cookie_missing_samesite: cookie(
    'MEDIUM',
    'Anti-CSRF-cookie zonder SameSite',
    'Een cookie met een anti-CSRF-token wordt zonder SameSite-attribuut gezet.',
    'Zonder SameSite wordt het token meegestuurd bij verzoeken vanaf andere sites, wat de CSRF-bescherming verzwakt.',
    'Zet SameSite=Strict of SameSite=Lax op de anti-CSRF-cookie.',
    'SameSite=Strict',
  ),
  cookie_missing_samesite: cookie(
    'LOW',
    'Cookie zonder SameSite-attribuut',
    'Een of meer cookies worden zonder SameSite-attribuut gezet.',
    'Het gedrag hangt af van de standaard van de browser; expliciet SameSite geeft voorspelbare bescherming tegen CSRF.',
    'Zet SameSite=Lax (of Strict) expliciet op cookies.',
    'SameSite=Lax',
  ),
  cookie_prefix_invalid: cookie(
    'MEDIUM',
    'Cookie voldoet niet aan haar __Host-/__Secure-voorvoegsel',
    'Een cookie met het voorvoegsel __Host- of __Secure- mist de attributen die dat voorvoegsel vereist.',
    'Browsers weigeren de cookie, waardoor bijvoorbeeld inloggen of sessies niet werken zoals bedoeld.',
    '__Secure- vereist Secure; __Host- vereist Secure, Path=/ en geen Domain-attribuut.',
    '__Host-naam=waarde; Secure; Path=/',
  ),
  cors_reflected_origin_with_credentials: {
    severity: 'HIGH',
    title: 'CORS weerspiegelt elke origin met credentials',
    description:
      'De server neemt de Origin van elk verzoek over in Access-Control-Allow-Origin en staat credentials toe.',
    impact:
      'Elke website kan namens ingelogde bezoekers verzoeken doen en de antwoorden, met persoonlijke gegevens, uitlezen.',
    remediation:
      'Sta alleen een vaste lijst vertrouwde origins toe en gebruik Access-Control-Allow-Credentials alleen voor die origins.',
    expected_value: 'Alleen vertrouwde origins in Access-Control-Allow-Origin',
    reference_url: REF.cors,
    observatory: 'cross-origin-resource-sharing',
  },
  cors_reflected_origin: {
    severity: 'LOW',
    title: 'CORS weerspiegelt elke origin',
    description: 'De server neemt de Origin van elk verzoek over in Access-Control-Allow-Origin (zonder credentials).',
    impact:
      'Elke website kan de openbare antwoorden uitlezen; wordt later credentials toegestaan, dan ontstaat een ernstig lek.',
    remediation: 'Gebruik een vaste lijst toegestane origins of * voor werkelijk openbare gegevens.',
    expected_value: 'Alleen vertrouwde origins in Access-Control-Allow-Origin',
    reference_url: REF.cors,
    observatory: 'cross-origin-resource-sharing',
  },
  cors_wildcard_with_credentials: {
    severity: 'LOW',
    title: 'CORS combineert * met credentials',
    description: 'Access-Control-Allow-Origin: * wordt gecombineerd met Access-Control-Allow-Credentials: true.',
    impact:
      'Browsers weigeren deze combinatie; de configuratie wijst op een CORS-opzet die snel tot een lek kan leiden.',
    remediation: 'Gebruik * alleen zonder credentials, of een vaste lijst vertrouwde origins.',
    expected_value: 'Geen credentials bij Access-Control-Allow-Origin: *',
    reference_url: REF.cors,
    observatory: 'cross-origin-resource-sharing',
  },
  cors_null_origin_with_credentials: {
    severity: 'HIGH',
    title: 'CORS staat de origin null toe met credentials',
    description: 'Access-Control-Allow-Origin: null wordt gecombineerd met credentials.',
    impact:
      'Sandboxed iframes en lokale bestanden van een aanvaller krijgen de origin null en kunnen zo ingelogde gegevens uitlezen.',
    remediation: 'Sta nooit de origin null toe; gebruik een vaste lijst vertrouwde origins.',
    expected_value: 'Alleen vertrouwde origins in Access-Control-Allow-Origin',
    reference_url: REF.cors,
    observatory: 'cross-origin-resource-sharing',
  },
  sri_missing: {
    severity: 'MEDIUM',
    title: 'Externe scripts zonder Subresource Integrity',
    description: 'Scripts van een ander domein worden geladen zonder integrity-attribuut.',
    impact: 'Wordt de externe server of CDN gehackt, dan draait de code van de aanvaller direct op deze site.',
    remediation:
      'Voeg een integrity-hash (sha384) en crossorigin="anonymous" toe aan externe <script>-tags, of host de scripts zelf.',
    expected_value: 'integrity="sha384-..." crossorigin="anonymous"',
    reference_url: REF.sri,
    observatory: 'subresource-integrity',
  },
  external_script_insecure: {
    severity: 'HIGH',
    title: 'Externe scripts via onversleuteld HTTP',
    description: 'Scripts van een ander domein worden via http:// geladen.',
    impact: 'Een aanvaller op het netwerk kan het script vervangen en eigen code op de site uitvoeren.',
    remediation: 'Laad externe scripts alleen via https:// met een integrity-hash.',
    expected_value: 'https:// met integrity-hash',
    reference_url: REF.sri,
    observatory: 'subresource-integrity',
  },
  script_protocol_relative: {
    severity: 'LOW',
    title: 'Externe scripts via protocol-relatieve URL',
    description:
      'Scripts worden geladen via een URL die met // begint, waardoor het protocol van de pagina wordt overgenomen.',
    impact: 'Wordt de pagina ooit via HTTP geopend, dan laden ook de scripts onversleuteld en zijn ze aan te passen.',
    remediation: 'Gebruik expliciet https:// en voeg een integrity-hash toe aan externe scripts.',
    expected_value: 'https:// met integrity-hash',
    reference_url: REF.sri,
    observatory: 'subresource-integrity',
  },
  server_version_disclosure: {
    severity: 'LOW',
    title: 'Serverversie zichtbaar in Server-header',
    description: 'De Server-header noemt de software en het versienummer van de webserver.',
    impact: 'Een aanvaller ziet direct welke bekende kwetsbaarheden op deze versie van toepassing zijn.',
    remediation: 'Verberg het versienummer (bijvoorbeeld server_tokens off in nginx, ServerTokens Prod in Apache).',
    expected_value: 'Geen versienummer',
    reference_url: REF.fingerprint,
  },
  x_powered_by_disclosure: {
    severity: 'LOW',
    title: 'Technologie zichtbaar in X-Powered-By',
    description: 'De X-Powered-By-header verraadt het gebruikte framework of de taalversie.',
    impact: 'Een aanvaller kan gericht zoeken naar kwetsbaarheden in de genoemde technologie.',
    remediation: "Verwijder de X-Powered-By-header (bijvoorbeeld expose_php = Off, of app.disable('x-powered-by')).",
    expected_value: 'Header afwezig',
    reference_url: REF.fingerprint,
  },
  mixed_content_script: mixed(
    'HIGH',
    'Script via HTTP op een HTTPS-pagina',
    'De HTTPS-pagina laadt een script via http:// (actieve gemengde inhoud).',
    'Browsers blokkeren het script, dus de pagina werkt niet zoals bedoeld; waar het toch laadt, kan een aanvaller op het netwerk het vervangen en de hele pagina overnemen.',
  ),
  mixed_content_password_form: mixed(
    'HIGH',
    'Wachtwoordformulier verstuurt naar HTTP',
    'Een formulier met een wachtwoordveld op de HTTPS-pagina verstuurt zijn gegevens naar een http://-adres.',
    'Wachtwoorden gaan onversleuteld over het netwerk en zijn af te luisteren; browsers waarschuwen bezoekers bij het versturen.',
  ),
  password_field_insecure_page: {
    severity: 'HIGH',
    title: 'Wachtwoordveld op een pagina zonder HTTPS',
    description: 'De pagina vraagt om een wachtwoord, maar wordt zelf via http:// geladen.',
    impact:
      'Een aanvaller op het netwerk kan de pagina aanpassen voordat die de bezoeker bereikt en zo het wachtwoord onderscheppen, ook als het formulier naar https:// verstuurt; browsers waarschuwen bij het invullen.',
    remediation:
      'Bied de pagina alleen via HTTPS aan: stuur http:// door naar https:// en zet HSTS aan, zodat het wachtwoord nooit op een onversleutelde pagina wordt ingevuld.',
    expected_value: "Wachtwoordvelden alleen op HTTPS-pagina's",
    reference_url: REF.mixedContent,
  },
  mixed_content_active: mixed(
    'MEDIUM',
    'Actieve gemengde inhoud op een HTTPS-pagina',
    'De HTTPS-pagina laadt een stylesheet, iframe, object of embed via http://, of verstuurt een formulier naar http://.',
    'Browsers blokkeren deze inhoud, waardoor de pagina breekt; een aanvaller op het netwerk kan de inhoud vervangen of formuliergegevens lezen.',
  ),
  mixed_content_passive: mixed(
    'LOW',
    'Passieve gemengde inhoud op een HTTPS-pagina',
    'De HTTPS-pagina laadt afbeeldingen, audio of video via http://, zonder upgrade-insecure-requests in de Content-Security-Policy.',
    'Een aanvaller op het netwerk kan de afbeeldingen of media zien of vervangen; browsers tonen de pagina niet meer als volledig beveiligd.',
  ),
  security_txt_missing: securityTxt(
    'Geen security.txt',
    'Op /.well-known/security.txt van de HTTPS-site staat geen security.txt-bestand (RFC 9116).',
    'Publiceer /.well-known/security.txt als text/plain met minstens één Contact-regel en één Expires-regel (bijvoorbeeld via securitytxt.org).',
  ),
  security_txt_legacy_location: securityTxt(
    'security.txt alleen op de oude locatie',
    'Het security.txt-bestand staat alleen op /security.txt en niet op /.well-known/security.txt, waar RFC 9116 het voorschrijft.',
    'Zet het bestand op /.well-known/security.txt (een redirect vanaf /security.txt mag blijven).',
  ),
  security_txt_wrong_content_type: securityTxt(
    'security.txt heeft een verkeerd Content-Type',
    'Het security.txt-bestand wordt niet als text/plain geserveerd, zoals RFC 9116 eist.',
    'Laat de webserver het bestand serveren met Content-Type: text/plain; charset=utf-8.',
    'Content-Type: text/plain; charset=utf-8',
  ),
  security_txt_no_contact: securityTxt(
    'security.txt zonder Contact',
    'Het security.txt-bestand bevat geen Contact-regel; RFC 9116 eist er minstens één.',
    'Voeg een Contact-regel toe met een mailto:-, https:- of tel:-adres, bijvoorbeeld Contact: mailto:security@voorbeeld.nl.',
    'Minstens één Contact-regel',
  ),
  security_txt_no_expires: securityTxt(
    'security.txt zonder Expires',
    'Het security.txt-bestand bevat geen Expires-regel; RFC 9116 eist er precies één.',
    'Voeg een Expires-regel toe met een datum binnen een jaar, bijvoorbeeld Expires: 2027-06-30T22:00:00.000Z.',
    'Precies één Expires-regel, minder dan een jaar vooruit',
  ),
  security_txt_multiple_expires: securityTxt(
    'security.txt met meer dan één Expires',
    'Het security.txt-bestand bevat meer dan één Expires-regel; RFC 9116 staat er precies één toe.',
    'Laat één Expires-regel staan, met een datum binnen een jaar.',
    'Precies één Expires-regel, minder dan een jaar vooruit',
  ),
  security_txt_expires_invalid: securityTxt(
    'security.txt met een onleesbare Expires',
    'De Expires-regel van security.txt is geen datum in het formaat van RFC 3339 (zoals 2027-06-30T22:00:00.000Z).',
    'Schrijf de datum als RFC 3339-tijdstip, bijvoorbeeld Expires: 2027-06-30T22:00:00.000Z.',
    'Expires in RFC 3339-formaat, minder dan een jaar vooruit',
  ),
  security_txt_expired: securityTxt(
    'security.txt is verlopen',
    'De Expires-datum van security.txt ligt in het verleden; onderzoekers moeten de gegevens dan als verouderd beschouwen.',
    'Controleer de contactgegevens en zet Expires op een datum binnen een jaar; plan het bijwerken jaarlijks in.',
    'Expires in de toekomst, minder dan een jaar vooruit',
  ),
  security_txt_expires_soon: securityTxt(
    'security.txt verloopt binnen 30 dagen',
    'De Expires-datum van security.txt ligt minder dan 30 dagen vooruit; daarna moeten onderzoekers de gegevens als verouderd beschouwen.',
    'Controleer de contactgegevens en zet Expires op een nieuwe datum binnen een jaar, voordat de huidige verstrijkt.',
    'Expires meer dan 30 dagen en minder dan een jaar vooruit',
  ),
  security_txt_expires_too_far: securityTxt(
    'security.txt verloopt pas over meer dan een jaar',
    'De Expires-datum van security.txt ligt meer dan een jaar vooruit; RFC 9116 raadt minder dan een jaar aan, zodat de gegevens regelmatig worden nagekeken.',
    'Zet Expires op een datum binnen een jaar en werk het bestand jaarlijks bij.',
    'Expires minder dan een jaar vooruit',
  ),
} satisfies Record<string, Entry>;

/** What RFC 9116 asks of security.txt, one finding each. */
export const SECURITY_TXT_FINDINGS = [
  'security_txt_missing',
  'security_txt_legacy_location',
  'security_txt_wrong_content_type',
  'security_txt_no_contact',
  'security_txt_no_expires',
  'security_txt_multiple_expires',
  'security_txt_expires_invalid',
  'security_txt_expired',
  'security_txt_expires_soon',
  'security_txt_expires_too_far',
] as const satisfies ReadonlyArray<keyof typeof SECURITY_HEADER_CATALOG>;
