import './styles.scss';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { createQueryClient, Providers } from './app/providers.tsx';
import { routesFor } from './app/routes.tsx';
import { watchInput } from './lib/attention.ts';
import { sessionQuery } from './lib/session.ts';
import { settingsQuery } from './lib/settings-service.ts';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

watchInput(window);
const queryClient = createQueryClient();
// Every page needs these: asked for now, while the page's code is still loading.
void queryClient.prefetchQuery(sessionQuery);
void queryClient.prefetchQuery(settingsQuery);
const router = createBrowserRouter(routesFor(queryClient));

createRoot(root).render(
  <StrictMode>
    <Providers client={queryClient}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
