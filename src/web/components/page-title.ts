import { useEffect } from 'react';
import { useT } from '../i18n/translate.tsx';

/**
 * Sets the browser tab's title for the page on screen, in the chosen language ("Dashboard ·
 * Client Panel"); `title` is already in it.
 */
export function usePageTitle(title: string | undefined): void {
  const appName = useT()('shell.brand');
  useEffect(() => {
    document.title = title ? `${title} · ${appName}` : appName;
  }, [title, appName]);
}
