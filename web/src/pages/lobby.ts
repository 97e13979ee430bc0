// Lobby (create a game, open seeks, live games, finished games) and the
// challenge page of a direct challenge link.
// (Over 400 lines: the two forms, the three lists and the challenge page share its helpers.)

import { GameSummary, Lobby, LobbyView, Seek, TimeControl, api, http, nickname, setNickname, ws } from '../api.js';
import { BoardView } from '../board.js';
import { clear, el } from '../dom.js';
import type { Variant } from '../fen.js';
import { formatTime, playerName, resultTitle } from '../format.js';
import { errorText } from '../errors.js';
import { t } from '../i18n.js';
import { navigate } from '../router.js';
import { RatedSeat, currentUser, onUserChange, ratedName } from '../account-api.js';
import { poolsPanel } from './lobby-pools.js';
import { ChatPanel } from '../chat.js';
import { yourTurnPanel } from './your-turn-panel.js';
import { ChallengePosition, challengePosition } from './challenge-position.js';
import { games, isVariant, variantKey, variantOr } from '../games.js';

/** A seat or a seek's creator with their rating in the game's category. */
const seatName = (p: RatedSeat) => ratedName(p, playerName(p));

/** A seek as servers with accounts send it. */
type RatedSeek = Seek & { rated?: boolean; rating?: number | null; provisional?: boolean };
const FORM_KEY = 'echecs.form';
// versioned: the levels were renumbered (two weaker levels below the old
// level 1, then each game's own ladder, about 200 Elo a step), so a level
// saved under an old numbering is not read as a new one
const COMPUTER_KEY = 'echecs.form.computer.3';

interface FormValues {
  variant: Variant;
  mode: 'realtime' | 'correspondence' | 'unlimited';
  minutes: number;
  increment: number;
  days: number;
  color: 'white' | 'black' | 'random';
  level: number;
}

function loadForm(key: string, d: FormValues): FormValues {
  try {
    const v = { ...d, ...(JSON.parse(localStorage.getItem(key) ?? '{}') as Partial<FormValues>) };
    if (!isVariant(v.variant)) v.variant = d.variant;
    return v;
  } catch {
    return d;
  }
}

function saveForm(key: string, v: FormValues): void {
  try {
    localStorage.setItem(key, JSON.stringify(v));
  } catch {
    /* ignore */
  }
}

function timeOf(v: FormValues): TimeControl {
  if (v.mode === 'realtime') return { kind: 'realtime', minutes: v.minutes, increment: v.increment };
  if (v.mode === 'correspondence') return { kind: 'correspondence', days: v.days };
  return { kind: 'unlimited' };
}

function select(name: string, options: [string, string][], value: string, prefix = 'f'): HTMLSelectElement {
  const s = el('select', { name, id: `${prefix}-${name}` });
  for (const [v, label] of options) {
    const o = el('option', { value: v }, label);
    if (v === value) o.selected = true;
    s.appendChild(o);
  }
  return s;
}

function field(label: string, input: HTMLElement): HTMLElement {
  return el('label', { class: 'field' }, el('span', { class: 'field-label' }, label), input);
}

/** Variant, time control and colour choices (one set per form: people and computer each keep theirs). */
function gameChoices(v: FormValues, prefix: string, withCorrespondence: boolean) {
  const variant = select('variant', games().map(g => [g.name, t(variantKey(g.name))]), v.variant, prefix);
  const modes: [string, string][] = [['realtime', t('lobby.realtime')]];
  if (withCorrespondence) modes.push(['correspondence', t('lobby.correspondence')]);
  modes.push(['unlimited', t('lobby.unlimited')]);
  const mode = select('mode', modes, withCorrespondence || v.mode !== 'correspondence' ? v.mode : 'unlimited', prefix);
  const minutes = el('input', { name: 'minutes', type: 'number', min: '0', max: '180', step: 'any', value: String(v.minutes), inputmode: 'decimal' });
  const increment = el('input', { name: 'increment', type: 'number', min: '0', max: '180', step: '1', value: String(v.increment), inputmode: 'numeric' });
  const days = el('input', { name: 'days', type: 'number', min: '1', max: '14', step: '1', value: String(v.days), inputmode: 'numeric' });
  const color = select(
    'color',
    [
      ['random', t('color.random')],
      ['white', t('color.white')],
      ['black', t('color.black')],
    ],
    v.color,
    prefix,
  );
  const rt = el('div', { class: 'row tc-realtime' }, field(t('lobby.minutes'), minutes), field(t('lobby.increment'), increment));
  const corr = el('div', { class: 'row tc-corr' }, field(t('lobby.days'), days));
  const syncMode = () => {
    rt.hidden = mode.value !== 'realtime';
    corr.hidden = mode.value !== 'correspondence';
  };
  mode.addEventListener('change', syncMode);
  syncMode();
  const values = (level: number): FormValues => ({
    variant: variant.value as Variant,
    mode: mode.value as FormValues['mode'],
    minutes: Number(minutes.value),
    increment: Number(increment.value),
    days: Number(days.value),
    color: color.value as FormValues['color'],
    level,
  });
  const fields = [field(t('lobby.variant'), variant), field(t('lobby.timeControl'), mode), rt, corr, field(t('lobby.color'), color)];
  return { fields, values };
}

export function lobbyPage(root: HTMLElement, query?: URLSearchParams): () => void {
  const defaults: FormValues = { variant: variantOr(null), mode: 'realtime', minutes: 5, increment: 3, days: 3, color: 'random', level: 5 };
  const v = loadForm(FORM_KEY, defaults);
  const cv = loadForm(COMPUTER_KEY, { ...defaults, mode: 'unlimited' });
  // the header's links to a game lead here with the game chosen
  const asked = query?.get('variant');
  if (isVariant(asked)) v.variant = cv.variant = asked;
  const page = el('div', { class: 'lobby' });
  root.appendChild(page);

  // ---- create forms: a seek or challenge for people, a game against the computer
  const people = gameChoices(v, 'f', true);
  const comp = gameChoices(cv, 'c', false);
  const nick = el('input', { name: 'nickname', type: 'text', maxlength: '20', placeholder: t('lobby.nicknamePlaceholder'), value: nickname(), autocomplete: 'nickname' });
  // the server's computer levels in the game chosen, 1 weakest, with each
  // one's approximate rating as the engine measured it (GET /api/levels; a
  // game has as many levels as it has ratings): the saved level alone until
  // the list comes
  const level = select('level', [[String(cv.level), String(cv.level)]], String(cv.level), 'c');
  let ratings: { level: number; ratings: Partial<Record<Variant, number>> }[] = [];
  const listLevels = () => {
    const variantSel = page.querySelector<HTMLSelectElement>('#c-variant');
    const game = (variantSel?.value ?? cv.variant) as Variant;
    const ofGame = ratings.flatMap(r => (r.ratings[game] ? [{ level: r.level, rating: r.ratings[game] }] : []));
    if (ofGame.length === 0) return;
    const chosen = Math.min(Math.max(Number(level.value) || 1, 1), ofGame.length);
    level.replaceChildren(...ofGame.map(r => el('option', { value: String(r.level) }, t('lobby.levelRating', { level: r.level, rating: r.rating }))));
    level.value = String(chosen);
  };
  http<{ levels: typeof ratings }>('GET', '/api/levels').then(
    r => {
      ratings = r.levels;
      listLevels();
      page.querySelector('#c-variant')?.addEventListener('change', listLevels);
    },
    () => undefined,
  );
  const msg = el('div', { class: 'form-msg', 'aria-live': 'polite' });
  const cmsg = el('div', { class: 'form-msg', 'aria-live': 'polite' });
  const waiting = el('div', { class: 'waiting', hidden: '' });
  const values = () => people.values(v.level);
  // rated or casual, and the opponent's rating range (rated games: two logged-in players)
  const rated = el('input', { type: 'checkbox', name: 'rated', id: 'f-rated' });
  rated.checked = currentUser() !== null;
  // follows the header's log-in state until the player ticks it themselves
  let ratedTouched = false;
  rated.addEventListener('change', () => (ratedTouched = true));
  const offUser = onUserChange(me => {
    if (!ratedTouched) rated.checked = me !== null;
  });
  const ratingInput = (name: string) => el('input', { name, id: `f-${name}`, type: 'number', min: '0', max: '4000', step: '1', inputmode: 'numeric' });
  const ratingMin = ratingInput('rating_min');
  const ratingMax = ratingInput('rating_max');
  const ratedFields = [
    el('label', { class: 'field check' }, rated, el('span', {}, t('lobby.rated'))),
    el('div', { class: 'row' }, field(t('lobby.ratingMin'), ratingMin), field(t('lobby.ratingMax'), ratingMax)),
    el('p', { class: 'hint' }, t('lobby.ratedHint')),
  ];

  const createSeek = async (priv: boolean) => {
    const fv = values();
    saveForm(FORM_KEY, fv);
    setNickname(nick.value);
    msg.textContent = '';
    try {
      const range = (i: HTMLInputElement) => (i.value.trim() ? Number(i.value) : undefined);
      const r = await http<{ seek: Seek; url: string }>('POST', '/api/seeks', {
        variant: fv.variant,
        time: timeOf(fv),
        color: fv.color,
        nickname: nick.value.trim() || undefined,
        private: priv,
        rated: rated.checked,
        rating_min: range(ratingMin),
        rating_max: range(ratingMax),
      });
      if (priv) navigate(r.url);
      else showWaiting(r.seek);
      refresh();
    } catch (e) {
      msg.textContent = errorText(e);
    }
  };
  const playComputer = async () => {
    const fv = comp.values(Number(level.value));
    saveForm(COMPUTER_KEY, fv);
    setNickname(nick.value);
    cmsg.textContent = '';
    try {
      const r = await api.computer({
        variant: fv.variant,
        level: fv.level,
        color: fv.color,
        time: timeOf(fv),
        nickname: nick.value.trim() || undefined,
      });
      navigate(`/game/${r.game}`);
    } catch (e) {
      cmsg.textContent = errorText(e);
    }
  };

  const showWaiting = (seek: Seek) => {
    clear(waiting);
    waiting.hidden = false;
    const cancel = el('button', { type: 'button', class: 'btn', 'data-action': 'cancel-seek' }, t('lobby.cancel'));
    cancel.addEventListener('click', async () => {
      try {
        await api.cancelSeek(seek.id);
      } catch {
        /* already gone */
      }
      waiting.hidden = true;
      refresh();
    });
    waiting.append(
      el('div', { class: 'spinner', 'aria-hidden': 'true' }),
      el('div', {}, t('lobby.yourSeek', { what: `${t(variantKey(seek.variant))} ${formatTime(seek.time)}` })),
      el('div', {}, t('lobby.waiting')),
      el('div', { class: 'hint' }, t('lobby.sameBrowser')),
      cancel,
    );
  };

  const b = (label: string, action: string, f: () => void, cls = 'btn') => {
    const x = el('button', { type: 'button', class: cls, 'data-action': action }, label);
    x.addEventListener('click', f);
    return x;
  };

  const form = el(
    'section',
    { class: 'panel create', 'aria-labelledby': 'create-title' },
    el('h2', { id: 'create-title' }, t('lobby.create')),
    ...people.fields,
    ...ratedFields,
    field(t('lobby.nickname'), nick),
    el(
      'div',
      { class: 'actions' },
      b(t('lobby.seek'), 'create-seek', () => void createSeek(false), 'btn primary'),
      b(t('lobby.challenge'), 'create-challenge', () => void createSeek(true)),
    ),
    msg,
    waiting,
  );
  const computerForm = el(
    'section',
    { class: 'panel computer-form', 'aria-labelledby': 'computer-title' },
    el('h2', { id: 'computer-title' }, t('lobby.computerTitle')),
    ...comp.fields,
    field(t('lobby.level'), level),
    el('div', { class: 'actions' }, b(t('lobby.computer'), 'play-computer', () => void playComputer(), 'btn primary')),
    cmsg,
  );

  // ---- lists
  const seeksBox = el('div', { class: 'seek-list' });
  const liveBox = el('div', { class: 'game-list live' });
  const live = new LiveGames(liveBox);
  const doneBox = el('div', { class: 'game-list finished' });
  const lists = el(
    'div',
    { class: 'lobby-lists' },
    el('section', { class: 'panel' }, el('h2', {}, t('lobby.openSeeks')), seeksBox),
    el('section', { class: 'panel' }, el('h2', {}, t('lobby.liveGames')), liveBox),
    el('section', { class: 'panel' }, el('h2', {}, t('lobby.finishedGames')), doneBox),
  );
  const s = ws();
  const pools = poolsPanel(s, () => (page.querySelector<HTMLSelectElement>('#f-variant')?.value ?? v.variant) as Variant);
  const chat = new ChatPanel(undefined);
  const turns = yourTurnPanel();
  lists.prepend(turns.element);
  page.append(el('div', { class: 'lobby-forms' }, pools.panel, form, computerForm, chat.element), lists);
  page.querySelector('#f-variant')?.addEventListener('change', pools.refresh);

  // Each seek keeps its row while what the row shows is unchanged: the
  // first answer (HTTP), the socket's snapshot and its deltas each draw the
  // list, with the same seeks written differently, and a click on "Accept"
  // that came while its button was replaced was lost (every lobby message
  // used to redraw them all).
  const seekHead = el(
    'div',
    { class: 'seek seek-head', 'aria-hidden': 'true' },
    el('span', { class: 'who' }, t('lobby.player')),
    el('span', { class: 'variant' }, t('lobby.variant')),
    el('span', { class: 'tc' }, t('lobby.time')),
    el('span', { class: 'col' }, t('lobby.seekColumn')),
    el('span', { class: 'act' }, ''),
  );
  const noSeeks = el('p', { class: 'empty' }, t('lobby.noSeeks'));
  const seekRows = new Map<string, { row: HTMLElement; shown: string }>();
  /** What a seek's row shows: a row is drawn again only when this changes. */
  const seekShown = (s: Seek): string => {
    const r = s as RatedSeek;
    return JSON.stringify([s.nickname, s.variant, s.time, s.color, s.mine, r.rated ?? false, r.rating ?? null, r.provisional ?? false]);
  };
  const seekRow = (s: Seek): HTMLElement => {
    const row = el(
      'div',
      { class: `seek${s.mine ? ' mine' : ''}`, 'data-seek': s.id },
      el('span', { class: 'who' }, seatName({ name: s.nickname, computer: false, level: null, rating: (s as RatedSeek).rating, provisional: (s as RatedSeek).provisional })),
      el('span', { class: 'variant' }, t(variantKey(s.variant))),
      el('span', { class: 'tc' }, (s as RatedSeek).rated ? `${formatTime(s.time)} · ${t('lobby.ratedMark')}` : formatTime(s.time)),
      el(
        'span',
        { class: 'col', title: t('lobby.seekColumn') },
        el('span', { class: 'sr-only' }, `${t('lobby.seekColumn')} `),
        s.color === 'random' ? t('color.random') : t(`color.${s.color}`),
      ),
    );
    if (s.mine) {
      row.appendChild(
        b(t('lobby.cancel'), 'cancel-seek', async () => {
          await api.cancelSeek(s.id).catch(() => undefined);
          waiting.hidden = true;
          refresh();
        }),
      );
    } else {
      row.appendChild(
        b(t('lobby.accept'), 'accept-seek', async () => {
          setNickname(nick.value);
          try {
            const r = await api.acceptSeek(s.id, nick.value.trim() || undefined);
            navigate(`/game/${r.game}`);
          } catch (e) {
            msg.textContent = errorText(e);
            refresh();
          }
        }, 'btn primary'),
      );
    }
    return row;
  };
  const renderLobby = (lobby: Lobby) => {
    live.render(lobby.games);
    if (!lobby.seeks.length) {
      clear(seeksBox);
      seekRows.clear();
      seeksBox.appendChild(noSeeks);
      return;
    }
    noSeeks.remove();
    if (seeksBox.firstChild !== seekHead) seeksBox.prepend(seekHead);
    const seen = new Set<string>();
    let previous: Element = seekHead;
    for (const s of lobby.seeks) {
      seen.add(s.id);
      const shown = seekShown(s);
      let kept = seekRows.get(s.id);
      if (!kept || kept.shown !== shown) {
        const row = seekRow(s);
        kept?.row.remove();
        kept = { row, shown };
        seekRows.set(s.id, kept);
      }
      // in the server's order; a row already in its place is not moved
      if (previous.nextElementSibling !== kept.row) previous.after(kept.row);
      previous = kept.row;
    }
    for (const [id, kept] of seekRows)
      if (!seen.has(id)) {
        kept.row.remove();
        seekRows.delete(id);
      }
  };

  const refresh = () => {
    api.lobby().then(renderLobby, () => undefined);
    api.games('finished', 15).then(
      r => renderGames(doneBox, r.games, t('lobby.noFinishedGames'), t('lobby.view')),
      () => renderGames(doneBox, [], t('lobby.noFinishedGames'), t('lobby.view')),
    );
  };

  // every lobby message from the server is handled here, in one place
  const onLobbyMessage = (m: LobbyView) => renderLobby(m);
  const offs = [s.on('lobby', onLobbyMessage)];
  s.subscribeLobby(true);
  refresh();
  return () => {
    live.destroy();
    pools.destroy();
    offUser();
    chat.destroy();
    turns.destroy();
    s.subscribeLobby(false);
    offs.forEach(f => f());
  };
}

function renderGames(box: HTMLElement, games: GameSummary[], empty: string, action: string): void {
  clear(box);
  if (!games.length) box.appendChild(el('p', { class: 'empty' }, empty));
  for (const g of games) {
    const res = g.status === 'over' ? resultTitle(g.result, g.termination) : '';
    box.appendChild(
      el(
        'a',
        { class: 'game-row', href: `/game/${g.id}`, 'data-link': '', 'data-game': g.id },
        el('span', { class: 'variant' }, t(variantKey(g.variant))),
        el('span', { class: 'tc' }, formatTime(g.time)),
        el('span', { class: 'players' }, `${seatName(g.white)} – ${seatName(g.black)}`),
        el('span', { class: 'res' }, res || `${Math.ceil(g.ply / 2)}…`),
        el('span', { class: 'go' }, action),
      ),
    );
  }
}

export function challengePage(root: HTMLElement, id: string): () => void {
  const box = el('section', { class: 'panel challenge' });
  root.appendChild(box);
  let poll: number | undefined;
  let position: ChallengePosition | null = null;
  const show = async () => {
    let seek: Seek;
    try {
      seek = (await api.seek(id)).seek;
    } catch {
      clear(box);
      box.append(el('p', {}, t('game.notFound')), el('a', { href: '/', 'data-link': '' }, t('game.backToLobby')));
      return;
    }
    if (seek.game) {
      navigate(`/game/${seek.game}`, true);
      return;
    }
    position?.destroy();
    clear(box);
    const who = playerName({ name: seek.nickname, computer: false, level: null });
    box.append(
      el('h2', {}, `${t(variantKey(seek.variant))} · ${formatTime(seek.time)}`),
      el(
        'p',
        {},
        seek.mine ? '' : `${t('lobby.challengeFrom', { name: who })} · `,
        t('lobby.seekColor', { name: who, color: seek.color === 'random' ? t('color.random') : t(`color.${seek.color}`) }),
      ),
    );
    position = challengePosition(box, seek);
    if (seek.mine) {
      const url = `${location.origin}/challenge/${id}`;
      const input = el('input', { type: 'text', readonly: '', value: url, class: 'challenge-url' });
      const copy = el('button', { type: 'button', class: 'btn' }, t('lobby.copy'));
      copy.addEventListener('click', () => {
        input.select();
        void navigator.clipboard?.writeText(url).then(() => (copy.textContent = t('lobby.copied')), () => undefined);
      });
      const cancel = el('button', { type: 'button', class: 'btn', 'data-action': 'cancel-seek' }, t('lobby.cancel'));
      cancel.addEventListener('click', async () => {
        await api.cancelSeek(id).catch(() => undefined);
        navigate('/');
      });
      box.append(
        el('p', {}, t('lobby.challengeLink')),
        el('div', { class: 'row' }, input, copy),
        el('p', { class: 'hint' }, t('lobby.sameBrowser')),
        el('p', { class: 'waiting-text' }, t('lobby.waiting')),
        cancel,
      );
      poll = window.setTimeout(() => void show(), 3000);
    } else {
      const nick = el('input', { type: 'text', maxlength: '20', placeholder: t('lobby.nicknamePlaceholder'), value: nickname() });
      const accept = el('button', { type: 'button', class: 'btn primary', 'data-action': 'accept-seek' }, t('lobby.accept'));
      const msg = el('div', { class: 'form-msg' });
      accept.addEventListener('click', async () => {
        setNickname(nick.value);
        try {
          const r = await api.acceptSeek(id, nick.value.trim() || undefined);
          navigate(`/game/${r.game}`);
        } catch (e) {
          msg.textContent = errorText(e);
        }
      });
      box.append(field(t('lobby.nickname'), nick), accept, msg);
    }
  };
  void show();
  return () => {
    window.clearTimeout(poll);
    position?.destroy();
  };
}

/** Live games as cards with a small board (two for Alice), updated in place. */
class LiveGames {
  private cards = new Map<string, { card: HTMLElement; view: BoardView; fen: string; info: HTMLElement }>();
  private empty = el('p', { class: 'empty' }, t('lobby.noLiveGames'));

  constructor(private box: HTMLElement) {
    box.appendChild(this.empty);
  }

  render(games: GameSummary[]): void {
    const seen = new Set<string>();
    this.empty.hidden = games.length > 0;
    for (const g of games) {
      seen.add(g.id);
      let c = this.cards.get(g.id);
      if (!c) {
        const card = el('a', { class: `game-row game-card variant-${g.variant}`, href: `/game/${g.id}`, 'data-link': '', 'data-game': g.id });
        const mini = el('div', { class: 'mini' });
        const info = el('div', { class: 'card-info' });
        card.append(mini, info);
        this.box.appendChild(card);
        const view = new BoardView(mini, g.variant, { orientation: 'white', viewOnly: true, coordinates: false, labels: false });
        c = { card, view, fen: '', info };
        this.cards.set(g.id, c);
      } else this.box.appendChild(c.card); // keep the server's order
      if (c.fen !== g.fen) {
        c.fen = g.fen;
        c.view.update({ fen: g.fen, legal: [], canMove: false });
      }
      clear(c.info);
      c.info.append(
        el('span', { class: 'variant' }, `${t(variantKey(g.variant))} · ${formatTime(g.time)}`),
        el('span', { class: 'players' }, `${seatName(g.white)} – ${seatName(g.black)}`),
        el('span', { class: 'go' }, t('lobby.watch')),
      );
    }
    for (const [id, c] of this.cards)
      if (!seen.has(id)) {
        c.view.destroy();
        c.card.remove();
        this.cards.delete(id);
      }
  }

  destroy(): void {
    for (const c of this.cards.values()) c.view.destroy();
    this.cards.clear();
  }
}
