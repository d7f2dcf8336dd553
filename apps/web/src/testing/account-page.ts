import type { RecordedRequest } from '@/testing/test-server';

/** What the account page reads by itself besides its forms: its Passkeys and Sign-in Providers boxes. */
const accountPageReads = new Set(['GET /api/client/account/passkeys', 'GET /api/client/account/oauth']);

/** The requests one of the account page's forms made, without the page's own reads. */
export const formRequests = (server: { requests: RecordedRequest[] }): RecordedRequest[] =>
  server.requests.filter((request) => !accountPageReads.has(`${request.method} ${request.url}`));
