// The one WebSocket to the server: hello/welcome, request ids, automatic reconnect with back-off, and
// resumption of joined rooms from the last version seen (the server answers with catch_up or a snapshot).

/** The protocol version sent in `hello` (docs/protocol.md). */
export const PROTOCOL_VERSION = 2;
const TOKEN_KEY = 'gomoku.token';

/** Reconnect delay for the n-th consecutive failure: 0.5 s doubling up to 8 s, so a short drop heals fast. */
export function backoff(attempt) {
  return Math.min(8000, 500 * 2 ** Math.max(0, attempt));
}

/** The socket URL for a page served over http(s). */
export function socketUrl(loc = globalThis.location) {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/ws`;
}

/**
 * A self-healing connection. Listen with `on(type, fn)` for server message types ("room", "event", "lobby",
 * ...) and for "status" ({state: connecting|online|offline, retryIn}) and "welcome".
 */
export class Connection {
  /** A connection to `url`; the socket class and storage are injectable for the unit tests. */
  constructor(url = socketUrl(), { WebSocketImpl = globalThis.WebSocket, storage = globalThis.localStorage } = {}) {
    this.url = url;
    this.WebSocketImpl = WebSocketImpl;
    this.storage = storage;
    this.listeners = new Map();
    this.pending = new Map();
    this.nextRid = 1;
    this.queue = [];
    this.ready = false;
    this.attempt = 0;
    this.you = null;
    /** Rooms to resume after a reconnect: id -> {role, version}. */
    this.rooms = new Map();
    this.lobby = false;
    this.closedByUs = false;
  }

  /** Listens for a message type or a status change; returns the function that stops listening. */
  on(type, fn) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type).add(fn);
    return () => this.listeners.get(type)?.delete(fn);
  }

  /** Calls the listeners of a type; one listener's exception does not stop the others. */
  emit(type, data) {
    for (const fn of this.listeners.get(type) || []) {
      try {
        fn(data);
      } catch (e) {
        console.error(e);
      }
    }
  }

  /** The stored identity token, if any. */
  token() {
    try {
      return this.storage?.getItem(TOKEN_KEY) || undefined;
    } catch {
      return undefined;
    }
  }

  /** Forgets the guest token (after logout the cookie decides who we are). */
  forgetToken() {
    try {
      this.storage?.removeItem(TOKEN_KEY);
    } catch {
      // Nothing to forget when storage is refused.
    }
  }

  /** Opens the socket and says hello; failures schedule a reconnect. */
  connect() {
    this.closedByUs = false;
    this.waiting = false;
    this.emit('status', { state: 'connecting' });
    let ws;
    try {
      ws = new this.WebSocketImpl(this.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      const hello = { t: 'hello', version: PROTOCOL_VERSION };
      const token = this.token();
      if (token) hello.token = token;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (ev) => this.receive(ev.data);
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ready = false;
      // Requests that went out on this socket have lost their answer; those still queued go on the next one.
      for (const [rid, p] of this.pending) {
        if (!p.sent) continue;
        this.pending.delete(rid);
        p.reject(Object.assign(new Error('connection lost'), { code: 'disconnected' }));
      }
      if (!this.closedByUs) this.scheduleReconnect();
    };
    ws.onerror = () => {
      // onclose follows and reconnects.
    };
  }

  /**
   * Pings every 20 s and drops the socket when no pong comes within 10 s: a half-open connection (a phone that
   * changed networks) may otherwise look alive for minutes while moves go nowhere.
   */
  heartbeat() {
    clearInterval(this.pinger);
    const ws = this.ws;
    this.pinger = setInterval(() => {
      if (this.ws !== ws || !this.ready) {
        clearInterval(this.pinger);
        return;
      }
      const timer = setTimeout(() => this.ws === ws && ws.close(), 10_000);
      this.request({ t: 'ping' }).then(() => clearTimeout(timer), () => clearTimeout(timer));
    }, 20_000);
  }

  /** Waits the back-off delay, telling the page, then connects again. */
  scheduleReconnect() {
    const delay = backoff(this.attempt++);
    this.waiting = true;
    this.emit('status', { state: 'offline', retryIn: delay });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** Skips the back-off wait (the browser says the network is back, or the page became visible again). */
  reconnectNow() {
    if (!this.waiting) return;
    clearTimeout(this.timer);
    this.connect();
  }

  /**
   * Drops the socket as a network failure would (after a sign-in or sign-out, and in the tests). Nothing more is
   * sent on it: a closing socket refuses to send (the browser logs "WebSocket is already in CLOSING or CLOSED
   * state"), so requests made before the close completes wait for the next socket's welcome.
   */
  drop() {
    this.ready = false;
    this.ws?.close();
  }

  /** Closes for good (no reconnect). */
  close() {
    this.closedByUs = true;
    this.ready = false;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    this.ws?.close(1000);
  }

  /** Handles one server frame: welcome, version tracking, request replies, then the listeners. */
  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    // A hello refused for now (too many new guests from this address): try again after the back-off, on a new
    // socket, instead of waiting for a welcome that will not come.
    if (!this.ready && msg.t === 'error' && msg.code === 'rate_limited') {
      this.ws?.close();
      return;
    }
    // The stored token (or the session cookie) names nobody any more: forget it and say hello again on this socket
    // without it, as a new guest, instead of reconnecting for ever with a token the server refuses.
    if (!this.ready && msg.t === 'error' && msg.code === 'invalid_token') {
      this.forgetToken();
      this.ws?.send(JSON.stringify({ t: 'hello', version: PROTOCOL_VERSION }));
      this.emit('error', msg);
      return;
    }
    // Signed out elsewhere (a logout, "sign out everywhere"): the token no longer stands for anyone, and the close
    // that follows reconnects as whoever the browser is now.
    if (msg.t === 'error' && msg.code === 'session_revoked') this.forgetToken();
    if (msg.t === 'welcome') {
      this.ready = true;
      this.attempt = 0;
      this.you = msg.you;
      try {
        this.storage?.setItem(TOKEN_KEY, msg.token);
      } catch {
        // The identity then lasts for this page only.
      }
      this.emit('welcome', msg);
      this.emit('status', { state: 'online' });
      this.heartbeat();
      this.resume();
      const queued = this.queue;
      this.queue = [];
      for (const q of queued) {
        this.ws.send(q.text);
        const p = this.pending.get(q.rid);
        if (p) p.sent = true;
      }
      return;
    }
    if (msg.t === 'room' && this.rooms.has(msg.room.id)) this.rooms.get(msg.room.id).version = msg.room.version;
    if (msg.t === 'event') this.track(msg.room, msg.version);
    if (msg.t === 'catch_up' && msg.events.length) this.track(msg.room, msg.events[msg.events.length - 1].version);
    if (msg.rid !== undefined && this.pending.has(msg.rid)) {
      const p = this.pending.get(msg.rid);
      this.pending.delete(msg.rid);
      if (msg.t === 'error') p.reject(Object.assign(new Error(msg.message), { code: msg.code }));
      else p.resolve(msg);
    }
    this.emit(msg.t, msg);
  }

  /** Remembers the newest version seen of a followed room, for `join` with `since`. */
  track(room, version) {
    const r = this.rooms.get(room);
    if (r && version > r.version) r.version = version;
  }

  /** After a reconnect: rejoin every room with the last version seen, and the lobby if we listened to it. */
  resume() {
    for (const [room, r] of this.rooms) {
      // A join still queued from before the welcome goes out with the queue; sending another would double it.
      if (r.joining) continue;
      const msg = { t: 'join', room, as: r.role };
      if (r.version > 0) msg.since = r.version;
      this.request(msg).catch((e) => this.emit('resume_failed', { room, code: e.code }));
    }
    // A subscription still queued from before the welcome goes out with the queue.
    const queuedLobby = this.queue.some((q) => q.t === 'subscribe_lobby');
    if (this.lobby && !queuedLobby) this.request({ t: 'subscribe_lobby' }).catch(() => {});
  }

  /** Sends a message with a fresh request id; resolves with the reply, rejects with {code} on an error. */
  request(msg) {
    const rid = this.nextRid++;
    const text = JSON.stringify({ ...msg, rid });
    return new Promise((resolve, reject) => {
      const sent = this.ready;
      this.pending.set(rid, { resolve, reject, sent });
      if (sent) this.ws.send(text);
      else this.queue.push({ rid, t: msg.t, text });
    });
  }

  /** Joins a room and remembers it for resumption. */
  async join(room, role = 'player') {
    const entry = { role, version: 0, joining: true };
    this.rooms.set(room, entry);
    try {
      return await this.request({ t: 'join', room, as: role });
    } catch (e) {
      // A join cut off by a drop is retried by resume(); only a refusal forgets the room.
      if (e.code !== 'disconnected' && this.rooms.get(room) === entry) this.rooms.delete(room);
      throw e;
    } finally {
      entry.joining = false;
    }
  }

  /** Creates a room (we sit in it) and remembers it; `type` `play_computer` creates one with the computer seated. */
  async create(options, type = 'create_room') {
    const reply = await this.request({ t: type, ...options });
    this.rooms.set(reply.room.id, { role: 'player', version: reply.room.version });
    return reply;
  }

  /** Stops following a room (leaving a running game resigns it, so only `leave` when meant). */
  forget(room) {
    this.rooms.delete(room);
  }

  /** Starts receiving the lobby (again after every reconnect). */
  subscribeLobby() {
    this.lobby = true;
    return this.request({ t: 'subscribe_lobby' });
  }

  /** Stops receiving the lobby. */
  unsubscribeLobby() {
    this.lobby = false;
    return this.ready ? this.request({ t: 'unsubscribe_lobby' }).catch(() => {}) : Promise.resolve();
  }
}
