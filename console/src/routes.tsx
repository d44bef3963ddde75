import { lazy, ReactNode, Suspense } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { Loader } from '@mantine/core';
import { Layout } from './Layout';
import { RouteError } from './components/RouteError';
import { ActionCreatePage } from './pages/ActionCreatePage';
import { ActionEditPage } from './pages/ActionEditPage';
import { ActionLayout } from './pages/ActionLayout';
import { ActionOverviewPage } from './pages/ActionOverviewPage';
import { ActionsPage } from './pages/ActionsPage';
import { ApiTokensPage } from './pages/ApiTokensPage';
import { HmacKeysPage } from './pages/HmacKeysPage';
import { HomeRedirect } from './pages/HomeRedirect';
import { NotFoundPage } from './pages/NotFoundPage';
import { PortalPage } from './pages/PortalPage';
import { SignInPage } from './pages/SignInPage';
import { TenantLayout } from './pages/TenantLayout';
import { TenantSettingsPage } from './pages/TenantSettingsPage';
import { TenantsPage } from './pages/TenantsPage';

// The form generated from a JSON Schema (rjsf + Ajv) is the heaviest part: loaded when "Try it" opens.
const TryActionPage = lazy(() => import('./pages/TryActionPage'));
// The delivery log's pages (with the date pickers) and its charts (recharts) load when first opened.
const logPages = () => import('./pages/ExecutionLogPage');
const ExecutionLogPage = lazy(() => logPages().then((module) => ({ default: module.ExecutionLogPage })));
const TenantExecutionLogPage = lazy(() => logPages().then((module) => ({ default: module.TenantExecutionLogPage })));
const ExecutionPage = lazy(() => import('./pages/ExecutionDetailPage').then((module) => ({ default: module.ExecutionPage })));
const StatsPage = lazy(() => import('./pages/StatsPage'));

/** A page loaded on demand: a loader meanwhile, and why it could not be drawn if it fails. */
const loaded = (page: ReactNode, what: string) => ({
  errorElement: <RouteError />,
  element: <Suspense fallback={<Loader aria-label={`Loading ${what}`} />}>{page}</Suspense>,
});

export const router = createBrowserRouter(
  [
    { path: '/sign-in', element: <SignInPage />, errorElement: <RouteError /> },
    { path: '/portal', element: <PortalPage />, errorElement: <RouteError /> },
    {
      path: '/',
      element: <Layout />,
      errorElement: <RouteError />,
      children: [
        {
          // A page that fails to render shows why inside the layout, under the header.
          errorElement: <RouteError />,
          children: [
            { index: true, element: <HomeRedirect /> },
            { path: 'tenants', element: <TenantsPage /> },
            {
              path: 'tenants/:tenantId',
              element: <TenantLayout />,
              children: [
                { index: true, element: <Navigate to="actions" replace /> },
                { path: 'actions', element: <ActionsPage /> },
                // Not a name an action can have (names are [a-z0-9_]): an action called "new" opens as itself.
                { path: 'actions/new-action', element: <ActionCreatePage /> },
                {
                  path: 'actions/:actionName',
                  element: <ActionLayout />,
                  children: [
                    { index: true, element: <ActionOverviewPage /> },
                    { path: 'edit', element: <ActionEditPage /> },
                    {
                      path: 'try',
                      errorElement: <RouteError />,
                      element: (
                        <Suspense fallback={<Loader aria-label="Loading the form" />}>
                          <TryActionPage />
                        </Suspense>
                      ),
                    },
                    { path: 'executions', ...loaded(<ExecutionLogPage />, 'the execution log') },
                    { path: 'executions/:executionId', ...loaded(<ExecutionPage />, 'the execution') },
                    { path: 'stats', ...loaded(<StatsPage />, 'the statistics') },
                  ],
                },
                { path: 'executions', ...loaded(<TenantExecutionLogPage />, 'the executions') },
                { path: 'executions/:executionId', ...loaded(<ExecutionPage />, 'the execution') },
                { path: 'stats', ...loaded(<StatsPage />, 'the statistics') },
                { path: 'api-tokens', element: <ApiTokensPage /> },
                { path: 'hmac-keys', element: <HmacKeysPage /> },
                { path: 'settings', element: <TenantSettingsPage /> },
              ],
            },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ],
  { basename: '/console' },
);
