import { TooManyRequests } from '../../domain/errors.ts';

/** Seconds a refused client is told to wait: scans on loopback take a second, on the web up to a minute. */
const RETRY_AFTER_SECONDS = 10;

/**
 * Scans running at once in this process and per tenant. A scan holds its memory (page, probe bodies,
 * sockets) for up to its deadline, so more than the caps answer 429 instead of queueing.
 */
export class ScanSlots {
  private running = 0;
  private readonly perTenant = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly maxPerTenant: number,
  ) {}

  /** Takes a slot for the tenant (or throws TooManyRequests); the returned function gives it back. */
  acquire(tenantId: string): () => void {
    const mine = this.perTenant.get(tenantId) ?? 0;
    if (mine >= this.maxPerTenant || this.running >= this.max) {
      const which =
        mine >= this.maxPerTenant
          ? `al ${this.maxPerTenant} scans voor dit account`
          : 'het maximale aantal scans tegelijk';
      throw new TooManyRequests(
        `Er lopen ${which}: probeer het over ${RETRY_AFTER_SECONDS} seconden opnieuw.`,
        RETRY_AFTER_SECONDS,
      );
    }
    this.running += 1;
    this.perTenant.set(tenantId, mine + 1);
    return () => {
      this.running -= 1;
      const left = (this.perTenant.get(tenantId) ?? 1) - 1;
      if (left > 0) this.perTenant.set(tenantId, left);
      else this.perTenant.delete(tenantId);
    };
  }
}

const slots = new WeakMap<object, ScanSlots>();

/** The process's scan slots for a configuration. */
export function scanSlotsFor(config: {
  MAX_CONCURRENT_SCANS: number;
  MAX_CONCURRENT_SCANS_PER_TENANT: number;
}): ScanSlots {
  let found = slots.get(config);
  if (!found) {
    found = new ScanSlots(config.MAX_CONCURRENT_SCANS, config.MAX_CONCURRENT_SCANS_PER_TENANT);
    slots.set(config, found);
  }
  return found;
}
