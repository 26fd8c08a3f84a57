// What every page must pass in the browser tests (issue 28: axe once per page, usable at 390 px): the serious or
// critical axe violations, and whatever sticks out past the viewport outside a table's own scroller or a dialog.
// Answers the problems in words (empty when the page is fine), so a test lists every page's problems at once.
// Always at the phone width: a page that fits 390 px fits wider screens.
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { screenshot } from './chromium.js';

/** The page as it is now, checked at 390x844 (the viewport is put back after). */
export async function pageProblems(page: Page, label: string): Promise<string[]> {
  const before = page.viewportSize();
  const phone = { width: 390, height: 844 };
  if (before?.width !== phone.width) await page.setViewportSize(phone);
  try {
    return await problemsNow(page, label);
  } finally {
    if (before && before.width !== phone.width) await page.setViewportSize(before);
  }
}

/** The page's problems (pageProblems), and the page saved at 1280 and at 390 px as `{name}-1280` and `{name}-390`. */
export async function problemsAndScreenshots(page: Page, name: string): Promise<string[]> {
  const problems = await pageProblems(page, name);
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await screenshot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  return problems;
}

async function problemsNow(page: Page, label: string): Promise<string[]> {
  const problems: string[] = [];
  const overflow = await page.evaluate(() => {
    const wide = Array.from(document.querySelectorAll('body *')).filter(
      (el) =>
        el.getBoundingClientRect().right > window.innerWidth + 1 && !el.parentElement?.closest('.table-scroll') && !el.closest('dialog'),
    );
    return {
      scroll: document.scrollingElement!.scrollWidth,
      inner: window.innerWidth,
      culprits: wide.slice(0, 3).map((el) => `${el.tagName.toLowerCase()}#${el.id}.${el.className}`),
    };
  });
  if (overflow.scroll > overflow.inner)
    problems.push(`${label}: scrollWidth ${overflow.scroll} > ${overflow.inner} (${overflow.culprits.join(', ')})`);
  const axe = await new AxeBuilder({ page }).analyze();
  for (const v of axe.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')) {
    problems.push(
      `${label}: axe ${v.id} (${v.impact}) ${v.nodes
        .slice(0, 2)
        .map((n) => n.target.join(' '))
        .join(' | ')}`,
    );
  }
  return problems;
}
