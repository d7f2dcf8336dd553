import { type ActivityPanelApi, PanelRequestError } from '@aerie/daemon/panel-client/panel-client';
import { nextBatch } from './activity-batch';
import type { ActivityOutbox } from './activity-outbox';

/** What one request came to. */
export type ShipOutcome =
  /** Nothing was waiting. */
  | 'empty'
  /** The panel took the batch (2xx): its rows left the outbox. */
  | 'sent'
  /** The panel refused the batch (4xx): its rows left the outbox too, it would refuse them again forever. */
  | 'refused'
  /** No answer, or 5xx (or 408/429): the rows wait for the next attempt. */
  | 'failed';

export interface ActivityShipperOptions {
  outbox: ActivityOutbox;
  panel: ActivityPanelApi;
  /** Between shipments (DAEMON_ACTIVITY_SEND_INTERVAL_SECONDS; Wings' activity_send_interval, 60 s). */
  intervalMs: number;
  /** Requests per shipment at most, so a long backlog drains without one shipment holding on forever. */
  maxBatchesPerRun?: number;
  log?: { warn(message: string): void };
}

/** The longest wait after failures: the interval doubles from one failure to the next up to this. */
const MAX_BACK_OFF_MS = 10 * 60_000;
/** Statuses that say "later", not "never". */
const RETRY_LATER = new Set([408, 425, 429]);

/** The wait before the next shipment after `failures` failed ones in a row. */
export function shipDelay(intervalMs: number, failures: number): number {
  if (failures === 0) return intervalMs;
  return Math.min(intervalMs * 2 ** Math.min(failures, 20), Math.max(intervalMs, MAX_BACK_OFF_MS));
}

/**
 * Ships the outbox to the panel every interval, 100 merged rows a request (Wings' activity cron): rows leave the
 * outbox only once the panel answered 2xx, or a 4xx (a batch it refuses now it refuses forever: dropped, said in
 * the log, never retried). No answer or a 5xx keeps them, and the next attempt waits twice as long each time.
 */
export class ActivityShipper {
  readonly #options: ActivityShipperOptions;
  readonly #maxBatches: number;
  readonly #log: { warn(message: string): void };
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #failures = 0;
  #stopped = false;

  constructor(options: ActivityShipperOptions) {
    this.#options = options;
    this.#maxBatches = options.maxBatchesPerRun ?? 10;
    this.#log = options.log ?? { warn: console.warn };
  }

  /** Ships every interval from now on. */
  start(): void {
    this.#stopped = false;
    this.#schedule();
  }

  /** No further shipment; waits for the one under way. Rows not shipped stay in the outbox's file. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  /** One shipment: up to `maxBatchesPerRun` requests while rows wait and the panel takes them. */
  async run(): Promise<void> {
    if (this.#running) return this.#running;
    this.#running = (async () => {
      for (let batch = 0; batch < this.#maxBatches; batch++) {
        const outcome = await this.shipOnce();
        if (outcome === 'failed') this.#failures++;
        else this.#failures = 0;
        if (outcome === 'empty' || outcome === 'failed' || this.#options.outbox.size === 0) break;
      }
    })().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  /** One request of the oldest waiting rows. */
  async shipOnce(): Promise<ShipOutcome> {
    const { outbox, panel } = this.#options;
    const batch = nextBatch(outbox.pending);
    if (batch.rows.length === 0) return 'empty';
    try {
      await panel.sendActivity({ data: batch.rows });
    } catch (error) {
      const status = error instanceof PanelRequestError ? error.status : undefined;
      if (status === undefined || status >= 500 || RETRY_LATER.has(status)) {
        this.#log.warn(
          `Activity: ${outbox.size} row(s) wait for the panel, which did not take them: ${(error as Error).message}`,
        );
        return 'failed';
      }
      await outbox.remove(batch.seqs);
      this.#log.warn(
        `Activity: the panel refused ${batch.seqs.size} row(s); they are dropped: ${(error as Error).message}`,
      );
      return 'refused';
    }
    await outbox.remove(batch.seqs);
    return 'sent';
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(
      () => {
        void this.run().finally(() => this.#schedule());
      },
      shipDelay(this.#options.intervalMs, this.#failures),
    );
    this.#timer.unref();
  }
}
