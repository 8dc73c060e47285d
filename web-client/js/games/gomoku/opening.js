// Gomoku's openings in the room (the classic ones, and issue #19's Swap1, Swap2, Soosõrv-N, Taraguchi-N). Every
// Gomoku room speaks the generic forms of docs/protocol.md (protocol version 2): the position is the snapshot's
// `view`, every accepted action an `action` event with a `change`, and the client plays with `act` alone. This
// module folds those into the Gomoku room's own fields (`moves`, `phase`, `to_act`, `forbidden`, `fifth_options`,
// …, so the board and the forbidden marks read them) and keeps what only the modern openings have in `room.view`
// (`actions`, `offers`, `offer_count`, `declare_max`, `declared`, `opening_name`). Pure: no DOM, no socket.

/** The modern openings (their records name each step; their prompts are the `op.*` ones). */
const STAGED = /^(swap1|swap2|soosorv|taraguchi)(_\d+)?$/;

/** The opening choices of the create form, in the order shown (N of Soosõrv and Taraguchi is a field of its own). */
export const OPENINGS = ['none', 'swap_after_three', 'swap_after_three_fifth_two_options', 'swap1', 'swap2', 'soosorv', 'taraguchi'];

/** N's range and defaults (docs/protocol.md, create_room). */
export const MAX_N = 10;
export const DEFAULT_N = { soosorv: 8, taraguchi: 10 };

/** Whether a room (or a rules spec, or an opening code) is played under one of the modern openings. */
export function isStaged(x) {
  if (typeof x === 'string') return STAGED.test(x);
  if (!x || typeof x !== 'object') return false;
  return STAGED.test(x.rules?.opening || x.game?.opening || x.opening || '');
}

/** An opening code split into its family and N: `soosorv_8` → {family: 'soosorv', n: 8}; `swap2` → n null. */
export function parseOpening(code) {
  const m = /^([a-z0-9_]+?)(?:_(\d+))?$/.exec(String(code || 'none'));
  if (m && (m[1] === 'soosorv' || m[1] === 'taraguchi')) return { family: m[1], n: m[2] ? Number(m[2]) : DEFAULT_N[m[1]] };
  return { family: String(code || 'none'), n: null };
}

/** The opening code the create form's values make: `soosorv` with its N becomes `soosorv_8`. */
export function openingCode(v) {
  const family = v.opening || 'none';
  if (!(family in DEFAULT_N)) return family;
  const n = Math.round(Number(v[`${family}_n`]));
  return `${family}_${Number.isFinite(n) && n >= 1 && n <= MAX_N ? n : DEFAULT_N[family]}`;
}

/** The opening's N from a room's rules (null for openings without one). */
export function openingN(room) {
  return parseOpening(room.rules?.opening || room.game?.opening).n;
}

/** Whether an action text is an opening decision (a takeback never undoes one). */
export function isDecision(text) {
  return text === 'swap' || text === 'keep' || /^(add|declare|offer|choose|propose):/.test(text);
}

/** The other colour. */
const other = (colour) => (colour === 'black' ? 'white' : 'black');

/** A view with every field this client reads, from a snapshot's or an event's (or none: a game not begun). */
function normalView(v, room) {
  return {
    game: 'gomoku',
    size: v?.size || room.rules?.size || 15,
    moves: Array.isArray(v?.moves) ? v.moves : [],
    to_act: v?.to_act ?? null,
    phase: v?.phase ?? null,
    swapped: Boolean(v?.swapped),
    forbidden: v?.forbidden || [],
    claimable: v?.claimable ?? null,
    fifth_options: Array.isArray(v?.fifth_options) ? v.fifth_options : null,
    offers: v?.offers ?? null,
    offer_count: v?.offer_count ?? null,
    declare_max: v?.declare_max ?? null,
    declared: v?.declared ?? v?.offer_count ?? null,
    opening_name: v?.opening_name ?? null,
    actions: Array.isArray(v?.actions) ? v.actions : [],
  };
}

/**
 * The phase a new game starts in: the classic openings and Taraguchi place stone by stone, the other modern ones
 * place the opening's three.
 */
export function firstPhase(room) {
  return isStaged(room) && parseOpening(room.rules?.opening).family !== 'taraguchi' ? 'place_opening' : 'place';
}

/** Copies the view's position onto the room's Gomoku fields (the board, the forbidden marks and the prompts read those). */
function mirror(room) {
  const v = room.view;
  room.moves = v.moves;
  room.swapped = v.swapped;
  room.forbidden = v.forbidden;
  room.claimable = v.claimable;
  room.fifth_options = v.fifth_options;
  if (room.state === 'playing') {
    if (v.phase) room.phase = v.phase;
    if (v.to_act) room.to_act = v.to_act;
  }
}

/** A room fresh from a snapshot: the view is the position (the snapshot's own Gomoku fields are empty). */
export function stagedSnapshot(room) {
  room.view = normalView(room.view, room);
  mirror(room);
  return room;
}

/** How many actions the game has had: the `at` of the next `act`. */
export function stagedPly(room) {
  return room.view?.actions?.length ?? 0;
}

/**
 * What the view shows in the phase an action led to: how many offers are due and the most that may be declared
 * (the `action` event's `change` does not carry them; the snapshot's view does).
 */
function phaseFields(view, phase, room) {
  const n = openingN(room);
  return {
    offer_count: phase === 'offer_fifths' ? view.declared : phase === 'taraguchi_choice' ? n : null,
    declare_max: phase === 'declare_offers' ? n : null,
  };
}

/**
 * Folds one event into `room` (a copy of `prev`). `action`: only its `change` and the actions list (state.js set
 * `to_act` and `phase`, or sets them after). A swap exchanges the seats here: the event does not carry them.
 */
export function stagedReduce(room, prev, event, withClocks) {
  switch (event.kind) {
    case 'action': {
      const c = event.change || {};
      if (c.game && c.game !== 'gomoku') return;
      const v = { ...prev.view };
      if (Array.isArray(c.added)) v.moves = [...v.moves, ...c.added];
      else if (c.placed) v.moves = [...v.moves, c.placed];
      if (c.swapped !== undefined) {
        room.notices = [c.swapped ? 'room.swapped' : 'room.kept'];
        if (c.swapped) {
          v.swapped = !v.swapped;
          room.seats = { black: prev.seats.white, white: prev.seats.black };
        }
      }
      if (c.declared != null) v.declared = c.declared;
      // The fifth-move opening's two proposals stand until white chooses one.
      v.fifth_options = Array.isArray(c.proposed) ? c.proposed : null;
      v.offers = Array.isArray(c.offered) ? c.offered : null;
      v.forbidden = c.forbidden || [];
      v.claimable = c.claimable && c.placed ? { point: c.placed, kind: c.claimable } : null;
      v.actions = [...v.actions, event.action];
      // The name of the first three stones (kept once known: only a takeback's new view changes it).
      if (!v.opening_name || v.moves.length < 3) v.opening_name = nameOpening(v.moves, v.size);
      v.to_act = event.to_act ?? null;
      v.phase = event.phase ?? null;
      Object.assign(v, phaseFields(v, v.phase, room));
      room.view = v;
      mirror(room);
      room.to_act = event.to_act ?? null;
      room.phase = event.phase ?? null;
      break;
    }
    case 'game_started': {
      const v = normalView(event.view, room);
      v.phase = v.phase || firstPhase(room);
      v.to_act = v.to_act || 'black';
      room.view = v;
      mirror(room);
      room.phase = v.phase;
      room.to_act = v.to_act;
      room.claimable = null;
      break;
    }
    case 'actions_taken_back': {
      const v = normalView(event.view, room);
      v.to_act = event.to_act ?? v.to_act;
      v.phase = event.phase ?? v.phase;
      room.view = v;
      mirror(room);
      room.offers = (room.offers || prev.offers || []).filter((o) => o.kind !== 'takeback');
      break;
    }
    case 'game_over':
      room.view = { ...prev.view, to_act: null, phase: null, forbidden: [], claimable: null, offers: null, fifth_options: null };
      Object.assign(room, { forbidden: [], claimable: null, fifth_options: null });
      break;
    default:
      break;
  }
  void withClocks;
}

/**
 * The local player's flags: `place` a stone (the opening's or a normal one), `swap` (swap or keep), `swap2` (keep,
 * swap or add two), `declare`, `offer` (pick the fifth-move offers; Taraguchi's choice also allows `swap`),
 * `chooseOffer`, the classic fifth move's `proposeFifth` (two points) and `chooseFifth`, `claim`; `input`: the
 * board takes a point now.
 */
export function stagedControls(room, you) {
  const playing = room.state === 'playing';
  const myTurn = playing && you && room.to_act === you;
  const phase = room.phase;
  const c = {
    place: Boolean(myTurn && (phase === 'place' || phase === 'place_opening')),
    swap: Boolean(myTurn && (phase === 'swap_decision' || phase === 'taraguchi_choice')),
    swap2: Boolean(myTurn && phase === 'swap2_decision'),
    declare: Boolean(myTurn && phase === 'declare_offers'),
    offer: Boolean(myTurn && (phase === 'offer_fifths' || phase === 'taraguchi_choice')),
    chooseOffer: Boolean(myTurn && phase === 'choose_offer'),
    proposeFifth: Boolean(myTurn && phase === 'propose_fifth'),
    chooseFifth: Boolean(myTurn && phase === 'choose_fifth'),
    claim: Boolean(playing && you === 'white' && room.claimable),
  };
  c.input = c.place || c.swap2 || c.offer || c.chooseOffer || c.proposeFifth || c.chooseFifth;
  return c;
}

/**
 * Whether a takeback asked for by `colour` would undo something of its own, by the room's rule
 * (server/src/room/play.rs `takeback_count`): its last action and at most one reply after it, none of them an
 * opening decision. Those are plain stones, placed after the last decision, so the colour a stone has is its
 * placer's now, except the opening's first three under Swap1, Swap2 and Soosõrv: the first player placed all three.
 */
export function stagedCanTakeBack(room, colour) {
  const actions = room.view?.actions || [];
  const moves = room.moves || [];
  const three = ['swap1', 'swap2', 'soosorv'].includes(parseOpening(room.rules?.opening).family);
  for (let back = 0; back < 2 && back < actions.length; back++) {
    const text = actions[actions.length - 1 - back];
    if (isDecision(text) || text === 'claim') return false;
    const k = moves.length - 1 - back;
    if (k < 0) return false;
    const placer = three && k < 3 ? 'black' : k % 2 === 0 ? 'black' : 'white';
    if (placer === colour) return true;
  }
  return false;
}

/** The colour of the next stone on the board: black, white, black… whoever places it. */
export function nextStone(room) {
  return (room.moves?.length ?? 0) % 2 === 0 ? 'black' : 'white';
}

/**
 * A pick of points on the board (Swap2's two stones, the fifth-move offers): a tap on a picked point takes it
 * back, a tap on a new one adds it while fewer than `max` are picked (else nothing changes). Occupied points are
 * the caller's to refuse.
 */
export function togglePick(picks, point, max) {
  if (picks.includes(point)) return picks.filter((p) => p !== point);
  if (picks.length >= max) return picks;
  return [...picks, point];
}

/** The `act` message for an action text at the room's next index. */
export function act(room, action) {
  return { t: 'act', room: room.id, action, at: stagedPly(room) };
}

/** Action texts (docs/protocol.md): `add:a,b`, `declare:n`, `offer:a,b,…`, `choose:a`, `propose:a,b`. */
export const texts = {
  propose: (points) => `propose:${points.join(',')}`,
  add: (points) => `add:${points.join(',')}`,
  declare: (n) => `declare:${n}`,
  offer: (points) => `offer:${points.join(',')}`,
  choose: (point) => `choose:${point}`,
};

/**
 * What the prompt says to the player who must act, or to everyone else (the other player, spectators): an i18n
 * key and its parameters, by phase. `who` is the acting side's colour; `mine` whether that is the local player.
 */
export function promptFor(room, mine) {
  const phase = room.phase;
  const who = room.to_act;
  const stone = nextStone(room);
  const count = room.view?.offer_count ?? room.view?.offers?.length ?? null;
  const n = room.moves?.length ?? 0;
  const family = parseOpening(room.rules?.opening).family;
  const params = { colour: who, stone, count, max: room.view?.declare_max ?? openingN(room), number: n + 1 };
  const side = mine ? 'you' : 'wait';
  switch (phase) {
    case 'place_opening':
      return { key: `op.${side}.place_opening${family === 'soosorv' ? '_canonical' : ''}`, params };
    case 'swap_decision':
      // Swap2's choice after the two extra stones is the first player's choice of colour.
      return { key: `op.${side}.${family === 'swap2' ? 'colour_choice' : 'swap'}`, params: { ...params, keep: who, take: other(who) } };
    case 'swap2_decision':
      return { key: `op.${side}.swap2`, params };
    case 'declare_offers':
      return { key: `op.${side}.declare`, params };
    case 'offer_fifths':
      return { key: `op.${side}.offer`, params };
    case 'taraguchi_choice':
      return { key: `op.${side}.taraguchi_choice`, params: { ...params, keep: who, take: other(who) } };
    case 'choose_offer':
      return { key: `op.${side}.choose`, params };
    case 'place':
      if (family === 'taraguchi' && n === 0) return { key: `op.${side}.taraguchi_centre`, params };
      if (family === 'taraguchi' && n < 5) return { key: `op.${side}.taraguchi_place`, params: { ...params, square: 2 * n + 1 } };
      return null;
    default:
      return null;
  }
}

/**
 * The 26 canonical renju openings (rules/src/canonical.rs, the RIF's list): code, Japanese name in romaji,
 * Chinese name, English rendering, and black's second stone as an offset from the centre with white's stone at
 * (0, 1) (direct, `D`) or (1, 1) (indirect, `I`).
 */
const CANONICAL = [
  ['1D', 'Kansei', '寒星', 'Cold star', 0, 2], ['2D', 'Keigetsu', '溪月', 'Valley moon', -1, 2],
  ['3D', 'Sosei', '疏星', 'Sparse star', -2, 2], ['4D', 'Kagetsu', '花月', 'Flower moon', -1, 1],
  ['5D', 'Zangetsu', '残月', 'Waning moon', -2, 1], ['6D', 'Ugetsu', '雨月', 'Rain moon', -1, 0],
  ['7D', 'Kinsei', '金星', 'Venus', -2, 0], ['8D', 'Shogetsu', '松月', 'Pine moon', 0, -1],
  ['9D', 'Kyugetsu', '丘月', 'Hill moon', -1, -1], ['10D', 'Shingetsu', '新月', 'New moon', -2, -1],
  ['11D', 'Zuisei', '瑞星', 'Lucky star', 0, -2], ['12D', 'Sangetsu', '山月', 'Mountain moon', -1, -2],
  ['13D', 'Yusei', '游星', 'Planet', -2, -2],
  ['1I', 'Chosei', '长星', 'Long star', 2, 2], ['2I', 'Kyogetsu', '峡月', 'Gorge moon', 1, 2],
  ['3I', 'Kosei', '恒星', 'Fixed star', 0, 2], ['4I', 'Suigetsu', '水月', 'Water moon', -1, 2],
  ['5I', 'Ryusei', '流星', 'Meteor', -2, 2], ['6I', 'Ungetsu', '云月', 'Cloud moon', 0, 1],
  ['7I', 'Hogetsu', '浦月', 'Bay moon', -1, 1], ['8I', 'Rangetsu', '岚月', 'Storm moon', -2, 1],
  ['9I', 'Gingetsu', '银月', 'Silver moon', -1, 0], ['10I', 'Myojo', '明星', 'Morning star', -2, 0],
  ['11I', 'Shagetsu', '斜月', 'Slanting moon', -1, -1], ['12I', 'Meigetsu', '名月', 'Harvest moon', -2, -1],
  ['13I', 'Suisei', '彗星', 'Comet', -2, -2],
];

/** The eight rotations and reflections about the centre. */
const SYMMETRIES = [
  (x, y) => [x, y], (x, y) => [-y, x], (x, y) => [-x, -y], (x, y) => [y, -x],
  (x, y) => [-x, y], (x, y) => [x, -y], (x, y) => [y, x], (x, y) => [-y, -x],
];

/**
 * The canonical opening the first three stones make, as the server's view names it (`{code, romaji, chinese,
 * english}`), or null: black 1 on the centre, white 2 touching it, black 3 elsewhere in the central 5×5, up to
 * the board's symmetries (as `rules::name_opening`). The `action` events do not carry the name; this keeps it
 * shown once the third stone is down.
 */
export function nameOpening(moves, size = 15) {
  if (!Array.isArray(moves) || moves.length < 3) return null;
  const xy = (p) => {
    const m = /^([a-s])(\d{1,2})$/.exec(p);
    return m ? ['abcdefghijklmnopqrs'.indexOf(m[1]), Number(m[2]) - 1] : null;
  };
  const c = Math.floor(size / 2);
  const [b1, w2, b3] = moves.slice(0, 3).map(xy);
  if (!b1 || !w2 || !b3 || b1[0] !== c || b1[1] !== c) return null;
  const w = [w2[0] - c, w2[1] - c];
  const b = [b3[0] - c, b3[1] - c];
  if ((w[0] === 0 && w[1] === 0) || Math.abs(w[0]) > 1 || Math.abs(w[1]) > 1) return null;
  if (Math.abs(b[0]) > 2 || Math.abs(b[1]) > 2 || (b[0] === 0 && b[1] === 0) || (b[0] === w[0] && b[1] === w[1])) return null;
  for (const f of SYMMETRIES) {
    const [wx, wy] = f(w[0], w[1]);
    const family = wx === 0 && wy === 1 ? 'D' : wx === 1 && wy === 1 ? 'I' : null;
    if (!family) continue;
    const [tx, ty] = f(b[0], b[1]);
    const hit = CANONICAL.find(([code, , , , x, y]) => code.endsWith(family) && x === tx && y === ty);
    if (hit) return { code: hit[0], romaji: hit[1], chinese: hit[2], english: hit[3] };
  }
  return null;
}
