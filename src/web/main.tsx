import './styles.scss';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/routes.tsx';
import { watchInput } from './lib/attention.ts';
import { session } from './lib/session.ts';
import { settings } from './lib/settings-service.ts';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

watchInput(window);
// Every page needs these: asked for now, while the page's code is still loading.
session.start();
settings.start();

createRoot(root).render(
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>,
);
