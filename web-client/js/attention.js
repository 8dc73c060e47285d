// Getting a player's attention from another tab (issue #18): the tab title says "your move" or names a challenge,
// and, when the player allowed it with a click, a browser notification says a game started or it is their move
// while the tab is hidden. The room page reports its turn with `roomTurn`; everything else comes from the socket.

import { t } from './i18n.js';

const NOTIFY_KEY = 'gomoku.notify';

const state = { room: null, myTurn: false, challenges: [] };

/** The tab title for a state (pure): a challenge to answer first, then our move, then the site's name. */
export function titleFor({ myTurn = false, challenges = [] } = {}, tr = t) {
  const base = tr('app.name');
  if (challenges.length) {
    const text = challenges.length === 1 ? tr('challenge.title_one', { name: challenges[0].from }) : tr('challenge.title_many', { n: challenges.length });
    return `⚔ ${text} · ${base}`;
  }
  if (myTurn) return `● ${tr('room.title_turn')} · ${base}`;
  return base;
}

/** Sets the title from the current state. */
export function refreshTitle() {
  if (globalThis.document) document.title = titleFor(state);
}

/** Whether the player turned notifications on and the browser allows them. */
export function notificationsOn() {
  try {
    return globalThis.Notification?.permission === 'granted' && localStorage.getItem(NOTIFY_KEY) === 'on';
  } catch {
    return false;
  }
}

/** Shows a notification when the tab is hidden and notifications are on; a click brings the tab back. */
export function notify(text, tag) {
  if (!globalThis.document || document.visibilityState !== 'hidden' || !notificationsOn()) return;
  try {
    const n = new Notification(t('app.name'), { body: text, tag, icon: 'img/icon.svg' });
    n.onclick = () => {
      window.focus();
      n.close();
    };
  } catch {
    // Some browsers allow notifications only from a service worker; the title still says it.
  }
}

/**
 * The room page's report: in `room` (null once it is left) it is our move or not. A move that becomes ours
 * while the tab is hidden notifies.
 */
export function roomTurn(room, myTurn) {
  const was = state.room === room && state.myTurn;
  state.room = room;
  state.myTurn = Boolean(room && myTurn);
  if (state.myTurn && !was) notify(t('room.title_turn'), `turn-${room}`);
  refreshTitle();
}

/** The challenges waiting for our answer changed. */
export function setChallenges(list) {
  state.challenges = list;
  refreshTitle();
}

/** The header's bell: asks the browser's permission on a click, then turns notifications on and off. */
export function notifyButton() {
  const b = document.createElement('button');
  b.type = 'button';
  b.id = 'notify';
  b.className = 'notify-btn';
  const draw = () => {
    const on = notificationsOn();
    b.dataset.on = on ? 'on' : 'off';
    b.title = t(on ? 'notify.on' : 'notify.off');
    b.setAttribute('aria-label', b.title);
    b.setAttribute('aria-pressed', String(on));
    b.innerHTML = `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path fill="currentColor" d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1z"/>${on ? '' : '<path d="M3 3l18 18" stroke="currentColor" stroke-width="2"/>'}</svg>`;
  };
  b.addEventListener('click', async () => {
    if (!globalThis.Notification) return;
    try {
      if (notificationsOn()) localStorage.setItem(NOTIFY_KEY, 'off');
      else {
        const p = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
        localStorage.setItem(NOTIFY_KEY, p === 'granted' ? 'on' : 'off');
      }
    } catch {
      // Storage refused: the choice lasts as long as the permission.
    }
    draw();
  });
  draw();
  b.hidden = !globalThis.Notification;
  b.redraw = draw;
  return b;
}

/** Listens to the socket for games that start with us seated (quick pairing, an accepted challenge). */
export function installAttention(app) {
  app.conn.on('paired', (m) => notify(t('notify.paired', { name: m.opponent }), `game-${m.room}`));
  app.conn.on('event', (m) => {
    if (m.event?.kind !== 'game_started' || !app.you) return;
    const mine = m.event.black?.id === app.you.id || m.event.white?.id === app.you.id;
    if (mine) notify(t('notify.started'), `game-${m.room}`);
  });
}
