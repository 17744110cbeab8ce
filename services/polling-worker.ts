import type { Logger } from './logger.ts';

/**
 * A worker that runs a round every interval: one round at a time, the next scheduled when one
 * ends, and stop() waits for the round and for the work rounds started (deliveries, scans).
 */
export abstract class PollingWorker {
  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  private stopped = false;

  constructor(
    private readonly intervalMs: number,
    protected readonly log: Logger,
    private readonly name: string,
  ) {}

  /** One round: look for due work and start it; the work finishes on its own time. */
  protected abstract round(): Promise<void>;

  /** Whether work started by earlier rounds is still running. */
  protected abstract busy(): boolean;

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    while (this.polling || this.busy()) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.poll(), this.intervalMs);
  }

  private async poll(): Promise<void> {
    if (this.polling || this.stopped) return;
    this.polling = true;
    try {
      await this.round();
    } catch (error) {
      this.log.error({ err: error }, `${this.name} round failed`);
    } finally {
      this.polling = false;
      this.schedule();
    }
  }
}
