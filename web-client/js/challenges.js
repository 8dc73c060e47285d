// Challenges (issue #18): the form that challenges a named player (from a profile, a leaderboard row or a room's
// seat), the notices on every page for challenges to us and from us, and the setting of who may challenge us.
// The pure parts (the message, the words) are exported for the unit tests.

import { h, mount, toast } from './dom.js';
import { t, errorText } from './i18n.js';
import { api, accounts } from './api.js';
import { href, parseRoute } from './router.js';
import { describeTimeControl } from './clock.js';
import { timeControlOf, gameSpecOf } from './pairing.js';
import { memberOf, colourWord } from './games/index.js';
import { gameFields, syncGameFields, balancedOpening } from './gameform.js';
import { isComputer } from './player.js';

/** The reasons a decline may give, in the order the menu lists them (docs/protocol.md "Challenges"). */
export const DECLINE_REASONS = ['generic', 'later', 'time_control', 'rated', 'casual', 'rules'];

/** Who may challenge: the values of `GET`/`PUT /api/me/challenges`. */
export const SETTINGS = ['all', 'accounts', 'none'];

/**
 * The `challenge` message from the form's values: {game, the game's own fields (Gomoku's rule_set, opening,
 * forbidden_policy; Othello's scoring; …), tc, base, increment, periods, period, rated, colour}; Gomoku when no
 * game is named, and without an opening the rule set's default (Soosõrv-8 under renju).
 */
export function challengeMessage(to, v) {
  const msg = { t: 'challenge', to, ...gameSpecOf(v), time_control: timeControlOf(v), rated: v.rated === 'rated', colour: v.colour || 'random' };
  // A match (issue #34) when more than one game; one game is the challenge as before.
  const games = Number(v.games);
  if (Number.isInteger(games) && games > 1) msg.games = games;
  return msg;
}

/** The match sizes the form offers: even, so every game's colours alternate fairly. */
export const MATCH_SIZES = [1, 2, 4, 6, 10];

/** The colour the challenged player gets: the opposite of the challenger's, random stays random. */
export function colourFor(challenge, me) {
  if (challenge.from === me || challenge.colour === 'random') return challenge.colour;
  return challenge.colour === 'black' ? 'white' : 'black';
}

/**
 * A challenge's game in words, as its game's member words a room's: "Renju · forbidden moves refused · Soosõrv-8 ·
 * 5+3 · Rated", "Othello · European scoring · 3+2 · Casual", "International draughts · 10+5 · Rated".
 */
export function describeChallenge(c) {
  const game = memberOf(c).describe({ rules: c.rules, game: c.game }) || t(`game.${memberOf(c).name}`);
  return [game, describeTimeControl(c.time_control, t), t(c.rated ? 'create.rated' : 'create.casual'), c.games > 1 ? t('match.card', { n: c.games }) : null].filter(Boolean).join(' · ');
}

/** What the challenger reads when a challenge closes (the i18n key and its parameters); null when accepted. */
export function closedNotice(msg, challenge) {
  const name = challenge?.to ?? '';
  if (msg.reason === 'accepted') return null;
  if (msg.reason === 'declined') {
    const reason = DECLINE_REASONS.includes(msg.decline) ? msg.decline : 'generic';
    return { key: 'challenge.declined_by', params: { name, reason: t(`challenge.reason_${reason}`) } };
  }
  if (msg.reason === 'expired') return { key: 'challenge.expired_out', params: { name } };
  return { key: 'challenge.cancelled_out', params: { name } };
}

/** Whether `player` (a name, or a seat or row with name/guest) may be offered a challenge by `you`. */
export function challengeable(player, you) {
  const name = typeof player === 'string' ? player : player?.name;
  if (!name || !you) return false;
  if (typeof player === 'object' && (player.guest || isComputer(player))) return false;
  return name !== you.name;
}

function seg(name, options, value) {
  return h('div', { class: 'segs', role: 'radiogroup' }, options.map(([v, l]) =>
    h('label', { class: 'seg' }, h('input', { type: 'radio', name, value: v, checked: v === value }), h('span', {}, l))));
}

function field(label, control, extra = {}) {
  return h('div', { class: 'field', ...extra }, h('span', { class: 'flabel' }, label), control);
}

/**
 * Opens the challenge form for `name` as a dialog over the page; `initial` gives the fields' values (the form
 * reopened in another language keeps what was chosen).
 */
export function openChallengeForm(app, name, initial = null) {
  document.getElementById('challenge-dialog')?.remove();
  const num = (n, value, min, max, step = 1) => h('input', { type: 'number', name: n, value, min, max, step, inputmode: 'numeric' });
  const err = h('p', { class: 'form-error', role: 'alert', id: 'challenge-error' });
  const guest = Boolean(app.you?.guest);
  const form = h('form', { class: 'card create challenge-form', id: 'challenge-form' },
    h('h2', {}, t('challenge.title', { name })),
    gameFields({ seg, field }),
    field(t('create.time'), seg('tc', [['fischer', t('tc.fischer')], ['byo_yomi', t('tc.byoyomi')], ['none', t('tc.none')]], 'fischer')),
    h('div', { class: 'row', 'data-tc': 'fischer' }, field(t('create.base'), num('base', 5, 0.5, 180, 0.5)), field(t('create.increment'), num('increment', 3, 0, 120))),
    h('div', { class: 'row', 'data-tc': 'byo_yomi' }, field(t('create.base'), num('base_b', 10, 0, 180, 0.5)), field(t('create.periods'), num('periods', 3, 1, 30)), field(t('create.period'), num('period', 30, 5, 300))),
    field(t('create.rated'), seg('rated', [['casual', t('create.casual')], ['rated', t('create.rated')]], 'casual')),
    guest ? h('p', { class: 'hint' }, t('create.rated_guest'), ' ', h('a', { href: href('login') }, t('nav.login'))) : null,
    field(t('create.colour'), seg('colour', [['random', t('colour.random')], ['black', t('colour.black')], ['white', t('colour.white')]], 'random')),
    field(t('match.games'), seg('games', MATCH_SIZES.map((n) => [String(n), n === 1 ? t('match.games_one') : t('match.games_n', { n })]), '1')),
    err,
    h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'btn ghost', onclick: () => dialog.remove() }, t('create.cancel')),
      h('button', { type: 'submit', class: 'btn primary', id: 'challenge-send' }, t('challenge.send'))),
  );
  const dialog = h('div', { class: 'modal', id: 'challenge-dialog', role: 'dialog', 'aria-modal': 'true', onclick: (e) => e.target === dialog && dialog.remove() }, form);
  const values = () => {
    const v = Object.fromEntries(new FormData(form).entries());
    if (v.tc === 'byo_yomi') v.base = v.base_b;
    return v;
  };
  const sync = () => {
    const v = values();
    for (const el of form.querySelectorAll('[data-tc]')) el.hidden = v.tc !== el.dataset.tc;
    const rated = form.querySelector('input[name="rated"][value="rated"]');
    rated.disabled = guest;
    syncGameFields(form, v);
    // The seats by the chosen game's own words (insect chess: South and North).
    for (const input of form.querySelectorAll('input[name="colour"]')) {
      if (input.value !== 'random') input.nextElementSibling.textContent = colourWord(v.game || 'gomoku', input.value);
    }
  };
  balancedOpening(form);
  form.addEventListener('change', sync);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    err.textContent = '';
    const button = form.querySelector('#challenge-send');
    button.disabled = true;
    try {
      await app.conn.request(challengeMessage(name, values()));
      dialog.remove();
    } catch (ex) {
      err.textContent = errorText(ex.code, ex.message);
    } finally {
      button.disabled = false;
    }
  });
  const onKey = (e) => {
    if (e.key === 'Escape') dialog.remove();
  };
  dialog.addEventListener('keydown', onKey);
  for (const [k, v] of Object.entries(initial || {})) {
    for (const input of form.querySelectorAll(`[name="${k}"]`)) {
      if (input.type === 'radio') input.checked = input.value === v;
      else input.value = v;
    }
  }
  // The dialog is the page's only while it is shown: another page closes it, another language draws it again.
  const relabel = () => {
    const values = Object.fromEntries(new FormData(form).entries());
    openChallengeForm(app, name, values);
  };
  const leave = () => dialog.remove();
  document.addEventListener('langchange', relabel);
  window.addEventListener('hashchange', leave);
  const remove = dialog.remove.bind(dialog);
  dialog.remove = () => {
    document.removeEventListener('langchange', relabel);
    window.removeEventListener('hashchange', leave);
    remove();
  };
  sync();
  document.body.append(dialog);
  form.querySelector('input')?.focus();
  return dialog;
}

// Issue #36 item 13: names a page gives without the server's word on them (a profile's, from its address) are
// asked once whether they are a person's account: an unknown name and the computer's accounts get no button.
const targets = new Map();
let computerNames = null;

/** The computer's account names (its levels' and the external engines'), from GET /api/computer, once. */
function computers(fetchComputer) {
  computerNames ??= fetchComputer().then(
    (c) => new Set([...(c?.levels || []).map((l) => l.name), ...(c?.engines || []).map((e) => `engine-${e}`)]),
    () => new Set(),
  );
  return computerNames;
}

/**
 * Whether `name` is a person's account one may challenge: it exists (GET /api/players/NAME) and is not the
 * computer's. Asked once per name and page.
 */
export function challengeTarget(name, { player = accounts.player, computer = accounts.computer } = {}) {
  if (!targets.has(name)) {
    targets.set(name, Promise.all([player(name).then(() => true, () => false), computers(computer)])
      .then(([exists, comp]) => exists && !comp.has(name)));
  }
  return targets.get(name);
}

/**
 * Whether `name` is our opponent in the game the page shows now (the room of `hash`, a game we play there): a
 * challenge then would be a second game against the one we are playing.
 */
export function opponentHere(live, name, hash = globalThis.location?.hash) {
  const route = parseRoute(hash);
  if (route.name !== 'room') return false;
  return (live || []).some((g) => g.room === route.params.id && g.opponent === name);
}

/**
 * A "Challenge" button for a player, or null when they cannot be challenged: ourselves, a guest, the computer, our
 * opponent in the game this page shows. A bare name (a profile's) gets its button once the server knows it as a
 * person's account; until then, and for an unknown name or the computer's, an empty placeholder.
 */
export function challengeButton(app, player, { small = false } = {}) {
  if (!challengeable(player, app?.you)) return null;
  const name = typeof player === 'string' ? player : player.name;
  if (opponentHere(app?.live?.games(), name)) return null;
  // A seat or a row the server sent says who it is (guest or not, the computer); a bare name does not.
  const vouched = typeof player === 'object' && typeof player.guest === 'boolean';
  if (vouched) return button(app, name, small);
  const slot = h('span', { class: 'challenge-pending', dataset: { challengeFor: name } });
  challengeTarget(name).then((ok) => {
    if (ok) slot.replaceWith(button(app, name, small));
  });
  return slot;
}

function button(app, name, small) {
  return h('button', {
    class: `btn challenge-btn${small ? ' small' : ''}`,
    type: 'button',
    dataset: { challenge: name },
    title: t('challenge.button_hint', { name }),
    onclick: (e) => {
      e.preventDefault();
      e.stopPropagation();
      openChallengeForm(app, name);
    },
  }, t('challenge.button'));
}

/** The "who may challenge you" control for one's own profile: reads and writes `/api/me/challenges`. */
export function challengeSetting() {
  const box = h('div', { class: 'challenge-setting', id: 'challenge-setting' }, h('span', { class: 'flabel' }, t('challenge.setting')));
  const status = h('span', { class: 'muted small', role: 'status' });
  const group = h('div', { class: 'segs', role: 'radiogroup', 'aria-label': t('challenge.setting') });
  box.append(group, status);
  const draw = (value) => mount(group, SETTINGS.map((s) =>
    h('label', { class: 'seg' },
      h('input', { type: 'radio', name: 'challenge-accept', value: s, checked: s === value, onchange: () => save(s) }),
      h('span', {}, t(`challenge.setting_${s}`)))));
  const save = (accept) => {
    status.textContent = '';
    api('/api/me/challenges', { method: 'PUT', body: { accept } }).then(
      (r) => {
        draw(r?.accept ?? accept);
        status.textContent = t('challenge.setting_saved');
      },
      (e) => (status.textContent = errorText(e.code, e.message)),
    );
  };
  draw('all');
  api('/api/me/challenges').then((r) => draw(r?.accept ?? 'all'), (e) => (status.textContent = errorText(e.code, e.message)));
  return box;
}

/**
 * The notices of open challenges, on every page: ours to answer (accept, or decline with a reason) and ours
 * waiting for an answer (withdraw). `onChange(incoming)` hears the challenges to us (the tab title says so).
 */
export function installChallenges(app, { onChange = () => {}, onIncoming = () => {} } = {}) {
  const incoming = new Map();
  const outgoing = new Map();
  const box = h('div', { id: 'challenges', class: 'challenges', 'aria-live': 'polite' });
  document.body.append(box);
  let ticker = null;

  const remaining = (c) => Math.max(0, Math.ceil((c.deadline - Date.now()) / 1000));
  const draw = () => {
    const me = app.you?.name;
    const card = (c, mine) => {
      const colour = colourFor(c, me);
      return h('div', { class: `challenge-card${mine ? ' mine' : ''}`, dataset: { challengeId: c.id } },
        h('div', { class: 'challenge-text' },
          h('b', {}, mine ? t('challenge.waiting_for', { name: c.to }) : t('challenge.from', { name: c.from })),
          h('div', { class: 'small' }, describeChallenge(c), ' · ', colour === 'random' ? t('challenge.you_play_random') : t('challenge.you_play', { colour: colourWord(c, colour) })),
          h('div', { class: 'muted small challenge-timer' }, t('challenge.expires', { s: remaining(c) }))),
        mine
          ? h('div', { class: 'challenge-actions' },
              h('button', { class: 'btn small ghost', type: 'button', dataset: { action: 'withdraw' }, onclick: () => answer({ t: 'cancel_challenge', id: c.id }) }, t('challenge.withdraw')))
          : h('div', { class: 'challenge-actions' },
              h('button', { class: 'btn small primary', type: 'button', dataset: { action: 'accept' }, onclick: () => answer({ t: 'answer_challenge', id: c.id, accept: true }) }, t('challenge.accept')),
              h('select', { class: 'decline-reason', 'aria-label': t('challenge.reason'), dataset: { action: 'reason' } },
                DECLINE_REASONS.map((r) => h('option', { value: r }, t(`challenge.reason_${r}`)))),
              h('button', { class: 'btn small', type: 'button', dataset: { action: 'decline' }, onclick: (e) => {
                const reason = e.target.closest('.challenge-card').querySelector('select').value;
                answer({ t: 'answer_challenge', id: c.id, accept: false, reason });
              } }, t('challenge.decline'))));
    };
    mount(box, [...incoming.values()].map((c) => card(c, false)), [...outgoing.values()].map((c) => card(c, true)));
    box.hidden = !incoming.size && !outgoing.size;
    clearInterval(ticker);
    if (!box.hidden) {
      ticker = setInterval(() => {
        for (const el of box.querySelectorAll('.challenge-card')) {
          const c = incoming.get(Number(el.dataset.challengeId)) || outgoing.get(Number(el.dataset.challengeId));
          if (c) el.querySelector('.challenge-timer').textContent = t('challenge.expires', { s: remaining(c) });
        }
      }, 1000);
    }
    onChange([...incoming.values()]);
  };
  const answer = (msg) => app.conn.request(msg).catch((e) => {
    if (e.code === 'unknown_challenge') {
      incoming.delete(msg.id);
      outgoing.delete(msg.id);
      draw();
    }
    if (e.code !== 'disconnected') toast(errorText(e.code, e.message), 'error');
  });

  app.conn.on('challenge', (msg) => {
    const c = { ...msg.challenge, deadline: Date.now() + (msg.challenge.expires_in_ms ?? 60_000) };
    if (c.from === app.you?.name && c.to !== app.you?.name) outgoing.set(c.id, c);
    else {
      const fresh = !incoming.has(c.id);
      incoming.set(c.id, c);
      if (fresh) onIncoming(c);
    }
    draw();
  });
  app.conn.on('challenge_closed', (msg) => {
    const out = outgoing.get(msg.id);
    const inc = incoming.get(msg.id);
    outgoing.delete(msg.id);
    incoming.delete(msg.id);
    if (out) {
      const n = closedNotice(msg, out);
      if (n) toast(t(n.key, n.params), msg.reason === 'declined' ? 'error' : 'info');
    } else if (inc && (msg.reason === 'cancelled' || msg.reason === 'expired')) {
      toast(t(msg.reason === 'expired' ? 'challenge.expired_in' : 'challenge.cancelled_in', { name: inc.from }));
    }
    draw();
  });
  // A new connection (a reconnect, a sign-in) is a new start: the server sends the open challenges to us again,
  // and ours were withdrawn with the connection that made them.
  app.conn.on('welcome', () => {
    incoming.clear();
    outgoing.clear();
    draw();
  });
  document.addEventListener('langchange', draw);
  draw();
  return { incoming, outgoing, draw };
}
