// English and French for every word of the interface. The language comes from
// a saved choice, else from the browser; the switch on each page changes it
// and the page re-renders through onLangChange.

const en = {
  'app.name': 'dicehall',
  'app.tagline': 'Dice games at one table, in the browser.',
  'lang.label': 'Language',
  'lang.en': 'English',
  'lang.fr': 'Français',

  'home.you': 'Your name',
  'home.name.hint': 'Shown to the other players. No account needed.',
  'home.name.missing': 'Please choose a name first.',
  'home.create': 'New table',
  'home.game': 'Game',
  'home.players': 'Players',
  'home.players.solo': '1 (solo, against the virtual opponent)',
  'home.players.n': '{n} players',
  'home.seat': 'Seat {n}',
  'home.seat.you': 'You',
  'home.seat.human': 'A person (share the link)',
  'home.seat.bot': 'Bot: {bot}',
  'home.clock': 'Turn clock',
  'home.clock.none': 'No clock',
  'home.clock.secs': '{n} seconds a turn',
  'home.clock.hint': 'When a player runs out of time a bot plays for them until they take their seat back.',
  'home.solo.grid': 'Solo grid cells',
  'home.create.go': 'Create the table',
  'home.creating': 'Creating the table…',
  'home.open': 'Open tables',
  'home.live': 'Games being played',
  'home.over': 'Finished games',
  'home.none.open': 'No table is waiting for players. Create one!',
  'home.none.live': 'Nobody is playing right now.',
  'home.none.over': 'No finished game yet.',
  'home.join.seat': 'Join as {seat}',
  'home.watch': 'Watch',
  'home.replay': 'Replay',
  'home.open.table': 'Open',
  'home.updated': 'Lists refresh by themselves.',
  'home.lists.failed': 'Could not load the tables: {msg}',

  'bot.random': 'random',
  'bot.greedy': 'greedy',
  'bot.expert': 'expert',
  'seat.free': 'free seat',
  'seat.bot': 'bot ({bot})',
  'seat.online': 'connected',
  'seat.offline': 'not connected',
  'seat.botplays': 'a bot ({bot}) is playing for them',
  'seat.botplays.you': 'a bot ({bot}) is playing for you',
  'seat.you': 'you',
  'status.open': 'waiting for players',
  'status.live': 'in play',
  'status.over': 'finished',

  'table.back': 'All tables',
  'table.loading': 'Connecting…',
  'table.reconnecting': 'Connection lost. Reconnecting in {n} s…',
  'table.connected': 'Connected.',
  'table.notsent': 'Not connected: that was not sent. Reconnecting…',
  'table.notfound': 'This table does not exist.',
  'table.share': 'Share this link to invite players or spectators:',
  'table.copy': 'Copy link',
  'table.copied': 'Link copied.',
  'table.players': 'Players',
  'table.spectating': 'You are watching.',
  'table.join': 'Join this table',
  'table.join.as': 'Take seat {n}',
  'table.join.name': 'Your name',
  'table.join.failed': 'Could not join: {msg}',
  'table.waiting': 'Waiting for every seat to be taken before the game starts.',
  'table.leave': 'Leave: a bot plays for me',
  'table.reclaim': 'Take my seat back',
  'table.takeover': 'Let a bot play for {name}',
  'table.log': 'What happened',
  'table.log.empty': 'Nothing yet.',
  'table.log.caughtup': 'Reconnected: {n} moves made meanwhile are on the board.',
  'table.turn.you': 'Your turn.',
  'table.turn.bot': 'Your turn: a bot is playing it for you.',
  'table.turn.other': "{name}'s turn.",
  'table.turn.dice': 'The dice are rolling…',
  'table.clock': '{s} s left',
  'table.over': 'The game is over.',
  'table.results': 'Final scores',
  'table.winner': '{names} won with {score} points.',
  'table.winners': '{names} share the win with {score} points.',
  'table.solo.won': 'You beat the virtual opponent: {score} against {opp}.',
  'table.solo.lost': 'The virtual opponent wins: {score} against {opp}.',
  'table.solo.lostgrid': 'The solo grid is full: the virtual opponent wins.',
  'table.solo.won.other': '{name} beat the virtual opponent: {score} against {opp}.',
  'table.error': 'Problem: {msg}',

  'replay.title': 'Replay',
  'replay.view': 'Seen by',
  'replay.public': 'Everyone (public view)',
  'replay.start': 'Start',
  'replay.back': 'Back',
  'replay.forward': 'Forward',
  'replay.end': 'End',
  'replay.step': 'Step {i} of {n}',
  'replay.setup': 'The game is set up.',
  'replay.keys': 'Arrow keys step; Home and End jump.',
  'replay.loading': 'Loading the replay…',
  'replay.failed': 'Could not load the replay: {msg}',

  'ds.reserve': 'Reserve',
  'ds.reserve.empty': 'The reserve is empty.',
  'ds.bag': 'Bag',
  'ds.discard': 'Discard',
  'ds.dice': '{n} dice',
  'ds.dice.one': '1 die',
  'ds.refill': 'Refill due: the discard goes back into the bag before the next draw.',
  'ds.ending': 'The end is triggered: the round is being finished.',
  'ds.draw.title': 'Draw dice',
  'ds.draw.n': 'Draw {n}',
  'ds.draw.three': 'The reserve is empty or shows only stars: you must draw 3.',
  'ds.draw.return': 'Also put the reserve back into the bag',
  'ds.take.title': 'Take dice',
  'ds.take.color': 'Take {color}',
  'ds.take.value': 'Take the {v}s',
  'ds.take.stars': 'Take the stars',
  'ds.stars.row': 'Star {i} in row',
  'ds.stars.rowopt': 'row {v} ({free} free)',
  'ds.penalty': 'Nothing fits your sheet: this turn is a penalty. Choose a colour or a value; its sum goes to the penalty cell.',
  'ds.notlegal': 'not possible now',
  'ds.trynote': 'Dimmed choices are not possible now; choosing one tells you why.',
  'ds.sheet.of': "{name}'s sheet",
  'ds.row': 'Row',
  'ds.green': 'Bonus',
  'ds.mult': 'Multipliers',
  'ds.sum': 'Sum',
  'ds.score': 'Score',
  'ds.penaltycell': 'Penalty',
  'ds.total': 'Total',
  'ds.cell.empty': 'empty',
  'ds.cell.label': 'Row {row}, {where}: {content}',
  'ds.cell.green': 'bonus cell {i}',
  'ds.cell.mult': 'multiplier {i} of row {row}: {state}',
  'ds.mult.marked': 'marked',
  'ds.mult.free': 'free',
  'ds.solo': 'Virtual opponent',
  'ds.solo.count': '{m} of {c} cells marked: {opp} points',
  'ds.die': '{color} die showing {face}',
  'ds.star': 'a star',
  'ds.col.black': 'black',
  'ds.col.purple': 'purple',
  'ds.col.blue': 'blue',
  'ds.col.orange': 'orange',
  'ds.white': 'Cells left: {n}',
  'ds.colpl.black': 'black',
  'ds.colpl.purple': 'purple',
  'ds.colpl.blue': 'blue',
  'ds.colpl.orange': 'orange',

  'ev.refill': 'The bag is refilled (from the discard: {d}; from the reserve: {r}).',
  'ev.draw': '{name} draws {n}.',
  'ev.draw.short': '{name} announces {a} but the bag holds only {n}.',
  'ev.roll': 'Rolled: {dice}.',
  'ev.take.color': '{name} takes the {color} dice ({dice}): {sum}.',
  'ev.take.value': '{name} takes the {v}s ({dice}): {sum}.',
  'ev.take.stars': '{name} takes the stars ({n}) and marks multipliers in rows {rows}.',
  'ev.take.penalty': '{name} takes a penalty of {sum}.',
  'ev.end': 'The end is triggered: this round is the last.',
  'ev.solo': 'The virtual opponent marks {m} cells ({t} in all).',
  'ev.solo.lost': 'The solo grid is full.',
  'ev.over': 'Game over. Scores: {scores}.',
  'ev.joined': '{name} sits down.',
  'move.chance': 'the dice',

  'rule.must-draw-three': 'The reserve is empty or shows only stars, so you must draw 3 dice.',
  'rule.draw-count': 'A draw is of 1, 2 or 3 dice.',
  'rule.return-reserve-without-refill': 'The reserve can go back into the bag only together with a refill.',
  'rule.no-such-dice': 'The reserve has no such dice.',
  'rule.column-full': 'That column has too few empty cells for these dice, and another choice fits: take one that fits.',
  'rule.row-full': 'That row has too few empty cells for these dice, and another choice fits: take one that fits.',
  'rule.multipliers': 'The stars cannot be placed like that: mark one free multiplier cell per star.',
  'rule.penalty-not-stars': 'Nothing fits your sheet, so the penalty must be a colour or a value, not the stars.',
  'rule.bad-value': 'A value is from 2 to 6.',
  'rule.not-your-turn': 'It is not your turn.',
  'rule.game-over': 'The game is over.',
  'rule.chance-pending': 'Wait for the dice to be rolled.',
  'rule.wrong-action': 'That is not the step of the turn: draw first, then take.',
  'rule.bad-action': 'That move is malformed.',
  'rule.not-seated': 'You are watching: only seated players can do that.',
  'rule.not-your-seat': 'That is not your seat.',
  'rule.waiting-for-players': 'The game starts once every seat is taken.',
  'rule.taken-over': 'A bot is playing this seat: take it back first.',
  'rule.stale': 'The table moved on in the meantime: look again.',
  'rule.not-taken-over': 'You are already playing your seat.',
  'rule.bad-seat': 'There is no such seat.',
  'rule.own-seat': 'To hand your own seat to a bot, leave it.',
  'rule.bot-seat': 'A bot already plays that seat.',
  'rule.seat-free': 'Nobody has taken that seat yet.',
  'rule.player-connected': 'That player is still connected.',
  'rule.no-bots': 'This game has no bots to play a seat.',
  'refused': 'Not allowed: {msg}',
};

const fr = {
  'app.name': 'dicehall',
  'app.tagline': 'Des jeux de dés autour d’une même table, dans le navigateur.',
  'lang.label': 'Langue',
  'lang.en': 'English',
  'lang.fr': 'Français',

  'home.you': 'Votre nom',
  'home.name.hint': 'Visible par les autres joueurs. Pas besoin de compte.',
  'home.name.missing': 'Choisissez d’abord un nom.',
  'home.create': 'Nouvelle table',
  'home.game': 'Jeu',
  'home.players': 'Joueurs',
  'home.players.solo': '1 (solo, contre l’adversaire virtuel)',
  'home.players.n': '{n} joueurs',
  'home.seat': 'Place {n}',
  'home.seat.you': 'Vous',
  'home.seat.human': 'Une personne (partagez le lien)',
  'home.seat.bot': 'Robot : {bot}',
  'home.clock': 'Temps par tour',
  'home.clock.none': 'Sans limite',
  'home.clock.secs': '{n} secondes par tour',
  'home.clock.hint': 'Quand un joueur dépasse son temps, un robot joue à sa place jusqu’à ce qu’il reprenne sa place.',
  'home.solo.grid': 'Cases de la grille solo',
  'home.create.go': 'Créer la table',
  'home.creating': 'Création de la table…',
  'home.open': 'Tables ouvertes',
  'home.live': 'Parties en cours',
  'home.over': 'Parties terminées',
  'home.none.open': 'Aucune table n’attend de joueurs. Créez-en une !',
  'home.none.live': 'Personne ne joue en ce moment.',
  'home.none.over': 'Aucune partie terminée pour l’instant.',
  'home.join.seat': 'Rejoindre : {seat}',
  'home.watch': 'Regarder',
  'home.replay': 'Revoir',
  'home.open.table': 'Ouvrir',
  'home.updated': 'Les listes se mettent à jour toutes seules.',
  'home.lists.failed': 'Impossible de charger les tables : {msg}',

  'bot.random': 'hasard',
  'bot.greedy': 'glouton',
  'bot.expert': 'expert',
  'seat.free': 'place libre',
  'seat.bot': 'robot ({bot})',
  'seat.online': 'connecté',
  'seat.offline': 'déconnecté',
  'seat.botplays': 'un robot ({bot}) joue à sa place',
  'seat.botplays.you': 'un robot ({bot}) joue pour vous',
  'seat.you': 'vous',
  'status.open': 'en attente de joueurs',
  'status.live': 'en cours',
  'status.over': 'terminée',

  'table.back': 'Toutes les tables',
  'table.loading': 'Connexion…',
  'table.reconnecting': 'Connexion perdue. Nouvel essai dans {n} s…',
  'table.connected': 'Connecté.',
  'table.notsent': 'Pas de connexion : rien n’a été envoyé. Reconnexion…',
  'table.notfound': 'Cette table n’existe pas.',
  'table.share': 'Partagez ce lien pour inviter des joueurs ou des spectateurs :',
  'table.copy': 'Copier le lien',
  'table.copied': 'Lien copié.',
  'table.players': 'Joueurs',
  'table.spectating': 'Vous regardez la partie.',
  'table.join': 'Rejoindre cette table',
  'table.join.as': 'Prendre la place {n}',
  'table.join.name': 'Votre nom',
  'table.join.failed': 'Impossible de rejoindre : {msg}',
  'table.waiting': 'La partie commence quand toutes les places sont prises.',
  'table.leave': 'Partir : un robot joue pour moi',
  'table.reclaim': 'Reprendre ma place',
  'table.takeover': 'Faire jouer un robot pour {name}',
  'table.log': 'Déroulement',
  'table.log.empty': 'Rien pour l’instant.',
  'table.log.caughtup': 'Reconnecté : les {n} coups joués entre-temps sont sur le plateau.',
  'table.turn.you': 'À vous de jouer.',
  'table.turn.bot': 'À vous : un robot joue pour vous.',
  'table.turn.other': 'Au tour de {name}.',
  'table.turn.dice': 'Les dés roulent…',
  'table.clock': 'encore {s} s',
  'table.over': 'La partie est terminée.',
  'table.results': 'Scores finaux',
  'table.winner': '{names} gagne avec {score} points.',
  'table.winners': '{names} se partagent la victoire avec {score} points.',
  'table.solo.won': 'Vous battez l’adversaire virtuel : {score} contre {opp}.',
  'table.solo.lost': 'L’adversaire virtuel gagne : {score} contre {opp}.',
  'table.solo.lostgrid': 'La grille solo est pleine : l’adversaire virtuel gagne.',
  'table.solo.won.other': '{name} bat l’adversaire virtuel : {score} contre {opp}.',
  'table.error': 'Problème : {msg}',

  'replay.title': 'Revoir la partie',
  'replay.view': 'Vue de',
  'replay.public': 'Tout le monde (vue publique)',
  'replay.start': 'Début',
  'replay.back': 'Reculer',
  'replay.forward': 'Avancer',
  'replay.end': 'Fin',
  'replay.step': 'Étape {i} sur {n}',
  'replay.setup': 'La partie est mise en place.',
  'replay.keys': 'Les flèches avancent et reculent ; Début et Fin sautent.',
  'replay.loading': 'Chargement de la partie…',
  'replay.failed': 'Impossible de charger la partie : {msg}',

  'ds.reserve': 'Réserve',
  'ds.reserve.empty': 'La réserve est vide.',
  'ds.bag': 'Sac',
  'ds.discard': 'Défausse',
  'ds.dice': '{n} dés',
  'ds.dice.one': '1 dé',
  'ds.refill': 'Remplissage prévu : la défausse retourne dans le sac avant le prochain tirage.',
  'ds.ending': 'La fin est déclenchée : on termine le tour de table.',
  'ds.draw.title': 'Tirer des dés',
  'ds.draw.n': 'Tirer {n}',
  'ds.draw.three': 'La réserve est vide ou ne montre que des étoiles : vous devez tirer 3 dés.',
  'ds.draw.return': 'Remettre aussi la réserve dans le sac',
  'ds.take.title': 'Prendre des dés',
  'ds.take.color': 'Prendre les {color}',
  'ds.take.value': 'Prendre les {v}',
  'ds.take.stars': 'Prendre les étoiles',
  'ds.stars.row': 'Étoile {i} sur la ligne',
  'ds.stars.rowopt': 'ligne {v} ({free} libres)',
  'ds.penalty': 'Rien ne rentre sur votre feuille : ce tour est une pénalité. Choisissez une couleur ou une valeur ; sa somme va dans la case pénalité.',
  'ds.notlegal': 'impossible maintenant',
  'ds.trynote': 'Les choix grisés sont impossibles maintenant ; en choisir un vous dit pourquoi.',
  'ds.sheet.of': 'Feuille de {name}',
  'ds.row': 'Ligne',
  'ds.green': 'Bonus',
  'ds.mult': 'Multiplicateurs',
  'ds.sum': 'Somme',
  'ds.score': 'Score',
  'ds.penaltycell': 'Pénalité',
  'ds.total': 'Total',
  'ds.cell.empty': 'vide',
  'ds.cell.label': 'Ligne {row}, {where} : {content}',
  'ds.cell.green': 'case bonus {i}',
  'ds.cell.mult': 'multiplicateur {i} de la ligne {row} : {state}',
  'ds.mult.marked': 'coché',
  'ds.mult.free': 'libre',
  'ds.solo': 'Adversaire virtuel',
  'ds.solo.count': '{m} cases cochées sur {c} : {opp} points',
  'ds.die': 'dé {color} montrant {face}',
  'ds.star': 'une étoile',
  'ds.col.black': 'noir',
  'ds.col.purple': 'violet',
  'ds.col.blue': 'bleu',
  'ds.col.orange': 'orange',
  'ds.white': 'Cases restantes : {n}',
  'ds.colpl.black': 'noirs',
  'ds.colpl.purple': 'violets',
  'ds.colpl.blue': 'bleus',
  'ds.colpl.orange': 'orange',

  'ev.refill': 'Le sac est rempli (depuis la défausse : {d} ; depuis la réserve : {r}).',
  'ev.draw': '{name} tire {n} dés.',
  'ev.draw.short': '{name} annonce {a} mais le sac n’en contient que {n}.',
  'ev.roll': 'Résultat : {dice}.',
  'ev.take.color': '{name} prend les dés {color} ({dice}) : {sum}.',
  'ev.take.value': '{name} prend les {v} ({dice}) : {sum}.',
  'ev.take.stars': '{name} prend les étoiles ({n}) et coche des multiplicateurs sur les lignes {rows}.',
  'ev.take.penalty': '{name} prend une pénalité de {sum}.',
  'ev.end': 'La fin est déclenchée : ce tour de table est le dernier.',
  'ev.solo': 'L’adversaire virtuel coche {m} cases ({t} en tout).',
  'ev.solo.lost': 'La grille solo est pleine.',
  'ev.over': 'Partie terminée. Scores : {scores}.',
  'ev.joined': '{name} s’installe.',
  'move.chance': 'les dés',

  'rule.must-draw-three': 'La réserve est vide ou ne montre que des étoiles : vous devez tirer 3 dés.',
  'rule.draw-count': 'On tire 1, 2 ou 3 dés.',
  'rule.return-reserve-without-refill': 'La réserve ne retourne dans le sac qu’avec un remplissage.',
  'rule.no-such-dice': 'La réserve ne contient pas de tels dés.',
  'rule.column-full': 'Cette colonne n’a plus assez de cases vides pour ces dés, et un autre choix rentre : prenez un choix qui rentre.',
  'rule.row-full': 'Cette ligne n’a plus assez de cases vides pour ces dés, et un autre choix rentre : prenez un choix qui rentre.',
  'rule.multipliers': 'Les étoiles ne peuvent pas être placées ainsi : cochez un multiplicateur libre par étoile.',
  'rule.penalty-not-stars': 'Rien ne rentre sur votre feuille : la pénalité doit être une couleur ou une valeur, pas les étoiles.',
  'rule.bad-value': 'Une valeur va de 2 à 6.',
  'rule.not-your-turn': 'Ce n’est pas votre tour.',
  'rule.game-over': 'La partie est terminée.',
  'rule.chance-pending': 'Attendez que les dés soient lancés.',
  'rule.wrong-action': 'Ce n’est pas l’étape du tour : tirez d’abord, puis prenez.',
  'rule.bad-action': 'Ce coup est mal formé.',
  'rule.not-seated': 'Vous regardez la partie : seuls les joueurs assis peuvent faire cela.',
  'rule.not-your-seat': 'Ce n’est pas votre place.',
  'rule.waiting-for-players': 'La partie commence quand toutes les places sont prises.',
  'rule.taken-over': 'Un robot joue à cette place : reprenez-la d’abord.',
  'rule.stale': 'La partie a avancé entre-temps : regardez à nouveau.',
  'rule.not-taken-over': 'Vous jouez déjà à votre place.',
  'rule.bad-seat': 'Cette place n’existe pas.',
  'rule.own-seat': 'Pour confier votre propre place à un robot, quittez-la.',
  'rule.bot-seat': 'Un robot joue déjà à cette place.',
  'rule.seat-free': 'Personne n’a encore pris cette place.',
  'rule.player-connected': 'Ce joueur est toujours connecté.',
  'rule.no-bots': 'Ce jeu n’a pas de robot pour jouer à une place.',
  'refused': 'Refusé : {msg}',
};

const dicts = { en, fr };
const listeners = [];

function initialLang() {
  try {
    const saved = localStorage.getItem('dh.lang');
    if (saved && dicts[saved]) return saved;
  } catch { /* storage may be off */ }
  const nav = (navigator.languages && navigator.languages[0]) || navigator.language || 'en';
  return nav.toLowerCase().startsWith('fr') ? 'fr' : 'en';
}

let lang = initialLang();
document.documentElement.lang = lang;

export function currentLang() { return lang; }

export function setLang(l) {
  if (!dicts[l] || l === lang) return;
  lang = l;
  document.documentElement.lang = l;
  try { localStorage.setItem('dh.lang', l); } catch { /* ignore */ }
  for (const fn of listeners) fn(l);
}

export function onLangChange(fn) { listeners.push(fn); }

// t looks a key up in the current language (English as fallback) and fills
// {placeholders} from vars.
export function t(key, vars) {
  let s = dicts[lang][key] ?? en[key] ?? key;
  if (vars) s = s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
  return s;
}

export function has(key) { return key in dicts[lang]; }

// refusal turns a server refusal into a sentence: in English the server's own
// (it names the exact cells), in French our sentence for its rule code, and the
// server's English when we do not know the code.
export function refusal(rule, message) {
  if (lang === 'en' || !has('rule.' + rule)) return message || t('rule.' + rule);
  return t('rule.' + rule);
}

// langSwitch builds the two-button language switch.
export function langSwitch() {
  const wrap = document.createElement('div');
  wrap.className = 'lang-switch';
  wrap.setAttribute('role', 'group');
  const draw = () => {
    wrap.replaceChildren();
    wrap.setAttribute('aria-label', t('lang.label'));
    for (const l of ['en', 'fr']) {
      const b = document.createElement('button');
      b.type = 'button';
      b.lang = l;
      b.textContent = l.toUpperCase();
      b.title = dicts[l]['lang.' + l];
      b.setAttribute('aria-label', dicts[l]['lang.' + l]);
      b.setAttribute('aria-pressed', String(l === lang));
      b.dataset.lang = l;
      b.addEventListener('click', () => setLang(l));
      wrap.appendChild(b);
    }
  };
  draw();
  onLangChange(draw);
  return wrap;
}
