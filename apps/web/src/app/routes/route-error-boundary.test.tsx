import { render, screen } from '@testing-library/react';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { RouteErrorBoundary } from '@/app/routes/route-error-boundary';
import { createTestI18n } from '@/testing/test-i18n';

function NoFallback() {
  return null;
}

function BrokenPage(): never {
  throw new Error('undefined is not a function');
}

function renderRoute(route: Pick<RouteObject, 'Component' | 'lazy'>) {
  const router = createMemoryRouter([
    { path: '/', ErrorBoundary: RouteErrorBoundary, HydrateFallback: NoFallback, ...route } as RouteObject,
  ]);
  render(
    <AppProvider i18n={createTestI18n()}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
}

describe('route error boundary', () => {
  it('explains a rendering failure', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderRoute({ Component: BrokenPage });
    expect(
      await screen.findByText(
        'An error was encountered by the application while rendering this view. Try refreshing the page.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText('undefined is not a function')).not.toBeInTheDocument();
  });

  it('offers back and retry when a page chunk could not be downloaded', async () => {
    renderRoute({
      lazy: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/x.js')),
    });
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
  });
});
