// Every visible text of the client, in English and French.
// The French dictionary is typed against the English one, so a missing key is
// a compile error; test/i18n.test.ts also checks that no value is empty and
// that the {placeholders} match.

const en = {
  'app.title': 'Échecs',
  'app.tagline': 'Orthodox, Alice and Avalanche chess',
  'app.notFound': 'This page does not exist.',
  'nav.lobby': 'Play',
  'nav.analysis': 'Analysis board',
  'nav.rules': 'Rules',
  'nav.language': 'Language',
  'nav.soundOn': 'Sound on',
  'nav.soundOff': 'Sound off',

  'variant.chess': 'Chess',
  'variant.alice': 'Alice chess',
  'variant.avalanche': 'Avalanche chess',

  'piece.pawn': 'Pawn',
  'piece.knight': 'Knight',
  'piece.bishop': 'Bishop',
  'piece.rook': 'Rook',
  'piece.queen': 'Queen',
  'piece.king': 'King',
  'color.white': 'White',
  'color.black': 'Black',
  'color.random': 'Random',

  'lobby.create': 'Create a game',
  'lobby.variant': 'Variant',
  'lobby.timeControl': 'Time control',
  'lobby.minutes': 'Minutes per side',
  'lobby.increment': 'Increment in seconds',
  'lobby.realtime': 'Real time',
  'lobby.correspondence': 'Correspondence',
  'lobby.days': 'Days per move',
  'lobby.color': 'Your colour',
  'lobby.nickname': 'Nickname',
  'lobby.nicknamePlaceholder': 'Anonymous',
  'lobby.seek': 'Create a seek',
  'lobby.challenge': 'Challenge a friend (link)',
  'lobby.computer': 'Play the computer',
  'lobby.level': 'Level',
  'lobby.openSeeks': 'Open seeks',
  'lobby.noSeeks': 'No open seek. Create one!',
  'lobby.liveGames': 'Live games',
  'lobby.noLiveGames': 'No game being played right now.',
  'lobby.finishedGames': 'Recent finished games',
  'lobby.noFinishedGames': 'No finished game yet.',
  'lobby.accept': 'Accept',
  'lobby.cancel': 'Cancel',
  'lobby.watch': 'Watch',
  'lobby.view': 'View',
  'lobby.yourSeek': 'Your seek: {what}',
  'lobby.challengeFrom': '{name} challenges you',
  'lobby.seekColor': 'Colour of {name}: {color}',
  'lobby.waiting': 'Waiting for an opponent…',
  'lobby.challengeLink': 'Send this link to your opponent:',
  'lobby.sameBrowser': 'This browser is you: to play both sides yourself, use a private window or another browser for the other side.',
  'lobby.copy': 'Copy',
  'lobby.copied': 'Copied',
  'lobby.correspondenceShort': '{days} d/move',
  'lobby.anonymous': 'Anonymous',
  'lobby.computerName': 'Computer level {level}',

  'game.loading': 'Loading the game…',
  'game.notFound': 'This game does not exist.',
  'game.yourTurn': 'Your turn',
  'game.firstMoveDeadline': '{s} s left for your first move, or the game is aborted',
  'game.waitingOpponent': 'Waiting for the opponent',
  'game.toMove': '{color} to move',
  'game.spectator': 'You are watching this game',
  'game.offerDraw': 'Offer a draw',
  'game.opponentLeft': 'Your opponent left the game.',
  'game.claimIn': 'You can claim the game in {s} s.',
  'game.claimVictory': 'Claim victory',
  'game.claimDraw': 'Call it a draw',
  'game.drawOffered': 'Draw offered',
  'game.opponentOffersDraw': 'Your opponent offers a draw',
  'game.acceptDraw': 'Accept',
  'game.declineDraw': 'Decline',
  'game.resign': 'Resign',
  'game.confirmResign': 'Really resign?',
  'game.abort': 'Abort',
  'game.rematch': 'Rematch',
  'game.rematchOffered': 'Rematch offered',
  'game.opponentOffersRematch': 'Your opponent wants a rematch',
  'game.flip': 'Flip board',
  'game.moveInput': 'Type a move (SAN), then Enter',
  'game.badMove': 'Not a legal move: {move}',
  'game.ambiguousMove': 'Several moves match {move}: be more precise',
  'game.connection.lost': 'Connection lost, reconnecting…',
  'game.connection.back': 'Reconnected',
  'game.choosePromotion': 'Promote to',
  'game.choosePending': 'Your pawn was pushed to the last rank: choose its piece',
  'game.choosePush': 'Now push one of your opponent’s pawns (click it)',
  'game.cancel': 'Cancel',
  'game.moves': 'Moves',
  'game.exportPgn': 'Download PGN',
  'game.copyFen': 'Copy FEN',
  'game.fen': 'FEN',
  'game.analyse': 'Analyse this position',
  'game.first': 'First move',
  'game.prev': 'Previous move',
  'game.next': 'Next move',
  'game.last': 'Last move',
  'game.boardA': 'Board 1',
  'game.boardB': 'Board 2 (through the looking glass)',
  'game.error': 'Error: {message}',
  'game.backToLobby': 'Back to the lobby',
  'game.newGame': 'New game',
  'game.you': 'you',

  'result.whiteWins': 'White wins',
  'result.blackWins': 'Black wins',
  'result.draw': 'Draw',
  'result.aborted': 'Game aborted',
  'reason.checkmate': 'by checkmate',
  'reason.stalemate': 'by stalemate',
  'reason.avalanche': 'no move can be completed (every push is a self-check)',
  'reason.repetition': 'by threefold repetition',
  'reason.fiftyMoves': 'by the fifty-move rule',
  'reason.insufficient': 'by insufficient material',
  'reason.timeout': 'on time',
  'reason.timeoutInsufficient': 'time out, but the opponent cannot mate',
  'reason.resignation': 'by resignation',
  'reason.agreement': 'by agreement',
  'reason.aborted': 'aborted',
  'reason.abandoned': 'the opponent left the game',
  'reason.other': '{reason}',

  'error.illegal_move': 'This move is not legal.',
  'error.not_your_turn': 'It is not your turn.',
  'error.stale': 'The position changed meanwhile: try again.',
  'error.game_over': 'The game is over.',
  'error.not_allowed': 'This is not allowed now.',
  'error.not_your_seat': 'You do not play in this game.',
  'error.rate_limited': 'Too many messages: slow down.',
  'error.not_found': 'Not found.',
  'error.conflict': 'Too late: someone was quicker.',
  'error.unavailable': 'The server is busy: try again in a moment.',
  'error.network': 'The server cannot be reached.',
  'analysis.title': 'Analysis board',
  'analysis.evaluate': 'Engine evaluation',
  'analysis.evaluating': 'Thinking…',
  'analysis.eval': 'Evaluation: {score}',
  'analysis.mate': 'Mate in {n}',
  'analysis.best': 'Best move: {move}',
  'analysis.unavailable': 'The engine is not available.',
  'analysis.noServer': 'The server does not offer free analysis moves yet.',
  'analysis.reset': 'Initial position',
  'analysis.undo': 'Take back',
  'analysis.loadFen': 'Load FEN',
  'analysis.badFen': 'This FEN is not valid for this variant.',

  'rules.title': 'Rules',
  'rules.diagram': 'Diagram',

  'footer.text': 'Free software. Pieces: the standard set of chessground.',
};

export type Key = keyof typeof en;
export type Lang = 'en' | 'fr';

const fr: Record<Key, string> = {
  'app.title': 'Échecs',
  'app.tagline': 'Échecs orthodoxes, Alice et Avalanche',
  'app.notFound': 'Cette page n’existe pas.',
  'nav.lobby': 'Jouer',
  'nav.analysis': 'Échiquier d’analyse',
  'nav.rules': 'Règles',
  'nav.language': 'Langue',
  'nav.soundOn': 'Son activé',
  'nav.soundOff': 'Son coupé',

  'variant.chess': 'Échecs',
  'variant.alice': 'Échecs Alice',
  'variant.avalanche': 'Échecs Avalanche',

  'piece.pawn': 'Pion',
  'piece.knight': 'Cavalier',
  'piece.bishop': 'Fou',
  'piece.rook': 'Tour',
  'piece.queen': 'Dame',
  'piece.king': 'Roi',
  'color.white': 'Blancs',
  'color.black': 'Noirs',
  'color.random': 'Au hasard',

  'lobby.create': 'Créer une partie',
  'lobby.variant': 'Variante',
  'lobby.timeControl': 'Cadence',
  'lobby.minutes': 'Minutes par joueur',
  'lobby.increment': 'Incrément en secondes',
  'lobby.realtime': 'Temps réel',
  'lobby.correspondence': 'Par correspondance',
  'lobby.days': 'Jours par coup',
  'lobby.color': 'Votre couleur',
  'lobby.nickname': 'Pseudonyme',
  'lobby.nicknamePlaceholder': 'Anonyme',
  'lobby.seek': 'Créer une proposition',
  'lobby.challenge': 'Défier un ami (lien)',
  'lobby.computer': 'Jouer contre l’ordinateur',
  'lobby.level': 'Niveau',
  'lobby.openSeeks': 'Propositions ouvertes',
  'lobby.noSeeks': 'Aucune proposition ouverte. Créez-en une !',
  'lobby.liveGames': 'Parties en cours',
  'lobby.noLiveGames': 'Aucune partie en cours pour le moment.',
  'lobby.finishedGames': 'Parties terminées récemment',
  'lobby.noFinishedGames': 'Aucune partie terminée pour l’instant.',
  'lobby.accept': 'Accepter',
  'lobby.cancel': 'Annuler',
  'lobby.watch': 'Regarder',
  'lobby.view': 'Voir',
  'lobby.yourSeek': 'Votre proposition : {what}',
  'lobby.challengeFrom': '{name} vous défie',
  'lobby.seekColor': 'Couleur de {name} : {color}',
  'lobby.waiting': 'En attente d’un adversaire…',
  'lobby.challengeLink': 'Envoyez ce lien à votre adversaire :',
  'lobby.sameBrowser': 'Ce navigateur, c’est vous : pour jouer les deux camps vous-même, prenez une fenêtre de navigation privée ou un autre navigateur pour l’autre camp.',
  'lobby.copy': 'Copier',
  'lobby.copied': 'Copié',
  'lobby.correspondenceShort': '{days} j/coup',
  'lobby.anonymous': 'Anonyme',
  'lobby.computerName': 'Ordinateur niveau {level}',

  'game.loading': 'Chargement de la partie…',
  'game.notFound': 'Cette partie n’existe pas.',
  'game.yourTurn': 'À vous de jouer',
  'game.firstMoveDeadline': 'encore {s} s pour jouer votre premier coup, sinon la partie est annulée',
  'game.waitingOpponent': 'Au tour de l’adversaire',
  'game.toMove': 'Trait aux {color}',
  'game.spectator': 'Vous regardez cette partie',
  'game.offerDraw': 'Proposer la nulle',
  'game.opponentLeft': 'Votre adversaire a quitté la partie.',
  'game.claimIn': 'Vous pourrez réclamer la partie dans {s} s.',
  'game.claimVictory': 'Réclamer la victoire',
  'game.claimDraw': 'Déclarer la nulle',
  'game.drawOffered': 'Nulle proposée',
  'game.opponentOffersDraw': 'Votre adversaire propose la nulle',
  'game.acceptDraw': 'Accepter',
  'game.declineDraw': 'Refuser',
  'game.resign': 'Abandonner',
  'game.confirmResign': 'Vraiment abandonner ?',
  'game.abort': 'Annuler la partie',
  'game.rematch': 'Revanche',
  'game.rematchOffered': 'Revanche proposée',
  'game.opponentOffersRematch': 'Votre adversaire propose une revanche',
  'game.flip': 'Retourner l’échiquier',
  'game.moveInput': 'Tapez un coup (notation algébrique) puis Entrée',
  'game.badMove': 'Coup illégal : {move}',
  'game.ambiguousMove': 'Plusieurs coups correspondent à {move} : précisez',
  'game.connection.lost': 'Connexion perdue, reconnexion…',
  'game.connection.back': 'Reconnecté',
  'game.choosePromotion': 'Promouvoir en',
  'game.choosePending': 'Votre pion a été poussé sur la dernière rangée : choisissez sa pièce',
  'game.choosePush': 'Poussez maintenant un pion adverse (cliquez dessus)',
  'game.cancel': 'Annuler',
  'game.moves': 'Coups',
  'game.exportPgn': 'Télécharger le PGN',
  'game.copyFen': 'Copier la FEN',
  'game.fen': 'FEN',
  'game.analyse': 'Analyser cette position',
  'game.first': 'Premier coup',
  'game.prev': 'Coup précédent',
  'game.next': 'Coup suivant',
  'game.last': 'Dernier coup',
  'game.boardA': 'Échiquier 1',
  'game.boardB': 'Échiquier 2 (de l’autre côté du miroir)',
  'game.error': 'Erreur : {message}',
  'game.backToLobby': 'Retour à l’accueil',
  'game.newGame': 'Nouvelle partie',
  'game.you': 'vous',

  'result.whiteWins': 'Victoire des Blancs',
  'result.blackWins': 'Victoire des Noirs',
  'result.draw': 'Partie nulle',
  'result.aborted': 'Partie annulée',
  'reason.checkmate': 'par échec et mat',
  'reason.stalemate': 'par pat',
  'reason.avalanche': 'aucun coup ne peut être complété (toute poussée est un autoéchec)',
  'reason.repetition': 'par triple répétition',
  'reason.fiftyMoves': 'par la règle des cinquante coups',
  'reason.insufficient': 'par matériel insuffisant',
  'reason.timeout': 'au temps',
  'reason.timeoutInsufficient': 'temps écoulé, mais l’adversaire ne peut pas mater',
  'reason.resignation': 'par abandon',
  'reason.agreement': 'd’un commun accord',
  'reason.aborted': 'annulée',
  'reason.abandoned': 'l’adversaire a quitté la partie',
  'reason.other': '{reason}',

  'error.illegal_move': 'Ce coup n’est pas légal.',
  'error.not_your_turn': 'Ce n’est pas votre tour.',
  'error.stale': 'La position a changé entre-temps : réessayez.',
  'error.game_over': 'La partie est terminée.',
  'error.not_allowed': 'Ce n’est pas permis maintenant.',
  'error.not_your_seat': 'Vous ne jouez pas dans cette partie.',
  'error.rate_limited': 'Trop de messages : ralentissez.',
  'error.not_found': 'Introuvable.',
  'error.conflict': 'Trop tard : quelqu’un a été plus rapide.',
  'error.unavailable': 'Le serveur est occupé : réessayez dans un instant.',
  'error.network': 'Le serveur est injoignable.',
  'analysis.title': 'Échiquier d’analyse',
  'analysis.evaluate': 'Évaluation par le moteur',
  'analysis.evaluating': 'Réflexion…',
  'analysis.eval': 'Évaluation : {score}',
  'analysis.mate': 'Mat en {n}',
  'analysis.best': 'Meilleur coup : {move}',
  'analysis.unavailable': 'Le moteur n’est pas disponible.',
  'analysis.noServer': 'Le serveur ne propose pas encore les coups libres d’analyse.',
  'analysis.reset': 'Position initiale',
  'analysis.undo': 'Reprendre le coup',
  'analysis.loadFen': 'Charger une FEN',
  'analysis.badFen': 'Cette FEN n’est pas valide pour cette variante.',

  'rules.title': 'Règles',
  'rules.diagram': 'Diagramme',

  'footer.text': 'Logiciel libre. Pièces : le jeu standard de chessground.',
};

export const dictionaries: Record<Lang, Record<Key, string>> = { en, fr };
export const LANGS: Lang[] = ['fr', 'en'];

const STORAGE_KEY = 'echecs.lang';
let current: Lang = 'en';
const listeners = new Set<() => void>();

/** Picks the language: saved choice first, else the browser's preferences. */
export function detectLang(saved: string | null, browser: readonly string[]): Lang {
  if (saved === 'fr' || saved === 'en') return saved;
  for (const l of browser) {
    const base = l.toLowerCase().slice(0, 2);
    if (base === 'fr' || base === 'en') return base;
  }
  return 'en';
}

export function initLang(): Lang {
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(STORAGE_KEY);
  } catch {
    /* storage may be unavailable */
  }
  const browser = typeof navigator !== 'undefined' ? navigator.languages ?? [navigator.language] : [];
  current = detectLang(saved, browser);
  if (typeof document !== 'undefined') document.documentElement.lang = current;
  return current;
}

export function lang(): Lang {
  return current;
}

export function setLang(l: Lang): void {
  current = l;
  try {
    localStorage.setItem(STORAGE_KEY, l);
  } catch {
    /* ignore */
  }
  if (typeof document !== 'undefined') document.documentElement.lang = l;
  listeners.forEach(f => f());
}

export function onLangChange(f: () => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}

export function translate(l: Lang, key: Key, params?: Record<string, string | number>): string {
  let s = dictionaries[l][key];
  if (params) for (const [k, v] of Object.entries(params)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

export function t(key: Key, params?: Record<string, string | number>): string {
  return translate(current, key, params);
}

/** A server error in the user's language when its code is known, else the server's own message. */
export function errorMessage(code: string, message: string): string {
  const key = `error.${code}` as Key;
  return key in dictionaries[current] ? t(key) : t('game.error', { message: message || code });
}
