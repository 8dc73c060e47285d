// Issue #38: follows, blocks and reports from a player's profile; one's own community settings (privacy, follows,
// blocks, the moderators' notices, reports made with their status, one's data and closing the account).

import { h, mount, toast } from './dom.js';
import { t, errorText, formatDate } from './i18n.js';
import { api } from './api.js';
import { href } from './router.js';

const enc = encodeURIComponent;

/** The community API (http/community.rs). */
export const community = {
  mine: () => api('/api/me/community'),
  follow: (name, on) => api(`/api/me/follows/${enc(name)}`, { method: on ? 'PUT' : 'DELETE' }),
  block: (name, on) => api(`/api/me/blocks/${enc(name)}`, { method: on ? 'PUT' : 'DELETE' }),
  privacy: (share) => api('/api/me/privacy', { method: 'PUT', body: { share_games: share } }),
  friends: () => api('/api/me/friends'),
  report: (body) => api('/api/reports', { method: 'POST', body }),
  myReports: () => api('/api/me/reports'),
  queue: (status) => api(`/api/mod/reports?status=${enc(status)}`),
  act: (body) => api('/api/mod/actions', { method: 'POST', body }),
  log: () => api('/api/mod/log'),
  close: (confirm) => api('/api/me/close', { method: 'POST', body: { confirm } }),
};

/** The reasons a report gives, as the server takes them. */
export const REASONS = ['cheating', 'chat_abuse', 'sandbagging', 'bad_name'];

/** A report form about `name` (from a profile, a room or a record: `room` and `game` attach the evidence). */
export function reportForm(name, { room = null, game = null, onDone = () => {} } = {}) {
  const reason = h('select', { name: 'reason', id: 'report-reason' }, REASONS.map((r) => h('option', { value: r }, t(`report.reason.${r}`))));
  const details = h('textarea', { name: 'details', id: 'report-details', maxlength: 1000, rows: 3, placeholder: t('report.details') });
  const status = h('p', { class: 'small muted', role: 'status' });
  const form = h('form', { class: 'community-report', id: 'report-form', onsubmit: (e) => {
    e.preventDefault();
    const body = { target: name, reason: reason.value, details: details.value };
    if (room) body.room = room;
    if (game) body.game = game;
    community.report(body).then(() => {
      toast(t('report.sent'));
      onDone();
    }, (err) => { status.textContent = errorText(err.code, err.message); });
  } },
  h('label', { class: 'field' }, h('span', { class: 'flabel' }, t('report.reason')), reason),
  h('label', { class: 'field' }, h('span', { class: 'flabel' }, t('report.details_label')), details),
  h('button', { class: 'btn primary', type: 'submit', id: 'report-send' }, t('report.send')), status);
  return form;
}

/** Follow, block and report buttons for another player's profile (signed-in players only). */
export function communityBar(app, name, options = {}) {
  const bar = h('div', { class: 'community-bar', id: 'community-bar' });
  if (!app?.you || app.you.guest || app.you.name === name) return bar;
  const slot = h('div', { class: 'community-slot' });
  const draw = (mine) => {
    const following = (mine.following || []).includes(name);
    const blocked = (mine.blocked || []).includes(name);
    const toggle = (id, on, label, call) => h('button', { class: 'btn small ghost', type: 'button', id, 'aria-pressed': String(on), onclick: () => call(!on).then(refresh, (e) => toast(errorText(e.code, e.message), 'error')) }, t(label));
    mount(bar,
      toggle('follow-button', following, following ? 'community.unfollow' : 'community.follow', (on) => community.follow(name, on)),
      toggle('block-button', blocked, blocked ? 'community.unblock' : 'community.block', (on) => community.block(name, on)),
      h('button', { class: 'btn small ghost', type: 'button', id: 'report-button', onclick: () => mount(slot, reportForm(name, { ...options, onDone: () => mount(slot) })) }, t('community.report')),
      slot);
  };
  const refresh = () => community.mine().then(draw, () => mount(bar));
  refresh();
  return bar;
}

/** One's own community settings, on one's own profile. */
export function myCommunity(app) {
  const box = h('section', { class: 'community-mine', id: 'community-mine' }, h('p', { class: 'muted' }, t('conn.connecting')));
  const list = (items, empty) => (items.length ? h('ul', { class: 'community-list' }, items.map((x) => h('li', {}, x))) : h('p', { class: 'muted small' }, t(empty)));
  Promise.all([community.mine(), community.myReports(), community.friends()]).then(([mine, reports, friends]) => {
    const share = h('input', { type: 'checkbox', id: 'share-games', checked: mine.share_games, onchange: () => community.privacy(share.checked).then(() => toast(t('community.saved')), (e) => toast(errorText(e.code, e.message), 'error')) });
    const confirm = h('input', { type: 'text', id: 'close-confirm', autocomplete: 'off', placeholder: app.you.name });
    mount(box,
      h('h2', {}, t('community.title')),
      mine.role !== 'player' ? h('p', {}, h('a', { class: 'btn small', href: '#/mod', id: 'open-console' }, t('mod.open'))) : null,
      mine.notices.length ? h('div', { class: 'notice community-notices', id: 'notices' }, mine.notices.map((n) => h('p', {}, h('strong', {}, t('community.warning')), ' ', n.text, ' ', h('span', { class: 'muted small' }, formatDate(n.at))))) : null,
      h('label', { class: 'check' }, share, ' ', t('community.share_games')),
      h('h3', {}, t('community.friends')),
      list(friends.map((f) => [h('a', { href: href('player', { name: f.name }) }, f.name), ' ', h('span', { class: `small ${f.online ? 'online' : 'muted'}` }, t(f.online ? 'community.online' : 'community.offline')), ...f.playing.map((g) => [' ', h('a', { class: 'small', href: href('game', { id: g }) }, t('community.watch'))])]), 'community.no_friends'),
      h('h3', {}, t('community.blocked')),
      list(mine.blocked.map((n) => h('a', { href: href('player', { name: n }) }, n)), 'community.no_blocks'),
      h('h3', {}, t('community.my_reports')),
      list(reports.map((r) => [r.target, ' · ', t(`report.reason.${r.reason}`), ' · ', h('span', { class: `report-status ${r.status}` }, t(`report.status.${r.status}`))]), 'community.no_reports'),
      h('h3', {}, t('community.data')),
      h('p', {}, h('a', { class: 'btn small', href: '/api/me/export', download: 'my-data.json', id: 'export-data' }, t('community.export'))),
      h('form', { class: 'community-close', id: 'close-account', onsubmit: (e) => {
        e.preventDefault();
        community.close(confirm.value).then(() => { toast(t('community.closed')); app.logout(); }, (err) => toast(errorText(err.code, err.message), 'error'));
      } },
      h('p', { class: 'small muted' }, t('community.close_hint')),
      h('label', { class: 'field' }, h('span', { class: 'flabel' }, t('community.close_confirm')), confirm),
      h('button', { class: 'btn danger', type: 'submit' }, t('community.close'))));
  }, (e) => mount(box, h('p', { class: 'notice' }, errorText(e.code, e.message))));
  return box;
}

/**
 * A small "report" button beside another account's chat line in room `room` (nothing for one's own lines, for
 * guests' or for a guest reader): it opens the report form in `slot`, the room attached.
 */
export function chatReportButton(app, from, room, slot) {
  const you = app?.you;
  if (!you || you.guest || from === you.name || /^guest-/.test(from) || /^computer-/.test(from)) return null;
  return h('button', { class: 'btn tiny ghost chat-report', type: 'button', title: t('community.report'), 'aria-label': t('community.report'),
    // The flag is drawn by CSS (::before), so the line's text stays the line's.
    onclick: () => mount(slot, reportForm(from, { room, onDone: () => mount(slot) })) });
}

/* community2: friends online in the lobby and follow notices (issue #38). */

/** The lobby's "friends online" part: followed players online now and their public games, one click to watch.
 * Returns `{ el, refresh, cleanup }`; hidden for guests (and shown once the connection says who we are). */
export function friendsPanel(app) {
  const list = h('div', { class: 'friends-online', id: 'friends-online' });
  const title = h('h2', {}, t('community.friends_online'));
  const el = h('div', { class: 'friends-block', hidden: true }, title, list);
  let timer = null;
  const draw = (friends) => {
    const on = friends.filter((f) => f.online);
    title.textContent = t('community.friends_online');
    mount(list, on.length
      ? h('ul', { class: 'community-list' }, on.map((f) => h('li', { dataset: { friend: f.name } },
        h('a', { href: href('player', { name: f.name }) }, f.name),
        ...f.rooms.map((r) => [' ', h('a', { class: 'btn tiny friend-watch', href: href('room', { id: r.room, watch: true }) },
          r.opponent ? t('community.watch_vs', { name: r.opponent }) : t('community.watch'))]))))
      : h('p', { class: 'muted small' }, t('community.no_friends_online')));
  };
  const refresh = () => {
    el.hidden = !app.you || app.you.guest;
    if (el.hidden) return;
    community.friends().then(draw, () => mount(list));
  };
  refresh();
  // Friends come and go without telling us; a slow poll keeps the card roughly current, the notices at once.
  timer = setInterval(refresh, 20_000);
  const offs = [app.conn.on('friend_playing', refresh), app.conn.on('welcome', refresh)];
  return { el, refresh, cleanup: () => { clearInterval(timer); offs.forEach((off) => off()); } };
}

/** From any page: a followed player started a public game (`friend_playing`): a notice with a link to watch. */
export function installFriendNotices(app) {
  app.conn.on('friend_playing', (m) => {
    const text = m.opponent ? t('community.friend_playing_vs', { name: m.player, opponent: m.opponent }) : t('community.friend_playing', { name: m.player });
    toast(h('span', { class: 'friend-notice' }, text, ' ', h('a', { href: href('room', { id: m.room, watch: true }) }, t('community.watch'))));
  });
}
