import { render, screen } from '@testing-library/react';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { RouteErrorBoundary } from '@/app/routes/route-error-boundary';
import { browser } from '@/lib/browser';
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

  it('reloads the page when a page chunk could not be downloaded, and offers back and retry meanwhile', async () => {
    sessionStorage.clear();
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => undefined);
    renderRoute({
      lazy: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/x.js')),
    });
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1), { timeout: 5000 });
    reload.mockRestore();
  });

  it('takes a stylesheet the chunk needed and could not preload for a chunk failure too', async () => {
    sessionStorage.setItem('aerie:chunk-reloads', `${Date.now()},3`);
    renderRoute({
      lazy: () => Promise.reject(new Error('Unable to preload CSS for /assets/console-B1njb2Cr.css')),
    });
    expect(await screen.findByRole('button', { name: 'Try Again' })).toBeInTheDocument();
  });

  it('does not reload a fourth time within a minute (no loop)', async () => {
    sessionStorage.setItem('aerie:chunk-reloads', `${Date.now()},3`);
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => undefined);
    renderRoute({ lazy: () => Promise.reject(new TypeError('error loading dynamically imported module')) });
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    // Past the reload's delay: nothing was scheduled.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(reload).not.toHaveBeenCalled();
    reload.mockRestore();
  });
});
