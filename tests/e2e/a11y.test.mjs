// e2e sizes: desktop phone
// Accessibility: axe-core on the lobby, a game, the rules and the analysis
// board (and the settings dialog), at the suite's size: no serious or critical
// violation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeAll, newPlayer, playComputer, press, screenshot, seriousA11yViolations, useServerAndBrowser } from './lib.mjs';

const env = useServerAndBrowser();

test('axe-core: lobby, game, rules, analysis, settings', { timeout: 90000 }, async () => {
  const p = await newPlayer(env.browser, env.server.url, 'fr-FR');
  try {
    const page = p.page;
    const report = {};
    await page.goto('/');
    await page.locator('.lobby .seek-list').waitFor();
    report.lobby = await seriousA11yViolations(page);
    await playComputer(page, { variant: 'alice', color: 'white', level: '1' });
    await page.locator('.game-side .move-nav').waitFor();
    report.game = await seriousA11yViolations(page);
    await press(page, '[data-action="settings"]');
    await page.locator('dialog.settings-dialog').waitFor();
    report.settings = await seriousA11yViolations(page);
    await press(page, '[data-action="close-settings"]');
    for (const v of ['chess', 'alice', 'avalanche']) {
      await page.goto(`/rules/${v}`);
      await page.locator('.rules figure.diagram').first().waitFor();
      report[`rules-${v}`] = await seriousA11yViolations(page);
    }
    await page.goto('/analysis?variant=avalanche');
    await page.locator('.analysis-page cg-board').waitFor();
    report.analysis = await seriousA11yViolations(page);
    console.log(`axe: ${JSON.stringify(report)}`);
    for (const [where, v] of Object.entries(report)) assert.deepEqual(v, [], `${where}: ${v.join('; ')}`);
    await screenshot(page, 'a11y-analysis');
  } finally {
    await closeAll(p);
  }
});
