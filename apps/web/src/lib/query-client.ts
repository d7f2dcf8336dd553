import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api-client';

/** Retrying a 4xx answer would only repeat it; network trouble and 5xx get two more tries. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false, staleTime: 30_000 },
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
