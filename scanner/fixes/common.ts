import { forEach, type FixTable } from './fix.ts';
import { CERTIFICATE_FINDINGS, SECURITY_TXT_FINDINGS } from './shared.ts';

/** What no server configuration fixes: a DNS record, a certificate, a file with the owner's own contact. */
export const DNS_FIXES: FixTable = {
  caa_missing: {
    title: 'CAA-record publiceren',
    language: 'dns',
    snippet:
      'voorbeeld.nl.  3600  IN  CAA  0 issue "letsencrypt.org"\nvoorbeeld.nl.  3600  IN  CAA  0 iodef "mailto:security@voorbeeld.nl"',
    notes:
      'Vervang voorbeeld.nl door uw domein en letsencrypt.org door de CA die uw certificaten uitgeeft; in te stellen bij uw DNS-provider.',
  },
  tls_dane_invalid: {
    title: 'TLSA-record voor het huidige certificaat publiceren',
    language: 'dns',
    snippet:
      '# De SHA-256 van de publieke sleutel van het certificaat dat de server nu stuurt:\n# openssl x509 -in cert.pem -noout -pubkey | openssl pkey -pubin -outform der | openssl dgst -sha256\n_443._tcp.www.voorbeeld.nl.  3600  IN  TLSA  3 1 1 <sha256-in-hex>',
    notes:
      'Zet het nieuwe record naast het oude, wacht de TTL af, vervang dan pas certificaat of sleutel en verwijder daarna het oude record. De zone moet met DNSSEC ondertekend blijven.',
  },
};

export const CERTIFICATE_FIXES: FixTable = forEach(CERTIFICATE_FINDINGS, {
  title: 'Een geldig certificaat van een publieke CA',
  language: 'shell',
  snippet:
    'sudo apt install certbot python3-certbot-nginx   # of python3-certbot-apache\nsudo certbot --nginx -d voorbeeld.nl -d www.voorbeeld.nl --key-type ecdsa',
  notes:
    "Certbot vraagt een certificaat met volledige keten bij Let's Encrypt aan en vernieuwt het automatisch. Een certificaat kan geen configuratieregel u geven: dit moet de eigenaar van het domein doen.",
});

export const SECURITY_TXT_FIXES: FixTable = forEach(SECURITY_TXT_FINDINGS, {
  title: 'security.txt publiceren (RFC 9116)',
  language: 'text',
  snippet:
    'Contact: mailto:security@voorbeeld.nl\nExpires: 2027-06-30T23:00:00.000Z\nPreferred-Languages: nl, en\nCanonical: https://voorbeeld.nl/.well-known/security.txt\n',
  notes:
    'Opslaan als /.well-known/security.txt, geserveerd als text/plain. Vul uw eigen contactadres in en een Expires binnen een jaar; vernieuw die tijdig.',
});
