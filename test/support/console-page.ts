import AxeBuilder from '@axe-core/playwright';
import { Page } from 'playwright-core';

// What the browser tests check on every console page: accessibility (axe-core) and a layout drawn right.

/**
 * Rules whose violations axe rates moderate or minor, kept at zero all the same: a second, unnamed-apart landmark
 * (two "Breadcrumb" navs), a heading that skips a level, a table header with no text.
 */
const ALWAYS_CHECKED = ['landmark-unique', 'heading-order', 'empty-table-header'];

/** axe-core finds no serious or critical accessibility violation on the page as it is, nor any of ALWAYS_CHECKED. */
export async function expectAccessible(target: Page): Promise<void> {
  const results = await new AxeBuilder({ page: target }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical' || ALWAYS_CHECKED.includes(violation.id))
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.html.slice(0, 160)).join(' | ')})`);
  expect(serious).toEqual([]);
}

/**
 * What is wrong with the page's layout as drawn: wider than the window (it scrolls sideways), a badge cut short
 * ("SU…"), a time broken over lines, a bidi control (U+202E) that can reorder more than the `untrusted` text
 * carrying it (the bidi paragraph or isolate it sits in holds other words too: "Disable <U+202E>evil?" turns its
 * "?" around), and on a phone a header whose content runs out of its fixed bar or tabs off the screen. Blocks (a
 * heading, a cell, a flex item) are paragraphs of their own; inline text beside other words is not.
 */
export const layoutProblems = (target: Page, untrusted: string[] = []): Promise<string[]> =>
  target.evaluate(`((untrusted) => {
    const problems = [];
    const width = document.documentElement.scrollWidth;
    if (width > window.innerWidth) problems.push('the page is ' + width + ' px wide in a window of ' + window.innerWidth);
    for (const badge of document.querySelectorAll('.mantine-Badge-root, .mantine-Badge-label')) {
      if (badge.scrollWidth > badge.clientWidth + 1) problems.push('badge cut: ' + badge.textContent);
    }
    for (const time of document.querySelectorAll('time')) {
      if (time.getClientRects().length > 1) problems.push('time on ' + time.getClientRects().length + ' lines: ' + time.textContent);
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!/[\u202A-\u202E\u2066-\u2069]/.test(node.data)) continue;
      const bounds = (element) => {
        const style = getComputedStyle(element);
        return !['inline', 'contents'].includes(style.display) || ['isolate', 'isolate-override', 'plaintext'].includes(style.unicodeBidi);
      };
      let scope = node.parentElement;
      while (scope && !bounds(scope)) scope = scope.parentElement;
      if (!untrusted.includes(node.data) || scope?.textContent !== node.data) {
        problems.push('bidi controls reach the text around them: ' + JSON.stringify((scope ?? node.parentElement).textContent.slice(-60)));
      }
    }
    const header = document.querySelector('header');
    if (header) {
      const bar = header.getBoundingClientRect();
      for (const item of header.querySelectorAll('a, button, .mantine-Badge-root')) {
        const box = item.getBoundingClientRect();
        if (box.height > 0 && (box.top < bar.top || box.bottom > bar.bottom || box.right > bar.right)) problems.push('out of the header: ' + (item.textContent || item.getAttribute('aria-label')));
      }
    }
    for (const tab of document.querySelectorAll('nav[aria-label$="sections"] a')) {
      if (tab.getBoundingClientRect().right > window.innerWidth) problems.push('tab off the screen: ' + tab.textContent);
    }
    return problems;
  })(${JSON.stringify(untrusted)})`);
