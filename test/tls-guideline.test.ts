import { describe, expect, it } from 'vitest';
import { CIPHER_SUITE_NAMES } from '../scanner/rules/cipher-suite-registry.ts';
import {
  certificateKeyClass,
  classRank,
  dhGroupVerdict,
  FFDHE_GROUPS,
  groupClass,
  hashClass,
  signatureSchemeHash,
  SUITES,
  suiteFacts,
  TLS12_SUITES_WORST_FIRST,
} from '../scanner/rules/tls-guideline.ts';

const named = (name: string) => [...SUITES.values()].find((s) => s.name === name)!;

describe('the NCSC-NL TLS guideline table (2025)', () => {
  it('classes the suites of appendix B, and everything else Onvoldoende', () => {
    const count = (c: string) => [...SUITES.values()].filter((s) => s.ncsc === c).length;
    expect([count('Goed'), count('Voldoende'), count('Uit te faseren')]).toEqual([2, 10, 35]);
    expect(count('Onvoldoende')).toBe(CIPHER_SUITE_NAMES.size - 47);
    expect(named('TLS_AES_256_GCM_SHA384').ncsc).toBe('Goed');
    expect(named('TLS_AES_128_GCM_SHA256').ncsc).toBe('Voldoende');
    expect(named('TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256')).toMatchObject({
      ncsc: 'Voldoende',
      keyExchange: 'ecdhe',
      forwardSecret: true,
      aead: true,
    });
    expect(named('TLS_DHE_RSA_WITH_AES_128_GCM_SHA256')).toMatchObject({ ncsc: 'Uit te faseren', keyExchange: 'dhe' });
    expect(named('TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256')).toMatchObject({ ncsc: 'Uit te faseren', aead: false });
    expect(named('TLS_DHE_RSA_WITH_AES_128_CBC_SHA')).toMatchObject({ ncsc: 'Onvoldoende', reason: 'cbc_sha1' });
  });

  it('names one reason per Onvoldoende suite', () => {
    expect(suiteFacts(0x002f)).toMatchObject({ name: 'TLS_RSA_WITH_AES_128_CBC_SHA', reason: 'static_rsa' });
    expect(suiteFacts(0x0005)).toMatchObject({ reason: 'rc4' });
    expect(suiteFacts(0xc012)).toMatchObject({ reason: 'triple_des' });
    expect(suiteFacts(0xc0ae)).toMatchObject({ name: 'TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8', reason: 'ccm8' });
    expect(suiteFacts(0x1305)).toMatchObject({ reason: 'ccm8', tls13: true });
    expect(suiteFacts(0x00a2)).toMatchObject({ reason: 'other' });
    expect(suiteFacts(0xabcd)).toMatchObject({ name: '0xabcd', ncsc: 'Onvoldoende' });
  });

  it('offers the worst suites first and never a TLS 1.3 suite in a TLS 1.2 hello', () => {
    const classes = TLS12_SUITES_WORST_FIRST.map((code) => classRank(suiteFacts(code).ncsc));
    expect(classes).toEqual([...classes].sort((a, b) => b - a));
    expect(TLS12_SUITES_WORST_FIRST.some((code) => code >> 8 === 0x13)).toBe(false);
  });

  it('holds the RFC 7919 primes exactly as the RFC defines them', () => {
    // RFC 7919 appendix A: p = 2^b - 2^(b-64) + (floor(2^(b-130) * e) + X) * 2^64 - 1, with X per group.
    // Computed here from e's series, so a changed digit in any of the five fails (and in microseconds,
    // where a safe-prime test of the larger groups takes seconds).
    const floorTwoPowerTimesE = (power: bigint): bigint => {
      const guard = 64n;
      let sum = 0n;
      let term = 1n << (power + guard);
      for (let k = 1n; term > 0n; k++) {
        sum += term;
        term /= k;
      }
      return sum >> guard;
    };
    const offsets: Record<string, bigint> = {
      ffdhe2048: 560316n,
      ffdhe3072: 2625351n,
      ffdhe4096: 5736041n,
      ffdhe6144: 15705020n,
      ffdhe8192: 10965728n,
    };
    expect(FFDHE_GROUPS.map((group) => group.name)).toEqual(Object.keys(offsets));
    for (const group of FFDHE_GROUPS) {
      const b = BigInt(group.bits);
      const defined =
        (1n << b) - (1n << (b - 64n)) + ((floorTwoPowerTimesE(b - 130n) + offsets[group.name]!) << 64n) - 1n;
      expect(BigInt(`0x${group.prime}`) === defined, group.name).toBe(true);
      expect(group.prime.length * 4, group.name).toBe(group.bits);
    }
    expect(dhGroupVerdict(FFDHE_GROUPS[4]!.prime, '02')).toEqual({
      name: 'DHE 8192 bits (ffdhe8192)',
      ncsc: 'Uit te faseren',
    });
    // The same prime with another generator is not the named group.
    expect(dhGroupVerdict(FFDHE_GROUPS[1]!.prime, '05').ncsc).toBe('Onvoldoende');
  });

  it('classes curves, keys and hashes', () => {
    expect([0x001d, 0x0017, 0x0015, 0x0016, 0x0001, 0x9999].map(groupClass)).toEqual([
      'Goed',
      'Goed',
      'Uit te faseren',
      'Onvoldoende',
      'Onvoldoende',
      'Onvoldoende',
    ]);
    expect([4096, 3072, 2048, 1024].map((bits) => certificateKeyClass('rsa', bits))).toEqual([
      'Goed',
      'Goed',
      'Uit te faseren',
      'Onvoldoende',
    ]);
    expect([384, 256, 224, 192].map((bits) => certificateKeyClass('ec', bits))).toEqual([
      'Goed',
      'Goed',
      'Uit te faseren',
      'Onvoldoende',
    ]);
    expect([0x0804, 0x0401, 0x0301, 0x0201, 0x0101].map((s) => hashClass(signatureSchemeHash(s).hash))).toEqual([
      'Goed',
      'Goed',
      'Uit te faseren',
      'Onvoldoende',
      'Onvoldoende',
    ]);
    expect(signatureSchemeHash(0x0203).name).toBe('ecdsa_sha1');
  });
});
