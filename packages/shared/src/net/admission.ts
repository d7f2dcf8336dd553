import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/*
 * Node-only, like the rest of `net/`: the panel and the daemon shed load with this one module.
 */

export interface AdmissionLimits {
  /** Refuse new work while the event loop runs this late (ms, mean over the last second); 0 = never on delay. */
  maxEventLoopDelayMs: number;
  /** Refuse new work while this many requests are being handled; 0 = no bound. */
  maxInFlight: number;
  /** Requests past `maxInFlight` still taken for reserved routes (sign-in, console tokens, health). */
  reservedInFlight: number;
}

export const defaultAdmissionLimits = (): AdmissionLimits => ({
  maxEventLoopDelayMs: 500,
  maxInFlight: 256,
  reservedInFlight: 64,
});

/** How long a refused client is told to wait before trying again (the Retry-After header, seconds). */
export const RETRY_AFTER_SECONDS = 2;

const SAMPLE_INTERVAL_MS = 100;
const WINDOW_MS = 1000;

/**
 * How far behind the event loop runs: the mean lateness of a 100 ms tick over the last second. A mean, so one pause
 * (a collection, a burst of CPU elsewhere on the machine) does not refuse the requests right behind it, while a loop
 * late on every tick, or blocked for longer than the bound, does. Measured here rather than with
 * @fastify/under-pressure, which counts a sample interval without a histogram sample as an infinite delay: on a
 * machine whose CPU other processes share, that refused every request for a while at random.
 */
function watchEventLoopDelay() {
  let last = performance.now();
  const ticks: { at: number; late: number }[] = [];
  let delay = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    ticks.push({ at: now, late: Math.max(0, now - last - SAMPLE_INTERVAL_MS) });
    last = now;
    while (ticks.length > 1 && (ticks[0]?.at ?? now) <= now - WINDOW_MS) ticks.shift();
    delay = ticks.reduce((sum, tick) => sum + tick.late, 0) / ticks.length;
  }, SAMPLE_INTERVAL_MS);
  timer.unref();
  return { delay: () => delay, stop: () => clearInterval(timer) };
}

interface AdmissionOptions {
  /** Routes an operator needs to get in and keep a console open: admitted on delay, and into the reserved share. */
  reserved: (request: FastifyRequest) => boolean;
  /** Answers a refused request: 503 in the app's own envelope, with Retry-After. Sent as is, never thrown. */
  refuse: (reply: FastifyReply) => FastifyReply;
}

/** Refusals are summed into one warning line per this period: a line each would add work to a loaded process. */
const REPORT_EVERY_MS = 10_000;

/**
 * Admission control: while the event loop is behind or too many requests are in flight, a new request is refused at
 * once with 503 and Retry-After, before any of its work (the first onRequest hook), instead of queueing until its
 * client gives up. Reserved routes keep a share, so sign-in and consoles still work on a loaded node. A refusal is
 * sent directly rather than thrown: no error, stack or per-request log line is made for it.
 * Call before any other hook.
 */
export function admitRequests(
  app: FastifyInstance,
  limits: AdmissionLimits,
  options: AdmissionOptions,
): { inFlight: () => number; eventLoopDelay: () => number } {
  let inFlight = 0;
  let refused = 0;
  let lastReport = 0;
  const loop = limits.maxEventLoopDelayMs > 0 ? watchEventLoopDelay() : undefined;
  if (loop) app.addHook('onClose', async () => loop.stop());

  const refuse = (reply: FastifyReply) => {
    refused += 1;
    const now = Date.now();
    if (now - lastReport >= REPORT_EVERY_MS) {
      app.log.warn(
        `overloaded: refused ${refused} request(s) since the last report (event loop ${Math.round(loop?.delay() ?? 0)} ms behind, ${inFlight} in flight)`,
      );
      refused = 0;
      lastReport = now;
    }
    return options.refuse(reply);
  };

  app.addHook('onRequest', async (request, reply) => {
    const upgrade = request.headers.upgrade !== undefined;
    const reserved = options.reserved(request);
    const overloaded =
      (loop && !reserved && loop.delay() > limits.maxEventLoopDelayMs) ||
      (limits.maxInFlight > 0 && inFlight >= limits.maxInFlight + (reserved ? limits.reservedInFlight : 0));
    if (overloaded) {
      // The websocket plugin closes a refused upgrade's socket from a hook this refusal skips: close it here.
      if (upgrade) reply.raw.once('finish', () => request.raw.socket?.destroy());
      return refuse(reply);
    }
    // An upgraded socket lives as long as its console stays open: counted, 2,000 open consoles would refuse
    // everything. Its handshake is checked like any request; open sockets are bounded by the connection guard.
    if (upgrade) return;
    inFlight += 1;
    // 'close' comes once however the exchange ends: answered, failed or abandoned by the client.
    reply.raw.once('close', () => {
      inFlight -= 1;
    });
  });
  return { inFlight: () => inFlight, eventLoopDelay: () => loop?.delay() ?? 0 };
}
