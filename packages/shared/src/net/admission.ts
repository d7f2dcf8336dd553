import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/*
 * Node-only, like the rest of `net/`: the panel and the daemon shed load with this one module.
 */

export interface AdmissionLimits {
  /** Refuse new work while the event loop runs this late (ms, sampled every 100 ms); 0 = never on delay. */
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

interface AdmissionOptions {
  /** Routes an operator needs to get in and keep a console open: admitted on delay, and into the reserved share. */
  reserved: (request: FastifyRequest) => boolean;
  /** The error the app answers a refusal with, in its own envelope, carrying Retry-After. */
  refusal: () => Error;
}

/**
 * Admission control: while the event loop is behind or too many requests are in flight, a new request is refused at
 * once with 503 and Retry-After, before any of its work (the first onRequest hooks), instead of queueing until its
 * client gives up. Reserved routes keep a share, so sign-in and consoles still work on a loaded node.
 * Call before any other hook.
 */
export function admitRequests(
  app: FastifyInstance,
  limits: AdmissionLimits,
  options: AdmissionOptions,
): { inFlight: () => number } {
  let inFlight = 0;
  if (limits.maxEventLoopDelayMs > 0) {
    // Loaded in registration order, before the plugins registered after this call, so its hook runs first in them.
    app.register(underPressure, {
      maxEventLoopDelay: limits.maxEventLoopDelayMs,
      sampleInterval: 100,
      // Returning lets the request through; throwing answers it with the app's error handler.
      pressureHandler: async (request) => {
        if (!options.reserved(request)) throw options.refusal();
      },
    });
  }
  app.addHook('onRequest', async (request, reply) => {
    const bound = limits.maxInFlight + (options.reserved(request) ? limits.reservedInFlight : 0);
    if (limits.maxInFlight > 0 && inFlight >= bound) throw options.refusal();
    inFlight += 1;
    // 'close' comes once however the exchange ends: answered, failed or abandoned by the client.
    reply.raw.once('close', () => {
      inFlight -= 1;
    });
  });
  return { inFlight: () => inFlight };
}
