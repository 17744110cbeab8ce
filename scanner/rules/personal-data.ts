/**
 * What makes a column or a database key look like personal data (GDPR art. 4) or a credential:
 * contact details, names, birth dates, bank and identity numbers, passwords and tokens. A bare
 * "name" is not on the list: products and categories have names too.
 */
const PERSONAL_WORDS = [
  'email',
  'e_mail',
  'mail',
  'phone',
  'telephone',
  'telefoon',
  'mobile',
  'mobiel',
  'address',
  'adres',
  'street',
  'straat',
  'postcode',
  'postal',
  'zip',
  'birth',
  'birthday',
  'birthdate',
  'dob',
  'geboortedatum',
  'iban',
  'bsn',
  'ssn',
  'passport',
  'password',
  'passwd',
  'wachtwoord',
  'token',
  'secret',
  'firstname',
  'lastname',
  'fullname',
  'surname',
  'voornaam',
  'achternaam',
];
const PERSONAL_PAIRS = [
  ['first', 'name'],
  ['last', 'name'],
  ['full', 'name'],
  ['display', 'name'],
  ['date', 'birth'],
];

/** Words of an identifier: camelCase, snake_case and kebab-case alike, lowercased. */
const words = (identifier: string) =>
  identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

export function looksPersonal(identifier: string): boolean {
  const parts = words(identifier);
  if (parts.some((part) => PERSONAL_WORDS.includes(part))) return true;
  return PERSONAL_PAIRS.some(([a, b]) => parts.includes(a!) && parts.includes(b!));
}

/** Column names probed, in this order, on a readable table whose columns are otherwise unknown. */
export const PERSONAL_COLUMN_PROBES = [
  'email',
  'phone',
  'full_name',
  'first_name',
  'address',
  'date_of_birth',
  'iban',
  'password',
] as const;

/** Top-level keys of a database that hold people: users, profiles, customers, orders... */
const PEOPLE_COLLECTIONS = [
  'user',
  'users',
  'profile',
  'profiles',
  'customer',
  'customers',
  'account',
  'accounts',
  'member',
  'members',
  'client',
  'clients',
  'contact',
  'contacts',
  'order',
  'orders',
  'patient',
  'patients',
  'employee',
  'employees',
  'klant',
  'klanten',
  'gebruiker',
  'gebruikers',
  'leden',
  'lid',
  'bestellingen',
  'messages',
  'chats',
];

export function looksLikePeople(key: string): boolean {
  return looksPersonal(key) || words(key).some((part) => PEOPLE_COLLECTIONS.includes(part));
}
