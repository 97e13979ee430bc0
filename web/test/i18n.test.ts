import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { dictionaries, detectLang, translate, translatePlural } from '../src/i18n.ts';
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
  // names of piece sets and the word "Figurines" are the same in both languages, and so are the
  // speeds bullet and blitz and the word "Sessions"; the abbreviations of points and of the Swiss
  // tie-breaks (Buchholz, Sonneborn-Berger: names)
  const names = new Set([
    'settings.figurine',
    'pieces.cburnett',
    'pieces.fontawesome',
    'time.hoursMinutes',
    'speed.bullet',
    'speed.blitz',
    'account.sessions',
    'tournament.pointsShort',
    'tournament.cut1Short',
    'tournament.buchholzShort',
    'tournament.sbShort',
  ]);
  for (const k of same) if (!names.has(k)) assert.match(dictionaries.en[k], /^(Échecs|FEN|PGN|\{reason\})$/, `${k} not translated`);
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

test('counts in the singular and the plural of each language', () => {
  assert.equal(translatePlural('en', 'study.count', 1), '1 game read.');
  assert.equal(translatePlural('en', 'study.count', 2), '2 games read.');
  assert.equal(translatePlural('en', 'study.count', 0), '0 games read.');
  assert.equal(translatePlural('fr', 'study.count', 1), '1 partie lue.');
  assert.equal(translatePlural('fr', 'study.count', 0), '0 partie lue.', 'French: 0 is singular');
  assert.equal(translatePlural('fr', 'study.count', 3), '3 parties lues.');
  assert.equal(translatePlural('en', 'editor.legal', 1), 'A legal position: 1 legal move.');
  assert.equal(translatePlural('fr', 'profile.games', 1), '1 partie');
  assert.equal(translatePlural('en', 'profile.games', 12), '12 games');
  // every key in .one has its .other, in both languages
  for (const k of Object.keys(dictionaries.en)) if (k.endsWith('.one')) assert.ok(k.replace(/one$/, 'other') in dictionaries.en, k);
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

test('server errors: by reason, then by code, else a translated sentence with the details', async () => {
  const { setLang } = await import('../src/i18n.ts');
  const { errorText } = await import('../src/errors.ts');
  const { ApiError } = await import('../src/api.ts');
  setLang('fr');
  assert.equal(errorText({ code: 'not_your_turn', message: 'not your turn' }), 'Ce n’est pas votre tour.');
  // a server that sends a reason: translated whatever its English message says
  const both = new ApiError(400, 'bad_request', 'time.minutes and time.increment cannot both be 0', { reason: 'time_both_zero', field: 'time' });
  assert.equal(errorText(both), 'Les minutes et l’incrément ne peuvent pas être tous deux à 0.');
  // an older server (code only): a French sentence first, the server's words as a detail
  const old = new ApiError(400, 'bad_request', 'time.minutes and time.increment cannot both be 0');
  assert.equal(errorText(old), 'Le serveur a refusé cette demande (time.minutes and time.increment cannot both be 0).');
  // nothing known: a generic French sentence, never the English message alone
  const weird = errorText({ code: 'weird', message: 'something odd' });
  assert.match(weird, /^Une erreur s’est produite/);
  assert.equal(errorText({ code: 'x', reason: 'live_game_analysis' }), 'Pas de moteur pendant une partie en cours : l’analyse s’ouvrira à la fin.');
  assert.equal(errorText(new TypeError('Failed to fetch')), 'Le serveur est injoignable.');
  setLang('en');
  assert.equal(errorText({ type: 'error', code: 'illegal_move', message: 'illegal move: e2e5' }), 'This move is not legal.');
  assert.equal(errorText({ code: 'bad_request', reason: 'nickname_reserved' }), 'This nickname is reserved: choose another one.');
});

test('FEN, stipulation and PGN errors: the problem and its parameters in the user\'s language', async () => {
  const { setLang } = await import('../src/i18n.ts');
  const { errorText, problemText } = await import('../src/errors.ts');
  const { ApiError } = await import('../src/api.ts');
  setLang('fr');
  const fen = new ApiError(400, 'bad_request', 'fen: FEN: piece placement field: rank 1 has 7 squares, not 8', {
    reason: 'fen_invalid',
    field: 'fen',
    params: { problem: 'fen_rank_squares', rank: '1', squares: '7', detail: 'FEN: piece placement field: rank 1 has 7 squares, not 8' },
  });
  assert.equal(problemText(fen.params), 'la rangée 1 a 7 cases au lieu de 8');
  assert.equal(problemText({ problem: 'fen_no_king', color: 'white' }), 'les Blancs n’ont pas de roi');
  assert.equal(
    errorText({ reason: 'bad_stipulation', params: { problem: 'stip_unsupported', text: 'hs#2', form: 'hs' } }),
    'Cet énoncé ne peut pas être lu : hs#2 : hs n’est pas pris en charge',
  );
  assert.equal(
    errorText({ reason: 'pgn_move_unreadable', params: { game: '2', line: '3', move: '4...', side: 'black', text: "'Zf6'" } }),
    "Partie 2, coup 4... 'Zf6' : ce coup est illisible.",
  );
  assert.equal(
    errorText({ reason: 'pgn_syntax', params: { game: '1', line: '9', problem: 'pgn_comment_unclosed', opened: '7' } }),
    'Partie 1, ligne 9 : le commentaire ouvert ligne 7 n’est pas fermé.',
  );
  // a problem this client does not know: the server's English detail stays
  assert.equal(problemText({ problem: 'fen_something_new' }), '');
  setLang('en');
  assert.equal(problemText({ problem: 'fen_no_king', color: 'black' }), 'Black has no king');
});

test('every error reason the server documents has a text in both languages', () => {
  const reasons = ['time_both_zero', 'time_below_minimum', 'nickname_reserved', 'nickname_bidi', 'fen_invalid', 'draw_offer_too_soon',
    'live_game_analysis', 'rate_limited', 'illegal_move', 'not_your_turn', 'stale', 'game_over'];
  for (const r of reasons) for (const l of ['en', 'fr'] as const) assert.ok(`err.${r}` in dictionaries[l], `${l} err.${r}`);
});

test("every game of the server's table has its name in both languages", async () => {
  const { variants } = JSON.parse(readFileSync(new URL('./variants.json', import.meta.url), 'utf8')) as {
    variants: { name: string; display_key: string }[];
  };
  assert.ok(variants.length >= 3);
  for (const g of variants) {
    assert.ok(g.display_key in dictionaries.en, `en lacks ${g.display_key} (${g.name})`);
    assert.ok(g.display_key in dictionaries.fr, `fr lacks ${g.display_key} (${g.name})`);
  }
});
