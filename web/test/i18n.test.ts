import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dictionaries, detectLang, translate } from '../src/i18n.ts';
import { RULES } from '../src/rules-content.ts';

test('every key exists in both languages, none is empty, placeholders match', () => {
  const en = dictionaries.en;
  const fr = dictionaries.fr;
  assert.deepEqual(Object.keys(fr).sort(), Object.keys(en).sort());
  const ph = (s: string) => (s.match(/\{[a-z]+\}/g) ?? []).sort();
  for (const k of Object.keys(en) as (keyof typeof en)[]) {
    assert.ok(en[k].trim().length > 0, `en ${k} empty`);
    assert.ok(fr[k].trim().length > 0, `fr ${k} empty`);
    assert.deepEqual(ph(fr[k]), ph(en[k]), `placeholders of ${k}`);
  }
});

test('French texts are really French (not copies of the English ones)', () => {
  const same = (Object.keys(dictionaries.en) as (keyof typeof dictionaries.en)[]).filter(
    k => dictionaries.en[k] === dictionaries.fr[k],
  );
  // only names, symbols and placeholders may be equal in both languages
  for (const k of same) assert.match(dictionaries.en[k], /^(Échecs|FEN|PGN|\{reason\})$/, `${k} not translated`);
});

test('language from the saved choice, else the browser, else English', () => {
  assert.equal(detectLang('fr', ['en-US']), 'fr');
  assert.equal(detectLang(null, ['fr-FR', 'en']), 'fr');
  assert.equal(detectLang(null, ['de-DE', 'en-GB']), 'en');
  assert.equal(detectLang(null, ['de-DE']), 'en');
  assert.equal(detectLang('xx', ['fr-CA']), 'fr');
});

test('translate fills placeholders', () => {
  assert.equal(translate('fr', 'game.badMove', { move: 'Nf9' }), 'Coup illégal : Nf9');
  assert.equal(translate('en', 'lobby.computerName', { level: 4 }), 'Computer level 4');
});

test('rules pages exist in both languages with the same diagrams', () => {
  for (const v of ['chess', 'alice', 'avalanche'] as const) {
    const en = RULES[v].en;
    const fr = RULES[v].fr;
    assert.equal(fr.blocks.length, en.blocks.length, v);
    const diag = (p: typeof en) => p.blocks.flatMap(b => ('diagram' in b ? [b.diagram.fen] : []));
    assert.deepEqual(diag(fr), diag(en), v);
    assert.ok(diag(en).length >= 2, `${v} has diagrams`);
    en.blocks.forEach((b, i) => assert.deepEqual(Object.keys(fr.blocks[i]), Object.keys(b), `${v} block ${i}`));
  }
});

test('server errors: known codes translated, others shown as the server wrote them', async () => {
  const { errorMessage, setLang } = await import('../src/i18n.ts');
  setLang('fr');
  assert.equal(errorMessage('not_your_turn', 'not your turn'), 'Ce n’est pas votre tour.');
  assert.equal(errorMessage('weird', 'something odd'), 'Erreur : something odd');
  setLang('en');
  assert.equal(errorMessage('illegal_move', 'illegal move: e2e5'), 'This move is not legal.');
});
