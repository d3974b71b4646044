import type { RouteObject } from 'react-router';
import { LoginPage } from '../features/auth/login-page.tsx';
import { RegisterPage } from '../features/auth/register-page.tsx';
import { SettingsPage } from '../features/settings/settings-page.tsx';
import { AppLayout } from './app-layout.tsx';
import { RequireRegistrationsOpen, RequireSignedIn, RequireSignedOut } from './guards.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { DashboardPage } from '../features/clients/dashboard-page.tsx';

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { element: <RequireSignedOut />, children: [{ path: 'login', element: <LoginPage /> }] },
      {
        element: <RequireRegistrationsOpen />,
        children: [{ path: 'register', element: <RegisterPage /> }],
      },
      {
        element: <RequireSignedIn />,
        children: [
          { index: true, element: <DashboardPage /> },
          { path: 'dashboard', element: <DashboardPage /> },
          { path: 'settings', element: <SettingsPage /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
