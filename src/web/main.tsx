import './styles.scss';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/routes.tsx';
import { startLanguage } from './i18n/language.ts';
import { LanguageProvider } from './i18n/language-provider.tsx';
import { watchInput } from './lib/attention.ts';
import { session } from './lib/session.ts';
import { settings } from './lib/settings-service.ts';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

watchInput(window);
// Every page needs these: asked for now, while the page's code is still loading.
session.start();
settings.start();

// The first page's words come before the first paint: nothing shows in a language not chosen.
void startLanguage()
  .then(() =>
    createRoot(root).render(
      <StrictMode>
        <BrowserRouter>
          <LanguageProvider>
            <App />
          </LanguageProvider>
        </BrowserRouter>
      </StrictMode>,
    ),
  )
  .catch((error: unknown) => {
    // Without its words the app cannot say anything; this is said in both languages because
    // neither could be loaded.
    console.error('The page could not load its texts', error);
    const message = document.createElement('p');
    message.className = 'container mt-4 alert alert-danger';
    message.setAttribute('role', 'alert');
    message.textContent =
      // i18n-exempt: no catalogue could be loaded, so both languages are written here
      'The page could not be loaded: check the connection, then reload. · पेज लोड नहीं हो सका: कनेक्शन जाँचें, फिर पेज दोबारा खोलें।';
    root.replaceChildren(message);
  });
