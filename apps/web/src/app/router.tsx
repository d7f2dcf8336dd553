import { createBrowserRouter, type RouteObject } from 'react-router';
import { RootLayout } from '@/app/routes/root-layout';
import { RouteErrorBoundary } from '@/app/routes/route-error-boundary';
import { serverRoutes } from '@/app/routes/server/server-routes';
import { FullPageSpinner } from '@/components/ui/spinner';
import { hasAdminArea } from '@/lib/admin-access';
import { useUserStore } from '@/stores/user-store';

/*
 * Each page is its own chunk, so the login page ships without the signed-in shell and vice versa. The error
 * boundary stays in the entry: it must work when a chunk fails to download.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    ErrorBoundary: RouteErrorBoundary,
    HydrateFallback: FullPageSpinner,
    children: [
      {
        path: 'auth',
        lazy: async () => ({ Component: (await import('@/app/routes/auth/auth-layout')).AuthLayout }),
        children: [
          {
            path: 'login',
            lazy: async () => ({ Component: (await import('@/app/routes/auth/login')).LoginRoute }),
          },
          {
            path: 'login/checkpoint',
            lazy: async () => ({ Component: (await import('@/app/routes/auth/checkpoint')).CheckpointRoute }),
          },
          {
            path: 'password',
            lazy: async () => ({
              Component: (await import('@/app/routes/auth/forgot-password')).ForgotPasswordRoute,
            }),
          },
          {
            path: 'password/reset/:token',
            lazy: async () => ({
              Component: (await import('@/app/routes/auth/reset-password')).ResetPasswordRoute,
            }),
          },
          // Kept for links of older panels; it shows nothing.
          { path: 'checkpoint', element: null },
          {
            path: '*',
            lazy: async () => ({
              Component: (await import('@/app/routes/auth/auth-not-found')).AuthNotFoundRoute,
            }),
          },
        ],
      },
      {
        lazy: async () => ({ Component: (await import('@/app/routes/app/app-layout')).AppLayout }),
        children: [
          {
            // Errors inside a page keep the navigation bar around them.
            ErrorBoundary: RouteErrorBoundary,
            children: [
              {
                index: true,
                lazy: async () => ({
                  Component: (await import('@/app/routes/app/dashboard')).DashboardRoute,
                }),
              },
              {
                path: 'account',
                lazy: async () => ({
                  Component: (await import('@/app/routes/app/account/account-layout')).AccountLayout,
                }),
                children: [
                  {
                    index: true,
                    lazy: async () => ({
                      Component: (await import('@/app/routes/app/account/overview')).AccountOverviewRoute,
                    }),
                  },
                  {
                    path: 'api',
                    lazy: async () => ({
                      Component: (await import('@/app/routes/app/account/api')).AccountApiRoute,
                    }),
                  },
                  {
                    path: 'ssh',
                    lazy: async () => ({
                      Component: (await import('@/app/routes/app/account/ssh')).AccountSshRoute,
                    }),
                  },
                  {
                    path: 'activity',
                    lazy: async () => ({
                      Component: (await import('@/app/routes/app/account/activity')).AccountActivityRoute,
                    }),
                  },
                ],
              },
              {
                // The admin area routes its own pages (admin-routes.tsx), so this entry is all the first load carries
                // of it; only the browser of a root admin or of a user with an admin role loads the admin chunks,
                // anyone else gets the not-found page.
                path: 'admin/*',
                lazy: async () =>
                  hasAdminArea(useUserStore.getState().user)
                    ? { Component: (await import('@/app/routes/admin/admin-layout')).default }
                    : { Component: (await import('@/app/routes/app/not-found')).NotFoundRoute },
              },
              {
                path: 'server/:id',
                lazy: async () => ({
                  Component: (await import('@/app/routes/server/server-layout')).ServerLayout,
                }),
                children: serverRoutes,
              },
              {
                path: '*',
                lazy: async () => ({ Component: (await import('@/app/routes/app/not-found')).NotFoundRoute }),
              },
            ],
          },
        ],
      },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
