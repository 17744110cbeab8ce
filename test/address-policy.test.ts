import { readFileSync } from 'node:fs';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { METADATA_ADDRESSES, refusalReason } from '../scanner/net/address-policy.ts';

const REGISTRY = readFileSync(new URL('./data/iana/ipv6-special-registry.csv', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split(',')[0]!);
const OPEN_WITH_PRIVATE_TARGETS = new Set(['::1/128', 'fc00::/7', 'fe80::/10']);

const edges = (prefix: string) => {
  const cidr = ipaddr.IPv6.parseCIDR(prefix);
  return [
    ipaddr.IPv6.networkAddressFromCIDR(prefix).toString(),
    ipaddr.IPv6.broadcastAddressFromCIDR(prefix).toString(),
    cidr[0].toString(),
  ];
};

describe('address rules', () => {
  it.each(REGISTRY)('refuses %s of the IANA IPv6 special-purpose registry, first to last address', (prefix) => {
    for (const address of edges(prefix)) {
      expect(refusalReason(address, { allowPrivateTargets: false }), address).not.toBeNull();
      if (!OPEN_WITH_PRIVATE_TARGETS.has(prefix) && !prefix.startsWith('::ffff')) {
        expect(refusalReason(address, { allowPrivateTargets: true }), address).not.toBeNull();
      }
    }
  });

  it.each(['::7f00:1', '::127.0.0.1', '::a00:1', '::8.8.8.8', 'ff02::1', '4000::1', 'fe80::1%eth0'])(
    'refuses %s in every mode',
    (address) => {
      expect(refusalReason(address, { allowPrivateTargets: false })).not.toBeNull();
      if (!address.startsWith('fe80')) expect(refusalReason(address, { allowPrivateTargets: true })).not.toBeNull();
    },
  );

  it.each(METADATA_ADDRESSES)('refuses the metadata address %s even when private targets are allowed', (address) => {
    expect(refusalReason(address, { allowPrivateTargets: true })).toBe('metadata-adres');
  });

  it('lets global unicast through, and loopback only when private targets are allowed', () => {
    for (const address of ['2606:4700:4700::1111', '2a00:1450:4001::1', '93.184.215.14', '::ffff:93.184.215.14'])
      expect(refusalReason(address, { allowPrivateTargets: false })).toBeNull();
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '10.1.2.3', 'fd12::1']) {
      expect(refusalReason(address, { allowPrivateTargets: false })).not.toBeNull();
      expect(refusalReason(address, { allowPrivateTargets: true })).toBeNull();
    }
  });
});
