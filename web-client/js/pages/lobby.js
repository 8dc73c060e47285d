// The lobby: open rooms to join, live games to watch (updated live), and the create-room form with every
// option the server has.

import { h, mount, toast } from '../dom.js';
import { t, tn, errorText } from '../i18n.js';
import { href } from '../router.js';
import { describeTimeControl } from '../clock.js';
import { tierBadge } from '../tier.js';
import { playerName } from '../player.js';
import { renderBoard } from '../board.js';

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

/** The options a create_room message carries, read from the form's values (pure, for tests). */
export function createOptions(v) {
  const rules = { size: Number(v.size) || 15, rule_set: v.rule_set };
  if (v.rule_set === 'renju') {
    rules.size = 15;
    rules.forbidden_policy = v.forbidden_policy;
  }
  rules.opening = v.opening;
  let time_control = { kind: 'none' };
  const min = (x) => Math.round(Number(x) * 60_000);
  const sec = (x) => Math.round(Number(x) * 1000);
  if (v.tc === 'fischer') time_control = { kind: 'fischer', base_ms: min(v.base), increment_ms: sec(v.increment) };
  if (v.tc === 'byo_yomi') {
    time_control = { kind: 'byo_yomi', base_ms: min(v.base), periods: Number(v.periods), period_ms: sec(v.period) };
  }
  return { rules, time_control, rated: v.rated === 'rated', public: v.visibility !== 'private', colour: v.colour };
}

/** A room's rules in words, as its lobby row shows them: the rule set, the forbidden-move rule, size, opening. */
export function ruleLabel(rules) {
  const parts = [t(`rule.${rules.rule_set}`)];
  if (rules.rule_set === 'renju' && rules.forbidden_policy) parts.push(t(`policy_long.${rules.forbidden_policy}`));
  if (rules.size && rules.size !== 15) parts.push(`${rules.size}×${rules.size}`);
  if (rules.opening && rules.opening !== 'none') parts.push(t(`opening.${rules.opening}`));
  return parts.join(' · ');
}

/** A player's name with rating and tier badge, as lobby and room show them. */
export function playerChip(p) {
  return h(
    'span',
    { class: 'pchip' },
    p.colour ? h('span', { class: `dot ${p.colour}` }) : null,
    playerName(p, { class: 'pname' }),
    p.rating != null ? h('span', { class: 'rating' }, Math.round(p.rating) + (p.provisional ? '?' : '')) : null,
    tierBadge(p.tier),
  );
}

function radio(name, value, label, checked) {
  return h('label', { class: 'seg' }, h('input', { type: 'radio', name, value, checked }), h('span', {}, label));
}

function field(label, control, extra = {}) {
  return h('div', { class: 'field', ...extra }, h('span', { class: 'flabel' }, label), control);
}

function createForm(app, close) {
  const form = h('form', { class: 'card create', id: 'create-form' });
  const seg = (name, options, value) => h('div', { class: 'segs', role: 'radiogroup' }, options.map(([v, l]) => radio(name, v, l, v === value)));
  const num = (name, value, min, max, step = 1) => h('input', { type: 'number', name, value, min, max, step, inputmode: 'numeric' });
  const renjuOnly = field(t('create.forbidden'), seg('forbidden_policy', [['reject', t('policy.reject')], ['lose', t('policy.lose')], ['claim', t('policy.claim')]], 'reject'), { 'data-show': 'renju' });
  const fischer = h('div', { class: 'row', 'data-tc': 'fischer' }, field(t('create.base'), num('base', 10, 0.5, 180, 0.5)), field(t('create.increment'), num('increment', 5, 0, 120)));
  const byo = h('div', { class: 'row', 'data-tc': 'byo_yomi' }, field(t('create.base'), num('base_b', 10, 0, 180, 0.5)), field(t('create.periods'), num('periods', 5, 1, 30)), field(t('create.period'), num('period', 30, 5, 300)));
  const err = h('p', { class: 'form-error', role: 'alert' });
  mount(
    form,
    h('h2', {}, t('create.title')),
    field(t('create.rule_set'), seg('rule_set', [['renju', t('rule.renju')], ['freestyle', t('rule.freestyle')], ['standard', t('rule.standard')]], 'renju')),
    renjuOnly,
    field(t('create.opening'), seg('opening', [['none', t('opening.none')], ['swap_after_three', t('opening.swap_after_three')], ['swap_after_three_fifth_two_options', t('opening.swap_after_three_fifth_two_options')]], 'swap_after_three')),
    field(t('create.size'), seg('size', [['15', '15×15'], ['19', '19×19']], '15'), { 'data-hide': 'renju' }),
    field(t('create.time'), seg('tc', [['none', t('tc.none')], ['fischer', t('tc.fischer')], ['byo_yomi', t('tc.byoyomi')]], 'fischer')),
    fischer,
    byo,
    h('div', { class: 'row' },
      field(t('create.rated'), seg('rated', [['casual', t('create.casual')], ['rated', t('create.rated')]], 'casual')),
      field(t('create.visibility'), seg('visibility', [['public', t('create.public')], ['private', t('create.private')]], 'public')),
    ),
    field(t('create.colour'), seg('colour', [['black', t('colour.black')], ['white', t('colour.white')], ['random', t('colour.random')]], 'black')),
    // A guest cannot play rated: the choice is not offered, and one sentence (with the way to an account) says why.
    h('p', { class: 'hint', id: 'rated-guest', 'data-guest-only': '' }, t('create.rated_guest'), ' ', h('a', { href: href('login') }, t('nav.login'))),
    err,
    h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'btn ghost', onclick: close }, t('create.cancel')),
      h('button', { type: 'submit', class: 'btn primary', id: 'create-submit' }, t('create.submit')),
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
    for (const el of form.querySelectorAll('[data-show]')) el.hidden = v.rule_set !== el.dataset.show;
    for (const el of form.querySelectorAll('[data-hide]')) el.hidden = v.rule_set === el.dataset.hide;
    for (const el of form.querySelectorAll('[data-tc]')) el.hidden = v.tc !== el.dataset.tc;
    const guest = Boolean(app.you?.guest);
    for (const el of form.querySelectorAll('[data-guest-only]')) el.hidden = !guest;
    const rated = form.querySelector('input[name="rated"][value="rated"]');
    rated.disabled = guest;
    if (guest && rated.checked) form.querySelector('input[name="rated"][value="casual"]').checked = true;
  };
  form.addEventListener('change', sync);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    err.textContent = '';
    const button = form.querySelector('#create-submit');
    button.disabled = true;
    try {
      const reply = await app.conn.create(createOptions(values()));
      app.navigate(href('room', { id: reply.room.id }));
    } catch (ex) {
      err.textContent = errorText(ex.code, ex.message);
    } finally {
      button.disabled = false;
    }
  });
  sync();
  // Who we are may be learnt (or change, after a sign-in elsewhere) while the form is open.
  form.sync = sync;
  return form;
}

/** A small board with a finished diagonal five: the lobby's emblem, drawn by the same code as real boards. */
function heroArt() {
  const art = h('div', { class: 'hero-art', 'aria-hidden': 'true' });
  art.innerHTML = renderBoard({
    size: 7,
    coords: false,
    moves: ['b2', 'c5', 'c3', 'd5', 'd4', 'e3', 'e5', 'f4', 'f6'],
  });
  return art;
}

/** Mounts the lobby page; returns its cleanup. */
export function render(view, _params, app) {
  let rooms = [];
  let loaded = false;
  const formSlot = h('div', { class: 'form-slot' });
  const waiting = h('div', { class: 'rooms', id: 'waiting-rooms' });
  const live = h('div', { class: 'rooms', id: 'live-rooms' });
  const players = h('div', { class: 'players', id: 'lobby-players' });
  const openForm = () => {
    mount(formSlot, createForm(app, () => mount(formSlot)));
    formSlot.querySelector('input')?.focus();
  };
  const code = h('input', { type: 'text', name: 'code', placeholder: t('lobby.goto'), 'aria-label': t('lobby.goto'), autocomplete: 'off' });
  mount(
    view,
    h('section', { class: 'hero' },
      heroArt(),
      h('div', { class: 'hero-text' },
        h('h1', {}, t('app.name')),
        h('p', { class: 'tagline' }, t('app.tagline')),
      ),
      h('div', { class: 'hero-actions' },
        h('button', { class: 'btn primary big', id: 'new-game', type: 'button', onclick: openForm }, t('lobby.create')),
        h('form', { class: 'goto', onsubmit: (e) => { e.preventDefault(); const id = code.value.trim().replace(/^.*#\/room\//, ''); if (id) app.navigate(href('room', { id })); } },
          code, h('button', { class: 'btn', type: 'submit' }, t('lobby.go'))),
      ),
    ),
    formSlot,
    h('div', { class: 'lobby-grid' },
      h('section', { class: 'card' }, h('h2', {}, t('lobby.waiting')), waiting),
      h('section', { class: 'card' }, h('h2', {}, t('lobby.live')), live),
      h('section', { class: 'card side' }, h('h2', {}, t('lobby.players_online')), players),
    ),
  );

  const row = (r) => {
    const playing = r.state === 'playing';
    return h('div', { class: 'room-row', dataset: { room: r.id, state: r.state } },
      h('div', { class: 'room-main' },
        h('div', { class: 'room-rules' }, ruleLabel(r.rules), r.rated ? h('span', { class: 'badge rated' }, t('create.rated')) : h('span', { class: 'badge' }, t('create.casual'))),
        h('div', { class: 'room-players' }, r.players.map(playerChip)),
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
    const l = rooms.filter((r) => r.state !== 'waiting');
    mount(waiting, w.length ? w.map(row) : h('p', { class: 'empty' }, t('lobby.none_waiting')));
    mount(live, l.length ? l.map(row) : h('p', { class: 'empty' }, t('lobby.none_live')),
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
  offs.push(app.conn.on('welcome', () => formSlot.querySelector('form')?.sync?.()));
  app.conn.subscribeLobby().catch((e) => {
    if (e.code !== 'disconnected') toast(errorText(e.code, e.message), 'error');
  });
  return () => {
    offs.forEach((off) => off());
    app.conn.unsubscribeLobby();
  };
}
