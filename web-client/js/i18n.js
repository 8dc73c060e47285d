// Every user-visible string, in English and Simplified Chinese. Keys are flat dotted names; the unit tests
// check that both dictionaries hold exactly the same keys with the same {placeholders}. Tier names are not
// here: the server sends them (issue 4 keeps the tier table in one place).

/** English strings. */
export const en = {
  'app.name': 'Gomoku',
  'app.tagline': 'Five in a row, Renju to the letter',
  'nav.lobby': 'Play',
  'nav.leaderboard': 'Leaderboard',
  'nav.login': 'Sign in',
  'nav.logout': 'Sign out',
  'nav.profile': 'Profile',
  'nav.language': 'Language',
  'nav.guest': 'Guest',
  'conn.connecting': 'Connecting…',
  'conn.online': 'Online',
  'conn.offline': 'Reconnecting in {s}s…',
  'conn.lost': 'Connection lost — reconnecting…',

  'lobby.create': 'New game',
  'lobby.waiting': 'Open rooms',
  'lobby.live': 'Live games',
  'lobby.none_waiting': 'No open rooms right now. Create one and invite a friend.',
  'lobby.none_live': 'No games in progress.',
  'lobby.join': 'Join',
  'lobby.watch': 'Watch',
  'lobby.open': 'Open',
  'lobby.online': '{n} seated in public rooms',
  'lobby.players_online': 'Players in rooms',
  'lobby.spectators': '{n} watching',
  'lobby.host': 'Host',
  'lobby.rules': 'Rules',
  'lobby.time': 'Time',
  'lobby.unavailable': 'The lobby is not available: the server does not answer.',
  'lobby.goto': 'Room code',
  'lobby.go': 'Go',

  'create.title': 'Create a room',
  'create.rule_set': 'Rule set',
  'create.forbidden': 'Forbidden moves (black)',
  'create.opening': 'Opening',
  'create.size': 'Board',
  'create.time': 'Time control',
  'create.base': 'Minutes',
  'create.increment': 'Increment (s)',
  'create.periods': 'Periods',
  'create.period': 'Period (s)',
  'create.rated': 'Rated',
  'create.casual': 'Casual',
  'create.rated_hint': 'Rated games need an account.',
  'create.visibility': 'Visibility',
  'create.public': 'Public',
  'create.private': 'Private (invite link)',
  'create.colour': 'Your colour',
  'create.submit': 'Create room',
  'create.cancel': 'Cancel',

  'rule.freestyle': 'Freestyle',
  'rule.standard': 'Standard (exactly five)',
  'rule.renju': 'Renju',
  'policy.lose': 'Lose at once',
  'policy.reject': 'Refused',
  'policy.claim': 'White may claim',
  'opening.none': 'Free',
  'opening.swap_after_three': 'Swap after 3',
  'opening.swap_after_three_fifth_two_options': 'Swap after 3, two fifth-move options',
  'tc.none': 'Untimed',
  'tc.fischer': 'Fischer',
  'tc.byoyomi': 'Byo-yomi',
  'colour.random': 'Random',
  'colour.black': 'Black',
  'colour.white': 'White',

  'room.waiting': 'Waiting for an opponent…',
  'room.invite': 'Invite link',
  'room.copy': 'Copy',
  'room.copied': 'Copied',
  'room.your_turn': 'Your move',
  'room.their_turn': '{name} to move',
  'room.to_move': '{colour} to move',
  'room.spectating': 'You are watching',
  'room.spectators': '{n} watching',
  'room.resign': 'Resign',
  'room.resign_confirm': 'Resign this game?',
  'room.draw': 'Offer draw',
  'room.takeback': 'Takeback',
  'room.rematch': 'Rematch',
  'room.rematch_offered': 'Rematch offered…',
  'room.leave': 'Leave',
  'room.claim': 'Claim forbidden move',
  'room.claim_hint': 'Black played a forbidden point ({kind}). Claim it to win, or play on.',
  'room.swap_prompt': 'Swap colours? You hold white. Take black instead, or keep white and play on.',
  'room.swap_yes': 'Swap: take black',
  'room.swap_no': 'Keep white',
  'room.swap_wait': 'Your opponent decides whether to swap colours.',
  'room.swapped': 'Colours swapped',
  'room.kept': 'Colours kept',
  'room.fifth_propose': 'Propose two points for the fifth move: tap two empty points (not symmetric).',
  'room.fifth_send': 'Propose these two',
  'room.fifth_choose': 'Choose which of the two proposed fifth moves stays.',
  'room.fifth_wait_propose': 'Black proposes two fifth moves.',
  'room.fifth_wait_choose': 'White chooses the fifth move.',
  'room.confirm_tap': 'Tap again to confirm',
  'room.confirm_setting': 'Confirm moves with a second tap',
  'room.numbers': 'Move numbers',
  'room.draw_offered': '{name} offers a draw.',
  'room.takeback_requested': '{name} asks to take back a move.',
  'room.rematch_requested': '{name} wants a rematch.',
  'room.accept': 'Accept',
  'room.decline': 'Decline',
  'room.offer_sent': 'Offer sent',
  'room.offer_declined': 'Declined',
  'room.disconnected': '{name} disconnected — {s}s to return',
  'room.reconnected': '{name} is back',
  'room.chat': 'Chat',
  'room.chat_placeholder': 'Say something…',
  'room.send': 'Send',
  'room.moves': 'Moves',
  'room.unknown': 'This room does not exist (or is over and closed).',
  'room.join_seat': 'Take the empty seat',
  'room.record': 'Game record',
  'room.forbidden_here': 'Forbidden for black: {kind}',
  'room.periods': '{n}×',

  'over.title': 'Game over',
  'over.black_wins': 'Black wins',
  'over.white_wins': 'White wins',
  'over.draw': 'Draw',
  'over.aborted': 'Aborted',
  'over.you_win': 'You win',
  'over.you_lose': 'You lose',
  'reason.five': 'five in a row',
  'reason.forbidden_move': 'forbidden move',
  'reason.forbidden_claimed': 'forbidden move claimed',
  'reason.resign': 'resignation',
  'reason.timeout': 'time out',
  'reason.abandoned': 'abandoned',
  'reason.agreement': 'agreement',
  'reason.board_full': 'board full',
  'reason.aborted': 'aborted',
  'kind.double_three': 'double three',
  'kind.double_four': 'double four',
  'kind.overline': 'overline',

  'record.title': 'Game #{id}',
  'record.first': 'First move',
  'record.prev': 'Previous',
  'record.next': 'Next',
  'record.last': 'Last move',
  'record.move': 'Move {n} of {total}',
  'record.share': 'Share',
  'record.not_found': 'No such game.',
  'record.keys': 'Arrow keys step through the moves.',
  'record.live': 'This game is still being played.',
  'record.result': 'Result',

  'lb.title': 'Leaderboard',
  'lb.pool': 'Pool',
  'lb.rank': '#',
  'lb.player': 'Player',
  'lb.rating': 'Rating',
  'lb.tier': 'Tier',
  'lb.games': 'Games',
  'lb.wld': 'W / L / D',
  'lb.empty': 'Nobody has reached the leaderboard yet: it takes 10 rated games and a settled rating.',
  'lb.more': 'More',

  'profile.ratings': 'Ratings',
  'profile.history': 'Rating history',
  'profile.recent': 'Recent games',
  'profile.record': 'Won {w} · Lost {l} · Drawn {d}',
  'profile.no_games': 'No games yet.',
  'profile.not_found': 'No player of that name.',
  'profile.provisional': 'provisional',
  'profile.vs': 'vs {name}',
  'profile.older': 'Older games',
  'profile.win': 'Win',
  'profile.loss': 'Loss',
  'profile.drawn': 'Draw',

  'auth.login': 'Sign in',
  'auth.register': 'Create account',
  'auth.username': 'Username',
  'auth.password': 'Password',
  'auth.username_hint': '3–20 letters, digits, _ or -',
  'auth.password_hint': 'At least 8 characters',
  'auth.have_account': 'Already registered? Sign in',
  'auth.need_account': 'New here? Create an account',
  'auth.guest_note': 'No account needed for casual games: you already play as a guest.',
  'auth.signed_in_as': 'Signed in as {name}',

  'err.unavailable': 'This part of the server is not available yet.',
  'err.network': 'The server cannot be reached.',
  'err.generic': 'Something went wrong ({code}).',
  'err.username_taken': 'That username is taken.',
  'err.invalid_credentials': 'Wrong username or password.',
  'err.weak_password': 'The password is too weak (at least 8 characters).',
  'err.invalid_username': 'Usernames have 3–20 letters, digits, _ or -.',
  'err.rate_limited': 'Too many attempts. Try again in a little while.',
  'err.account_required': 'Rated games need an account.',
  'err.occupied': 'That point is taken.',
  'err.not_your_turn': 'It is not your turn.',
  'err.forbidden_double_three': 'Forbidden for black: double three.',
  'err.forbidden_double_four': 'Forbidden for black: double four.',
  'err.forbidden_overline': 'Forbidden for black: overline.',
  'err.must_play_centre': 'The first stone goes on the centre.',
  'err.must_touch_first_stone': "White's first stone must touch black's.",
  'err.fifth_options_symmetric': 'The two fifth moves must not be symmetric.',
  'err.fifth_options_identical': 'Choose two different points.',
  'err.room_full': 'The room is full.',
  'err.unknown_room': 'No such room.',
  'err.offer_too_soon': 'Your offer was just declined; wait two moves.',
  'err.offer_pending': 'That offer is already pending.',
  'err.stale_ply': 'The position changed; try again.',

  'theme.toggle': 'Theme',
  'foot.source': 'Rules: freestyle, standard, Renju (RIF).',
};

/** Simplified Chinese strings. */
export const zh = {
  'app.name': '五子棋',
  'app.tagline': '五子连珠，连珠规则一丝不苟',
  'nav.lobby': '对局',
  'nav.leaderboard': '排行榜',
  'nav.login': '登录',
  'nav.logout': '退出',
  'nav.profile': '个人资料',
  'nav.language': '语言',
  'nav.guest': '游客',
  'conn.connecting': '正在连接…',
  'conn.online': '在线',
  'conn.offline': '{s} 秒后重新连接…',
  'conn.lost': '连接中断，正在重连…',

  'lobby.create': '新对局',
  'lobby.waiting': '等待中的房间',
  'lobby.live': '正在进行',
  'lobby.none_waiting': '暂时没有空房间。创建一个，邀请好友吧。',
  'lobby.none_live': '当前没有进行中的对局。',
  'lobby.join': '加入',
  'lobby.watch': '观战',
  'lobby.open': '打开',
  'lobby.online': '公开房间中 {n} 人',
  'lobby.players_online': '房间中的玩家',
  'lobby.spectators': '{n} 人观战',
  'lobby.host': '房主',
  'lobby.rules': '规则',
  'lobby.time': '用时',
  'lobby.unavailable': '大厅暂不可用：服务器没有响应。',
  'lobby.goto': '房间号',
  'lobby.go': '前往',

  'create.title': '创建房间',
  'create.rule_set': '规则',
  'create.forbidden': '黑方禁手',
  'create.opening': '开局',
  'create.size': '棋盘',
  'create.time': '用时',
  'create.base': '分钟',
  'create.increment': '每步加秒',
  'create.periods': '读秒次数',
  'create.period': '每次读秒（秒）',
  'create.rated': '积分赛',
  'create.casual': '友谊赛',
  'create.rated_hint': '积分赛需要注册账号。',
  'create.visibility': '可见性',
  'create.public': '公开',
  'create.private': '私密（邀请链接）',
  'create.colour': '执子',
  'create.submit': '创建房间',
  'create.cancel': '取消',

  'rule.freestyle': '无禁手',
  'rule.standard': '标准（恰好五子）',
  'rule.renju': '连珠（有禁手）',
  'policy.lose': '立即判负',
  'policy.reject': '不允许落子',
  'policy.claim': '白方可指出',
  'opening.none': '自由开局',
  'opening.swap_after_three': '三手交换',
  'opening.swap_after_three_fifth_two_options': '三手交换，五手两打',
  'tc.none': '不计时',
  'tc.fischer': '费舍尔加秒',
  'tc.byoyomi': '读秒',
  'colour.random': '随机',
  'colour.black': '黑方',
  'colour.white': '白方',

  'room.waiting': '等待对手加入…',
  'room.invite': '邀请链接',
  'room.copy': '复制',
  'room.copied': '已复制',
  'room.your_turn': '轮到你了',
  'room.their_turn': '等待 {name} 落子',
  'room.to_move': '{colour}走棋',
  'room.spectating': '你正在观战',
  'room.spectators': '{n} 人观战',
  'room.resign': '认输',
  'room.resign_confirm': '确定认输吗？',
  'room.draw': '提和',
  'room.takeback': '悔棋',
  'room.rematch': '再来一局',
  'room.rematch_offered': '已请求再来一局…',
  'room.leave': '离开',
  'room.claim': '指出禁手',
  'room.claim_hint': '黑方下在了禁手点（{kind}）。指出即可获胜，也可以继续落子。',
  'room.swap_prompt': '是否交换？你现在执白。可以改执黑，或保持执白继续。',
  'room.swap_yes': '交换：改执黑',
  'room.swap_no': '保持执白',
  'room.swap_wait': '对手正在决定是否交换。',
  'room.swapped': '已交换执子',
  'room.kept': '未交换',
  'room.fifth_propose': '第五手请打两点：点击两个空点（不能对称）。',
  'room.fifth_send': '提交这两点',
  'room.fifth_choose': '请从黑方提出的两个第五手中选择一个。',
  'room.fifth_wait_propose': '黑方正在打两点。',
  'room.fifth_wait_choose': '白方正在选择第五手。',
  'room.confirm_tap': '再点一次确认',
  'room.confirm_setting': '落子需二次确认',
  'room.numbers': '显示手数',
  'room.draw_offered': '{name} 提议和棋。',
  'room.takeback_requested': '{name} 请求悔棋。',
  'room.rematch_requested': '{name} 想再来一局。',
  'room.accept': '同意',
  'room.decline': '拒绝',
  'room.offer_sent': '已发出请求',
  'room.offer_declined': '已被拒绝',
  'room.disconnected': '{name} 已断线，{s} 秒内可返回',
  'room.reconnected': '{name} 已重新连接',
  'room.chat': '聊天',
  'room.chat_placeholder': '说点什么…',
  'room.send': '发送',
  'room.moves': '棋谱',
  'room.unknown': '房间不存在（或已结束关闭）。',
  'room.join_seat': '坐下对局',
  'room.record': '对局记录',
  'room.forbidden_here': '黑方禁手：{kind}',
  'room.periods': '{n}×',

  'over.title': '对局结束',
  'over.black_wins': '黑方胜',
  'over.white_wins': '白方胜',
  'over.draw': '和棋',
  'over.aborted': '对局作废',
  'over.you_win': '你赢了',
  'over.you_lose': '你输了',
  'reason.five': '五子连珠',
  'reason.forbidden_move': '禁手',
  'reason.forbidden_claimed': '被指出禁手',
  'reason.resign': '认输',
  'reason.timeout': '超时',
  'reason.abandoned': '离开对局',
  'reason.agreement': '双方同意',
  'reason.board_full': '棋盘已满',
  'reason.aborted': '作废',
  'kind.double_three': '三三',
  'kind.double_four': '四四',
  'kind.overline': '长连',

  'record.title': '对局 #{id}',
  'record.first': '第一手',
  'record.prev': '上一手',
  'record.next': '下一手',
  'record.last': '最后一手',
  'record.move': '第 {n} / {total} 手',
  'record.share': '分享',
  'record.not_found': '没有这盘对局。',
  'record.keys': '用方向键逐手查看。',
  'record.live': '这盘棋仍在进行中。',
  'record.result': '结果',

  'lb.title': '排行榜',
  'lb.pool': '分组',
  'lb.rank': '#',
  'lb.player': '玩家',
  'lb.rating': '等级分',
  'lb.tier': '段位',
  'lb.games': '局数',
  'lb.wld': '胜 / 负 / 和',
  'lb.empty': '还没有人上榜：需要 10 盘积分赛并且等级分已稳定。',
  'lb.more': '更多',

  'profile.ratings': '等级分',
  'profile.history': '等级分走势',
  'profile.recent': '最近对局',
  'profile.record': '{w} 胜 · {l} 负 · {d} 和',
  'profile.no_games': '还没有对局。',
  'profile.not_found': '没有这个玩家。',
  'profile.provisional': '暂定',
  'profile.vs': '对 {name}',
  'profile.older': '更早的对局',
  'profile.win': '胜',
  'profile.loss': '负',
  'profile.drawn': '和',

  'auth.login': '登录',
  'auth.register': '注册账号',
  'auth.username': '用户名',
  'auth.password': '密码',
  'auth.username_hint': '3–20 个字母、数字、_ 或 -',
  'auth.password_hint': '至少 8 个字符',
  'auth.have_account': '已有账号？登录',
  'auth.need_account': '新用户？注册账号',
  'auth.guest_note': '友谊赛无需账号：你已经以游客身份在线。',
  'auth.signed_in_as': '已登录：{name}',

  'err.unavailable': '服务器的这一部分暂不可用。',
  'err.network': '无法连接服务器。',
  'err.generic': '出错了（{code}）。',
  'err.username_taken': '用户名已被占用。',
  'err.invalid_credentials': '用户名或密码错误。',
  'err.weak_password': '密码太弱（至少 8 个字符）。',
  'err.invalid_username': '用户名为 3–20 个字母、数字、_ 或 -。',
  'err.rate_limited': '尝试次数过多，请稍后再试。',
  'err.account_required': '积分赛需要注册账号。',
  'err.occupied': '这里已经有子了。',
  'err.not_your_turn': '还没轮到你。',
  'err.forbidden_double_three': '黑方禁手：三三。',
  'err.forbidden_double_four': '黑方禁手：四四。',
  'err.forbidden_overline': '黑方禁手：长连。',
  'err.must_play_centre': '第一手必须下在天元。',
  'err.must_touch_first_stone': '白方第一手必须紧贴黑子。',
  'err.fifth_options_symmetric': '两个第五手不能对称。',
  'err.fifth_options_identical': '请选择两个不同的点。',
  'err.room_full': '房间已满。',
  'err.unknown_room': '房间不存在。',
  'err.offer_too_soon': '你的请求刚被拒绝，请再等两手。',
  'err.offer_pending': '该请求已在等待回应。',
  'err.stale_ply': '局面已变化，请重试。',

  'theme.toggle': '主题',
  'foot.source': '规则：无禁手、标准、连珠（RIF）。',
};

/** The dictionaries by language code, in the order the switcher shows them. */
export const dictionaries = { en, zh };

/** Display names of the languages, each in its own language. */
export const languageNames = { en: 'English', zh: '简体中文' };

const STORAGE_KEY = 'gomoku.lang';
let current = 'en';

/** The language to start with: the remembered choice, else Chinese for a Chinese browser, else English. */
export function initialLanguage(stored, navigatorLanguages = []) {
  if (stored && dictionaries[stored]) return stored;
  return navigatorLanguages.some((l) => /^zh/i.test(l)) ? 'zh' : 'en';
}

/** Replaces {name} placeholders by the given values; unknown placeholders stay visible rather than vanish. */
export function interpolate(text, params = {}) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/** Translates a key in a given language, falling back to English, then to the key itself. */
export function translate(lang, key, params) {
  const text = dictionaries[lang]?.[key] ?? en[key] ?? key;
  return interpolate(text, params);
}

/** Translates in the current language. */
export function t(key, params) {
  return translate(current, key, params);
}

/** Whether a key exists (used to translate server codes only when we have words for them). */
export function has(key) {
  return key in en;
}

/** The current language code. */
export function lang() {
  return current;
}

/** Changes the language, remembers it and updates the document (listeners re-render their views). */
export function setLang(code, storage = globalThis.localStorage) {
  if (!dictionaries[code]) return;
  current = code;
  try {
    storage?.setItem(STORAGE_KEY, code);
  } catch {
    // Private browsing may refuse storage; the choice then lasts for this page only.
  }
  if (globalThis.document) {
    document.documentElement.lang = code === 'zh' ? 'zh-CN' : 'en';
    document.dispatchEvent(new CustomEvent('langchange', { detail: code }));
  }
}

/** Reads the remembered language at start-up. */
export function loadLang(storage = globalThis.localStorage, nav = globalThis.navigator) {
  let stored = null;
  try {
    stored = storage?.getItem(STORAGE_KEY);
  } catch {
    stored = null;
  }
  current = initialLanguage(stored, nav?.languages || []);
  if (globalThis.document) document.documentElement.lang = current === 'zh' ? 'zh-CN' : 'en';
  return current;
}

/** Translates a server error code when we have words for it, else a generic text carrying the code. */
export function errorText(code, message) {
  if (code && has(`err.${code}`)) return t(`err.${code}`);
  if (message && current === 'en') return message;
  return t('err.generic', { code: code || '?' });
}
