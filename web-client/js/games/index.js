// The games the web client knows, behind one interface: the room page, the record page, the create form, the
// lobby and the router ask the member of a room's game and never test a game's name themselves, so a new game
// adds a folder here and a line in GAMES.
//
// A member (the default export of games/NAME/index.js) is a plain object:
//
//   name            the game's wire name ("gomoku", "othello", "draughts"), as in a spec's `game`
//   served          whether the server plays it now; the create form offers only served games
//   computer        (optional) whether the server's computer plays it, while GET /api/computer (whose `plays`
//                   decide) has not answered: the waiting room then offers to invite it
//   colours         the two colours, the one that moves first first (also the seat shown at the bottom)
//   startPhase      the phase a new game starts in
//   pools           the rating pools' names on the leaderboard (`#/leaderboard/POOL`)
//   poolOf(spec)    the pool a create_room spec (or a lobby row) of this game is rated in (seek.js asks)
//   defaultSpec     (optional) the game's spec with the options it has when a spec names none
//   strings         the game's own words, {en: {key: text}, zh: {…}} (its strings.js); its index.js hands them
//                   to i18n.js's addStrings when it loads, so every page finds them under the same keys
//   style           (optional) the URL of the game's own style sheet (its style.css); loadStyles links it
//   sourceKey       the key of the rules' name as the page's footer credits them
//   rulesText       the rules page's words (its rules.js): {en: {title, blurb, blocks}, zh: {…}} (pages/rules.js
//                   says what blocks are); the blurb is the game's line on the landing page
//   rulesFigure     (optional) rulesFigure(name) → an SVG string for a rules block ['figure', name, caption]
//   colourWord      (optional) colourWord(colour) → a seat's word where it is not "Black"/"White" (insect chess's
//                   South and North); colourWord(x, colour) below asks it
//   exportFormat    (optional) the record page's export link (GET /api/games/{id}/export): {extension, labelKey}
//   transcriptKey   (optional) the key naming the record's transcript, for a game whose record has one
//   downloads       (optional) the record's downloads besides the readable record: [[format, suffix, labelKey]]
//   analysable      (optional) whether the analysis board reads its games (the record offers "Analyse")
//   importsPsq      (optional) whether its records are Gomoku's: `.psq` files import to the analysis board,
//                   which then shows forbidden points and rule sets (other games use their record board)
//   settings        the room page's board settings it uses, of `numbers` and `confirm` (the sound is everyone's)
//
//   snapshot(room)                   normalises a room built from a snapshot (its `view`, for the generic games)
//   reduce(room, prev, event, clocks) folds the game's part of an event into `room` (a copy of `prev`); for the
//                                    generic `action` event only its `change` (state.js folds the rest)
//   ply(room)                        how many actions the room's game has had (the `at` of the next one)
//   controls(room, you)              the game's own flags for the local player; `input`: the board takes a move
//   canTakeBack(room, colour)        whether a takeback now would undo something of `colour`'s
//   moveEntries(room | record)       the move list: [{n, point, colour}] in order (`point` is the text shown)
//   describe(room | record, {size})  the game and its options in words, for the lobby row, room and record
//   quickWords(spec)                 (optional) a quick-pairing tile's or seek's options in words, without the
//                                    game's name (the lobby's tiles are grouped under it): "Renju · Soosõrv-8"
//   resultSentence(result, names)    a result the game words itself (Othello's count, draughts' draws), or ''
//                                    for result.js's shared words
//
//   roomBoard(ctx)        the room page's board: {el, draw(room, controls, settings), changed(before, after),
//                         promptKey(room), prompts(room, controls, you) → {lead, extra}}. Its input model turns
//                         clicks, taps and keys into an intention it sends itself through ctx (room(), settings(),
//                         request, send, toast, ask, redraw); for the generic games that is
//                         {"t":"act","room":R,"action":NOTATION,"at":N}
//   normaliseRecord(g)    a record from GET /api/games/{id} as the record page shows it: {id, link, room, moves,
//                         times, swapAfter, black, white, result, live, …}
//   recordBoard()         the record page's board: {el, show(record, ply)}
//
//   createFields({seg, field})   the create form's fields for this game
//   syncFields(scope, values)    shows and hides those fields as the values change
//   createSpec(values)           the game's part of a create_room message (Gomoku: `{rules}`; others: `{game}`)
//   emblem()                     an SVG string showing the game (the lobby's picture is the default game's)

import { t } from '../i18n.js';
import { h } from '../dom.js';
import gomoku from './gomoku/index.js';
import othello from './othello/index.js';
import draughts from './draughts/index.js';
import insect from './insect/index.js';

/**
 * A seat's word in the page's language for the game of `x` (see gameName): the member's own (insect chess's South
 * and North) or the shared "Black"/"White".
 */
export function colourWord(x, colour) {
  const member = memberOf(x);
  return member.colourWord ? member.colourWord(colour) : t(`colour.${colour}`);
}

/**
 * A seat's icon for the game of `x`: every game's black or white stone (`.stone-icon`), drawn in the game's own
 * colours where its style sheet gives them (`[data-game]`; insect chess's red South and blue North), its title the
 * seat's word.
 */
export function seatIcon(x, colour, cls = 'stone-icon') {
  return h('span', { class: `${cls} ${colour}`, dataset: { game: gameName(x) }, title: colourWord(x, colour) });
}

/** Every member, by wire name. */
export const GAMES = { gomoku, othello, draughts, insect };

/** The game of a room, record or lobby row that names none (everything the server sent before other games). */
export const DEFAULT_GAME = 'gomoku';

/**
 * The wire name of the game of `x`: a name, a spec (`{game}`), or a room, record or lobby row (its `game` spec,
 * else its `view`'s game); the default game when it names none.
 */
export function gameName(x) {
  if (typeof x === 'string') return x;
  if (!x || typeof x !== 'object') return DEFAULT_GAME;
  if (typeof x.game === 'string') return x.game;
  return x.game?.game || x.view?.game || DEFAULT_GAME;
}

/** The member that plays the game of `x` (see gameName); a game this client does not know gets the default's. */
export function memberOf(x, games = GAMES) {
  return games[gameName(x)] || games[DEFAULT_GAME];
}

/** The games a user may choose in the create form: the served ones, the default first. */
export function gameChoices(games = GAMES) {
  return Object.values(games)
    .filter((g) => g.served)
    .sort((a, b) => (b.name === DEFAULT_GAME) - (a.name === DEFAULT_GAME));
}

/** The footer's credit of the rules: every served game's, the default first, in the language's list form. */
export function ruleSources(games = GAMES) {
  return gameChoices(games).map((g) => t(g.sourceKey)).join(t('foot.separator'));
}

/**
 * Links every game's own style sheet into `doc`, after the shared css/app.css so a game's rules win ties as they
 * did when they lived there; a sheet already linked is not linked twice. Returns the link elements. The registry
 * does this itself when it loads in a page (below), so any page that draws a game's board has its styles.
 */
export function loadStyles(doc = globalThis.document, games = GAMES) {
  const links = [];
  for (const g of Object.values(games)) {
    if (!g.style || !doc) continue;
    let link = doc.querySelector(`link[data-game-style="${g.name}"]`);
    if (!link) {
      link = doc.createElement('link');
      link.rel = 'stylesheet';
      link.href = g.style;
      link.dataset.gameStyle = g.name;
      doc.head.append(link);
    }
    links.push(link);
  }
  return links;
}

if (globalThis.document?.head) loadStyles(globalThis.document);

/** The leaderboard's pools: those of the served games, in order; the first is the default page. */
export function pools(games = GAMES) {
  return gameChoices(games).flatMap((g) => g.pools);
}
