// The games this player has running (issue #18: the lobby says "your game is in progress"). What the socket shows
// (pairing.js's liveReduce) is kept for this browser in localStorage, so a reload still knows; the lobby checks the
// records it names and drops the finished ones.

import { liveReduce } from './pairing.js';

const KEY = 'gomoku.live';

function load(storage, who) {
  if (!who) return new Map();
  try {
    const list = JSON.parse(storage?.getItem(`${KEY}.${who}`) || '[]');
    return new Map(Array.isArray(list) ? list.filter((g) => g && typeof g.room === 'string').map((g) => [g.room, g]) : []);
  } catch {
    return new Map();
  }
}

/** Follows the connection; returns {games(), drop(room), on(fn)}. */
export function installLive(conn, storage = globalThis.localStorage) {
  // Each identity has its own games: the list is read once the welcome says who we are.
  let who = null;
  let games = new Map();
  const listeners = new Set();
  const save = () => {
    try {
      if (who) storage?.setItem(`${KEY}.${who}`, JSON.stringify([...games.values()]));
    } catch {
      // The list then lasts for this page only.
    }
    for (const fn of listeners) fn(games);
  };
  for (const type of ['room', 'paired', 'event']) {
    conn.on(type, (msg) => {
      const next = liveReduce(games, msg);
      const changed = next.size !== games.size || [...next].some(([k, v]) => JSON.stringify(games.get(k)) !== JSON.stringify(v));
      games = next;
      if (changed) save();
    });
  }
  conn.on('welcome', (w) => {
    if (w.you?.id === who) return;
    who = w.you?.id ?? null;
    games = load(storage, who);
    for (const fn of listeners) fn(games);
  });
  return {
    games: () => [...games.values()],
    drop(room) {
      if (games.delete(room)) save();
    },
    on(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}
