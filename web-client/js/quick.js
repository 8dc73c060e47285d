// The lobby's quick-pairing grid (issues #18, #33): one tile per preset of every game, grouped under the game's
// name, with its live "waiting / playing" counts, a click that seeks (the tile then searches, with cancel), a
// casual/rated switch, and a small form for a custom game of any game. The `paired` that ends a search is
// main.js's: it opens the room from any page.

import { h, mount } from './dom.js';
import { t, errorText } from './i18n.js';
import { href, parseRoute } from './router.js';
import { accounts } from './api.js';
import { describeTimeControl } from './clock.js';
import { CUSTOM, countsOf, presetSeek, customSeek, fetchPresets, groupByGame, optionWords } from './pairing.js';
import { memberOf } from './games/index.js';
import { gameFields, syncGameFields, balancedOpening } from './gameform.js';

/** A custom seek's game in words: the game's name and its options ("Othello · Japanese scoring"). */
const seekWords = (msg) => {
  const spec = msg.game || msg.rules;
  return [t(`game.${memberOf(msg).name}`), optionWords(spec)].filter(Boolean).join(' · ');
};

const RATED_KEY = 'gomoku.quick_rated';

// What we seek now ({preset, msg} while searching, else null) and the last counts: the lobby is rebuilt when the
// language changes, and a search must outlive that.
let seeking = null;
let counts = new Map();
// The server's presets once fetched (GET /api/quick); null until then.
let presets = null;

/** Builds the grid; returns {el, cleanup}. */
export function quickPairing(app) {
  let error = null;
  let rated = false;
  try {
    rated = localStorage.getItem(RATED_KEY) === 'rated';
  } catch {
    rated = false;
  }
  let customOpen = false;
  const grid = h('div', { class: 'quick-groups', id: 'quick-grid' });
  const errBox = h('p', { class: 'form-error', role: 'alert', id: 'quick-error' });
  const mode = h('div', { class: 'segs quick-mode', role: 'radiogroup', 'aria-label': t('quick.mode') });
  const customSlot = h('div', { class: 'quick-custom-slot' });
  const live = h('div', { class: 'live-games', id: 'live-games' });
  const el = h('section', { class: 'card quick', id: 'quick' },
    h('div', { class: 'card-head' }, h('h2', {}, t('quick.title')), mode),
    live, grid, errBox, customSlot);

  const guest = () => Boolean(app.you?.guest);

  const drawMode = () => {
    if (guest() && rated) rated = false;
    mount(mode, ['casual', 'rated'].map((m) => h('label', { class: 'seg', title: m === 'rated' && guest() ? t('create.rated_guest') : null },
      h('input', { type: 'radio', name: 'quick-mode', value: m, checked: (m === 'rated') === rated, disabled: m === 'rated' && guest() ? true : null, onchange: () => setRated(m === 'rated') }),
      h('span', {}, t(m === 'rated' ? 'create.rated' : 'create.casual')))));
  };

  const setRated = (r) => {
    rated = r;
    try {
      localStorage.setItem(RATED_KEY, r ? 'rated' : 'casual');
    } catch {
      // The choice lasts for this page only.
    }
    // A search under the other mode is a different pool: seek again under this one.
    if (seeking) seek(seeking.preset === CUSTOM ? { ...seeking.msg, rated } : presetSeek(seeking.preset, rated));
    draw();
  };

  const countLine = (id) => {
    const c = counts.get(id) || { waiting: 0, playing: 0 };
    return h('span', { class: 'quick-counts muted small', dataset: { counts: id } }, t('quick.counts', { waiting: c.waiting, playing: c.playing }));
  };

  const tile = (p) => {
    const searching = seeking?.preset === p.id;
    return h('button', {
      type: 'button',
      class: `quick-tile${searching ? ' searching' : ''}`,
      dataset: { preset: p.id },
      'aria-pressed': String(searching),
      onclick: () => (searching ? cancel() : seek(presetSeek(p.id, rated))),
    },
    h('span', { class: 'quick-tc' }, describeTimeControl(p.time_control, t)),
    h('span', { class: 'quick-rule' }, optionWords(p.game)),
    searching ? h('span', { class: 'quick-searching' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('quick.searching')) : countLine(p.id),
    searching ? h('span', { class: 'quick-cancel' }, t('quick.cancel')) : null);
  };

  const customTile = () => {
    const searching = seeking?.preset === CUSTOM;
    return h('button', {
      type: 'button',
      class: `quick-tile custom${searching ? ' searching' : ''}`,
      dataset: { preset: CUSTOM },
      'aria-pressed': String(searching),
      onclick: () => {
        if (searching) return cancel();
        customOpen = !customOpen;
        draw();
      },
    },
    h('span', { class: 'quick-tc' }, searching ? describeTimeControl(seeking.msg.time_control, t) : '＋'),
    h('span', { class: 'quick-rule' }, searching ? seekWords(seeking.msg) : t('quick.custom')),
    searching ? h('span', { class: 'quick-searching' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('quick.searching')) : countLine(CUSTOM),
    searching ? h('span', { class: 'quick-cancel' }, t('quick.cancel')) : null);
  };

  const customForm = () => {
    const seg = (name, options, value) => h('div', { class: 'segs', role: 'radiogroup' }, options.map(([v, l]) =>
      h('label', { class: 'seg' }, h('input', { type: 'radio', name, value: v, checked: v === value }), h('span', {}, l))));
    const field = (label, control, extra = {}) => h('div', { class: 'field', ...extra }, h('span', { class: 'flabel' }, label), control);
    const num = (name, value, min, max, step = 1) => h('input', { type: 'number', name, value, min, max, step, inputmode: 'numeric' });
    const form = h('form', { class: 'quick-custom', id: 'quick-custom' },
      gameFields({ seg, field }),
      field(t('create.time'), seg('tc', [['fischer', t('tc.fischer')], ['byo_yomi', t('tc.byoyomi')]], 'fischer')),
      h('div', { class: 'row', 'data-tc': 'fischer' }, field(t('create.base'), num('base', 7, 0.5, 180, 0.5)), field(t('create.increment'), num('increment', 5, 0, 120))),
      h('div', { class: 'row', 'data-tc': 'byo_yomi' }, field(t('create.base'), num('base_b', 5, 0, 180, 0.5)), field(t('create.periods'), num('periods', 3, 1, 30)), field(t('create.period'), num('period', 20, 5, 300))),
      h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'btn ghost', onclick: () => { customOpen = false; draw(); } }, t('create.cancel')),
        h('button', { type: 'submit', class: 'btn primary', id: 'quick-custom-seek' }, t('quick.seek'))));
    const values = () => {
      const v = Object.fromEntries(new FormData(form).entries());
      if (v.tc === 'byo_yomi') v.base = v.base_b;
      return v;
    };
    const sync = () => {
      const v = values();
      for (const x of form.querySelectorAll('[data-tc]')) x.hidden = v.tc !== x.dataset.tc;
      syncGameFields(form, v);
    };
    // The listener that checks the rule set's default opening is added first, so that `sync` sees it.
    balancedOpening(form);
    form.addEventListener('change', sync);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      customOpen = false;
      seek(customSeek({ ...values(), rated }));
    });
    sync();
    return form;
  };

  const drawLive = () => {
    const games = app.live?.games() || [];
    mount(live, games.map((g) => h('div', { class: 'live-game notice', dataset: { room: g.room } },
      h('span', {}, g.opponent ? t('quick.in_progress_vs', { name: g.opponent }) : t('quick.in_progress')),
      h('a', { class: 'btn small primary', href: href('room', { id: g.room }) }, t('quick.go_to_game')))));
  };

  const draw = () => {
    drawMode();
    drawLive();
    mount(grid,
      presets ? groupByGame(presets).map((g) => h('div', { class: 'quick-game', dataset: { game: g.game } },
        h('h3', { class: 'quick-game-name' }, t(`game.${g.game}`)),
        h('div', { class: 'quick-grid' }, g.presets.map(tile)))) : h('p', { class: 'muted small' }, t('conn.connecting')),
      h('div', { class: 'quick-game custom' }, h('div', { class: 'quick-grid' }, customTile())));
    errBox.textContent = '';
    if (error) {
      errBox.append(error.text);
      if (error.code === 'account_required') errBox.append(' ', h('a', { href: href('login') }, t('nav.login')));
    }
    if (customOpen && !customSlot.firstChild) mount(customSlot, customForm());
    if (!customOpen) mount(customSlot);
  };

  // The tiles come from the server (GET /api/quick), once per page; a failed fetch is tried again on the next
  // welcome (the connection is back).
  const loadPresets = () => {
    if (presets) return;
    fetchPresets().then((p) => {
      presets = p;
      if (error?.code === 'presets') error = null;
      draw();
    }, (e) => {
      error = { code: 'presets', text: errorText(e.code, e.message) };
      draw();
    });
  };

  const seek = async (msg) => {
    error = null;
    const previous = seeking;
    seeking = { preset: msg.preset, msg };
    draw();
    try {
      // One seek per connection: a search for another tile leaves the first queue before joining the next.
      if (previous) await app.conn.request({ t: 'cancel_quick' });
      await app.conn.request(msg);
    } catch (e) {
      if (e.code === 'disconnected') return; // the welcome seeks again
      if (seeking?.msg === msg) seeking = null;
      error = { code: e.code, text: e.code === 'account_required' ? t('quick.account_required') : errorText(e.code, e.message) };
      draw();
    }
  };

  const cancel = () => {
    seeking = null;
    draw();
    app.conn.request({ t: 'cancel_quick' }).catch(() => {});
  };

  const offs = [
    app.conn.on('quick_counts', (m) => {
      counts = countsOf(m);
      for (const c of grid.querySelectorAll('[data-counts]')) {
        const n = counts.get(c.dataset.counts) || { waiting: 0, playing: 0 };
        c.textContent = t('quick.counts', { waiting: n.waiting, playing: n.playing });
      }
    }),
    app.conn.on('paired', () => {
      seeking = null;
    }),
    // A new connection waits in no queue: seek again, and redraw for who we are now (a guest cannot seek rated).
    app.conn.on('welcome', () => {
      loadPresets();
      draw();
      if (seeking) {
        const msg = seeking.preset === CUSTOM ? { ...seeking.msg, rated: rated && !guest() } : presetSeek(seeking.preset, rated && !guest());
        seeking = { preset: msg.preset, msg };
        app.conn.request(msg).catch((e) => {
          seeking = null;
          error = { code: e.code, text: errorText(e.code, e.message) };
          draw();
        });
      }
    }),
  ];
  if (app.live) offs.push(app.live.on(drawLive));
  loadPresets();
  // The games remembered from before may have ended while we were away: their records say so.
  for (const g of app.live?.games() || []) {
    if (g.record == null) continue;
    accounts.game(g.record).then((rec) => rec?.result && app.live.drop(g.room), (e) => e.code === 'unknown_game' && app.live.drop(g.room));
  }
  draw();
  return {
    el,
    cleanup() {
      offs.forEach((off) => off());
      // Leaving the lobby ends the search; the lobby drawn again (another language) keeps it.
      if (seeking && parseRoute(location.hash).name !== 'lobby') {
        seeking = null;
        app.conn.request({ t: 'cancel_quick' }).catch(() => {});
      }
    },
  };
}
