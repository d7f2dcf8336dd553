import type { LookupAddress } from 'node:dns';
import type { AllowedNetwork } from './pull-destinations';

/** A host name's addresses, as `dns.lookup(name, { all: true })` gives them (tests put their own names here). */
export type ResolveHost = (hostname: string) => Promise<LookupAddress[]>;

/** How remote pulls (`POST …/files/pull`) are bounded on this node (DAEMON_PULL_* settings). */
export interface PullSettings {
  /** Networks pulls may reach although they are loopback, private, link-local or the node's own. */
  allow: readonly AllowedNetwork[];
  /** Largest file one pull may write (DAEMON_PULL_MAX_MB, 10 GiB); 0 = only the server's disk limit. */
  maxBytes: number;
  /** A whole download's time, from the request to the last byte (Wings: 12 h). */
  timeoutMs: number;
  /** Longest wait for the next bytes (or the answer) before the download is given up. */
  idleTimeoutMs: number;
  /** Name resolution; the system's resolver unless a test gives its own. */
  resolve?: ResolveHost;
}

/** Wings' limits, kept as they are (wings.md §6.7); the redirect bound is Aerie's (Wings follows none). */
export const PULL_LIMITS = { perServer: 3, redirects: 5 } as const;

export const defaultPullSettings = (): PullSettings => ({
  allow: [],
  maxBytes: 10_240 * 1024 * 1024,
  timeoutMs: 12 * 60 * 60_000,
  idleTimeoutMs: 60_000,
});
