import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // The API client already retries what may be retried, within the call's 20 s (lib/api-client.ts): a query
      // retrying on top would make the user wait several time-outs for an error.
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

let client: QueryClient | null = null;

/** The page's one cache of server state, created when the first signed-in page needs it. */
export function getQueryClient(): QueryClient {
  client ??= createQueryClient();
  return client;
}
