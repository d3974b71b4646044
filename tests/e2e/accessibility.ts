import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Waits until no finite animation or transition is running (a modal or a toast fading in
 * would be measured half transparent, its contrast too low). `getAnimations()` brings the
 * page's styles up to date first, so a transition that a class just started is counted;
 * endless ones (a spinner) are not waited for.
 */
async function transitionsSettled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = () =>
      document
        .getAnimations()
        .filter(
          (animation) =>
            animation.playState === 'running' &&
            animation.effect?.getComputedTiming().endTime !== Infinity,
        );
    for (let running = finite(); running.length > 0; running = finite()) {
      await Promise.allSettled(running.map((animation) => animation.finished));
    }
  });
}

/** No axe violation of impact serious or critical (WCAG 2.1 A and AA rules). */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  await transitionsSettled(page);
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
