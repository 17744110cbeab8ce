import type { CatalogEntry } from './entry.ts';
import { REF } from './references.ts';

type Entry = Omit<CatalogEntry, 'category'>;

const certificate = (severity: CatalogEntry['severity'], title: string, description: string): Entry => ({
  severity,
  title,
  description,
  impact:
    'Browsers tonen een volledige waarschuwingspagina en bezoekers kunnen niet veilig verbinden; een aanvaller kan zich makkelijker als de site voordoen.',
  remediation:
    "Installeer een geldig certificaat van een vertrouwde certificaatautoriteit (bijvoorbeeld Let's Encrypt) voor deze hostnaam, met de volledige tussencertificaatketen, en vernieuw het automatisch.",
  expected_value: 'Een geldig, vertrouwd certificaat dat bij de hostnaam past',
  reference_url: REF.tls,
});

const cipher = (severity: CatalogEntry['severity'], title: string, description: string, impact: string): Entry => ({
  severity,
  title,
  description,
  impact,
  remediation:
    'Beperk de cipher suites tot wat de NCSC-richtlijn Goed of Voldoende noemt (TLS 1.3, en bij TLS 1.2 ECDHE met AES-GCM of ChaCha20-Poly1305) en laat de server zijn eigen volgorde afdwingen.',
  expected_value: 'Alleen ECDHE-suites met AEAD-versleuteling (NCSC: Goed of Voldoende)',
  reference_url: REF.ncscTls,
  ncsc: 'Onvoldoende',
});

/** An element the NCSC guideline (2025) calls Onvoldoende: at least MEDIUM, and never uitstekend. */
const insufficient = (
  title: string,
  description: string,
  impact: string,
  remediation: string,
  expected_value: string,
  reference_url: string = REF.ncscTls,
): Entry => ({
  severity: 'MEDIUM',
  title,
  description,
  impact,
  remediation,
  expected_value,
  reference_url,
  ncsc: 'Onvoldoende',
});

/** An element the NCSC guideline (2025) calls Uit te faseren: LOW, to be replaced in time. */
const phaseOut = (title: string, description: string, remediation: string, expected_value: string): Entry => ({
  severity: 'LOW',
  title,
  description,
  impact:
    'De richtlijn van het NCSC noemt dit "uit te faseren": het is nu nog veilig genoeg, maar heeft te weinig marge voor de komende jaren.',
  remediation,
  expected_value,
  reference_url: REF.ncscTls,
  ncsc: 'Uit te faseren',
});

export const SSL_TLS_CATALOG = {
  https_unavailable: {
    severity: 'CRITICAL',
    title: 'Geen HTTPS beschikbaar',
    description: 'De site is niet via HTTPS bereikbaar: er antwoordt geen TLS-server op de HTTPS-poort.',
    impact:
      'Al het verkeer, inclusief wachtwoorden en sessiecookies, gaat onversleuteld over het netwerk en kan worden afgeluisterd of aangepast.',
    remediation: 'Activeer HTTPS met een geldig certificaat en stuur al het HTTP-verkeer door naar HTTPS.',
    expected_value: 'HTTPS met TLS 1.2 of 1.3',
    reference_url: REF.tls,
    observatory: 'strict-transport-security',
  },
  tls_certificate_expired: certificate(
    'CRITICAL',
    'TLS-certificaat is verlopen',
    'Het certificaat van de server is over de einddatum heen.',
  ),
  tls_certificate_not_yet_valid: certificate(
    'HIGH',
    'TLS-certificaat is nog niet geldig',
    'De begindatum van het certificaat ligt in de toekomst.',
  ),
  tls_certificate_self_signed: certificate(
    'CRITICAL',
    'Zelfondertekend TLS-certificaat',
    'Het certificaat is door de server zelf ondertekend en niet door een vertrouwde certificaatautoriteit.',
  ),
  tls_certificate_untrusted: certificate(
    'CRITICAL',
    'TLS-certificaat wordt niet vertrouwd',
    'De certificaatketen kan niet worden herleid tot een vertrouwde certificaatautoriteit.',
  ),
  tls_certificate_hostname_mismatch: certificate(
    'CRITICAL',
    'TLS-certificaat past niet bij de hostnaam',
    'Het certificaat is uitgegeven voor een andere naam dan de gescande host.',
  ),
  tls_certificate_chain_incomplete: {
    ...certificate(
      'HIGH',
      'Onvolledige certificaatketen',
      'De server stuurt alleen zijn eigen certificaat mee, zonder het tussencertificaat (intermediate) van de uitgever.',
    ),
    impact:
      'Browsers die het tussencertificaat niet zelf ophalen (Firefox, Android, curl, API-clients) weigeren de verbinding met een certificaatfout.',
    remediation:
      "Installeer het tussencertificaat: configureer de volledige keten (fullchain.pem bij Let's Encrypt, SSLCertificateFile met de keten in Apache, ssl_certificate met fullchain in nginx).",
    expected_value: 'Leaf-certificaat plus alle tussencertificaten',
  },
  tls_certificate_no_subject_alt_name: {
    ...certificate(
      'HIGH',
      'Certificaat zonder subjectAltName',
      'Het certificaat noemt de hostnaam alleen in de Common Name (CN) en heeft geen subjectAltName-extensie.',
    ),
    impact: 'Browsers negeren de Common Name sinds 2017 en weigeren dit certificaat voor elke hostnaam.',
    remediation:
      'Vraag een nieuw certificaat aan met alle hostnamen in de subjectAltName-extensie (elke moderne CA en ACME-client doet dit).',
    expected_value: 'subjectAltName met de hostnaam',
  },
  tls_certificate_weak_key: {
    ncsc: 'Onvoldoende',
    ...certificate(
      'MEDIUM',
      'Zwakke sleutel in de certificaatketen',
      'Een certificaat in de keten gebruikt een te korte sleutel: RSA of DSA korter dan 2048 bits, of EC korter dan 256 bits.',
    ),
    impact:
      'Korte sleutels bieden te weinig veiligheidsmarge; certificaatautoriteiten en browsers accepteren ze niet meer.',
    remediation:
      'Maak een nieuwe sleutel van minstens 2048 bits RSA (bij voorkeur 3072) of EC P-256, en laat het certificaat opnieuw uitgeven.',
    expected_value: 'RSA van minstens 2048 bits of EC van minstens 256 bits',
  },
  tls_certificate_broken_key: {
    ncsc: 'Onvoldoende',
    ...certificate(
      'HIGH',
      'Kraakbare sleutel in de certificaatketen',
      'Een certificaat in de keten gebruikt een sleutel die met openbare middelen te kraken is: RSA of DSA korter dan 1024 bits, of EC korter dan 224 bits.',
    ),
    impact: 'Een aanvaller die de sleutel kraakt, kan zich als de site voordoen en verkeer ontsleutelen.',
    remediation:
      'Vervang de sleutel direct door RSA van minstens 2048 bits of EC P-256 en trek het oude certificaat in.',
    expected_value: 'RSA van minstens 2048 bits of EC van minstens 256 bits',
  },
  tls_certificate_weak_signature: {
    ncsc: 'Onvoldoende',
    ...certificate(
      'HIGH',
      'Zwakke handtekening in de certificaatketen',
      'Een certificaat in de keten is ondertekend met SHA-1 of MD5.',
    ),
    impact:
      'Voor SHA-1 en MD5 bestaan praktische botsingsaanvallen; browsers weigeren zulke certificaten, en een aanvaller kan een vals certificaat met dezelfde handtekening maken.',
    remediation: 'Laat het certificaat (en het tussencertificaat) opnieuw uitgeven met een SHA-256-handtekening.',
    expected_value: 'Handtekening met SHA-256 of sterker',
  },
  tls_certificate_expires_within_14_days: {
    ...certificate('HIGH', 'TLS-certificaat verloopt binnen 14 dagen', 'Het certificaat verloopt binnen twee weken.'),
    impact: 'Na de einddatum kunnen bezoekers de site niet meer veilig openen.',
    remediation: 'Vernieuw het certificaat nu en automatiseer de vernieuwing (bijvoorbeeld met ACME/certbot).',
    expected_value: 'Meer dan 30 dagen geldig',
  },
  tls_certificate_expires_within_30_days: {
    ...certificate('MEDIUM', 'TLS-certificaat verloopt binnen 30 dagen', 'Het certificaat verloopt binnen een maand.'),
    impact: 'Zonder tijdige vernieuwing kunnen bezoekers de site binnenkort niet meer veilig openen.',
    remediation: 'Plan de vernieuwing en automatiseer die (bijvoorbeeld met ACME/certbot).',
    expected_value: 'Meer dan 30 dagen geldig',
  },
  tls_intermediate_certificate_expired: {
    ...certificate(
      'HIGH',
      'Tussencertificaat is verlopen',
      'Een tussencertificaat (intermediate) op het pad dat validatie bouwt, is over de einddatum heen.',
    ),
    impact:
      'Clients weigeren de keten, ook al is het eigen certificaat van de site nog geldig: bezoekers en API-clients krijgen een certificaatfout.',
    remediation:
      'Haal de actuele keten op bij de certificaatautoriteit en installeer die (fullchain.pem bij ACME-clients); vernieuw het certificaat als de CA de oude keten niet meer uitgeeft.',
    expected_value: 'Alle tussencertificaten langer dan 30 dagen geldig',
  },
  tls_intermediate_certificate_expires_within_30_days: {
    ...certificate(
      'MEDIUM',
      'Tussencertificaat verloopt binnen 30 dagen',
      'Een tussencertificaat (intermediate) op het pad dat validatie bouwt, verloopt binnen een maand.',
    ),
    impact:
      'Na die datum weigeren clients de keten, ook als het eigen certificaat van de site nog geldig is; vernieuwen van alleen het eigen certificaat helpt niet als de server de oude keten blijft meesturen.',
    remediation:
      'Installeer de nieuwe keten van de certificaatautoriteit (fullchain.pem bij ACME-clients) en controleer dat de server die meestuurt.',
    expected_value: 'Alle tussencertificaten langer dan 30 dagen geldig',
  },
  tls_dane_invalid: {
    ...certificate(
      'HIGH',
      'DANE-records passen niet bij het certificaat',
      'De TLSA-records van deze poort zijn met DNSSEC ondertekend, maar geen ervan past bij het certificaat of de keten die de server stuurt.',
    ),
    impact:
      'Clients die DANE controleren (mailservers, DANE-browserextensies, sommige resolvers) weigeren de verbinding: voor hen is de site onbereikbaar.',
    remediation:
      'Publiceer TLSA-records voor het huidige certificaat (bijvoorbeeld 3 1 1 met de SHA-256 van de publieke sleutel) vóórdat u een certificaat of sleutel vervangt, of verwijder de oude records.',
    expected_value: 'Een TLSA-record (gebruik 2 of 3) dat bij de keten past',
  },
  tls_1_0_supported: {
    severity: 'HIGH',
    title: 'Server accepteert TLS 1.0',
    description: 'De server rondt een handshake met het verouderde TLS 1.0 af.',
    impact:
      'TLS 1.0 heeft bekende zwakheden (zoals BEAST) en is door RFC 8996 afgeschaft; verbindingen kunnen worden verzwakt.',
    remediation: 'Schakel TLS 1.0 uit en sta alleen TLS 1.2 en TLS 1.3 toe.',
    expected_value: 'Alleen TLS 1.2 en TLS 1.3',
    ncsc: 'Onvoldoende',
    reference_url: REF.tlsDeprecation,
  },
  tls_1_1_supported: {
    severity: 'MEDIUM',
    title: 'Server accepteert TLS 1.1',
    description: 'De server rondt een handshake met het verouderde TLS 1.1 af.',
    impact: 'TLS 1.1 is door RFC 8996 afgeschaft en gebruikt zwakke cryptografie.',
    remediation: 'Schakel TLS 1.1 uit en sta alleen TLS 1.2 en TLS 1.3 toe.',
    expected_value: 'Alleen TLS 1.2 en TLS 1.3',
    ncsc: 'Onvoldoende',
    reference_url: REF.tlsDeprecation,
  },
  tls_modern_protocols_missing: {
    severity: 'CRITICAL',
    title: 'Geen TLS 1.2 of TLS 1.3',
    description: 'De server spreekt alleen verouderde TLS-versies.',
    impact: 'Moderne browsers weigeren de verbinding, en de versies die wel werken zijn onveilig.',
    remediation: 'Werk de TLS-configuratie bij zodat TLS 1.2 en TLS 1.3 worden ondersteund.',
    expected_value: 'TLS 1.2 en TLS 1.3',
    ncsc: 'Onvoldoende',
    reference_url: REF.serverSideTls,
  },
  tls_1_3_not_supported: {
    severity: 'LOW',
    title: 'TLS 1.3 wordt niet ondersteund',
    description: 'De server biedt TLS 1.2 maar geen TLS 1.3.',
    impact: 'Verbindingen missen de snellere handshake en de sterkere standaardinstellingen van TLS 1.3.',
    remediation: 'Schakel TLS 1.3 in naast TLS 1.2.',
    expected_value: 'TLS 1.3 beschikbaar',
    reference_url: REF.serverSideTls,
  },
  tls_cipher_null: cipher(
    'CRITICAL',
    'Server accepteert cipher suites zonder versleuteling (NULL)',
    'De server rondt een handshake af met een NULL-cipher suite, die niets versleutelt.',
    'Al het verkeer gaat leesbaar over het netwerk, ook al toont de browser een HTTPS-verbinding.',
  ),
  tls_cipher_anonymous: cipher(
    'CRITICAL',
    'Server accepteert anonieme cipher suites (aNULL)',
    'De server rondt een handshake af zonder zich met een certificaat te identificeren (DH_anon of ECDH_anon).',
    'Een aanvaller tussen bezoeker en server kan zich ongemerkt als de server voordoen en al het verkeer lezen.',
  ),
  tls_cipher_export: cipher(
    'CRITICAL',
    'Server accepteert EXPORT-cipher suites',
    'De server accepteert de bewust verzwakte EXPORT-suites met 40- of 56-bits sleutels.',
    'EXPORT-suites zijn in minuten te kraken en maken downgrade-aanvallen als FREAK en Logjam mogelijk.',
  ),
  tls_cipher_rc4: cipher(
    'HIGH',
    'Server accepteert RC4',
    'De server accepteert cipher suites met de RC4-stroomversleuteling.',
    'RC4 heeft statistische zwakheden waardoor delen van versleuteld verkeer (zoals cookies) te achterhalen zijn; RFC 7465 verbiedt het.',
  ),
  tls_cipher_3des: cipher(
    'MEDIUM',
    'Server accepteert 3DES',
    'De server accepteert cipher suites met Triple DES, dat blokken van 64 bits gebruikt.',
    'Bij lange verbindingen maakt de kleine blokgrootte de Sweet32-aanval mogelijk, waarmee delen van het verkeer te achterhalen zijn.',
  ),
  tls_cipher_static_rsa: cipher(
    'MEDIUM',
    'Server accepteert statische RSA-sleutelafspraak',
    'De server accepteert cipher suites (TLS_RSA_*) waarbij de sessiesleutel met de RSA-sleutel van het certificaat wordt versleuteld, zonder tijdelijke sleutelafspraak. De NCSC-richtlijn (2025) noemt dit Onvoldoende.',
    'Wie later de privésleutel van de server bemachtigt, kan al opgenomen verkeer ontsleutelen; RSA-sleuteltransport is ook de basis van ROBOT- en Bleichenbacher-aanvallen.',
  ),
  tls_cipher_cbc_sha1: cipher(
    'MEDIUM',
    'Server accepteert CBC-suites met SHA-1',
    'De server accepteert cipher suites met CBC-versleuteling en een SHA-1-MAC (zoals TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA). De NCSC-richtlijn (2025) noemt deze Onvoldoende; de editie van 2021 noemde ze nog Uit te faseren.',
    'CBC met MAC-then-encrypt is gevoelig voor padding-oracle- en timingaanvallen (Lucky13), en SHA-1 heeft geen veiligheidsmarge meer.',
  ),
  tls_cipher_ccm8: cipher(
    'MEDIUM',
    'Server accepteert CCM_8-suites',
    'De server accepteert cipher suites met AES-CCM en een verkorte authenticatietag van 8 bytes (CCM_8). De NCSC-richtlijn noemt deze Onvoldoende.',
    'Een tag van 64 bits geeft te weinig bescherming tegen vervalste berichten bij grote hoeveelheden verkeer.',
  ),
  tls_cipher_insufficient: cipher(
    'MEDIUM',
    'Server accepteert cipher suites die de NCSC-richtlijn Onvoldoende noemt',
    'De server accepteert cipher suites die niet op de lijsten Goed, Voldoende of Uit te faseren van de NCSC-richtlijn (2025) staan, zoals DHE_DSS, statische ECDH, PSK, SEED, IDEA of DES.',
    'Deze suites missen forward secrecy, gebruiken verouderde versleuteling of zijn nooit breed geanalyseerd; een aanvaller kan een verbinding ernaartoe dwingen als de server ze aanbiedt.',
  ),
  tls_cipher_phase_out: phaseOut(
    'Server accepteert cipher suites die uitgefaseerd worden',
    'De server accepteert cipher suites die de NCSC-richtlijn (2025) Uit te faseren noemt: ECDHE met CBC-SHA256/384, CAMELLIA of ARIA, of elke DHE_RSA-suite.',
    'Bied bij TLS 1.2 alleen ECDHE met AES-GCM of ChaCha20-Poly1305 aan, naast TLS 1.3.',
    'Alleen cipher suites die de NCSC-richtlijn Goed of Voldoende noemt',
  ),
  tls_dh_group_insufficient: insufficient(
    'Zwakke Diffie-Hellman-groep',
    'De server gebruikt voor DHE een groep die de NCSC-richtlijn (2025) Onvoldoende noemt: korter dan 3072 bits (zoals 1024 bits of ffdhe2048) of een eigen groep die niet uit RFC 7919 komt.',
    'Een korte of onbekende DH-groep maakt de sleutelafspraak te kraken (Logjam); met voorberekening kan een aanvaller veel verbindingen tegelijk aanvallen.',
    'Schakel DHE uit en gebruik ECDHE, of stel een RFC 7919-groep van minstens 3072 bits in (ffdhe3072 of groter).',
    'Geen DHE, of ffdhe3072 of groter',
  ),
  tls_dh_group_phase_out: phaseOut(
    'Diffie-Hellman-groep wordt uitgefaseerd',
    'De server gebruikt een RFC 7919-groep van 3072 bits of meer voor DHE; de NCSC-richtlijn (2025) noemt elke DHE-sleutelafspraak Uit te faseren.',
    'Gebruik ECDHE (x25519, secp256r1 of secp384r1) in plaats van DHE.',
    'ECDHE-sleutelafspraak',
  ),
  tls_curve_insufficient: insufficient(
    'Server accepteert een elliptische curve buiten de richtlijn',
    'De server rondt een ECDHE-sleutelafspraak af met een curve die niet op de lijst van de NCSC-richtlijn staat (zoals secp256k1, secp192r1 of een binaire sect-curve).',
    'Deze curves zijn te kort, niet breed geanalyseerd of niet bedoeld voor TLS; de sleutelafspraak heeft te weinig veiligheidsmarge.',
    'Beperk de curves tot x25519, x448, secp256r1, secp384r1 en secp521r1 (bijvoorbeeld ssl_ecdh_curve in nginx).',
    'Alleen curves die de NCSC-richtlijn Goed noemt',
  ),
  tls_curve_phase_out: phaseOut(
    'Server accepteert de curve secp224r1',
    'De server rondt een ECDHE-sleutelafspraak af met secp224r1, die de NCSC-richtlijn Uit te faseren noemt.',
    'Beperk de curves tot x25519, x448, secp256r1, secp384r1 en secp521r1.',
    'Alleen curves die de NCSC-richtlijn Goed noemt',
  ),
  tls_key_exchange_hash_insufficient: insufficient(
    'Sleutelafspraak ondertekend met SHA-1 of MD5',
    'De server ondertekent zijn sleutelafspraak (ServerKeyExchange) met SHA-1 of MD5 wanneer de client daarom vraagt. De NCSC-richtlijn noemt dat Onvoldoende.',
    'Voor SHA-1 en MD5 bestaan praktische botsingsaanvallen (SLOTH); een aanvaller kan een handtekening misbruiken om zich als de server voor te doen.',
    'Schakel SHA-1 en MD5 uit in de signature algorithms van de server (bijvoorbeeld SignatureAlgorithms of ssl_conf_command SignatureAlgorithms).',
    'Handtekening met SHA-256 of sterker',
  ),
  tls_key_exchange_hash_phase_out: phaseOut(
    'Sleutelafspraak ondertekend met SHA-224',
    'De server ondertekent zijn sleutelafspraak met SHA-224 wanneer de client daarom vraagt; de NCSC-richtlijn noemt dat Uit te faseren.',
    'Sta alleen handtekeningen met SHA-256, SHA-384 of SHA-512 toe.',
    'Handtekening met SHA-256 of sterker',
  ),
  tls_certificate_key_phase_out: phaseOut(
    'Certificaatsleutel wordt uitgefaseerd',
    'Een certificaat in de keten gebruikt een RSA-sleutel van 2048 tot 3071 bits (of EC secp224r1). De NCSC-richtlijn noemt dat Uit te faseren.',
    'Vraag bij de volgende vernieuwing een certificaat aan met RSA van minstens 3072 bits of met EC P-256/P-384.',
    'RSA van minstens 3072 bits, of EC van minstens 256 bits',
  ),
  tls_certificate_signature_phase_out: phaseOut(
    'Certificaat ondertekend met SHA-224',
    'Een certificaat in de keten is ondertekend met SHA-224, dat de NCSC-richtlijn Uit te faseren noemt.',
    'Laat het certificaat opnieuw uitgeven met een SHA-256-handtekening.',
    'Handtekening met SHA-256 of sterker',
  ),
  tls_cipher_order_missing: {
    severity: 'MEDIUM',
    title: 'Server dwingt geen eigen cipher-volgorde af',
    description:
      'De server kiest de cipher suite die de client het eerst noemt, in plaats van zijn eigen voorkeursvolgorde.',
    impact:
      'Een client met een slechte voorkeur (of een aanvaller die de ClientHello beïnvloedt) krijgt de zwakste suite die de server accepteert; testssl.sh beoordeelt dit als HIGH en internet.nl keurt het af.',
    remediation:
      'Laat de server zijn eigen volgorde volgen (ssl_prefer_server_ciphers on in nginx, SSLHonorCipherOrder on in Apache, honorCipherOrder in Node.js) met de sterkste suites eerst.',
    expected_value: 'Servervoorkeur, sterkste klasse eerst',
    reference_url: REF.ncscTls,
  },
  tls_cipher_order_weak_first: {
    severity: 'MEDIUM',
    title: 'Cipher-volgorde zet een zwakkere suite voorop',
    description:
      'De server heeft een eigen voorkeursvolgorde, maar verkiest een suite van een zwakkere klasse van de NCSC-richtlijn boven een sterkere die hij ook accepteert.',
    impact:
      'Clients die beide ondersteunen krijgen de zwakkere suite, terwijl een betere beschikbaar is; internet.nl keurt de cipher-volgorde af.',
    remediation:
      'Zet in de cipher-lijst van de server eerst de suites die de richtlijn Goed noemt, dan Voldoende, dan Uit te faseren.',
    expected_value: 'Goed, dan Voldoende, dan Uit te faseren',
    reference_url: REF.ncscTls,
  },
  tls_secure_renegotiation_missing: insufficient(
    'Geen veilige renegotiation',
    'De server antwoordt niet met de renegotiation_info-extensie (RFC 5746) en ondersteunt dus geen veilige renegotiation.',
    'Een aanvaller tussen client en server kan eigen verkeer voor dat van de client plakken (CVE-2009-3555).',
    'Werk de TLS-bibliotheek van de server bij; elke versie van na 2010 ondersteunt RFC 5746.',
    'renegotiation_info-extensie aanwezig',
    REF.renegotiation,
  ),
  tls_extended_master_secret_missing: insufficient(
    'Geen Extended Master Secret bij TLS 1.2',
    'De server ondersteunt de extended_master_secret-extensie (RFC 7627) niet bij TLS 1.2. Internet.nl keurt dat af.',
    'Zonder deze extensie is TLS 1.2 kwetsbaar voor de triple-handshake-aanval, waarbij een aanvaller sessies aan elkaar koppelt.',
    'Werk de TLS-bibliotheek bij of schakel de extensie in (OpenSSL doet dit standaard sinds 1.1.0).',
    'extended_master_secret-extensie aanwezig',
    REF.extendedMasterSecret,
  ),
  tls_compression_enabled: insufficient(
    'TLS-compressie staat aan',
    'De server accepteert compressie op TLS-niveau (DEFLATE). De NCSC-richtlijn noemt dat Onvoldoende.',
    'Met TLS-compressie kan een aanvaller geheime gegevens zoals sessiecookies achterhalen uit de lengte van versleutelde berichten (CRIME).',
    'Schakel TLS-compressie uit (in OpenSSL met SSL_OP_NO_COMPRESSION; moderne versies doen dit standaard).',
    'Geen TLS-compressie',
  ),
  tls_client_renegotiation_allowed: {
    // testssl.sh rates it HIGH ("DoS threat") and SSL Labs warns: more than a footnote.
    severity: 'MEDIUM',
    title: 'Server accepteert renegotiation die de client start',
    description: 'De server laat een client een bestaande TLS 1.2-verbinding opnieuw onderhandelen.',
    impact:
      'Elke renegotiation kost de server veel rekenwerk; een aanvaller kan de server daarmee met weinig middelen overbelasten.',
    remediation:
      'Schakel door de client gestarte renegotiation uit (SSL_OP_NO_RENEGOTIATION in OpenSSL, of beperk het aantal per verbinding).',
    expected_value: 'Door de client gestarte renegotiation geweigerd',
    reference_url: REF.ncscTls,
  },
  caa_missing: {
    severity: 'LOW',
    title: 'Geen CAA-records',
    description:
      'Het domein heeft geen CAA-records in DNS die aangeven welke certificaatautoriteiten certificaten voor de site mogen uitgeven.',
    impact:
      'Elke certificaatautoriteit mag een certificaat voor het domein uitgeven; een fout of misleide autoriteit wordt niet tegengehouden.',
    remediation:
      'Publiceer een CAA-record met de autoriteit die u gebruikt, bijvoorbeeld: voorbeeld.nl. CAA 0 issue "letsencrypt.org".',
    expected_value: 'CAA-record met de gebruikte certificaatautoriteit',
    reference_url: REF.caa,
  },
  tls_no_forward_secrecy: {
    ...cipher(
      'MEDIUM',
      'Geen forward secrecy',
      'De server biedt geen cipher suites met een tijdelijke sleutelafspraak (ECDHE of DHE) en ook geen TLS 1.3.',
      'Wie later de privésleutel van de server bemachtigt, kan al eerder opgenomen verkeer ontsleutelen.',
    ),
    expected_value: 'ECDHE-cipher suites of TLS 1.3',
  },
  tls_no_aead: {
    ...cipher(
      'MEDIUM',
      'Geen AEAD-cipher suites',
      'De server biedt alleen CBC-cipher suites en geen AES-GCM, ChaCha20-Poly1305 of TLS 1.3.',
      'CBC-suites in TLS zijn herhaaldelijk aangevallen (Lucky13, padding-oracles); moderne clients verwachten AEAD.',
    ),
    expected_value: 'AES-GCM of ChaCha20-Poly1305, of TLS 1.3',
    // The accepted CBC suites are classed one by one (tls_cipher_cbc_sha1, tls_cipher_phase_out).
    ncsc: undefined,
  },
  http_no_redirect_to_https: {
    severity: 'MEDIUM',
    title: 'HTTP wordt niet doorgestuurd naar HTTPS',
    description: 'De http://-variant van de site toont de inhoud zonder door te sturen naar HTTPS.',
    impact: 'Bezoekers die http:// typen of een oude link volgen, blijven op een onversleutelde verbinding.',
    remediation: 'Stuur elk HTTP-verzoek met een 301-redirect door naar dezelfde URL op https://.',
    expected_value: '301-redirect naar https:// op dezelfde host',
    reference_url: REF.redirects,
    observatory: 'redirection',
  },
  http_redirect_not_to_https: {
    severity: 'MEDIUM',
    title: 'HTTP-redirect eindigt niet op HTTPS',
    description: 'De redirectketen vanaf http:// eindigt op een onversleutelde pagina.',
    impact: 'Bezoekers komen op een onversleutelde verbinding terecht.',
    remediation: 'Laat de redirectketen eindigen op een https://-URL.',
    expected_value: 'Redirect naar https://',
    reference_url: REF.redirects,
    observatory: 'redirection',
  },
  http_redirect_initial_not_https: {
    severity: 'LOW',
    title: 'Eerste HTTP-redirect gaat niet naar HTTPS',
    description: 'De eerste redirect vanaf http:// gaat naar een andere http://-URL in plaats van direct naar HTTPS.',
    impact: 'HSTS kan voor de oorspronkelijke host niet worden gezet en de tussenstap is afluisterbaar.',
    remediation: 'Stuur eerst door naar https:// op dezelfde host en pas daarna naar een andere host of pad.',
    expected_value: 'Eerste redirect naar https:// op dezelfde host',
    reference_url: REF.redirects,
    observatory: 'redirection',
  },
  http_redirect_off_host: {
    severity: 'LOW',
    title: 'HTTP-redirect gaat naar een andere host',
    description: 'De http://-variant stuurt direct door naar HTTPS op een andere host.',
    impact:
      'De oorspronkelijke host krijgt nooit een HSTS-header, waardoor die host kwetsbaar blijft voor downgrade-aanvallen.',
    remediation: 'Stuur eerst door naar https:// op dezelfde host, en pas daarna naar de andere host.',
    expected_value: 'Redirect naar https:// op dezelfde host',
    reference_url: REF.redirects,
    observatory: 'redirection',
  },
  hsts_missing: {
    severity: 'MEDIUM',
    title: 'Strict-Transport-Security ontbreekt',
    description: 'De HTTPS-respons bevat geen Strict-Transport-Security-header (HSTS).',
    impact: 'Een aanvaller op het netwerk kan bezoekers via een downgrade naar HTTP laten verbinden (SSL stripping).',
    remediation: 'Stuur Strict-Transport-Security: max-age=63072000; includeSubDomains mee op alle HTTPS-responses.',
    expected_value: 'max-age=63072000; includeSubDomains',
    reference_url: REF.hsts,
    observatory: 'strict-transport-security',
  },
  hsts_invalid: {
    severity: 'MEDIUM',
    title: 'Strict-Transport-Security is ongeldig',
    description: 'De HSTS-header kan niet worden gelezen (bijvoorbeeld geen max-age, of meerdere headers).',
    impact: 'Browsers negeren een ongeldige HSTS-header, waardoor de bescherming ontbreekt.',
    remediation: 'Stuur precies één header: Strict-Transport-Security: max-age=63072000; includeSubDomains.',
    expected_value: 'max-age=63072000; includeSubDomains',
    reference_url: REF.hsts,
    observatory: 'strict-transport-security',
  },
  hsts_max_age_too_short: {
    severity: 'MEDIUM',
    title: 'HSTS max-age is korter dan zes maanden',
    description: 'De max-age van Strict-Transport-Security is korter dan zes maanden (15552000 seconden).',
    impact: 'Na afloop van de korte periode zijn terugkerende bezoekers weer kwetsbaar voor downgrade-aanvallen.',
    remediation: 'Verhoog max-age naar minstens 15552000, bij voorkeur 63072000 (twee jaar).',
    expected_value: 'max-age van minstens 15552000',
    reference_url: REF.hsts,
    observatory: 'strict-transport-security',
  },
  hsts_no_include_subdomains: {
    severity: 'LOW',
    title: 'HSTS zonder includeSubDomains',
    description: 'Strict-Transport-Security geldt niet voor subdomeinen.',
    impact: 'Subdomeinen kunnen nog via HTTP worden bereikt, wat cookies van het hoofddomein kan blootstellen.',
    remediation: 'Voeg includeSubDomains toe zodra alle subdomeinen HTTPS ondersteunen.',
    expected_value: 'includeSubDomains aanwezig',
    reference_url: REF.hsts,
    observatory: 'strict-transport-security',
  },
  hsts_ignored_invalid_certificate: {
    severity: 'MEDIUM',
    title: 'HSTS werkt niet door een ongeldig certificaat',
    description:
      'Browsers negeren HSTS op verbindingen met certificaatfouten, dus de HSTS-bescherming van deze site werkt niet.',
    impact: 'Bezoekers zijn niet beschermd tegen downgrade-aanvallen zolang het certificaat ongeldig is.',
    remediation:
      'Los eerst de certificaatfout op; stuur daarna Strict-Transport-Security: max-age=63072000; includeSubDomains.',
    expected_value: 'Geldig certificaat met HSTS-header',
    reference_url: REF.hsts,
    observatory: 'strict-transport-security',
  },
} satisfies Record<string, Entry>;

/** Cipher suites the NCSC guideline calls insufficient: one finding each (internet.nl's `cipher_suites` fails on any). */
export const INSUFFICIENT_CIPHER_FINDINGS = [
  'tls_cipher_null',
  'tls_cipher_anonymous',
  'tls_cipher_export',
  'tls_cipher_rc4',
  'tls_cipher_3des',
  'tls_cipher_static_rsa',
  'tls_cipher_cbc_sha1',
  'tls_cipher_ccm8',
  'tls_cipher_insufficient',
] as const satisfies ReadonlyArray<keyof typeof SSL_TLS_CATALOG>;

/** The http:// variant's route to https:// (the Observatory's redirection test). */
export const REDIRECT_FINDINGS = [
  'http_no_redirect_to_https',
  'http_redirect_not_to_https',
  'http_redirect_initial_not_https',
  'http_redirect_off_host',
] as const satisfies ReadonlyArray<keyof typeof SSL_TLS_CATALOG>;

/** The certificate and the chain the server presents: validity, names, keys and signatures. */
export const CERTIFICATE_CHAIN_FINDINGS = [
  'tls_certificate_expired',
  'tls_certificate_not_yet_valid',
  'tls_certificate_self_signed',
  'tls_certificate_untrusted',
  'tls_certificate_hostname_mismatch',
  'tls_certificate_chain_incomplete',
  'tls_certificate_no_subject_alt_name',
  'tls_certificate_weak_key',
  'tls_certificate_broken_key',
  'tls_certificate_weak_signature',
  'tls_certificate_expires_within_14_days',
  'tls_certificate_expires_within_30_days',
  'tls_intermediate_certificate_expired',
  'tls_intermediate_certificate_expires_within_30_days',
  'tls_certificate_key_phase_out',
  'tls_certificate_signature_phase_out',
] as const satisfies ReadonlyArray<keyof typeof SSL_TLS_CATALOG>;

/** What a server's TLS configuration decides: protocols, suites in server order, curves, signature hashes, compression. */
export const TLS_CONFIGURATION_FINDINGS = [
  'tls_1_0_supported',
  'tls_1_1_supported',
  'tls_modern_protocols_missing',
  'tls_1_3_not_supported',
  ...INSUFFICIENT_CIPHER_FINDINGS,
  'tls_cipher_phase_out',
  'tls_dh_group_insufficient',
  'tls_dh_group_phase_out',
  'tls_curve_insufficient',
  'tls_curve_phase_out',
  'tls_key_exchange_hash_insufficient',
  'tls_key_exchange_hash_phase_out',
  'tls_cipher_order_missing',
  'tls_cipher_order_weak_first',
  'tls_no_forward_secrecy',
  'tls_no_aead',
  'tls_client_renegotiation_allowed',
  'tls_compression_enabled',
] as const satisfies ReadonlyArray<keyof typeof SSL_TLS_CATALOG>;
