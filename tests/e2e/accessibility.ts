import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** No axe violation of impact serious or critical (WCAG 2.1 A and AA rules). */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  // Wait for transitions (modals, toasts) to settle before measuring contrast.
  await page.waitForTimeout(250);
  // Legacy mode runs axe in the page itself. Otherwise it opens a blank page (a renderer
  // process) to put its results together, which made each check take three times as long;
  // the panel has no frames, which is all the newer mode adds.
  const results = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      targets: violation.nodes.map((node) => node.target.join(' ')).slice(0, 5),
    }));
  expect(serious, `${what}: axe violations`).toEqual([]);
}
