import { useEffect } from 'react';

const APP_NAME = 'Client Panel';

/** Sets the browser tab's title for the page on screen ("Dashboard · Client Panel"). */
export function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · ${APP_NAME}` : APP_NAME;
  }, [title]);
}
