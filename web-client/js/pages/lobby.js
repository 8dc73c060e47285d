// The lobby: open rooms to join, live games to watch (updated live), and the create-room form with every
// option the server has.

import { h, mount, toast } from '../dom.js';
import { t, tn, errorText, lang } from '../i18n.js';
import { accounts } from '../api.js';
import { href } from '../router.js';
import { describeTimeControl } from '../clock.js';
import { tierBadge } from '../tier.js';
import { playerName } from '../player.js';
import { GAMES, DEFAULT_GAME, memberOf, gameChoices, gameName, seatIcon } from '../games/index.js';
import { quickPairing } from '../quick.js';
import { friendsPanel } from '../community.js';
import { gameList } from './rules.js';
import { RANGE_CHOICES, poolOfSpec, ratingIn, rangeFromForm, seatVerdict } from '../seek.js';

/** Folds lobby messages into a list of rooms (pure; newest first as the server sends them). */
export function lobbyReduce(rooms, msg) {
  if (msg.t === 'lobby') return msg.rooms;
  if (msg.t === 'lobby_room') {
    const i = rooms.findIndex((r) => r.id === msg.room.id);
    if (i < 0) return [msg.room, ...rooms];
    const next = rooms.slice();
    next[i] = msg.room;
    return next;
  }
  if (msg.t === 'lobby_room_removed') return rooms.filter((r) => r.id !== msg.id);
  return rooms;
}

/**
 * The options a create_room message carries, read from the form's values (pure, for tests). The chosen game
 * (`v.game`, the default game when absent) gives its part (Gomoku's `rules`, another game's `game` spec); the
 * clock, rating, visibility and colour are every game's.
 */
export function createOptions(v, games = GAMES, ratings = []) {
  const spec = (games[v.game] || games[DEFAULT_GAME]).createSpec(v);
  let time_control = { kind: 'none' };
  const min = (x) => Math.round(Number(x) * 60_000);
  const sec = (x) => Math.round(Number(x) * 1000);
  if (v.tc === 'fischer') time_control = { kind: 'fischer', base_ms: min(v.base), increment_ms: sec(v.increment) };
  if (v.tc === 'byo_yomi') {
    time_control = { kind: 'byo_yomi', base_ms: min(v.base), periods: Number(v.periods), period_ms: sec(v.period) };
  }
  const options = { ...spec, time_control, rated: v.rated === 'rated', public: v.visibility !== 'private', colour: v.colour };
  // Issue #18: a seek may admit only ratings in a range, around one's own rating in the room's pool or explicit.
  const range = rangeFromForm(v, ratingIn(ratings, poolOfSpec(spec)));
  if (range) options.rating_range = range;
  return options;
}

/**
 * The games the computer form offers: the members of the games GET /api/computer lists in `plays` (in the create
 * form's order, the default first), the default game alone while that is unknown (the server unreachable).
 */
export function computerGames(info, games = GAMES) {
  if (!Array.isArray(info?.plays)) return [games[DEFAULT_GAME]];
  const played = new Set(info.plays.map((p) => p.game));
  const choices = gameChoices(games).filter((g) => played.has(g.name));
  return choices.length ? choices : [games[DEFAULT_GAME]];
}

/** The strongest level the computer plays `game` at, as GET /api/computer says (8 while that is unknown). */
export function maxLevel(info, game = DEFAULT_GAME) {
  const entry = (info?.plays || []).find((p) => p.game === game);
  return Math.max(1, Number(entry?.max_level) || 8);
}

/**
 * The play_computer message from the computer form's values (pure, for tests): the chosen game's part (Gomoku's
 * `rules`, another game's `game` spec; the default game when the computer does not play the chosen one), the
 * clock and the colour as create_room takes them, and the level (1 up to the game's strongest); never rated, and
 * public as the server makes every game by default (issue #36).
 */
export function computerOptions(v, games = GAMES, info = null) {
  const game = computerGames(info, games).some((g) => g.name === v.game) ? v.game : DEFAULT_GAME;
  const { rated: _rated, public: _public, rating_range: _range, ...rest } = createOptions({ ...v, game, range: 'any' }, games);
  return { ...rest, level: Math.min(maxLevel(info, game), Math.max(1, Number(v.level) || 1)) };
}

/**
 * The level choices of the computer form: [level, label] for 1 up to `max` (8), labelled as GET /api/computer
 * says in the page's language (`en` / `zh`), else with our own words.
 */
export function levelChoices(info, language = 'en', max = 8) {
  const byLevel = new Map((info?.levels || []).map((l) => [l.level, l]));
  return Array.from({ length: max }, (_, i) => i + 1).map((n) => [n, byLevel.get(n)?.[language] || t('computer.label', { n })]);
}

/** A room's game and options in words, as its lobby row shows them (Gomoku: rule set, forbidden rule, size, opening). */
export function ruleLabel(row) {
  return memberOf(row).describe(row, { size: true });
}

/**
 * The create form's game choice: none while only one game is served (the form then looks as it always did),
 * else one button per served game, the default chosen.
 */
export function gameChoice(seg, field, games = GAMES) {
  const choices = gameChoices(games);
  if (choices.length < 2) return null;
  return field(t('create.game'), seg('game', choices.map((g) => [g.name, t(`game.${g.name}`)]), DEFAULT_GAME));
}

/** A player's name with rating and tier badge, as lobby and room show them; `p.game` (a wire name) colours the seat. */
export function playerChip(p) {
  return h(
    'span',
    { class: 'pchip' },
    p.colour ? seatIcon(p.game, p.colour, 'dot') : null,
    playerName(p, { class: 'pname' }),
    p.rating != null ? h('span', { class: 'rating' }, Math.round(p.rating) + (p.provisional ? '?' : '')) : null,
    tierBadge(p.tier, undefined, p.provisional),
  );
}

function radio(name, value, label, checked) {
  return h('label', { class: 'seg' }, h('input', { type: 'radio', name, value, checked }), h('span', {}, label));
}

function field(label, control, extra = {}) {
  return h('div', { class: 'field', ...extra }, h('span', { class: 'flabel' }, label), control);
}

/**
 * The create form, or with `computer` the "Play the computer" form: the same games' fields, clock and colour, plus
 * the level, without rating and visibility; its game choice holds the games the computer plays (GET /api/computer's
 * `plays`; none, so the default game, until that answers) and its levels run to the chosen game's strongest.
 */
function createForm(app, close, { computer = false } = {}) {
  const form = h('form', { class: `card create${computer ? ' computer' : ''}`, id: computer ? 'computer-form' : 'create-form' });
  const seg = (name, options, value) => h('div', { class: 'segs', role: 'radiogroup' }, options.map(([v, l]) => radio(name, v, l, v === value)));
  const num = (name, value, min, max, step = 1) => h('input', { type: 'number', name, value, min, max, step, inputmode: 'numeric' });
  const fischer = h('div', { class: 'row', 'data-tc': 'fischer' }, field(t('create.base'), num('base', 10, 0.5, 180, 0.5)), field(t('create.increment'), num('increment', 5, 0, 120)));
  const byo = h('div', { class: 'row', 'data-tc': 'byo_yomi' }, field(t('create.base'), num('base_b', 10, 0, 180, 0.5)), field(t('create.periods'), num('periods', 5, 1, 30)), field(t('create.period'), num('period', 30, 5, 300)));
  const err = h('p', { class: 'form-error', role: 'alert' });
  const level = h('select', { name: 'level', id: 'computer-level' }, levelChoices(null, lang()).map(([n, label]) => h('option', { value: n, selected: n === 1 }, label)));
  const busy = h('p', { class: 'hint warn', id: 'computer-busy', hidden: true }, t('err.computer_busy'));
  // One's standings, for a range around one's own rating (a guest counts 1500 everywhere).
  let ratings = [];
  const rangeHint = h('p', { class: 'hint', id: 'range-hint' });
  if (!computer && app.you && !app.you.guest) {
    accounts.me().then((me) => {
      ratings = me?.ratings || [];
      sync();
    }, () => {});
  }
  // What GET /api/computer said (its games, their strongest levels, the levels' labels), null until it answers.
  let info = null;
  const gameSlot = h('div', { class: 'computer-game', id: 'computer-game' });
  const fillLevels = () => {
    const chosen = Number(level.value) || 1;
    const max = maxLevel(info, values().game || DEFAULT_GAME);
    mount(level, levelChoices(info, lang(), max).map(([n, label]) => h('option', { value: n, selected: n === Math.min(chosen, max) }, label)));
  };
  if (computer) {
    // The games the computer plays, the labels the server gives its levels, and whether it has room for another
    // game now.
    accounts.computer().then((info_) => {
      info = info_;
      const only = Object.fromEntries(computerGames(info).map((g) => [g.name, g]));
      mount(gameSlot, gameChoice(seg, field, only));
      busy.hidden = !info?.busy;
      fillLevels();
      sync();
    }, () => {});
  }
  const games = Object.values(GAMES).filter((g) => g.served);
  mount(
    form,
    h('h2', {}, t(computer ? 'computer.title' : 'create.title')),
    computer ? [h('p', { class: 'muted small' }, t('computer.intro')), gameSlot] : gameChoice(seg, field),
    // Each game's own fields, shown while it is the chosen one.
    games.map((g) => h('div', { class: 'game-fields', dataset: { game: g.name } }, g.createFields({ seg, field }))),
    computer ? field(t('computer.level_field'), level) : null,
    field(t('create.time'), seg('tc', [['none', t('tc.none')], ['fischer', t('tc.fischer')], ['byo_yomi', t('tc.byoyomi')]], 'fischer')),
    fischer,
    byo,
    computer ? null : h('div', { class: 'row' },
      field(t('create.rated'), seg('rated', [['casual', t('create.casual')], ['rated', t('create.rated')]], 'casual')),
      field(t('create.visibility'), seg('visibility', [['public', t('create.public')], ['private', t('create.private')]], 'public')),
    ),
    field(t('create.colour'), seg('colour', [['black', t('colour.black')], ['white', t('colour.white')], ['random', t('colour.random')]], 'black')),
    computer ? null : field(t('seek.range'), h('div', { class: 'range-field' },
      seg('range', RANGE_CHOICES.map((c) => [c, c === 'any' ? t('seek.any') : c === 'custom' ? t('seek.custom') : `±${c}`]), 'any'),
      h('div', { class: 'row range-custom', 'data-range': 'custom' },
        field(t('seek.min'), num('range_min', 1300, 0, 4000, 1)), field(t('seek.max'), num('range_max', 1700, 0, 4000, 1))),
      rangeHint), { id: 'range-field' }),
    // A guest cannot play rated: the choice is not offered, and one sentence (with the way to an account) says why.
    computer ? h('p', { class: 'hint' }, t('computer.unrated_note')) : h('p', { class: 'hint', id: 'rated-guest', 'data-guest-only': '' }, t('create.rated_guest'), ' ', h('a', { href: href('login') }, t('nav.login'))),
    computer ? busy : null,
    err,
    h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'btn ghost', onclick: close }, t('create.cancel')),
      h('button', { type: 'submit', class: 'btn primary', id: computer ? 'computer-submit' : 'create-submit' }, t(computer ? 'computer.submit' : 'create.submit')),
    ),
  );
  const values = () => {
    const fd = new FormData(form);
    const v = Object.fromEntries(fd.entries());
    if (v.tc === 'byo_yomi') v.base = v.base_b;
    return v;
  };
  const sync = () => {
    const v = values();
    for (const el of form.querySelectorAll('.game-fields')) {
      el.hidden = el.dataset.game !== (v.game || DEFAULT_GAME);
      GAMES[el.dataset.game].syncFields(el, v);
    }
    for (const el of form.querySelectorAll('[data-tc]')) el.hidden = v.tc !== el.dataset.tc;
    for (const el of form.querySelectorAll('[data-range]')) el.hidden = v.range !== el.dataset.range;
    if (computer && level.options.length !== maxLevel(info, v.game || DEFAULT_GAME)) fillLevels();
    if (!computer) {
      const games = GAMES[v.game] || GAMES[DEFAULT_GAME];
      const mine = ratingIn(ratings, poolOfSpec(games.createSpec(v)));
      let range = null;
      try {
        range = rangeFromForm(v, mine);
      } catch {
        range = null;
      }
      rangeHint.textContent = `${t('seek.yours', { r: mine })}${range ? ` · ${t('seek.admits', range)}` : ''}`;
    }
    const guest = Boolean(app.you?.guest);
    for (const el of form.querySelectorAll('[data-guest-only]')) el.hidden = !guest;
    const rated = form.querySelector('input[name="rated"][value="rated"]');
    if (!rated) return;
    rated.disabled = guest;
    if (guest && rated.checked) form.querySelector('input[name="rated"][value="casual"]').checked = true;
  };
  form.addEventListener('change', sync);
  // The range's bounds are typed: the hint follows each keystroke.
  form.addEventListener('input', (e) => { if (e.target.name === 'range_min' || e.target.name === 'range_max') sync(); });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    err.textContent = '';
    const button = form.querySelector('button[type="submit"]');
    button.disabled = true;
    try {
      const reply = computer
        ? await app.conn.create(computerOptions(values(), GAMES, info), 'play_computer')
        : await app.conn.create(createOptions(values(), GAMES, ratings));
      app.navigate(href('room', { id: reply.room.id }));
    } catch (ex) {
      err.textContent = errorText(ex.code, ex.message);
      if (ex.code === 'computer_busy') busy.hidden = false;
    } finally {
      button.disabled = false;
    }
  });
  sync();
  // Who we are may be learnt (or change, after a sign-in elsewhere) while the form is open.
  form.sync = sync;
  return form;
}

/**
 * Issue #36: the lobby's live games (every room being played) as the list shows them: the top-rated game of each
 * game (both players rated, the higher mean) first and marked `top`, then the others in the lobby's order (newest
 * first). [{ room, top }].
 */
export function liveGames(rooms) {
  const playing = rooms.filter((r) => r.state !== 'waiting');
  const strength = (r) => {
    const rs = r.players.map((p) => p.rating).filter((x) => typeof x === 'number');
    return rs.length === 2 ? (rs[0] + rs[1]) / 2 : null;
  };
  const best = new Map();
  for (const r of playing) {
    const s = strength(r);
    const kind = memberOf(r).name;
    if (s != null && !(best.get(kind)?.s >= s)) best.set(kind, { r, s });
  }
  const tops = new Set([...best.values()].map((b) => b.r));
  return [...playing.filter((r) => tops.has(r)), ...playing.filter((r) => !tops.has(r))].map((room) => ({ room, top: tops.has(room) }));
}

/** Mounts the lobby page; returns its cleanup. */
export function render(view, _params, app) {
  let rooms = [];
  let loaded = false;
  const formSlot = h('div', { class: 'form-slot' });
  const waiting = h('div', { class: 'rooms', id: 'waiting-rooms' });
  const live = h('div', { class: 'rooms', id: 'live-rooms' });
  const players = h('div', { class: 'players', id: 'lobby-players' });
  // The create and computer forms open as a dialog over the page, wherever it is scrolled (inline they opened
  // below the quick-pairing tiles, out of sight on a laptop's screen and a phone's).
  const openForm = (opts) => {
    const close = () => mount(formSlot);
    const form = createForm(app, close, opts);
    const dialog = h('div', {
      class: 'modal', id: opts?.computer ? 'computer-dialog' : 'create-dialog', role: 'dialog', 'aria-modal': 'true',
      'aria-label': t(opts?.computer ? 'computer.title' : 'create.title'),
      onclick: (e) => e.target === dialog && close(),
      onkeydown: (e) => e.key === 'Escape' && close(),
    }, form);
    mount(formSlot, dialog);
    form.querySelector('input:checked, input')?.focus();
  };
  const quick = quickPairing(app);
  const friends = friendsPanel(app);
  const code = h('input', { type: 'text', name: 'code', placeholder: t('lobby.goto'), 'aria-label': t('lobby.goto'), autocomplete: 'off' });
  mount(
    view,
    h('section', { class: 'hero' },
      h('div', { class: 'hero-text' },
        h('h1', {}, t('app.name')),
        h('p', { class: 'tagline' }, t('app.tagline')),
      ),
      h('div', { class: 'hero-actions' },
        h('button', { class: 'btn primary big', id: 'new-game', type: 'button', onclick: () => openForm() }, t('lobby.create')),
        h('button', { class: 'btn big', id: 'play-computer', type: 'button', onclick: () => openForm({ computer: true }) }, t('computer.play')),
        h('form', { class: 'goto', onsubmit: (e) => { e.preventDefault(); const id = code.value.trim().replace(/^.*#\/room\//, ''); if (id) app.navigate(href('room', { id })); } },
          code, h('button', { class: 'btn', type: 'submit' }, t('lobby.go'))),
      ),
    ),
    // Every game the site plays, each with a line on what it is and the way to its rules.
    h('section', { class: 'games-strip', id: 'lobby-games', 'aria-label': t('lobby.games') }, gameList()),
    quick.el,
    formSlot,
    h('div', { class: 'lobby-grid' },
      h('section', { class: 'card' }, h('h2', {}, t('lobby.waiting')), waiting),
      h('section', { class: 'card' }, h('h2', {}, t('lobby.live')), live),
      h('section', { class: 'card side' }, h('h2', {}, t('lobby.players_online')), players, friends.el),
    ),
  );

  // Our standings, to tell which ranged seeks admit us (a guest, or before they come: 1500 everywhere).
  let myRatings = [];
  const loadRatings = () => {
    if (!app.you || app.you.guest) {
      myRatings = [];
      draw();
      return;
    }
    accounts.me().then((me) => {
      myRatings = me?.ratings || [];
      draw();
    }, () => {});
  };
  const row = (r, top = false) => {
    const playing = r.state === 'playing';
    // Issue #18: a seek with a rating range says it, and one whose range leaves us out is greyed with the reason.
    const verdict = !playing && r.rating_range ? seatVerdict(r, app.you, myRatings) : null;
    const outside = verdict && !verdict.ok;
    return h('div', { class: `room-row${outside ? ' outside' : ''}`, dataset: { room: r.id, state: r.state } },
      h('div', { class: 'room-main' },
        h('div', { class: 'room-rules' }, ruleLabel(r), r.rated ? h('span', { class: 'badge rated' }, t('create.rated')) : h('span', { class: 'badge' }, t('create.casual')),
          r.rating_range ? h('span', { class: 'badge range' }, t('seek.badge', r.rating_range)) : null,
          top ? h('span', { class: 'badge top', title: t('lobby.top_hint') }, t('lobby.top')) : null),
        h('div', { class: 'room-players' }, r.players.map((p) => playerChip({ ...p, game: gameName(r) }))),
        outside ? h('div', { class: 'small muted range-reason' }, t('seek.outside', { r: verdict.rating, ...verdict.range })) : null,
      ),
      h('div', { class: 'room-meta' },
        h('span', { class: 'tc' }, describeTimeControl(r.time_control, t)),
        playing && r.spectators ? h('span', { class: 'muted' }, t('lobby.spectators', { n: r.spectators })) : null,
      ),
      h('a', { class: `btn ${playing ? '' : 'primary'}`, href: href('room', { id: r.id, watch: playing }) }, playing ? t('lobby.watch') : t('lobby.join')),
    );
  };

  let online = 0;
  // How many public rooms exist: the server sends only its newest ones.
  let total = null;
  const draw = () => {
    if (!loaded) {
      mount(waiting, h('p', { class: 'muted' }, t('conn.connecting')));
      return;
    }
    const w = rooms.filter((r) => r.state === 'waiting');
    const l = liveGames(rooms);
    mount(waiting, w.length ? w.map((r) => row(r)) : h('p', { class: 'empty' }, t('lobby.none_waiting')));
    mount(live, l.length ? l.map((x) => row(x.room, x.top)) : h('p', { class: 'empty' }, t('lobby.none_live')),
      total != null && total > rooms.length ? h('p', { class: 'muted', id: 'lobby-more' }, t('lobby.newest_of', { n: rooms.length, total })) : null);
    const seen = new Map();
    for (const r of rooms) for (const p of r.players) seen.set(p.name, p);
    mount(players,
      h('p', { class: 'online', id: 'online-count' }, tn('lobby.online_now', online)),
      h('p', { class: 'muted' }, t('lobby.online', { n: seen.size })),
      h('div', { class: 'plist' }, [...seen.values()].map((p) => playerChip({ ...p, colour: '' }))),
    );
  };
  draw();

  const offs = ['lobby', 'lobby_room', 'lobby_room_removed', 'lobby_online'].map((type) =>
    app.conn.on(type, (msg) => {
      rooms = lobbyReduce(rooms, msg);
      if (typeof msg.online === 'number') online = msg.online;
      if (msg.t === 'lobby') total = typeof msg.total === 'number' ? msg.total : null;
      loaded = true;
      draw();
    }),
  );
  offs.push(app.conn.on('welcome', () => {
    formSlot.querySelector('form')?.sync?.();
    loadRatings();
  }));
  if (app.you) loadRatings();
  app.conn.subscribeLobby().catch((e) => {
    if (e.code !== 'disconnected') toast(errorText(e.code, e.message), 'error');
  });
  return () => {
    offs.forEach((off) => off());
    quick.cleanup();
    friends.cleanup();
    app.conn.unsubscribeLobby();
  };
}
