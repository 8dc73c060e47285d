// A room: the board, both players with clocks, the prompts the rules call for, offers and answers, the game-over
// panel, moves and chat. Spectators get the same view without controls. The board, its input and the game's own
// prompts (Gomoku's swap, fifth move and claim; Othello's pass) come from the room's game (games/index.js).

import { h, mount, toast } from '../dom.js';
import { t, errorText, lang } from '../i18n.js';
import { href } from '../router.js';
import { memberOf, colourWord, seatIcon } from '../games/index.js';
import { accounts } from '../api.js';
import { maxLevel, levelChoices } from './lobby.js';
import { fromSnapshot, applyEvent, applyCatchUp, controls, clockFigures, seatOf, other, splitChat, claimWin } from '../state.js';
import { clockAt, clockParts, describeTimeControl } from '../clock.js';
import { tierBadge } from '../tier.js';
import { playerName, displayName, isComputer } from '../player.js';
import { entryItems } from '../movelist.js';
import { playStone } from '../sound.js';
import { resultHeadline, resultSentence } from '../result.js';
import { roomTurn } from '../attention.js';
import { challengeButton } from '../challenges.js';
import { chatReportButton } from '../community.js';

/** The room page rebuilds its own labels on a language change instead of being remounted (which would rejoin). */
export const relabels = true;

const SETTINGS_KEY = 'gomoku.board';

function loadSettings() {
  try {
    return { numbers: false, sound: true, confirm: matchMedia('(pointer: coarse)').matches, ...JSON.parse(localStorage.getItem(SETTINGS_KEY) || '{}') };
  } catch {
    return { numbers: false, sound: true, confirm: false };
  }
}

function saveSettings(s) {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(s));
  } catch {
    // Settings then last for this page.
  }
}

const RECORDS_KEY = 'gomoku.room_records';
const RECORDS_KEPT = 50;

/**
 * The record of the last game seen in each room, kept so that a link to a room that has since closed (the server
 * then answers `unknown_room` and knows nothing more) can still lead to the game that was played there.
 */
function loadRecords() {
  try {
    return JSON.parse(localStorage.getItem(RECORDS_KEY) || '{}') || {};
  } catch {
    return {};
  }
}

function rememberRecord(roomId, record) {
  const all = loadRecords();
  if (all[roomId] === record) return;
  delete all[roomId];
  all[roomId] = record;
  // Insertion order is age: the oldest rooms go first.
  const ids = Object.keys(all);
  for (const old of ids.slice(0, Math.max(0, ids.length - RECORDS_KEPT))) delete all[old];
  try {
    localStorage.setItem(RECORDS_KEY, JSON.stringify(all));
  } catch {
    // Without storage a closed room's link just says the room is gone.
  }
}

/** The record page of a room's game: its public id when the server sent one, else the game number. */
function recordOf(room) {
  return room.record ?? room.game_id ?? null;
}

let computerAsked = null;

/** GET /api/computer once per page load (what it plays does not change while the server runs); null on failure. */
function askComputer() {
  computerAsked ??= accounts.computer().catch(() => {
    computerAsked = null;
    return null;
  });
  return computerAsked;
}

/** Mounts the room page; returns its cleanup. */
export function render(view, params, app) {
  const id = params.id;
  const conn = app.conn;
  let room = null;
  let settings = loadSettings();
  let destroyed = false;
  // What each part of the page was last drawn from (see section()).
  const shown = new WeakMap();

  // The board of the room's game, made when the first snapshot says which game it is; until then an empty frame
  // holds its place.
  let member = null;
  let board = { el: h('div', { class: 'board-wrap' }) };
  // What GET /api/computer says the computer plays, null until it answers (till then a member's own `computer`
  // flag stands in): the waiting room offers the computer for those games, at their levels.
  let computerInfo = null;
  const computerPlays = (game) => (computerInfo?.plays ? computerInfo.plays.some((p) => p.game === game) : Boolean(memberOf(game).computer));
  askComputer().then((info) => {
    computerInfo = info;
    if (!destroyed) draw();
  });
  // Which board settings the settings box shows (see drawStatic).
  let settingsShown = null;
  const boardContext = {
    room: () => room,
    settings: () => settings,
    request: (msg) => conn.request(msg),
    send: (msg) => send(msg),
    toast: (text, kind) => toast(text, kind),
    ask: (text) => confirm(text),
    redraw: () => draw(),
  };
  function useGame(next) {
    const m = memberOf(next);
    if (m === member) return;
    member = m;
    const made = member.roomBoard(boardContext);
    board.el.replaceWith(made.el);
    board = made;
    // The settings drawn so far were the default game's; another game's are drawn now.
    if (String(settingKeys()) !== settingsShown) drawStatic();
  }

  const topCard = h('div', { class: 'pcard top' });
  const bottomCard = h('div', { class: 'pcard bottom' });
  const prompt = h('div', { class: 'prompt', id: 'prompt', 'aria-live': 'polite' });
  const actions = h('div', { class: 'actions', id: 'actions' });
  const movesBox = h('ol', { class: 'movelist', id: 'moves' });
  const chatLog = h('div', { class: 'chatlog', id: 'chat-log' });
  // The spectators' chat: not room events, so kept here; players see it only when they ask for it.
  let spectatorChat = [];
  let showSpectators = false;
  const spectatorToggle = h('label', { class: 'toggle', id: 'show-spectator-chat' },
    h('input', { type: 'checkbox', onchange: (e) => {
      showSpectators = e.target.checked;
      if (!muted) showSpectatorChat(showSpectators);
      drawChat();
    } }),
    h('span', { 'data-l': 'room.show_spectator_chat' }));
  // The socket the spectators' chat was last asked for on: the choice belongs to a connection, so a new one (after
  // a reconnect) is told again, once (its answer is a snapshot, which must not ask again).
  let shownOn = null;
  function showSpectatorChat(show) {
    shownOn = show ? conn.ws : null;
    send({ t: 'show_spectator_chat', room: id, show }).catch(() => {});
  }
  // Muting the room hides all of its chat on this page (the spectators' is then not even sent to us).
  let muted = false;
  const muteToggle = h('label', { class: 'toggle', id: 'mute-chat' },
    h('input', { type: 'checkbox', onchange: (e) => {
      muted = e.target.checked;
      if (showSpectators && seatOf(room)) showSpectatorChat(!muted);
      drawChat();
    } }),
    h('span', { 'data-l': 'room.mute_chat' }));
  // Issue #38: a signed-in player reports another's chat line from here; the server attaches the lines.
  const reportSlot = h('div', { class: 'chat-report-slot' });
  const chatInput = h('input', { type: 'text', maxlength: 500, name: 'chat', autocomplete: 'off' });
  const chatForm = h('form', { class: 'chatform' }, chatInput, h('button', { class: 'btn', type: 'submit' }));
  const info = h('div', { class: 'roominfo' });
  const settingsBox = h('div', { class: 'settings' });
  const banner = h('div', { class: 'banner', hidden: true });

  const layout = h('div', { class: 'room-layout', id: 'room', dataset: { room: id } },
    // The reconnecting banner sits above the board, where a phone player is looking.
    h('div', { class: 'board-col' }, banner, topCard, board.el, bottomCard),
    h('aside', { class: 'side-col' },
      h('div', { class: 'card status' }, info, prompt, actions),
      h('div', { class: 'card' }, h('h3', { 'data-l': 'room.moves' }), movesBox, settingsBox),
      h('div', { class: 'card chat' }, h('h3', { 'data-l': 'room.chat' }), muteToggle, spectatorToggle, chatLog, chatForm, reportSlot),
    ),
  );
  mount(view, layout);

  chatForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    chatInput.value = '';
    send({ t: 'chat', room: id, text }).catch(() => {});
  });

  function send(msg) {
    return conn.request(msg).catch((e) => {
      if (e.code !== 'disconnected') toast(errorText(e.code, e.message), 'error');
      throw e;
    });
  }

  function playerCard(el, colour) {
    const seat = room?.seats[colour];
    const toMove = room?.state === 'playing' && room.to_act === colour;
    el.dataset.colour = colour;
    el.classList.toggle('to-move', Boolean(toMove));
    el.classList.toggle('offline', Boolean(seat && !seat.connected));
    // The computer thinks while it is to move: said by its clock (or, without one, under its name).
    const thinking = Boolean(toMove && isComputer(seat));
    const extra = room && board.seatExtra ? board.seatExtra(room, colour) : null;
    section(el, [colour, seat, Boolean(room?.clocks), thinking, extra?.outerHTML ?? null], () => [
      seatIcon(room, colour),
      h('div', { class: 'pinfo' },
        seat
          ? playerName(seat, { class: 'pname' })
          : h('span', { class: 'pname muted' }, t('room.waiting')),
        h('div', { class: 'psub' },
          seat?.rating != null ? h('span', { class: 'rating' }, Math.round(seat.rating) + (seat.provisional ? '?' : '')) : null,
          tierBadge(seat?.tier, undefined, seat?.provisional),
          h('span', { class: 'grace', 'data-grace': colour }),
          seat ? challengeButton(app, seat, { small: true }) : null,
        ),
      ),
      extra,
      h('div', { class: 'clock-box' },
        thinking ? h('span', { class: 'thinking', id: `thinking-${colour}`, 'aria-live': 'polite' }, t('computer.thinking')) : null,
        room?.clocks ? h('div', { class: 'clock', 'data-clock': colour }) : null),
    ]);
  }

  function promptContent(c) {
    const you = seatOf(room);
    const name = (colour) => (room.seats[colour] ? displayName(room.seats[colour]) : colourWord(room, colour));
    if (room.state === 'waiting') {
      const link = `${location.origin}${location.pathname}${href('room', { id })}`;
      // A casual room of a game the computer plays (GET /api/computer's `plays`, which the server's
      // computer::max_level decides) can have it take the free seat instead of waiting, at its game's levels.
      const plays = computerPlays(member.name);
      const level = h('select', { id: 'invite-level', 'aria-label': t('computer.level_field') },
        levelChoices(computerInfo, lang(), maxLevel(computerInfo, member.name)).map(([n, label]) => h('option', { value: n }, label)));
      const invite = you && plays && !room.rated
        ? h('div', { class: 'invite computer-invite' }, level,
          h('button', { class: 'btn', type: 'button', id: 'invite-computer', onclick: () => send({ t: 'invite_computer', room: id, level: Number(level.value) }).catch(() => {}) }, t('computer.invite')))
        : null;
      return [
        h('p', { class: 'lead' }, t('room.waiting')),
        invite,
        h('div', { class: 'invite' },
          h('input', { type: 'text', readonly: true, value: link, 'aria-label': t('room.invite'), id: 'invite-link' }),
          h('button', { class: 'btn', type: 'button', onclick: async (e) => {
            try { await navigator.clipboard.writeText(link); e.target.textContent = t('room.copied'); } catch { document.getElementById('invite-link').select(); }
          } }, t('room.copy')),
        ),
      ];
    }
    if (room.state === 'closed') {
      // A room that closed after a game still has that game: its record outlives the room.
      const rec = recordOf(room);
      return [h('div', { class: 'card notice', id: 'room-closed' }, h('p', {}, t(rec != null ? 'room.closed_after_game' : 'room.closed_expired')),
        rec != null ? h('a', { class: 'btn primary', id: 'closed-record', href: href('game', { id: rec }) }, t('room.record')) : null,
        h('a', { class: 'btn', href: '#/' }, t('nav.lobby')))];
    }
    if (room.state === 'over') {
      const r = room.result;
      return [
        h('div', { class: 'gameover', id: 'game-over' },
          h('div', { class: 'go-title' }, t('over.title')),
          h('div', { class: 'go-head' }, resultHeadline(r, you)),
          r?.reason === 'aborted' ? null : h('div', { class: 'go-reason', id: 'result-sentence' }, sentence(r)),
          r?.unrated ? h('div', { class: 'go-unrated muted', id: 'unrated' }, t(`unrated.${r.unrated}`)) : null,
          r?.ratings?.length
            ? h('div', { class: 'go-ratings' }, r.ratings.map((d) => {
                const diff = Math.round(d.after) - Math.round(d.before);
                return h('div', { class: 'delta' }, h('span', {}, d.name), h('span', { class: 'rating' }, Math.round(d.after)),
                  h('span', { class: diff >= 0 ? 'up' : 'down' }, `${diff >= 0 ? '+' : ''}${diff}`), tierBadge(d.tier, d.tier_code, d.provisional));
              }))
            : null,
          room.game_id != null ? h('a', { class: 'link', href: href('game', { id: recordOf(room) }) }, t('room.record')) : null,
        ),
        room.game_id != null ? shareRecord(recordOf(room)) : null,
        c.answerRematch ? offerPrompt('rematch', t('room.rematch_requested', { name: name(other(you)) })) : null,
      ];
    }
    const out = [];
    const own = board.prompts(room, c, you);
    if (own.lead) {
      out.push(own.lead);
    } else if (c.myTurn) {
      out.push(h('p', { class: 'lead turn' }, t('room.your_turn')));
    } else if (room.to_act) {
      out.push(h('p', { class: 'lead' }, you ? t('room.their_turn', { name: name(room.to_act) }) : t('room.to_move', { colour: colourWord(room, room.to_act) })));
    }
    out.push(...own.extra);
    if (c.answerDraw) out.push(offerPrompt('draw', t('room.draw_offered', { name: name(other(you)) })));
    if (c.answerTakeback) out.push(offerPrompt('takeback', t('room.takeback_requested', { name: name(other(you)) })));
    return out;
  }

  /** Who won and why: in the game's own words when it has them (Othello's count), else in every game's. */
  function sentence(r) {
    const names = { black: displayName(room.seats.black) || undefined, white: displayName(room.seats.white) || undefined };
    return member.resultSentence(r, names) || resultSentence(r, names);
  }

  /** The link to share once a game is over: its record, which stays when the room closes; the room's does not. */
  function shareRecord(rec) {
    const link = `${location.origin}${location.pathname}${href('game', { id: rec })}`;
    return h('div', { class: 'invite share' },
      h('input', { type: 'text', readonly: true, value: link, 'aria-label': t('room.share_record'), id: 'share-link' }),
      h('button', { class: 'btn', type: 'button', onclick: async (e) => {
        try { await navigator.clipboard.writeText(link); e.target.textContent = t('room.copied'); } catch { document.getElementById('share-link').select(); }
      } }, t('room.copy')));
  }

  function offerPrompt(kind, text) {
    const answer = (accept) => send({ t: `answer_${kind}`, room: id, accept }).catch(() => {});
    return h('div', { class: 'ask offer', dataset: { offer: kind } }, h('p', {}, text),
      h('div', { class: 'buttons' },
        h('button', { class: 'btn primary', onclick: () => answer(true) }, t('room.accept')),
        h('button', { class: 'btn', onclick: () => answer(false) }, t('room.decline'))));
  }

  function actionButtons(c) {
    if (!c.seated && room.state === 'waiting' && (!room.seats.black || !room.seats.white)) {
      // Someone who came through a watch link to a room still waiting can sit down instead.
      // The server answers a second join on the same connection with the state only, so the spectator leaves first.
      const sit = () => conn.request({ t: 'leave', room: id })
        .then(() => conn.join(id, 'player'))
        .catch((e) => toast(errorText(e.code, e.message), 'error'));
      return [h('button', { class: 'btn primary', id: 'take-seat', onclick: sit }, t('room.join_seat'))];
    }
    if (!c.seated) return [h('p', { class: 'muted spectating' }, t('room.spectating'))];
    const b = [];
    if (room.state === 'playing') {
      b.push(h('button', { class: 'btn', id: 'offer-draw', disabled: !c.offerDraw, onclick: () => send({ t: 'offer_draw', room: id }).then(() => toast(t('room.offer_sent'))).catch(() => {}) }, t('room.draw')));
      b.push(h('button', { class: 'btn', id: 'takeback', disabled: !c.takeback, onclick: () => send({ t: 'request_takeback', room: id }).then(() => toast(t('room.offer_sent'))).catch(() => {}) }, t('room.takeback')));
      b.push(h('button', { class: 'btn danger', id: 'resign', onclick: () => { if (confirm(t('room.resign_confirm'))) send({ t: 'resign', room: id }).catch(() => {}); } }, t('room.resign')));
      // Without a clock, a player whose opponent stalls can claim the game once the server's idle time passed
      // (issue #36: not before; until then the time left, which tick() keeps counting).
      const claim = claimWin(room, performance.now());
      if (claim?.ready) {
        b.push(h('button', { class: 'btn', id: 'claim-win', onclick: () => send({ t: 'claim_win', room: id }).catch(() => {}) }, t('room.claim_win')));
      } else if (claim) {
        b.push(h('p', { class: 'muted small', id: 'claim-wait' }, claimWaitText(claim.leftMs)));
      }
    }
    if (room.state === 'over') {
      b.push(h('button', { class: 'btn primary', id: 'rematch', disabled: !c.rematch, onclick: () => send({ t: 'offer_rematch', room: id }).catch(() => {}) }, c.rematch ? t('room.rematch') : t('room.rematch_offered')));
    }
    if (room.state !== 'playing') {
      b.push(h('button', { class: 'btn ghost', id: 'leave', onclick: () => { send({ t: 'leave', room: id }).catch(() => {}); conn.forget(id); app.navigate('#/'); } }, t('room.leave')));
    }
    return b;
  }

  /**
   * Rebuilds a part of the page only when what it shows changed (`key`, with the language), so an event leaves
   * every other part, and the keyboard focus inside it, as it was.
   */
  function section(el, key, build) {
    const k = JSON.stringify([lang(), key]);
    if (shown.get(el) === k) return false;
    shown.set(el, k);
    mount(el, build());
    return true;
  }

  function drawMoves() {
    const entries = member.moveEntries(room);
    movesBox.dataset.game = member.name;
    if (section(movesBox, entries, () => entryItems(h, entries))) movesBox.scrollTop = movesBox.scrollHeight;
  }

  /** A moderator's removal (issue #38) drops the line from the spectators' chat kept here too (the room state drops
   * it from the players' chat). */
  function dropRemoved(events) {
    for (const e of events) {
      if (e?.kind === 'chat_removed') spectatorChat = spectatorChat.filter((l) => l.line !== e.line);
    }
  }

  function drawChat() {
    const seated = Boolean(seatOf(room));
    spectatorToggle.hidden = !seated || muted;
    const withSpectators = !seated || showSpectators;
    const changed = section(chatLog, [muted, room.chat, withSpectators && spectatorChat], () => {
      if (muted) return h('p', { class: 'muted', id: 'chat-muted' }, t('room.chat_muted'));
      const lines = room.chat.map((m) => h('div', { class: 'msg', 'data-line': m.line ?? '' }, h('b', {}, m.from), ' ', m.text, chatReportButton(app, m.from, id, reportSlot)));
      // Players' and spectators' chat are kept apart; the spectators' comes below, marked as theirs.
      if (withSpectators) {
        for (const m of spectatorChat) lines.push(h('div', { class: 'msg spec', 'data-line': m.line ?? '' }, h('b', {}, m.from), ' ', m.text));
      }
      return lines;
    });
    if (changed) chatLog.scrollTop = chatLog.scrollHeight;
  }

  function drawStatic() {
    for (const el of layout.querySelectorAll('[data-l]')) el.textContent = t(el.dataset.l);
    chatInput.placeholder = t('room.chat_placeholder');
    chatForm.querySelector('button').textContent = t('room.send');
    const toggle = (key, label) => h('label', { class: 'toggle' },
      h('input', { type: 'checkbox', checked: settings[key], onchange: (e) => { settings = { ...settings, [key]: e.target.checked }; saveSettings(settings); draw(); } }),
      h('span', {}, label));
    // The board's own settings come from the game (Gomoku: numbered stones, a confirming tap); the sound is every game's.
    const own = { numbers: () => toggle('numbers', t('room.numbers')), confirm: () => toggle('confirm', t('room.confirm_setting')) };
    const keys = settingKeys();
    settingsShown = String(keys);
    mount(settingsBox, ...keys.map((k) => own[k]()), toggle('sound', t('room.sound')));
  }

  /** The board settings shown: the game's, without the confirming tap for a spectator (who never places). */
  function settingKeys() {
    const keys = member?.settings ?? ['numbers', 'confirm'];
    return room && !seatOf(room) ? keys.filter((k) => k !== 'confirm') : keys;
  }

  function draw() {
    if (!room) return;
    if (String(settingKeys()) !== settingsShown) drawStatic();
    const c = controls(room);
    const you = seatOf(room);
    const bottom = you || member.colours[0];
    playerCard(bottomCard, bottom);
    playerCard(topCard, other(bottom));
    layout.dataset.state = room.state;
    layout.dataset.role = you ? 'player' : 'spectator';
    layout.dataset.version = room.version;
    layout.dataset.ply = member.ply(room);
    const vsComputer = isComputer(room.seats.black) || isComputer(room.seats.white);
    section(info, [room.rules, room.game, room.time_control, room.rated, room.spectators, vsComputer, room.match_id], () => [
      h('span', { class: 'rules', id: 'room-rules' }, member.describe(room)),
      h('a', { class: 'rules-link', id: 'room-rules-link', href: href('rules', { game: member.name }) }, t('rules.link')),
      h('span', { class: 'tc' }, describeTimeControl(room.time_control, t)),
      room.rated ? h('span', { class: 'badge rated' }, t('create.rated')) : null,
      vsComputer ? h('span', { class: 'badge computer', id: 'vs-computer' }, t('computer.unrated')) : null,
      room.match_id != null ? h('a', { class: 'badge match-link', id: 'room-match', href: href('match', { id: room.match_id }) }, t('match.link')) : null,
      h('span', { class: 'spectators', id: 'spectators', hidden: !room.spectators }, t('room.spectators', { n: room.spectators })),
    ]);
    const names = { black: room.seats.black?.name, white: room.seats.white?.name };
    section(prompt, [you, room.state, computerInfo, room.phase, room.to_act, c, board.promptKey(room), names, room.result, room.game_id, room.record], () => promptContent(c));
    const claimWin = room.time_control.kind === 'none' && room.to_act && room.to_act !== you;
    const free = !room.seats.black || !room.seats.white;
    // Only what the buttons show: a move that leaves them as they were keeps them (and the focus on them).
    section(actions, [you, room.state, c.seated, c.offerDraw, c.takeback, c.rematch, claimKey(), free], () => actionButtons(c));
    board.draw(room, c, settings);
    drawMoves();
    drawChat();
    tick();
  }

  /** What the claim of the win shows now: nothing, the wait, or the button. */
  function claimKey() {
    const claim = claimWin(room, performance.now());
    return claim ? claim.ready : null;
  }

  function claimWaitText(leftMs) {
    const s = Math.ceil(leftMs / 1000);
    return t('room.claim_in', { time: `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}` });
  }

  function tick() {
    if (!room || destroyed) return;
    const now = performance.now();
    // The claim's countdown, and the button once the idle time has passed.
    const claim = claimWin(room, now);
    const wait = actions.querySelector('#claim-wait');
    if (claim?.ready && wait) draw();
    else if (wait && claim) wait.textContent = claimWaitText(claim.leftMs);
    const figs = clockFigures(room, now);
    const periodMs = room.time_control.kind === 'byo_yomi' ? room.time_control.period_ms : 0;
    for (const colour of ['black', 'white']) {
      const el = layout.querySelector(`[data-clock="${colour}"]`);
      if (el && figs) {
        const v = clockAt(figs[colour], figs[colour].elapsed, periodMs);
        // The time, then its periods or first-move allowance as a phrase a phone puts on a line of its own (so the
        // clock never grows over the player's name and tier).
        const parts = clockParts(figs[colour], figs[colour].elapsed, { periodMs, playing: room.state === 'playing' }, t);
        const text = parts.time + parts.extra.map((x) => ` · ${x}`).join('');
        if (el.dataset.text !== text) {
          el.dataset.text = text;
          el.replaceChildren(parts.time, ...parts.extra.map((x) => h('span', { class: 'clock-extra' }, h('span', { class: 'sep' }, ' · '), x)));
        }
        el.classList.toggle('running', figs.running === colour);
        el.classList.toggle('low', figs.running === colour && v.ms < 10_000);
      }
      const g = layout.querySelector(`[data-grace="${colour}"]`);
      if (g) {
        const until = room.graceUntil[colour];
        const name = room.seats[colour]?.name;
        g.textContent = until && room.state === 'playing' ? t('room.disconnected', { name, s: Math.max(0, Math.ceil((until - now) / 1000)) }) : '';
      }
    }
  }

  const interval = setInterval(tick, 100);

  function setRoom(next) {
    const before = room;
    room = next;
    useGame(room);
    if (room.record != null) rememberRecord(id, room.record);
    if (room.needsResync) {
      room = { ...room, needsResync: false };
      conn.request({ t: 'join', room: id, as: params.watch || !seatOf(room) ? 'spectator' : 'player' }).catch(() => {});
    }
    // Notices belong to the event that raised them: only a new version may show them.
    if (room.version !== before?.version) {
      for (const n of room.notices || []) toast(t(n));
      const me = seatOf(room);
      if (me && room.lastAnswer && room.lastAnswer !== before?.lastAnswer && !room.lastAnswer.accept && room.lastAnswer.by !== me) {
        // Say what was declined and by whom: a bare "Declined" leaves the player guessing.
        const by = (room.seats[room.lastAnswer.by] && displayName(room.seats[room.lastAnswer.by])) || colourWord(room, room.lastAnswer.by);
        toast(t(`room.declined_${room.lastAnswer.offer}`, { name: by }));
      }
    }
    board.changed(before, room);
    if (settings.sound && before && member.ply(room) > member.ply(before) && room.version !== before.version) playStone();
    // A player in another tab sees from the title that it is their move.
    roomTurn(id, controls(room).myTurn);
    draw();
  }

  const offs = [
    conn.on('room', (m) => {
      if (m.room.id !== id) return;
      // Every snapshot carries the room's chat as the server keeps it: its lines replace the ones shown, so a
      // reload or a late spectator reads the history and a resync never shows a line twice.
      const next = fromSnapshot(m.room, conn.you?.id, performance.now());
      spectatorChat = splitChat(m.room.chat).spectators;
      setRoom(next);
      if (showSpectators && !muted && seatOf(room) && shownOn !== conn.ws) showSpectatorChat(true);
    }),
    conn.on('event', (m) => {
      if (m.room !== id || !room) return;
      dropRemoved([m.event]);
      setRoom(applyEvent(room, m.version, m.event, performance.now()));
    }),
    conn.on('spectator_chat', (m) => {
      if (m.room !== id || !room) return;
      spectatorChat = [...spectatorChat, { from: m.from, text: m.text, line: Number.isInteger(m.line) ? m.line : null }].slice(-100);
      drawChat();
    }),
    conn.on('catch_up', (m) => {
      if (m.room !== id || !room) return;
      dropRemoved((m.events ?? []).map((e) => e.event));
      setRoom(applyCatchUp(room, m.events, performance.now()));
    }),
    conn.on('status', (s) => {
      banner.hidden = s.state === 'online';
      banner.textContent = s.state === 'online' ? '' : t('conn.lost');
    }),
    conn.on('resume_failed', (m) => {
      if (m.room === id) toast(errorText(m.code), 'error');
    }),
  ];
  // The notice shown instead of the room when it cannot be joined: redrawn in a new language like the rest.
  let gone = null;
  const onLang = () => {
    if (gone) return gone();
    drawStatic();
    draw();
  };
  document.addEventListener('langchange', onLang);
  drawStatic();

  const join = async () => {
    try {
      await conn.join(id, params.watch ? 'spectator' : 'player');
    } catch (e) {
      if (e.code === 'room_full' && !params.watch) {
        // Someone else took the seat: watching is the next best thing.
        try {
          await conn.join(id, 'spectator');
          return;
        } catch (e2) {
          e = e2;
        }
      }
      if (e.code === 'disconnected') return;
      // A room we saw a game in has closed since: its game lives on as a record.
      const rec = e.code === 'unknown_room' ? loadRecords()[id] : undefined;
      const failure = e;
      gone = () => mount(view, h('div', { class: 'card notice', id: 'room-gone' },
        h('p', {}, failure.code === 'unknown_room' ? t(rec != null ? 'room.gone_after_game' : 'room.unknown') : errorText(failure.code, failure.message)),
        rec != null ? h('a', { class: 'btn primary', id: 'gone-record', href: href('game', { id: rec }) }, t('room.record')) : null,
        // A seek whose rating range leaves us out (issue #18) can still be watched.
        failure.code === 'outside_rating_range' ? h('a', { class: 'btn primary', id: 'watch-instead', href: href('room', { id, watch: true }) }, t('lobby.watch')) : null,
        h('a', { class: 'btn', href: '#/' }, t('nav.lobby'))));
      gone();
    }
  };
  join();

  return () => {
    destroyed = true;
    roomTurn(null, false);
    clearInterval(interval);
    offs.forEach((off) => off());
    document.removeEventListener('langchange', onLang);
    // Navigating away from a live game must not resign it (a player's `leave` would), so players only stop
    // following; a spectator leaves, so the room's spectator count stays true.
    if (room && !seatOf(room)) conn.request({ t: 'leave', room: id }).catch(() => {});
    conn.forget(id);
  };
}
