// Gomoku in the room page: the board with its input (a tap places, proposes or chooses the fifth move; a marked
// forbidden point asks first), and the prompts its rules call for (swap, fifth move, the modern openings' steps,
// claim). Every action goes out as `act` (protocol version 2).

import { h } from '../../dom.js';
import { t, errorText, lang } from '../../i18n.js';
import { createBoardView } from './view.js';
import { visibleForbidden } from './state.js';
import { controls } from '../../state.js';
import { displayName } from '../../player.js';
import { isStaged, togglePick, act as actMessage, texts, promptFor, nextStone } from './opening.js';

/**
 * The room page's Gomoku board. `ctx` is the page: `room()` the room now, `settings()` the board settings,
 * `request(msg)` sends and rejects on an error (no toast), `send(msg)` the same with the error toasted,
 * `toast(text, kind)`, `ask(text)` a yes/no question, `redraw()`.
 */
export function roomBoard(ctx) {
  // The two fifth-move proposals picked so far (black, in the fifth-move opening).
  let fifthPick = [];
  // The modern openings' picks on the board: Swap2's two extra stones (white's, then black's) or the fifth-move
  // offers; and the number of offers white is about to declare.
  let picks = [];
  let declareN = null;
  const view = createBoardView({
    onPoint: (p) => act(p),
    canPlay: () => {
      const room = ctx.room();
      return Boolean(room && controls(room).input);
    },
    confirm: () => {
      const room = ctx.room();
      return Boolean(ctx.settings().confirm && room && controls(room).place);
    },
  });

  /** Sends an action text as `act` at the room's next index; the page toasts a refusal in words. */
  function sendAct(room, text) {
    return ctx.send(actMessage(room, text));
  }

  /**
   * A tap on the board: a stone (a marked forbidden point asks first, under every policy: what playing it would
   * do; afterwards what happened), a pick (Swap2's two, the offers, the classic fifth move's two proposals) or the
   * chosen offer or fifth move.
   */
  function act(point) {
    const room = ctx.room();
    const c = controls(room);
    if (c.place) {
      const f = visibleForbidden(room).find((x) => x.point === point);
      const policy = room.rules.forbidden_policy;
      const kind = f ? t(`kind.${f.kind}`) : '';
      if (f && !ctx.ask(t(`room.forbidden_${policy}_confirm`, { point, kind }))) return;
      ctx.request(actMessage(room, point)).catch((e) => {
        if (e.code === 'disconnected') return;
        // Refused: the move was not played and it is still black's turn.
        if (f && String(e.code).startsWith('forbidden_')) ctx.toast(t('room.forbidden_refused', { point, kind }), 'error');
        else ctx.toast(errorText(e.code, e.message), 'error');
      });
    } else if (c.proposeFifth) {
      fifthPick = fifthPick.includes(point) ? fifthPick.filter((p) => p !== point) : [...fifthPick, point].slice(-2);
      ctx.redraw();
    } else if (c.chooseFifth && room.fifth_options?.includes(point)) {
      sendAct(room, texts.choose(point)).catch(() => {});
    } else if (c.swap2) {
      picks = togglePick(picks, point, 2);
      ctx.redraw();
    } else if (c.offer) {
      picks = togglePick(picks, point, room.view?.offer_count ?? 0);
      ctx.redraw();
    } else if (c.chooseOffer && room.view?.offers?.includes(point)) {
      sendAct(room, texts.choose(point)).catch(() => {});
    }
  }

  /**
   * The prompt of a modern-opening room: for the player who must act, what to do with its controls (swap or keep
   * as a choice of colour, Swap2's three answers, the declaration, the offers picked on the board, the choice
   * among them); for everyone else, who is doing what ("Black is choosing…").
   */
  function stagedLead(room, c, you) {
    const mine = Boolean(c.myTurn);
    const p = promptFor(room, mine);
    if (!p) return null;
    const colour = (x) => t(`colour.${x}`);
    const seat = room.seats[room.to_act];
    const who = seat ? t('op.who', { colour: colour(room.to_act), name: displayName(seat) }) : colour(room.to_act);
    const params = { ...p.params, who, colour: colour(p.params.colour), stone: colour(p.params.stone), keep: p.params.keep && colour(p.params.keep), take: p.params.take && colour(p.params.take) };
    const text = t(p.key, params);
    if (!mine) return h('p', { class: 'lead wait', id: 'op-wait', dataset: { phase: room.phase } }, text);
    const box = (...kids) => h('div', { class: 'ask opening', id: 'op-prompt', dataset: { phase: room.phase } }, h('p', {}, text), ...kids);
    const button = (idName, label, onclick, attrs = {}) => h('button', { class: 'btn', type: 'button', id: idName, onclick, ...attrs }, label);
    const swapButtons = () => h('div', { class: 'buttons' },
      button('op-swap', t('op.take', { colour: params.take }), () => sendAct(room, 'swap').catch(() => {}), { class: 'btn primary' }),
      button('op-keep', t('op.keep', { colour: params.keep }), () => sendAct(room, 'keep').catch(() => {})));
    const pickRow = (max, sendId, sendLabel, text) => h('div', { class: 'picks' },
      h('p', { class: 'pick-count', id: 'op-picks' }, t('op.picked', { n: picks.length, max }), picks.length ? ` · ${picks.join(', ')}` : ''),
      h('div', { class: 'buttons' },
        button(sendId, sendLabel, () => sendAct(room, text(picks)).then(() => { picks = []; }).catch(() => {}), { class: 'btn primary', disabled: picks.length !== max }),
        button('op-clear', t('op.clear'), () => { picks = []; ctx.redraw(); }, { disabled: !picks.length })));
    switch (room.phase) {
      case 'swap_decision':
        return box(swapButtons());
      case 'swap2_decision':
        return box(
          h('div', { class: 'buttons' },
            button('op-keep', t('op.swap2_keep'), () => sendAct(room, 'keep').catch(() => {}), { class: 'btn primary' }),
            button('op-swap', t('op.swap2_swap'), () => sendAct(room, 'swap').catch(() => {}))),
          h('p', { class: 'or' }, t('op.swap2_add')),
          pickRow(2, 'op-add-send', t('op.add_send'), texts.add));
      case 'declare_offers': {
        const max = room.view?.declare_max ?? p.params.max ?? 1;
        const nums = Array.from({ length: max }, (_, i) => i + 1);
        return box(
          h('div', { class: 'segs declare', role: 'radiogroup', 'aria-label': t('op.declare_label') }, nums.map((n) => h('button', {
            type: 'button', class: `seg-btn${declareN === n ? ' on' : ''}`, id: `op-declare-${n}`, 'aria-pressed': String(declareN === n),
            onclick: () => { declareN = n; ctx.redraw(); },
          }, String(n)))),
          h('div', { class: 'buttons' }, button('op-declare-send', declareN ? t('op.declare_send', { n: declareN }) : t('op.declare_pick'),
            () => sendAct(room, texts.declare(declareN)).catch(() => {}), { class: 'btn primary', disabled: !declareN })));
      }
      case 'offer_fifths':
        return box(pickRow(room.view?.offer_count ?? 0, 'op-offer-send', t('op.offer_send'), texts.offer));
      case 'taraguchi_choice':
        return box(
          h('p', { class: 'or' }, t('op.taraguchi_one')), swapButtons(),
          h('p', { class: 'or' }, t('op.taraguchi_two', { count: room.view?.offer_count ?? 0 })),
          pickRow(room.view?.offer_count ?? 0, 'op-offer-send', t('op.offer_send'), texts.offer));
      case 'choose_offer':
        return box(h('div', { class: 'buttons offers' }, (room.view?.offers || []).map((pt) =>
          button(`op-choose-${pt}`, pt, () => sendAct(room, texts.choose(pt)).catch(() => {})))));
      default:
        return h('p', { class: 'lead turn', id: 'op-prompt', dataset: { phase: room.phase } }, text);
    }
  }

  return {
    el: view.el,
    /** Draws the room's board with what the rules mark on it now. */
    draw(room, c, settings) {
      const forbidden = visibleForbidden(room).map((f) => ({ ...f, label: t('room.forbidden_here', { kind: t(`kind.${f.kind}`) }) }));
      let options = c.proposeFifth ? fifthPick : room.fifth_options || [];
      let ghostColor = nextStone(room);
      if (isStaged(room)) {
        // Swap2's two extra stones are drawn as pending stones of their colours (white 4, black 5); offers are
        // numbered candidates; while white chooses, everyone sees the offers marked.
        if (c.swap2) {
          options = picks.map((point, i) => ({ point, color: i === 0 ? 'white' : 'black', label: String(room.moves.length + 1 + i) }));
          ghostColor = picks.length === 0 ? 'white' : 'black';
        } else if (c.offer) {
          options = picks.map((point, i) => ({ point, label: String(i + 1) }));
          ghostColor = 'black';
        } else {
          options = room.view?.offers || [];
        }
      }
      view.update({
        size: room.rules.size,
        moves: room.moves,
        numbers: settings.numbers,
        winLine: room.result?.line || [],
        forbidden,
        options,
        ghostColor,
        title: t('app.name'),
      });
    },
    /** Called with the room before and after each change: a new phase drops a half-made proposal or pick. */
    changed(before, after) {
      if (before && (before.phase !== after.phase || before.to_act !== after.to_act)) {
        fifthPick = [];
        picks = [];
        declareN = null;
      }
    },
    /** What the prompt depends on beyond what every game shows (so it is rebuilt when that changes). */
    promptKey(room) {
      // The modern openings' prompts count the stones ("stone 2 of 3", Taraguchi's squares): each stone redraws them.
      const stones = room.moves?.length ?? 0;
      return [fifthPick, room.claimable, room.fifth_options, picks, declareN, room.view?.offers, room.view?.offer_count, room.view?.opening_name, stones];
    },
    /**
     * The prompt's Gomoku parts: `lead` the opening's questions (null when the opening asks nothing, and the page
     * says whose turn it is), `extra` what follows it (the claimable forbidden stone, the claim).
     */
    prompts(room, c, you) {
      let lead = null;
      if (isStaged(room)) {
        lead = stagedLead(room, c, you);
      } else if (c.swap) {
        lead = h('div', { class: 'ask', id: 'swap-prompt' }, h('p', {}, t('room.swap_prompt')),
          h('div', { class: 'buttons' },
            h('button', { class: 'btn primary', id: 'swap-yes', onclick: () => sendAct(room, 'swap').catch(() => {}) }, t('room.swap_yes')),
            h('button', { class: 'btn', id: 'swap-no', onclick: () => sendAct(room, 'keep').catch(() => {}) }, t('room.swap_no'))));
      } else if (room.phase === 'swap_decision') {
        lead = h('p', { class: 'lead' }, t('room.swap_wait'));
      } else if (c.proposeFifth) {
        lead = h('div', { class: 'ask', id: 'fifth-prompt' }, h('p', {}, t('room.fifth_propose')),
          h('div', { class: 'buttons' }, h('button', {
            class: 'btn primary', id: 'fifth-send', disabled: fifthPick.length !== 2,
            onclick: () => sendAct(room, texts.propose(fifthPick)).then(() => { fifthPick = []; }).catch(() => {}),
          }, `${t('room.fifth_send')}${fifthPick.length ? ` (${fifthPick.join(', ')})` : ''}`)));
      } else if (room.phase === 'propose_fifth') {
        lead = h('p', { class: 'lead' }, t('room.fifth_wait_propose'));
      } else if (c.chooseFifth) {
        lead = h('div', { class: 'ask', id: 'fifth-choose' }, h('p', {}, t('room.fifth_choose')));
      } else if (room.phase === 'choose_fifth') {
        lead = h('p', { class: 'lead' }, t('room.fifth_wait_choose'));
      }
      const extra = [];
      const name = room.view?.opening_name;
      if (name?.code) {
        const words = lang() === 'zh' ? `${name.code} ${name.chinese}` : `${name.code} ${name.romaji} (${name.english})`;
        extra.push(h('p', { class: 'muted small opening-name', id: 'opening-name' }, t('op.name', { name: words })));
      }
      if (room.claimable && !c.claim) {
        // Under "white may claim": black (and whoever watches) learns what the stone just played means.
        const k = { point: room.claimable.point, kind: t(`kind.${room.claimable.kind}`) };
        extra.push(h('div', { class: 'ask claimable', id: 'claimable-note' }, h('p', {}, you === 'black' ? t('room.claimable_black', k) : t('room.claimable_watch', k))));
      }
      if (c.claim) {
        extra.push(h('div', { class: 'ask claim' }, h('p', {}, t('room.claim_hint', { kind: t(`kind.${room.claimable.kind}`) })),
          h('button', { class: 'btn danger', id: 'claim', onclick: () => sendAct(room, 'claim').catch(() => {}) }, t('room.claim'))));
      }
      return { lead, extra };
    },
  };
}
