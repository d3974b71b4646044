import { Link } from 'react-router';
import { paths } from '../../../shared/paths.ts';
import { useT } from '../../i18n/translate.tsx';
import { useCollectRound } from './dues-api.ts';

/**
 * "Collect (12 to do)" while today's round has clients left: the first thing to do on the
 * dashboard. Nothing at all when the round is done, or cannot be read (the Collect page, in
 * the navbar, says why).
 */
export function CollectTodayLink() {
  const t = useT();
  const round = useCollectRound();
  const remaining = round.data?.remaining ?? 0;
  if (remaining === 0) return null;
  return (
    <Link to={paths.collect} className="btn btn-warning w-100 mb-2 mt-md-2">
      {t('collect.link', { count: remaining })}
    </Link>
  );
}
