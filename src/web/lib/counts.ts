import { INTL_LOCALES } from '../../shared/languages.ts';
import { perLanguage } from './dates.ts';

const countFormat = perLanguage((language) => new Intl.NumberFormat(INTL_LOCALES[language]));

/**
 * A count as people read it in the chosen language, grouped the Indian way in both
 * ("1,23,456"), for a text to show at once.
 */
export function formatCount(n: number): string {
  return countFormat().format(n);
}
