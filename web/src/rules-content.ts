// The rules of the three games, in French and English, written from the
// seed texts (docs/SOURCES.md) and the project's rule book (docs/RULES.md).

import type { Lang } from './i18n.js';
import type { Variant } from './fen.js';

export interface Arrow {
  orig: string;
  dest: string;
  brush: 'green' | 'red' | 'blue' | 'yellow';
}

export interface Diagram {
  fen: string;
  caption: string;
  arrows?: Arrow[];
  lastMove?: string;
  /** The side to move is in check (highlighted). */
  check?: boolean;
}

export type Block =
  | { p: string }
  | { h: string }
  | { ul: string[] }
  | { diagram: Diagram };

export interface RulesPage {
  title: string;
  intro: string;
  blocks: Block[];
}

type Pages = Record<Variant, Record<Lang, RulesPage>>;

/** How moves are written and typed on this site (the same for the three games, with a note per game). */
function writingMoves(l: Lang, v: Variant): Block[] {
  if (l === 'en')
    return [
      { h: 'Writing moves' },
      {
        ul: [
          'Moves are shown with figurines by default (♘f3, ♛h4#); the settings switch to letters.',
          'Letters in English: K king, Q queen, R rook, B bishop, N knight; in French: R roi, D dame, T tour, F fou, C cavalier. A pawn has no letter (P may be typed).',
          'At the keyboard, moves are understood in either language’s letters: Nf3 and Cf3 are the same move. R is read in the language of the interface (rook in English, king in French). Lower case is accepted where it is unambiguous (nf3); b, c, d and f are read as files first (bc4 is a pawn taking on c4 when one can). Capture and check signs are optional (ed5 for exd5); coordinates work too (g1f3, e7e8q).',
          ...(v === 'alice'
            ? [
                'Alice positions are written in FEN with the seed’s letters for the pieces on board 2: S pawn, U rook, O knight, C bishop, T queen, L king. Those letters belong to FEN only: in a move, C is always the French cavalier (knight), and a move never says which board its piece is on (the site knows).',
              ]
            : []),
          ...(v === 'avalanche'
            ? [
                'Avalanche: the push follows a comma, written as the square the pushed pawn reaches: Nf3,e6 (French Cf3,e6). A pending choice comes first with a colon: Q:Nf3,e6 (French D:Cf3,e6). Typing only the first part plays it and asks for the push.',
              ]
            : []),
        ],
      },
    ];
  return [
    { h: 'Écrire les coups' },
    {
      ul: [
        'Les coups sont affichés en figurines par défaut (♘f3, ♛h4#) ; les réglages permettent de passer aux lettres.',
        'Lettres françaises : R roi, D dame, T tour, F fou, C cavalier ; en anglais : K king, Q queen, R rook, B bishop, N knight. Le pion n’a pas de lettre (P peut être tapé).',
        'Au clavier, les coups sont compris avec les lettres des deux langues : Cf3 et Nf3 sont le même coup. R se lit dans la langue de l’interface (roi en français, tour en anglais). Les minuscules sont acceptées quand il n’y a pas d’ambiguïté (cf3 se lit cavalier f3, aucun pion de la colonne c ne pouvant y aller) ; b, c, d et f se lisent d’abord comme des colonnes. Les signes de prise et d’échec sont facultatifs (ed5 pour exd5) ; les coordonnées marchent aussi (g1f3, e7e8q).',
        ...(v === 'alice'
          ? [
              'Les positions Alice s’écrivent en FEN avec les lettres de la source pour les pièces de l’échiquier 2 : S pion, U tour, O cavalier, C fou, T dame, L roi. Ces lettres n’existent que dans la FEN : dans un coup, C est toujours le cavalier, et un coup ne dit jamais sur quel échiquier est sa pièce (le site le sait).',
            ]
          : []),
        ...(v === 'avalanche'
          ? [
              'Avalanche : la poussée suit une virgule, écrite comme la case d’arrivée du pion poussé : Cf3,e6. Un choix en attente vient d’abord, avec deux-points : D:Cf3,e6. Taper seulement la première composante la joue et demande la poussée.',
            ]
          : []),
      ],
    },
  ];
}

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

export const RULES: Pages = {
  chess: {
    en: {
      title: 'Chess',
      intro:
        'The aim is to checkmate the opponent’s king, or to let the opponent’s time run out. White moves first, then the players move in turn, one piece per move.',
      blocks: [
        { diagram: { fen: START, caption: 'The starting position.' } },
        { h: 'How the pieces move' },
        {
          ul: [
            'The king moves one square in any direction.',
            'The queen moves any number of squares along a rank, a file or a diagonal.',
            'The rook moves any number of squares along a rank or a file.',
            'The bishop moves any number of squares along a diagonal.',
            'The knight jumps in an L: two squares in one direction and one square at right angles. It is the only piece that jumps over others.',
            'The pawn moves one square straight forward (two from its starting square) and captures one square diagonally forward.',
          ],
        },
        {
          p: 'A piece captures an enemy piece by moving onto its square. Pieces other than the knight cannot jump over other pieces. No move may leave one’s own king in check.',
        },
        { h: 'Special moves' },
        {
          ul: [
            'Castling: the king moves two squares towards a rook, and that rook goes to the square the king crossed. Neither may have moved before, the squares between them must be empty, and the king may not be in check, pass through an attacked square or land on one.',
            'En passant: a pawn that has just advanced two squares may be captured by an enemy pawn standing beside it, as if it had advanced one square, on the very next move only.',
            'Promotion: a pawn reaching the last rank becomes a queen, a rook, a bishop or a knight, chosen by its player.',
          ],
        },
        { h: 'End of the game' },
        {
          ul: [
            'Checkmate: the king is in check and no move gets it out of check. The checkmating player wins.',
            'Stalemate: the player to move is not in check and has no legal move. Draw.',
            'Threefold repetition: the game is drawn at once when the same position (same side to move, castling and en passant possibilities) occurs for the third time.',
            'Fifty-move rule: drawn at once after fifty moves by each side without a pawn move or a capture.',
            'Insufficient material: king against king, king and bishop or king and knight against king, or kings and bishops on squares of one colour: drawn at once.',
            'Time: a player whose clock reaches zero loses, unless the opponent has no mating material left, which is a draw.',
            'A player may resign, and the players may agree to a draw.',
          ],
        },
        {
          diagram: {
            fen: 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3',
            caption: 'The shortest mate: 1.f3 e5 2.g4 Qh4#.',
            lastMove: 'd8h4',
            check: true,
            arrows: [{ orig: 'h4', dest: 'e1', brush: 'red' }],
          },
        },
        ...writingMoves('en', 'chess'),
      ],
    },
    fr: {
      title: 'Échecs',
      intro:
        'Le but est de mettre en échec et mat le roi adverse, ou que le temps de l’adversaire arrive à zéro. Les Blancs commencent, puis chacun joue à son tour, une pièce par coup.',
      blocks: [
        { diagram: { fen: START, caption: 'La position de départ.' } },
        { h: 'Déplacements et prises' },
        {
          ul: [
            'Le roi se déplace d’une case dans n’importe quelle direction.',
            'La dame se déplace d’une ou plusieurs cases horizontalement, verticalement ou en diagonale.',
            'La tour se déplace d’une ou plusieurs cases horizontalement ou verticalement.',
            'Le fou se déplace d’une ou plusieurs cases en diagonale.',
            'Le cavalier se déplace en L : deux cases dans une direction puis une à angle droit. C’est la seule pièce qui peut sauter par-dessus les autres.',
            'Le pion avance d’une case droit devant lui (deux depuis sa case de départ) et prend d’une case en diagonale vers l’avant.',
          ],
        },
        {
          p: 'Une pièce en prend une autre en se plaçant sur sa case. Les pièces, sauf le cavalier, ne peuvent pas passer par-dessus les autres. Aucun coup ne doit laisser son propre roi en échec.',
        },
        { h: 'Coups spéciaux' },
        {
          ul: [
            'Le roque : le roi se déplace de deux cases vers une tour, et cette tour vient sur la case que le roi a franchie. Ni l’un ni l’autre ne doit avoir bougé, les cases entre eux doivent être vides, et le roi ne doit être en échec ni au départ, ni sur une case de son passage, ni à l’arrivée.',
            'La prise en passant : un pion qui vient d’avancer de deux cases peut être pris par un pion adverse placé à côté de lui, comme s’il n’avait avancé que d’une case, au coup suivant seulement.',
            'La promotion : un pion qui atteint la dernière rangée devient une dame, une tour, un fou ou un cavalier, au choix de son joueur.',
          ],
        },
        { h: 'Fin de la partie' },
        {
          ul: [
            'Échec et mat : le roi est en échec et aucun coup ne peut l’en sortir. Le joueur qui mate gagne.',
            'Pat : le joueur au trait n’est pas en échec et n’a aucun coup légal. Partie nulle.',
            'Triple répétition : la partie est nulle dès que la même position (même trait, mêmes possibilités de roque et de prise en passant) se présente pour la troisième fois.',
            'Règle des cinquante coups : nulle immédiate après cinquante coups de chaque camp sans mouvement de pion ni prise.',
            'Matériel insuffisant : roi contre roi, roi et fou ou roi et cavalier contre roi, ou rois et fous sur des cases d’une même couleur : nulle immédiate.',
            'Temps : le joueur dont la pendule arrive à zéro perd, sauf si l’adversaire n’a plus de quoi mater : c’est alors nulle.',
            'Un joueur peut abandonner, et les joueurs peuvent convenir de la nulle.',
          ],
        },
        {
          diagram: {
            fen: 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3',
            caption: 'Le mat le plus court : 1.f3 e5 2.g4 Dh4#.',
            lastMove: 'd8h4',
            check: true,
            arrows: [{ orig: 'h4', dest: 'e1', brush: 'red' }],
          },
        },
        ...writingMoves('fr', 'chess'),
      ],
    },
  },

  alice: {
    en: {
      title: 'Alice chess',
      intro:
        'Every piece that moves passes to the other board (“through the looking glass”). There are two boards, and all the pieces start on board 1. Invented by Vernon R. Parton (1953).',
      blocks: [
        { h: 'Moves' },
        {
          ul: [
            'A piece moves on the board where it stands, following the usual rules on that board alone: pieces on the other board neither block it nor can be captured.',
            'Its destination square must be empty on the other board (so everything fits on 64 squares: a square is occupied on one board at most).',
            'After the move, the piece passes to the same square of the other board. When it moves again, it comes back.',
            'A piece captures only an enemy piece standing on its own board.',
          ],
        },
        {
          diagram: {
            fen: 'rnbqkbnr/ppp1pppp/8/8/2p5/5O2/PP1PPPPP/RNBQKB1R w KQkq - 0 3',
            caption: 'After 1.Nf3 d5 2.c4 dxc4: the knight is on board 2, the black pawn came back to board 1 by capturing on board 2.',
          },
        },
        { h: 'Check and mate' },
        {
          p: 'A king is in check when an enemy piece on its own board attacks it. As in orthodox chess you win by checkmate, and the king cannot parry the check even by escaping to the other board. Every move must be legal on the board where it is played, and the resulting position on the other board must be legal too.',
        },
        {
          diagram: {
            fen: 'rnbqkbnr/ppp1pppp/8/1B6/4p3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3',
            caption: '1.e4 d5 2.Be2 dxe4 3.Bb5#: the bishop comes back to board 1 and mates, because 3…Kd7 is not legal on board 1.',
            lastMove: 'e2b5',
            check: true,
            arrows: [{ orig: 'b5', dest: 'e8', brush: 'red' }],
          },
        },
        { h: 'Castling, en passant, promotion' },
        {
          ul: [
            'Castling is possible only from board 1 (otherwise the king or the rook has moved) and must be legal there; the squares where the king and the rook arrive must be empty on board 2, both pieces pass to board 2, and the king must not be in check there.',
            'En passant works whatever the boards of the two pawns: the pawns pass through the looking glass, so one may be captured just before or just after the glass. The square the capturing pawn moves to must be empty on both boards.',
            'A promoted pawn becomes the chosen piece, which passes to the other board.',
          ],
        },
        { h: 'End of the game' },
        {
          p: 'As in orthodox chess: checkmate, stalemate, threefold repetition (each piece’s board counts), the fifty-move rule, time, resignation and agreement. The only insufficient material is two bare kings.',
        },
        { h: 'On this site' },
        {
          p: 'On a wide screen the two boards are side by side: board 1 on the left, board 2 on the right. On a phone board 1 is shown large and board 2 as a small live board under it: tap the small board to show it large. The pieces of board 2 are drawn with the usual pieces. Move a piece on its board; it then slides to the other board. Moves are written in ordinary notation, in the letters of your language (Nf3, dxc4; in French Cf3, dxc4), ambiguity being resolved among the moves of both boards.',
        },
        ...writingMoves('en', 'alice'),
      ],
    },
    fr: {
      title: 'Échecs Alice',
      intro:
        'Chaque pièce déplacée arrive sur l’autre échiquier (« de l’autre côté du miroir »). Il y a deux échiquiers, et toutes les pièces démarrent sur l’échiquier 1. Inventeur : Vernon R. Parton (1953).',
      blocks: [
        { h: 'Déplacements' },
        {
          ul: [
            'Une pièce se déplace sur l’échiquier où elle se trouve, selon les règles usuelles appliquées à cet échiquier seul : les pièces de l’autre échiquier ne la bloquent pas et ne peuvent pas être prises.',
            'La case d’arrivée ne doit pas être occupée sur l’autre échiquier (c’est ce qui permet de tout représenter sur 64 cases : une case n’est occupée que sur un échiquier au plus).',
            'Après le coup, la pièce passe sur la même case de l’autre échiquier. Quand elle se déplace à nouveau, elle revient.',
            'Une pièce ne prend qu’une pièce adverse située sur son propre échiquier.',
          ],
        },
        {
          diagram: {
            fen: 'rnbqkbnr/ppp1pppp/8/8/2p5/5O2/PP1PPPPP/RNBQKB1R w KQkq - 0 3',
            caption: 'Après 1.Cf3 d5 2.c4 dxc4 : le cavalier est sur l’échiquier 2, le pion noir est revenu sur l’échiquier 1 en prenant sur l’échiquier 2.',
          },
        },
        { h: 'Échec et mat' },
        {
          p: 'Un roi est en échec quand une pièce adverse de son échiquier l’attaque. Comme aux échecs orthodoxes, on gagne en matant le roi adverse, qui ne doit pouvoir parer l’échec, pas même en s’échappant sur l’autre échiquier. Tout coup doit être légal sur l’échiquier où il est joué, et la position résultante sur l’autre échiquier doit être légale aussi.',
        },
        {
          diagram: {
            fen: 'rnbqkbnr/ppp1pppp/8/1B6/4p3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3',
            caption: '1.e4 d5 2.Fe2 dxe4 3.Fb5# : le fou revient sur l’échiquier 1 et fait mat, car 3…Rd7 n’est pas valide sur l’échiquier 1.',
            lastMove: 'e2b5',
            check: true,
            arrows: [{ orig: 'b5', dest: 'e8', brush: 'red' }],
          },
        },
        { h: 'Roque, prise en passant, promotion' },
        {
          ul: [
            'Le roque n’est possible que depuis l’échiquier 1 (sinon le roi ou la tour a bougé) et doit y être légal ; les cases d’arrivée du roi et de la tour doivent être vides sur l’échiquier 2, les deux pièces passent sur l’échiquier 2, et le roi ne doit pas y être en échec.',
            'On peut prendre en passant quels que soient les échiquiers des deux pions : les pions passent « à travers le miroir » et peuvent ainsi être capturés juste avant ou juste après le miroir. La case où arrive le pion preneur doit être vide sur les deux échiquiers.',
            'Un pion promu devient la pièce choisie, qui passe sur l’autre échiquier.',
          ],
        },
        { h: 'Fin de la partie' },
        {
          p: 'Comme aux échecs orthodoxes : mat, pat, triple répétition (l’échiquier de chaque pièce compte), règle des cinquante coups, temps, abandon et nulle par accord. Le seul matériel insuffisant est celui de deux rois seuls.',
        },
        { h: 'Sur ce site' },
        {
          p: 'Sur un grand écran, les deux échiquiers sont côte à côte : l’échiquier 1 à gauche, l’échiquier 2 à droite. Sur un téléphone, l’échiquier 1 est affiché en grand et l’échiquier 2 en petit, en direct, au-dessous : touchez le petit échiquier pour l’afficher en grand. Les pièces de l’échiquier 2 sont dessinées avec les pièces habituelles. Déplacez une pièce sur son échiquier ; elle glisse ensuite vers l’autre. Les coups s’écrivent en notation ordinaire, avec les lettres françaises (Cf3, dxc4 ; les lettres anglaises Nf3 sont comprises aussi), l’ambiguïté étant levée parmi les coups des deux échiquiers.',
        },
        ...writingMoves('fr', 'alice'),
      ],
    },
  },

  avalanche: {
    en: {
      title: 'Avalanche chess',
      intro:
        'Chess in which, after every move, you also push one of your opponent’s pawns one square towards you. Invented by Ralph Betza (1977).',
      blocks: [
        { h: 'A turn' },
        {
          ul: [
            'First part: an ordinary legal chess move (there is no en passant).',
            'Second part: you move one of your opponent’s pawns one square straight forward, in its own direction, towards you, onto an empty square. It is never a capture and never a double step.',
            'If none of the opponent’s pawns can move after the first part, the first part alone is the whole move.',
            'When a pushed pawn reaches its last rank, its owner chooses the new piece (queen, rook, bishop or knight) at the start of their next turn, and the new piece may move in that same turn.',
            'Your own promotions are chosen by you, as usual.',
          ],
        },
        {
          diagram: {
            fen: 'rnbqkbnr/ppp1pppp/3p4/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
            caption: 'White’s first move e4,d6: the pawn e2-e4, then the black pawn d7 pushed to d6. White has 20 × 8 = 160 possible first moves.',
            arrows: [
              { orig: 'e2', dest: 'e4', brush: 'green' },
              { orig: 'd7', dest: 'd6', brush: 'blue' },
            ],
          },
        },
        { h: 'Check' },
        {
          ul: [
            'The first part alone must be a legal chess move: a move that leaves your king attacked is illegal even if the push would cover the check.',
            'The push must not put your own king in check: neither by the pushed pawn’s new attacks, nor by a line opened on the square it left, nor, when it reaches its last rank, by a queen or a knight that its owner could choose there. Such pushes are not offered.',
            'If the opponent’s pawns can move after a first part but every push is a self-check, that first part cannot be played.',
            'A push may give check to the opponent (a line opened by your pieces); they must then get out of check with their first part.',
          ],
        },
        {
          diagram: {
            fen: '7k/b7/2p5/8/8/8/8/4K3 w - - 0 1',
            caption: 'The white king may not go to f2 because of the bishop on a7, even though the push c6-c5 would cover the check afterwards.',
            arrows: [{ orig: 'a7', dest: 'f2', brush: 'red' }],
          },
        },
        { h: 'End of the game' },
        {
          ul: [
            'No legal first part at all: checkmate if you are in check, otherwise stalemate (draw).',
            'First parts exist but none can be completed because all their pushes are self-checks: you have lost, even if the first part would have given mate.',
            'Repetition, the fifty-move rule (any pawn move, pushes included, or capture resets the count), time, resignation and agreement as in orthodox chess; insufficient material only when no pawn remains.',
          ],
        },
        { h: 'On this site' },
        {
          p: 'Play your first part on the board: the opponent’s pawns that you may push are then marked with a ring; tap one to push it. When none can move, the move is sent at once. When one of your pawns was pushed onto your last rank, a dialog asks you for its new piece at the start of your turn, and your opponent is told that you are choosing. During your opponent’s turn you may premove a first part, then tap one of the opponent’s pawns to premove its push as well. Moves are written with the push after a comma, e.g. Nf3,e6; a pending choice comes first: Q:Nf3,e6. Typing the first part alone (Nf3) plays it and asks for the push on the board.',
        },
        {
          diagram: {
            fen: 'P7/8/6k1/8/8/8/5PPP/6K1 w - - 0 30',
            caption: 'Black pushed the white pawn to a8: White chooses its piece before playing.',
          },
        },
        ...writingMoves('en', 'avalanche'),
      ],
    },
    fr: {
      title: 'Échecs Avalanche',
      intro:
        'Des échecs où, après chaque coup, on fait aussi avancer d’une case vers soi un pion de l’adversaire. Variante conçue par Ralph Betza en 1977.',
      blocks: [
        { h: 'Un coup' },
        {
          ul: [
            'Première composante : un coup orthodoxe légal (la prise en passant n’existe pas).',
            'Seconde composante : on déplace un pion adverse d’un pas selon sa marche habituelle, vers soi, sur une case vide. Ce n’est jamais une prise ni un double pas.',
            'Si, après la première composante, aucun pion adverse ne peut avancer, le coup comporte cette seule composante.',
            'Si un pion poussé arrive sur sa case de promotion, c’est son propriétaire qui choisit la pièce (dame, tour, fou ou cavalier), au début de son tour suivant ; la nouvelle pièce peut jouer dans ce même tour.',
            'Vos propres promotions sont choisies par vous, comme d’habitude.',
          ],
        },
        {
          diagram: {
            fen: 'rnbqkbnr/ppp1pppp/3p4/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
            caption: 'Premier coup des Blancs e4,d6 : le pion e2-e4, puis le pion noir d7 poussé en d6. Les Blancs ont 20 × 8 = 160 premiers coups possibles.',
            arrows: [
              { orig: 'e2', dest: 'e4', brush: 'green' },
              { orig: 'd7', dest: 'd6', brush: 'blue' },
            ],
          },
        },
        { h: 'L’échec' },
        {
          ul: [
            'La première composante seule doit être un coup orthodoxe légal : un coup qui laisse son roi attaqué est illégal même si la poussée couvrirait l’échec.',
            'La poussée ne doit pas mettre son propre roi en échec : ni par les nouvelles attaques du pion poussé, ni par une ligne ouverte sur la case qu’il quitte, ni, s’il arrive sur sa dernière rangée, par une dame ou un cavalier que son propriétaire pourrait y choisir. Ces poussées ne sont pas proposées.',
            'Si des pions adverses peuvent avancer après une première composante mais que toutes les poussées sont des autoéchecs, cette première composante ne peut pas être jouée.',
            'Une poussée peut mettre l’adversaire en échec (ligne ouverte par vos pièces) ; il doit alors parer l’échec par sa première composante.',
          ],
        },
        {
          diagram: {
            fen: '7k/b7/2p5/8/8/8/8/4K3 w - - 0 1',
            caption: 'Le roi blanc ne peut pas aller en f2 à cause du fou a7, bien que la poussée c6-c5 couvrirait ensuite l’échec.',
            arrows: [{ orig: 'a7', dest: 'f2', brush: 'red' }],
          },
        },
        { h: 'Fin de la partie' },
        {
          ul: [
            'Aucune première composante légale : mat si l’on est en échec, sinon pat (nulle).',
            'Des premières composantes existent mais aucune ne peut être complétée, toutes leurs poussées étant des autoéchecs : la partie est perdue, même si la première composante amenait une position de mat.',
            'Répétition, règle des cinquante coups (tout coup de pion, poussées comprises, ou toute prise remet le compte à zéro), temps, abandon et nulle par accord comme aux échecs orthodoxes ; matériel insuffisant seulement quand il ne reste aucun pion.',
          ],
        },
        { h: 'Sur ce site' },
        {
          p: 'Jouez votre première composante sur l’échiquier : les pions adverses que vous pouvez pousser sont alors entourés d’un anneau ; touchez-en un pour le pousser. Si aucun ne peut avancer, le coup part aussitôt. Si l’un de vos pions a été poussé sur votre dernière rangée, une fenêtre vous demande sa nouvelle pièce au début de votre tour, et votre adversaire est prévenu que vous choisissez. Pendant le tour adverse, vous pouvez anticiper une première composante, puis toucher un pion adverse pour anticiper aussi sa poussée. Les coups s’écrivent avec la poussée après une virgule, par exemple Cf3,e6 ; un choix en attente vient d’abord : D:Cf3,e6. Taper la première composante seule (Cf3) la joue et demande la poussée sur l’échiquier.',
        },
        {
          diagram: {
            fen: 'P7/8/6k1/8/8/8/5PPP/6K1 w - - 0 30',
            caption: 'Les Noirs ont poussé le pion blanc en a8 : les Blancs choisissent sa pièce avant de jouer.',
          },
        },
        ...writingMoves('fr', 'avalanche'),
      ],
    },
  },
};
