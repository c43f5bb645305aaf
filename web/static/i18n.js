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
  'home.players.one': '1 ({mode})',
  'home.players.n': '{n} players',
  'home.seat': 'Seat {n}',
  'home.seat.you': 'You',
  'home.seat.human': 'A person (share the link)',
  'home.seat.bot': 'Bot: {bot}',
  'home.clock': 'Turn clock',
  'home.clock.none': 'No clock',
  'home.clock.secs': '{n} seconds a turn',
  'home.clock.hint': 'When a player runs out of time a bot plays for them until they take their seat back.',
  'home.create.go': 'Create the table',
  'home.creating': 'Creating the table…',
  'home.open': 'Open tables',
  'home.live': 'Games being played',
  'home.over': 'Finished games',
  'home.none.open': 'No table is waiting for players. Create one!',
  'home.none.live': 'Nobody is playing right now.',
  'home.none.over': 'No finished game yet.',
  'home.join.seat': 'Join as seat {n}',
  'home.watch': 'Watch',
  'home.replay': 'Replay',
  'home.updated': 'Lists refresh by themselves.',
  'home.lists.failed': 'Could not load the tables: {msg}',
  'home.games.failed': 'Could not load the games: {msg}',
  'home.mine': 'Your games',
  'home.mine.turn': 'Your turn',
  'home.mine.waiting': 'Waiting for {n} more {n:player:players}',
  'home.mine.bot': 'A bot is playing for you',
  'home.mine.others': 'The others are playing',
  'home.mine.won': 'You won',
  'home.mine.shared': 'You share the win',
  'home.with': 'with {names}',
  'home.play': 'Play',
  'home.resume': 'Resume',
  'home.ranking': 'Final ranking',
  'home.winner': 'won',
  'home.cta': 'Start a new table',
  'home.card.players': '{min}–{max} players',
  'home.card.players.n': '{n} {n:player:players}',
  'home.rules': 'Rules',
  'home.rules.of': 'Rules of {game}',
  'home.field.min': 'Enter a whole number of at least {min}.',
  'home.field.range': 'Enter a whole number from {min} to {max}.',
  'home.clock.mins': '{n} {n:minute:minutes} a turn',
  'home.ended': 'ended {when}',
  'home.ended.now': 'just ended',

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

  // Ratings, leaderboards and profiles (ratings piece).
  'nav.leaderboards': 'Leaderboards',
  'home.rated': 'Rated game',
  'home.rated.hint': 'It counts for the ratings when every player is signed in. Untick it for a friendly game.',
  'home.rated.tag': 'Rated',
  'lb.title': 'Leaderboards',
  'lb.tabs': 'Games',
  'lb.rank': 'Rank',
  'lb.player': 'Player',
  'lb.rating': 'Rating',
  'lb.estimate': 'Skill (μ ± σ)',
  'lb.games': 'Rated games',
  'lb.about': 'The rating is μ − 3σ: a level of skill the player very probably has at least, so it climbs as more games make the estimate surer. Players with at least {n} rated {n:game:games} are listed.',
  'lb.empty': 'Nobody is on this leaderboard yet: finish a rated game between signed-in players.',
  'lb.range': '{from}–{to} of {total}',
  'lb.prev': 'Previous',
  'lb.next': 'Next',
  'lb.pages': 'Pages',
  'lb.failed': 'Could not load the leaderboard: {msg}',
  'profile.since': 'Playing since {date}',
  'profile.notfound': 'There is no player called “{name}”.',
  'profile.failed': 'Could not load the profile: {msg}',
  'profile.stats': 'By game',
  'profile.rating': 'Rating',
  'profile.unrated': 'Not rated yet',
  'profile.played': 'Games played',
  'profile.wins': 'Wins',
  'profile.mean': 'Mean score',
  'profile.best': 'Best score',
  'profile.chart': 'Rating after each rated game: {n} {n:game:games}, from {first} to {last}.',
  'profile.chart.few': 'The chart appears after two rated games.',
  'profile.games': 'Games',
  'profile.games.none': 'No finished game yet.',
  'profile.place': '{place} of {n}',
  'profile.won': 'won',
  'profile.against': 'Opponents:',
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
  'table.results': 'Final ranking',
  'table.winner': '{names} won with {score} {score:point:points}.',
  'table.winners': '{names} share the win with {score} {score:point:points}.',
  'table.solo.won': 'You beat the virtual opponent: {score} against {opp}.',
  'table.solo.lost': 'The virtual opponent wins: {score} against {opp}.',
  'table.solo.lostgrid': 'The solo grid is full: the virtual opponent wins.',
  'table.solo.won.other': '{name} beat the virtual opponent: {score} against {opp}.',
  'table.error': 'Problem: {msg}',
  'table.over.short': 'Game over.',
  'table.rules': 'Rules',
  'table.hint.first': 'First game of {game}?',
  'table.hint.rules': 'Read the rules',
  'table.hint.close': 'Hide this hint',
  'table.close': 'Close',
  'table.banner.bot': 'A bot ({bot}) is playing for you.',
  'table.join.lost': 'Someone took seat {n} just before you. Choose another seat:',
  'table.join.lost.all': 'Someone took seat {n} just before you, and no seat is left: you are watching.',
  'table.join.none': 'Every seat has been taken: you are watching.',
  'table.join.watch': 'Watch',
  'table.copied.short': 'Copied!',
  'table.copy.select': 'Select the link and copy it',
  'table.place.1': '1st',
  'table.place.2': '2nd',
  'table.place.3': '3rd',
  'table.place.n': '{n}th',
  'table.points': '{n} {n:point:points}',
  'table.rematch': 'Rematch',
  'table.rematch.failed': 'Could not start a rematch: {msg}',
  'table.rematch.by': '{name} started a rematch.',
  'table.rematch.someone': 'A rematch has started.',
  'table.rematch.join': 'Join',
  'table.rematch.watch': 'Watch it',
  'seat.botname': '{bot} bot',
  'signal.title': 'Your turn',
  'signal.body': 'It is your turn to play at {table}.',

  'settings.title': 'Settings',
  'settings.confirm': 'Confirm my moves',
  'settings.confirm.hint': 'A move chosen on the board waits for a second tap or Enter.',
  'settings.speed': 'Pace of the others’ moves',
  'settings.speed.slow': 'Slow',
  'settings.speed.normal': 'Normal',
  'settings.speed.fast': 'Fast',
  'settings.sound': 'A sound when it is my turn',
  'settings.sound.hint': 'Only while the page is not in view.',
  'settings.notify': 'A notification when it is my turn',
  'settings.notify.hint': 'Only while the page is not in view; the browser asks you first.',
  'settings.notify.denied': 'The browser does not allow notifications for this site.',
  'settings.theme': 'Light or dark: the page follows your system.',

  'replay.title': 'Replay',
  'replay.view': 'Seen by',
  'replay.public': 'Everyone (public view)',
  'replay.start': 'Start',
  'replay.back': 'Back',
  'replay.forward': 'Forward',
  'replay.end': 'End',
  'replay.step': 'Step {i} of {n}',
  'replay.setup': 'The game is set up.',
  'replay.keys': '← and → step, Space plays or pauses, Home and End jump.',
  'replay.loading': 'Loading the replay…',
  'replay.failed': 'Could not load the replay: {msg}',
  'replay.play': 'Play',
  'replay.pause': 'Pause',
  'replay.speed': 'Speed',
  'replay.speed.x': '{x}×',
  'replay.decimal': '.',
  'replay.jump': 'Go to step',

  'rules.title': 'Rules',
  'rules.heading': 'How to play {game}',
  'rules.toc': 'Contents',
  'rules.loading': 'Loading the rules…',
  'rules.failed': 'Could not load the rules: {msg}',
  'rules.notfound': 'This game has no rules page.',
  'rules.example': 'Example {n}',
  'rules.example.caption': 'Drawn from a real game, as it looks at the table.',
  'rules.example.missing': 'This picture could not be drawn.',
  'rules.play': 'Start a game in the lobby',



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


  'rule.bad-word': 'That is not a word the game accepts: letters only, at most 40.',
  'rule.wrong-letter': 'The word does not start with a letter of that die.',
  'rule.already-named': 'That word was already said this round.',
  'rule.no-such-die': 'There is no such die.',
  'rule.own-die': 'You already hold that die.',
  'rule.no-bookworm-cards': 'No Bookworm card is left: dice can only come from the display.',
  'rule.cannot-steal': 'That Special die cannot be stolen.',
  'rule.stack-top-only': 'Stack: only the top die of a pile can be stolen.',
  'rule.stack-not-from-display': 'The Stack die cannot be taken.',
  'rule.special-not-by-word': 'No word takes that die.',
  'rule.no-question-die': 'The ? die is not in the display.',
  'rule.too-late': 'Too late: the time is up.',
  'rule.not-yet-timed-out': 'The time is not up yet.',
  'rule.no-deadline': 'No clock is running.',
  'rule.own-word': 'You cannot judge your own word.',
  'rule.already-voted': 'You already voted.',
  'rule.already-allowed': 'You already let the word pass.',
  'rule.bad-category': 'Choose one of the three categories.',
  'rule.bad-face': 'Turn the Special die to another face than Turn.',
  'rule.card-not-available': 'That category card is not available.',
  'rule.roll-count': 'A roll needs one face per die.',
  'rule.roll-face': 'A die does not have that face.',
  'rule.bad-flick': 'That flick is not allowed: base 0 to 3, angle within ±75°, power 0 to 1.',
  'rule.hole-taken': 'That hole already holds a die.',
  'rule.must-flick': 'Flick your dice before scoring.',
  'rule.used-twice': 'A die or marker may count only once.',
  'rule.group-size': 'A group needs at least 3 dice or markers.',
  'rule.group-color': 'A group must be of one colour.',
  'rule.group-not-adjacent': 'A group’s dice must touch along their sides.',
  'rule.not-scorable': 'That hole has nothing to score.',
  'rule.no-physics': 'This table cannot simulate flicks.',
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
  'home.players.one': '1 ({mode})',
  'home.players.n': '{n} joueurs',
  'home.seat': 'Place {n}',
  'home.seat.you': 'Vous',
  'home.seat.human': 'Une personne (partagez le lien)',
  'home.seat.bot': 'Robot : {bot}',
  'home.clock': 'Temps par tour',
  'home.clock.none': 'Sans limite',
  'home.clock.secs': '{n} secondes par tour',
  'home.clock.hint': 'Quand un joueur dépasse son temps, un robot joue à sa place jusqu’à ce qu’il reprenne sa place.',
  'home.create.go': 'Créer la table',
  'home.creating': 'Création de la table…',
  'home.open': 'Tables ouvertes',
  'home.live': 'Parties en cours',
  'home.over': 'Parties terminées',
  'home.none.open': 'Aucune table n’attend de joueurs. Créez-en une !',
  'home.none.live': 'Personne ne joue en ce moment.',
  'home.none.over': 'Aucune partie terminée pour l’instant.',
  'home.join.seat': 'Prendre la place {n}',
  'home.watch': 'Regarder',
  'home.replay': 'Revoir',
  'home.updated': 'Les listes se mettent à jour toutes seules.',
  'home.lists.failed': 'Impossible de charger les tables : {msg}',
  'home.games.failed': 'Impossible de charger les jeux : {msg}',
  'home.mine': 'Vos parties',
  'home.mine.turn': 'À vous de jouer',
  'home.mine.waiting': 'Il manque {n} {n:joueur:joueurs}',
  'home.mine.bot': 'Un robot joue à votre place',
  'home.mine.others': 'Aux autres de jouer',
  'home.mine.won': 'Vous avez gagné',
  'home.mine.shared': 'Vous partagez la victoire',
  'home.with': 'avec {names}',
  'home.play': 'Jouer',
  'home.resume': 'Reprendre',
  'home.ranking': 'Classement final',
  'home.winner': 'victoire',
  'home.cta': 'Ouvrir une nouvelle table',
  'home.card.players': '{min} à {max} joueurs',
  'home.card.players.n': '{n} {n:joueur:joueurs}',
  'home.rules': 'Règles',
  'home.rules.of': 'Règles de {game}',
  'home.field.min': 'Entrez un nombre entier d’au moins {min}.',
  'home.field.range': 'Entrez un nombre entier de {min} à {max}.',
  'home.clock.mins': '{n} {n:minute:minutes} par tour',
  'home.ended': 'terminée {when}',
  'home.ended.now': 'vient de se terminer',

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

  // Classements et profils (partie « ratings »).
  'nav.leaderboards': 'Classements',
  'home.rated': 'Partie classée',
  'home.rated.hint': 'Elle compte pour les classements si tous les joueurs sont connectés à leur compte. Décochez pour une partie amicale.',
  'home.rated.tag': 'Classée',
  'lb.title': 'Classements',
  'lb.tabs': 'Jeux',
  'lb.rank': 'Rang',
  'lb.player': 'Joueur',
  'lb.rating': 'Cote',
  'lb.estimate': 'Niveau (μ ± σ)',
  'lb.games': 'Parties classées',
  'lb.about': 'La cote vaut μ − 3σ : un niveau que le joueur a très probablement au moins ; elle monte à mesure que les parties rendent l’estimation plus sûre. Figurent ici les joueurs d’au moins {n} {n:partie classée:parties classées}.',
  'lb.empty': 'Personne n’est encore classé à ce jeu : terminez une partie classée entre joueurs connectés.',
  'lb.range': '{from}–{to} sur {total}',
  'lb.prev': 'Précédents',
  'lb.next': 'Suivants',
  'lb.pages': 'Pages',
  'lb.failed': 'Impossible de charger le classement : {msg}',
  'profile.since': 'Joue depuis le {date}',
  'profile.notfound': 'Aucun joueur ne s’appelle « {name} ».',
  'profile.failed': 'Impossible de charger le profil : {msg}',
  'profile.stats': 'Par jeu',
  'profile.rating': 'Cote',
  'profile.unrated': 'Pas encore classé',
  'profile.played': 'Parties jouées',
  'profile.wins': 'Victoires',
  'profile.mean': 'Score moyen',
  'profile.best': 'Meilleur score',
  'profile.chart': 'Cote après chaque partie classée : {n} {n:partie:parties}, de {first} à {last}.',
  'profile.chart.few': 'La courbe apparaît après deux parties classées.',
  'profile.games': 'Parties',
  'profile.games.none': 'Aucune partie terminée pour l’instant.',
  'profile.place': '{place} sur {n}',
  'profile.won': 'gagnée',
  'profile.against': 'Adversaires :',
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
  'table.turn.other': 'À {name} de jouer.',
  'table.turn.dice': 'Les dés roulent…',
  'table.clock': 'encore {s} s',
  'table.over': 'La partie est terminée.',
  'table.results': 'Classement final',
  'table.winner': '{names} gagne avec {score} {score:point:points}.',
  'table.winners': '{names} se partagent la victoire avec {score} {score:point:points}.',
  'table.solo.won': 'Vous battez l’adversaire virtuel : {score} contre {opp}.',
  'table.solo.lost': 'L’adversaire virtuel gagne : {score} contre {opp}.',
  'table.solo.lostgrid': 'La grille solo est pleine : l’adversaire virtuel gagne.',
  'table.solo.won.other': '{name} bat l’adversaire virtuel : {score} contre {opp}.',
  'table.error': 'Problème : {msg}',
  'table.over.short': 'Partie terminée.',
  'table.rules': 'Règles',
  'table.hint.first': 'Vous découvrez {game} ?',
  'table.hint.rules': 'Lire les règles',
  'table.hint.close': 'Masquer ce conseil',
  'table.close': 'Fermer',
  'table.banner.bot': 'Un robot ({bot}) joue pour vous.',
  'table.join.lost': 'Quelqu’un a pris la place {n} juste avant vous. Choisissez une autre place :',
  'table.join.lost.all': 'Quelqu’un a pris la place {n} juste avant vous, et il ne reste aucune place : vous regardez la partie.',
  'table.join.none': 'Toutes les places ont été prises : vous regardez la partie.',
  'table.join.watch': 'Regarder',
  'table.copied.short': 'Copié !',
  'table.copy.select': 'Sélectionnez le lien et copiez-le',
  'table.place.1': '1er',
  'table.place.2': '2e',
  'table.place.3': '3e',
  'table.place.n': '{n}e',
  'table.points': '{n} {n:point:points}',
  'table.rematch': 'Revanche',
  'table.rematch.failed': 'Impossible de lancer la revanche : {msg}',
  'table.rematch.by': '{name} a lancé une revanche.',
  'table.rematch.someone': 'Une revanche a commencé.',
  'table.rematch.join': 'Rejoindre',
  'table.rematch.watch': 'La regarder',
  'seat.botname': 'robot {bot}',
  'signal.title': 'À vous',
  'signal.body': 'C’est à vous de jouer : {table}.',

  'settings.title': 'Réglages',
  'settings.confirm': 'Confirmer mes coups',
  'settings.confirm.hint': 'Un coup choisi sur le plateau attend une seconde touche ou Entrée.',
  'settings.speed': 'Rythme des coups des autres',
  'settings.speed.slow': 'Lent',
  'settings.speed.normal': 'Normal',
  'settings.speed.fast': 'Rapide',
  'settings.sound': 'Un son quand c’est à moi',
  'settings.sound.hint': 'Seulement quand la page n’est pas affichée.',
  'settings.notify': 'Une notification quand c’est à moi',
  'settings.notify.hint': 'Seulement quand la page n’est pas affichée ; le navigateur vous demande d’abord.',
  'settings.notify.denied': 'Le navigateur n’autorise pas les notifications pour ce site.',
  'settings.theme': 'Clair ou sombre : la page suit votre système.',

  'replay.title': 'Revoir la partie',
  'replay.view': 'Vue de',
  'replay.public': 'Tout le monde (vue publique)',
  'replay.start': 'Début',
  'replay.back': 'Reculer',
  'replay.forward': 'Avancer',
  'replay.end': 'Fin',
  'replay.step': 'Étape {i} sur {n}',
  'replay.setup': 'La partie est mise en place.',
  'replay.keys': '← et → avancent et reculent, Espace lance ou met en pause, Début et Fin sautent.',
  'replay.loading': 'Chargement de la partie…',
  'replay.failed': 'Impossible de charger la partie : {msg}',
  'replay.play': 'Lecture',
  'replay.pause': 'Pause',
  'replay.speed': 'Vitesse',
  'replay.speed.x': '{x}×',
  'replay.decimal': ',',
  'replay.jump': 'Aller à l’étape',

  'rules.title': 'Règles',
  'rules.heading': 'Comment jouer à {game}',
  'rules.toc': 'Sommaire',
  'rules.loading': 'Chargement des règles…',
  'rules.failed': 'Impossible de charger les règles : {msg}',
  'rules.notfound': 'Ce jeu n’a pas de page de règles.',
  'rules.example': 'Exemple {n}',
  'rules.example.caption': 'Tiré d’une vraie partie, tel qu’on le voit à la table.',
  'rules.example.missing': 'Cette image n’a pas pu être dessinée.',
  'rules.play': 'Lancer une partie dans le salon',



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


  'rule.bad-word': 'Ce mot n’est pas accepté : des lettres seulement, 40 au plus.',
  'rule.wrong-letter': 'Le mot ne commence pas par une lettre de ce dé.',
  'rule.already-named': 'Ce mot a déjà été dit pendant cette manche.',
  'rule.no-such-die': 'Ce dé n’existe pas.',
  'rule.own-die': 'Vous avez déjà ce dé.',
  'rule.no-bookworm-cards': 'Il ne reste plus de carte Rat de bibliothèque : les dés ne se prennent plus qu’au centre.',
  'rule.cannot-steal': 'Ce dé spécial ne peut pas être volé.',
  'rule.stack-top-only': 'Pile : seul le dé du dessus d’une pile peut être volé.',
  'rule.stack-not-from-display': 'Le dé Pile ne peut pas être pris.',
  'rule.special-not-by-word': 'Aucun mot ne prend ce dé.',
  'rule.no-question-die': 'Le dé ? n’est pas au centre.',
  'rule.too-late': 'Trop tard : le temps est écoulé.',
  'rule.not-yet-timed-out': 'Le temps n’est pas encore écoulé.',
  'rule.no-deadline': 'Aucune horloge ne tourne.',
  'rule.own-word': 'Vous ne pouvez pas juger votre propre mot.',
  'rule.already-voted': 'Vous avez déjà voté.',
  'rule.already-allowed': 'Vous avez déjà laissé passer ce mot.',
  'rule.bad-category': 'Choisissez l’une des trois catégories.',
  'rule.bad-face': 'Tournez le dé spécial sur une autre face que « Tourner ».',
  'rule.card-not-available': 'Cette carte de catégories n’est pas disponible.',
  'rule.roll-count': 'Un lancer donne une face par dé.',
  'rule.roll-face': 'Un dé n’a pas cette face.',
  'rule.bad-flick': 'Pichenette impossible : base 0 à 3, angle dans ±75°, force de 0 à 1.',
  'rule.hole-taken': 'Ce trou contient déjà un dé.',
  'rule.must-flick': 'Lancez vos dés avant de marquer.',
  'rule.used-twice': 'Un dé ou un marqueur ne compte qu’une fois.',
  'rule.group-size': 'Un groupe compte au moins 3 dés ou marqueurs.',
  'rule.group-color': 'Un groupe est d’une seule couleur.',
  'rule.group-not-adjacent': 'Les dés d’un groupe se touchent par un côté.',
  'rule.not-scorable': 'Ce trou n’a rien à marquer.',
  'rule.no-physics': 'Cette table ne sait pas simuler les pichenettes.',
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

// games holds the games' own English catalogues (Info.Messages from
// /api/games): option and bot labels and the narration of their events.
// French for the same keys is in fr above.
const games = {};

// addMessages registers a game's English catalogue.
export function addMessages(messages) { Object.assign(games, messages || {}); }

// addTranslations registers a game's page words ({en, fr}: its renderer's
// labels and the French of its catalogue), kept in /static/<id>.messages.js
// next to the renderer that uses them.
export function addTranslations(byLang) {
  for (const [l, words] of Object.entries(byLang || {})) if (dicts[l]) Object.assign(dicts[l], words);
}

// plural is the CLDR plural category of n in the page's language: French
// says "0 point", "1 point", "2 points"; English "0 points".
const plurals = {};
export function plural(n) {
  plurals[lang] ??= new Intl.PluralRules(lang);
  return plurals[lang].select(Number(n));
}

// t looks a key up in the current language, then in the games' English
// catalogues, then in English, and fills the template from vars like the
// server's engine.Render: {name} is a value (a list joined by spaces) and
// {n:one:other} picks the first word when n is singular in the page's
// language (Intl.PluralRules: 1 in English, 0 and 1 in French) and the
// second otherwise.
// A translation may also write {name@prefix}: the value put into words by
// the key "prefix.<value>" when there is one ({color@df.col} gives "bleu"
// for "blue"), as a game's arguments are English words.
export function t(key, vars) {
  const s = dicts[lang][key] ?? games[key] ?? en[key] ?? key;
  if (!vars) return s;
  return s.replace(/\{([^{}:@]+)(?:@([^{}:]+))?(?::([^{}:]*):([^{}]*))?\}/g, (m, k, prefix, one, other) => {
    if (!(k in vars)) return m;
    const v = vars[k];
    if (one !== undefined) return plural(v) === 'one' ? one : other;
    if (prefix !== undefined) {
      const word = `${prefix}.${v}`;
      return word in dicts[lang] ? dicts[lang][word] : String(v);
    }
    return Array.isArray(v) ? v.join(' ') : String(v);
  });
}

export function has(key) { return key in dicts[lang]; }

// refusal turns a server refusal into a sentence: in English the server's own
// (it names the exact cells), in French our sentence for its rule code, and the
// server's English when we do not know the code.
// A game may word a shared code its own way: "rule.<game>.<code>" wins over
// "rule.<code>" (Bookworm's wrong-action is not Dice Stars' draw-then-take).
export function refusal(rule, message, game) {
  const key = game && has(`rule.${game}.${rule}`) ? `rule.${game}.${rule}` : 'rule.' + rule;
  if (lang === 'en' || !has(key)) return message || t(key);
  return t(key);
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
      // The visible letters start the name (what voice control users say).
      b.setAttribute('aria-label', `${l.toUpperCase()} (${dicts[l]['lang.' + l]})`);
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
