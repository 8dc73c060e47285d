// Start-up: language, theme, the socket, the header, and the router that mounts one page at a time.

import { t, loadLang, setLang, lang, dictionaries, languageNames } from './i18n.js';
import { loadTheme, saveTheme, nextTheme } from './theme.js';
import { Connection } from './ws.js';
import { parseRoute, href } from './router.js';
import { h, mount, toast } from './dom.js';
import { accounts } from './api.js';
import * as lobby from './pages/lobby.js';
import * as room from './pages/room.js';
import * as record from './pages/record.js';
import * as leaderboard from './pages/leaderboard.js';
import * as profile from './pages/profile.js';
import * as login from './pages/login.js';
import * as analysis from './pages/analysis.js';
import * as rules from './pages/rules.js';
import * as match from './pages/match.js';
import * as moderation from './pages/moderation.js';
import * as events from './pages/events.js';
import * as event from './pages/event.js';
import { installChallenges } from './challenges.js';
import { installFriendNotices } from './community.js';
import { installAttention, notifyButton, refreshTitle, setChallenges } from './attention.js';
import { installLive } from './live.js';
import { playChime } from './sound.js';
import { gameChoices } from './games/index.js';

const pages = { lobby, room, game: record, leaderboard, player: profile, login, analysis, rules, match, mod: moderation, events, event };

/** Shared by every page: the connection, who we are, and a way to re-render the header. */
const app = {
  conn: new Connection(),
  you: null,
  status: { state: 'connecting' },
  navigate(hash) {
    location.hash = hash;
  },
  refreshHeader: () => renderHeader(),
  logout: () => logout(),
};
window.__app = app; // lets the browser tests observe and drop the socket, as a network failure would

let themeChoice = 'system';

function otherLanguage() {
  const codes = Object.keys(dictionaries);
  return codes[(codes.indexOf(lang()) + 1) % codes.length];
}
let current = null;

/**
 * The footer credits the rules of every served game, each name a link to that game's rules page: the sentence is
 * foot.source's, its {rules} the games' own credits (sourceKey) in the language's list form.
 */
function renderFooter() {
  const foot = document.getElementById('foot-rules');
  if (!foot) return;
  const mark = '\u0000';
  const [before, after = ''] = t('foot.source', { rules: mark }).split(mark);
  const links = gameChoices().flatMap((g, i) => [
    i ? t('foot.separator') : null,
    h('a', { href: href('rules', { game: g.name }), dataset: { game: g.name } }, t(g.sourceKey)),
  ]);
  mount(foot, before, links, after);
}

function translateStatic() {
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
  renderFooter();
  // The title also says "your move" or names a challenge (attention.js).
  refreshTitle();
  document.getElementById('notify')?.redraw?.();
}

function renderHeader() {
  translateStatic();
  const conn = document.getElementById('conn');
  conn.dataset.state = app.status.state;
  conn.textContent =
    app.status.state === 'online'
      ? t('conn.online')
      : app.status.state === 'offline'
        ? t('conn.offline', { s: Math.ceil((app.status.retryIn || 0) / 1000) })
        : t('conn.connecting');
  // Two languages: the button names the one it switches to, in that language, so either reader finds it.
  const langButton = document.getElementById('lang');
  const next = otherLanguage();
  langButton.textContent = next === 'zh' ? '中文' : 'EN';
  langButton.title = `${t('nav.language')}: ${languageNames[next]}`;
  langButton.dataset.next = next;
  const theme = document.getElementById('theme');
  theme.title = `${t('theme.toggle')}: ${t(`theme.${themeChoice}`)}`;
  theme.setAttribute('aria-label', theme.title);
  theme.dataset.choice = themeChoice;
  const user = document.getElementById('user');
  const you = app.you;
  if (!you) mount(user);
  else if (you.guest) {
    mount(
      user,
      h('span', { class: 'who guest', title: t('nav.guest') }, you.name),
      h('a', { class: 'btn small', href: href('login') }, t('nav.login')),
    );
  } else {
    mount(
      user,
      h('a', { class: 'who', href: href('player', { name: you.name }) }, you.name),
      h('button', { class: 'btn small ghost signout', type: 'button', onclick: logout }, t('nav.logout')),
      h('button', { class: 'btn small ghost signout everywhere', type: 'button', title: t('nav.logout_everywhere_hint'), onclick: logoutEverywhere }, t('nav.logout_everywhere')),
    );
  }
  const route = parseRoute(location.hash);
  for (const a of document.querySelectorAll('[data-nav]')) a.classList.toggle('active', a.dataset.nav === route.name);
}

async function logout() {
  try {
    await accounts.logout();
  } catch {
    // Even when the endpoint is missing, dropping our token makes us a fresh guest.
  }
  app.conn.forgetToken();
  app.conn.drop();
}

/** Signs out on every device: the server revokes all our sessions and closes their sockets. */
async function logoutEverywhere() {
  try {
    await accounts.logoutEverywhere();
  } catch {
    // Already signed out (401) or the endpoint is missing: signing out here is still right.
    await accounts.logout().catch(() => {});
  }
  app.conn.forgetToken();
  app.conn.drop();
}

function route() {
  const r = parseRoute(location.hash);
  if (current?.cleanup) current.cleanup();
  const view = document.getElementById('view');
  view.replaceChildren();
  view.dataset.page = r.name;
  const cleanup = pages[r.name].render(view, r.params, app);
  current = { route: r, cleanup };
  renderHeader();
  window.scrollTo(0, 0);
}

function start() {
  loadLang();
  themeChoice = loadTheme();
  document.getElementById('lang').addEventListener('click', () => setLang(otherLanguage()));
  document.getElementById('theme').addEventListener('click', () => {
    themeChoice = nextTheme(themeChoice);
    saveTheme(themeChoice);
    renderHeader();
  });
  document.addEventListener('langchange', () => {
    renderHeader();
    // Live pages (a room) relabel themselves instead of being rebuilt, which would rejoin the room.
    if (current?.route && !pages[current.route.name].relabels) route();
  });
  app.conn.on('status', (s) => {
    app.status = s;
    renderHeader();
  });
  app.conn.on('error', (e) => {
    // Signed out elsewhere, or a saved sign-in the server no longer knows: say so, the reconnect is a guest.
    if (e.code === 'session_revoked' || e.code === 'invalid_token') toast(t(`err.${e.code}`));
  });
  app.conn.on('welcome', (w) => {
    app.you = w.you;
    renderHeader();
  });
  // Issue #18: games found for us (quick pairing, an accepted challenge) open at once, with a chime, from any page;
  // challenges to us show on every page; the games we have running are remembered for the lobby.
  app.live = installLive(app.conn);
  app.conn.on('paired', (m) => {
    playChime();
    app.navigate(href('room', { id: m.room }));
  });
  installChallenges(app, { onChange: setChallenges, onIncoming: () => playChime(0.15) });
  installFriendNotices(app);
  installAttention(app);
  document.getElementById('user').before(notifyButton());
  window.addEventListener('hashchange', route);
  window.addEventListener('online', () => app.conn.reconnectNow());
  document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && app.conn.reconnectNow());
  app.conn.connect();
  route();
}

start();
