// Several nodes in the browser (issue 25): two players whose browsers are
// held by two different nodes behind the balancer play a whole game, and a
// spectator held by the third watches it. The balancer (scripts/cluster-test.sh
// starts it) keeps each browser on one node by its cookie ECHECS_NODE, which
// the test sets, so the game's messages cross from node to node.
//   ECHECS_CLUSTER_URL    the balancer, e.g. http://127.0.0.1:18000
//   ECHECS_CLUSTER_PINNED the balancer's names of the nodes, e.g. n1,n2,n3
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickMove, closeAll, launchBrowser, moveList, newPlayer, startGame, waitPly } from '../e2e/lib.mjs';

const url = process.env.ECHECS_CLUSTER_URL;
const nodes = (process.env.ECHECS_CLUSTER_PINNED || '').split(',').filter(Boolean);

async function playerOn(browser, node) {
  const p = await newPlayer(browser, url);
  await p.context.addCookies([{ name: 'ECHECS_NODE', value: node, url }]);
  return p;
}

test('cluster: two players on two nodes play to checkmate, watched from a third', { timeout: 120000 }, async () => {
  assert.ok(url && nodes.length >= 3, 'ECHECS_CLUSTER_URL and three ECHECS_CLUSTER_PINNED names are needed');
  const browser = await launchBrowser();
  const ann = await playerOn(browser, nodes[0]);
  const bob = await playerOn(browser, nodes[1]);
  const carol = await playerOn(browser, nodes[2]);
  try {
    const id = await startGame(ann, bob, { variant: 'chess', color: 'white', minutes: 10, increment: 0 });
    await carol.page.goto(`/game/${id}`);
    await carol.page.locator('.spectator-note').waitFor();

    await clickMove(ann.page, 'f2', 'f3');
    await waitPly(bob.page, 1);
    await clickMove(bob.page, 'e7', 'e5');
    await waitPly(ann.page, 2);
    await clickMove(ann.page, 'g2', 'g4');
    await waitPly(bob.page, 3);
    await waitPly(carol.page, 3);
    await clickMove(bob.page, 'd8', 'h4');
    for (const p of [ann.page, bob.page, carol.page]) {
      const banner = p.locator('.result-banner');
      await banner.waitFor({ state: 'visible', timeout: 20000 });
      assert.equal(await banner.getAttribute('data-result'), '0-1');
      assert.equal(await banner.getAttribute('data-termination'), 'checkmate');
      assert.deepEqual(await moveList(p), ['f3', 'e5', 'g4', 'Qh4#']);
    }
    // Stored as played, read back through any node.
    const pgn = await (await fetch(`${url}/game/${id}.pgn`)).text();
    assert.match(pgn.replace(/\s*\{[^}]*\}(\s+\d+\.\.\.)?/g, '').replace(/\s+/g, ' '), /1\. f3 e5 2\. g4 Qh4# 0-1/);
    const errors = [...ann.page.errors, ...bob.page.errors, ...carol.page.errors];
    assert.deepEqual(errors, []);
  } finally {
    await closeAll(ann, bob, carol);
    await browser.close();
  }
});
