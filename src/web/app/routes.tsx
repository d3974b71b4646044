import type { RouteObject } from 'react-router';
import { LoginPage } from '../features/auth/login-page.tsx';
import { RegisterPage } from '../features/auth/register-page.tsx';
import { AddClientPage } from '../features/clients/add-client-page.tsx';
import { ClientDetailsPage } from '../features/clients/client-details-page.tsx';
import { ClientsPage } from '../features/clients/clients-page.tsx';
import { DashboardPage } from '../features/clients/dashboard-page.tsx';
import { EditClientPage } from '../features/clients/edit-client-page.tsx';
import { SettingsPage } from '../features/settings/settings-page.tsx';
import { AppLayout } from './app-layout.tsx';
import { RequireRegistrationsOpen, RequireSignedIn, RequireSignedOut } from './guards.tsx';
import { NotFoundPage } from './not-found-page.tsx';

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
          { path: 'clients', element: <ClientsPage /> },
          { path: 'client/add', element: <AddClientPage /> },
          { path: 'client/edit/:id', element: <EditClientPage /> },
          { path: 'client/:id', element: <ClientDetailsPage /> },
          { path: 'settings', element: <SettingsPage /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
