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
  'seat.former': 'Former player',
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
  'table.join.account': 'You join as {name}.',
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
  'table.forfeited': '{names} ran out of time and {n:forfeits:forfeit}: last in the ranking.',
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
  'list.and': 'and',



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


  'rule.no-physics': 'This table cannot simulate flicks.',

  // --- table chat (chat.js, the lobby's chat setting, the chat's refusals)
  'chat.title': 'Chat',
  'chat.title.new': 'Chat ({n} new)',
  'chat.empty': 'No messages yet.',
  'chat.spectator': 'watching',
  'chat.mute': 'Mute {name}',
  'chat.unmute': 'Show {name}',
  'chat.muted': '{n} {n:message:messages} muted.',
  'chat.name': 'Your name in the chat',
  'chat.name.missing': 'Choose a name to write in the chat.',
  'chat.input': 'Message',
  'chat.placeholder': 'Say something…',
  'chat.send': 'Send',
  'chat.count': '{n}/{max}',
  'chat.players.only': 'Only the players can write in this chat.',
  'home.chat': 'Who can chat',
  'home.chat.all': 'Everyone',
  'home.chat.players': 'Players only',
  'rule.chat-empty': 'Write something to send.',
  'rule.chat-too-long': 'A chat message is at most 300 characters.',
  'rule.chat-too-fast': 'At most 5 chat messages every 10 seconds: wait a moment.',
  'rule.chat-busy': 'The spectators are writing a lot just now: wait a moment.',
  'rule.chat-players-only': 'Only the players can write in this table’s chat.',
  'rule.chat-bad-name': 'That name cannot be used in the chat: pick another.',
  'rule.chat-name-taken': 'A player at this table has that name: pick another.',
  'rule.chat-full': 'This table’s chat is full.',
  // Identity (auth.js, signin.js, account.js)
  'auth.link.signin': 'Sign in',
  'auth.link.account': 'Your account',
  'auth.link.named': '{name}, your account',
  'auth.home.hint': 'You play under your account’s name.',
  'auth.signin.title': 'Sign in',
  'auth.signin.h': 'Sign in',
  'auth.signup.h': 'Create an account',
  'auth.intro': 'An account keeps your games and seats on every device. You can still play as a guest without one.',
  'auth.keep': 'The seats you hold in this browser as a guest become your account’s.',
  'auth.username': 'Username',
  'auth.password': 'Password',
  'auth.username.hint': '3 to 24 letters or digits; “.”, “_” or “-” may stand between them.',
  'auth.password.hint': 'At least 10 characters. A short sentence is easy to remember.',
  'auth.signin.go': 'Sign in',
  'auth.signin.busy': 'Signing in…',
  'auth.signin.passkey': 'Sign in with a passkey',
  'auth.or': 'or',
  'auth.signup.go': 'Create the account',
  'auth.signup.busy': 'Creating the account…',
  'auth.signup.passkey': 'Create it with a passkey instead',
  'auth.signup.passkey.hint': 'No password: this device’s screen lock or a security key signs you in.',
  'auth.missing': 'Fill in the username and the password.',
  'auth.missing.name': 'Choose a username first.',
  'auth.already': 'Signed in as {name}.',
  'auth.to.lobby': 'Back to the lobby',
  'auth.passkey.cancelled': 'The passkey request was cancelled or timed out.',
  'auth.passkey.exists': 'This device already holds a passkey for your account.',
  'auth.passkey.unsupported': 'This browser cannot use passkeys on this address.',
  'auth.account.title': 'Your account',
  'auth.account.since': 'Account made on {date}.',
  'auth.passkeys.h': 'Passkeys',
  'auth.passkeys.hint': 'A passkey signs you in with this device’s screen lock or a security key, without a password.',
  'auth.passkeys.none': 'No passkey yet.',
  'auth.passkey.added': 'Passkey added on {date}',
  'auth.passkey.used': 'Last used on {date}',
  'auth.passkey.unused': 'Not used yet',
  'auth.passkey.add': 'Add a passkey',
  'auth.passkey.adding': 'Waiting for the passkey…',
  'auth.passkey.remove': 'Remove',
  'auth.passkey.remove.label': 'Remove the passkey added on {date}',
  'auth.passkey.added.ok': 'Passkey added.',
  'auth.passkey.removed': 'Passkey removed.',
  'auth.sessions.h': 'Signing out',
  'auth.signout': 'Sign out',
  'auth.signout.all': 'Sign out everywhere',
  'auth.signout.all.hint': 'Ends every sign-in to this account, on every browser and device.',
  'auth.delete.h': 'Delete the account',
  'auth.delete.hint': 'Your passkeys, sign-ins and ratings are deleted for good. Finished games stay in their replays under the name “Former player”.',
  'auth.delete.confirm': 'Type your username ({name}) to confirm',
  'auth.delete.go': 'Delete my account',
  'auth.failed': 'That did not work: {msg}',
  'auth.err.wrong-password': 'That username and password do not match.',
  'auth.err.name-taken': 'This username is taken: pick another.',
  'auth.err.bad-username': 'Usernames are 3 to 24 letters or digits, with “.”, “_” or “-” between them.',
  'auth.err.weak-password': 'Pick a harder password: at least 10 characters, not your username, not a common one.',
  'auth.err.too-many-attempts': 'Too many attempts, try again in {n} {n:minute:minutes}.',
  'auth.err.too-many-accounts': 'Too many accounts made from your address: try again in {n} {n:minute:minutes}.',
  // Installable app: the offline page (offline.js) and notifications (notify-settings.js)
  'offline.title': 'You are offline',
  'offline.lead': 'This page could not load: your device cannot reach dicehall right now.',
  'offline.can.h': 'What works without a connection',
  'offline.cannot': 'Nothing of live play: tables, moves, the lobby and the chat all need the connection.',
  'offline.rules': 'The rules of the games you have read here before:',
  'offline.rules.none': 'No rules are kept on this device yet: open a game’s rules while online and you can read them here offline later.',
  'offline.clock': 'A table with a turn clock keeps counting while you are away.',
  'offline.back': 'This page reloads by itself when the connection comes back.',
  'offline.retry': 'Try again',
  'notify.h': 'Notifications',
  'notify.hint': 'Be told when a table waits for your move, even with dicehall closed.',
  'notify.unavailable': 'This server does not send notifications.',
  'notify.unsupported': 'This browser cannot receive push notifications here.',
  'notify.denied': 'Notifications are blocked for this site: allow them in the browser’s site settings, then come back.',
  'notify.device.on': 'This device receives notifications.',
  'notify.device.off': 'This device does not receive notifications.',
  'notify.device.turn-on': 'Turn on notifications on this device',
  'notify.device.turn-off': 'Turn them off on this device',
  'notify.device.waiting': 'Waiting for the browser…',
  'notify.device.on.ok': 'Notifications are on for this device.',
  'notify.device.off.ok': 'Notifications are off for this device.',
  'notify.what.h': 'What to be told',
  'notify.turns': 'When it is my turn',
  'notify.results': 'When a game ends',
  'notify.how.h': 'How',
  'notify.push': 'Push notifications on my devices',
  'notify.emailOn': 'By e-mail',
  'notify.email': 'E-mail address',
  'notify.email.hint': 'Used for these notifications only.',
  'notify.email.missing': 'Type the e-mail address to send them to.',
  'notify.email.unavailable': 'This server sends no e-mail.',
  'notify.quiet.h': 'Quiet hours',
  'notify.quiet': 'Nothing during quiet hours',
  'notify.quiet.from': 'From',
  'notify.quiet.to': 'Until',
  'notify.quiet.tz': 'Times in your time zone ({tz}).',
  'notify.save': 'Save the settings',
  'notify.saving': 'Saving…',
  'notify.saved': 'Settings saved.',
  // Turn-based tables (issue 13, turns).
  'time.d': '{d} {d:day:days}',
  'time.dh': '{d} {d:day:days} {h} h',
  'time.h': '{h} h',
  'time.hm': '{h} h {m} min',
  'time.m': '{m} min',
  'time.s': '{n} s',
  'home.clock.live': 'Real time',
  'home.clock.turnBased': 'Turn-based',
  'home.clock.turns': '{left} a move',
  'home.clock.turns.hint': 'A move or two a day: each move has its clock; when it runs out, the player’s time bank goes first, then the rule chosen below applies.',
  'home.clock.realtimeOnly': 'This game’s rules time the players in seconds: it is played in real time only.',
  'home.bank': 'Time bank',
  'home.bank.none': 'None',
  'home.expiry': 'When time runs out',
  'home.expiry.bot': 'A bot stands in',
  'home.expiry.skip': 'The turn is skipped',
  'home.expiry.forfeit': 'Forfeit: ranked last',
  'home.mine.turn.left': 'Your turn, {left} left',
  'table.clock.long': '{left} left',
  'table.clock.bank': 'bank {left}',
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
  'seat.former': 'Ancien joueur',
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
  'table.join.account': 'Vous jouez sous le nom {name}.',
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
  'table.forfeited': '{names} {n:a:ont} dépassé le temps et {n:perd:perdent} par forfait : {n:dernier:derniers} du classement.',
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
  'list.and': 'et',



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


  'rule.no-physics': 'Cette table ne sait pas simuler les pichenettes.',

  // --- chat de table (chat.js, le réglage du salon, les refus du chat)
  'chat.title': 'Discussion',
  'chat.title.new': 'Discussion ({n} {n:nouveau:nouveaux})',
  'chat.empty': 'Aucun message pour l’instant.',
  'chat.spectator': 'spectateur',
  'chat.mute': 'Masquer {name}',
  'chat.unmute': 'Afficher {name}',
  'chat.muted': '{n} {n:message masqué:messages masqués}.',
  'chat.name': 'Votre nom dans la discussion',
  'chat.name.missing': 'Choisissez un nom pour écrire dans la discussion.',
  'chat.input': 'Message',
  'chat.placeholder': 'Dites quelque chose…',
  'chat.send': 'Envoyer',
  'chat.count': '{n}/{max}',
  'chat.players.only': 'Seuls les joueurs peuvent écrire dans cette discussion.',
  'home.chat': 'Qui peut discuter',
  'home.chat.all': 'Tout le monde',
  'home.chat.players': 'Joueurs seulement',
  'rule.chat-empty': 'Écrivez quelque chose avant d’envoyer.',
  'rule.chat-too-long': 'Un message fait au plus 300 caractères.',
  'rule.chat-too-fast': 'Au plus 5 messages toutes les 10 secondes : patientez un instant.',
  'rule.chat-busy': 'Les spectateurs écrivent beaucoup en ce moment : patientez un instant.',
  'rule.chat-players-only': 'Seuls les joueurs peuvent écrire dans la discussion de cette table.',
  'rule.chat-bad-name': 'Ce nom ne peut pas servir dans la discussion : choisissez-en un autre.',
  'rule.chat-name-taken': 'Un joueur de cette table porte ce nom : choisissez-en un autre.',
  'rule.chat-full': 'La discussion de cette table est pleine.',
  // Identity (auth.js, signin.js, account.js)
  'auth.link.signin': 'Connexion',
  'auth.link.account': 'Votre compte',
  'auth.link.named': '{name}, votre compte',
  'auth.home.hint': 'Vous jouez sous le nom de votre compte.',
  'auth.signin.title': 'Connexion',
  'auth.signin.h': 'Se connecter',
  'auth.signup.h': 'Créer un compte',
  'auth.intro': 'Un compte garde vos parties et vos places sur tous vos appareils. Vous pouvez toujours jouer en invité, sans compte.',
  'auth.keep': 'Les places que vous occupez en invité dans ce navigateur passent à votre compte.',
  'auth.username': 'Nom d’utilisateur',
  'auth.password': 'Mot de passe',
  'auth.username.hint': '3 à 24 lettres ou chiffres ; « . », « _ » ou « - » peuvent les séparer.',
  'auth.password.hint': 'Au moins 10 caractères. Une courte phrase se retient facilement.',
  'auth.signin.go': 'Se connecter',
  'auth.signin.busy': 'Connexion…',
  'auth.signin.passkey': 'Se connecter avec une clé d’accès',
  'auth.or': 'ou',
  'auth.signup.go': 'Créer le compte',
  'auth.signup.busy': 'Création du compte…',
  'auth.signup.passkey': 'Le créer plutôt avec une clé d’accès',
  'auth.signup.passkey.hint': 'Sans mot de passe : le verrouillage de cet appareil ou une clé de sécurité vous connecte.',
  'auth.missing': 'Indiquez le nom d’utilisateur et le mot de passe.',
  'auth.missing.name': 'Choisissez d’abord un nom d’utilisateur.',
  'auth.already': 'Compte connecté : {name}.',
  'auth.to.lobby': 'Retour au salon',
  'auth.passkey.cancelled': 'La demande de clé d’accès a été annulée ou a expiré.',
  'auth.passkey.exists': 'Cet appareil a déjà une clé d’accès pour votre compte.',
  'auth.passkey.unsupported': 'Ce navigateur ne peut pas utiliser de clé d’accès à cette adresse.',
  'auth.account.title': 'Votre compte',
  'auth.account.since': 'Compte créé le {date}.',
  'auth.passkeys.h': 'Clés d’accès',
  'auth.passkeys.hint': 'Une clé d’accès vous connecte avec le verrouillage de cet appareil ou une clé de sécurité, sans mot de passe.',
  'auth.passkeys.none': 'Aucune clé d’accès pour l’instant.',
  'auth.passkey.added': 'Clé d’accès ajoutée le {date}',
  'auth.passkey.used': 'Dernière utilisation le {date}',
  'auth.passkey.unused': 'Pas encore utilisée',
  'auth.passkey.add': 'Ajouter une clé d’accès',
  'auth.passkey.adding': 'En attente de la clé d’accès…',
  'auth.passkey.remove': 'Retirer',
  'auth.passkey.remove.label': 'Retirer la clé d’accès ajoutée le {date}',
  'auth.passkey.added.ok': 'Clé d’accès ajoutée.',
  'auth.passkey.removed': 'Clé d’accès retirée.',
  'auth.sessions.h': 'Déconnexion',
  'auth.signout': 'Se déconnecter',
  'auth.signout.all': 'Se déconnecter partout',
  'auth.signout.all.hint': 'Met fin à toutes les connexions à ce compte, sur tous les navigateurs et appareils.',
  'auth.delete.h': 'Supprimer le compte',
  'auth.delete.hint': 'Vos clés d’accès, connexions et classements sont supprimés pour de bon. Les parties terminées restent dans leurs rediffusions sous le nom « Ancien joueur ».',
  'auth.delete.confirm': 'Tapez votre nom d’utilisateur ({name}) pour confirmer',
  'auth.delete.go': 'Supprimer mon compte',
  'auth.failed': 'Cela n’a pas marché : {msg}',
  'auth.err.wrong-password': 'Ce nom d’utilisateur et ce mot de passe ne correspondent pas.',
  'auth.err.name-taken': 'Ce nom d’utilisateur est déjà pris : choisissez-en un autre.',
  'auth.err.bad-username': 'Un nom d’utilisateur compte 3 à 24 lettres ou chiffres, avec « . », « _ » ou « - » entre eux.',
  'auth.err.weak-password': 'Choisissez un mot de passe plus sûr : au moins 10 caractères, sans votre nom d’utilisateur, pas un mot de passe courant.',
  'auth.err.too-many-attempts': 'Trop de tentatives : réessayez dans {n} {n:minute:minutes}.',
  'auth.err.too-many-accounts': 'Trop de comptes créés depuis votre adresse : réessayez dans {n} {n:minute:minutes}.',
  // Application installable : la page hors ligne (offline.js) et les notifications (notify-settings.js)
  'offline.title': 'Vous êtes hors ligne',
  'offline.lead': 'Cette page n’a pas pu se charger : votre appareil ne joint pas dicehall pour le moment.',
  'offline.can.h': 'Ce qui marche sans connexion',
  'offline.cannot': 'Rien du jeu en direct : les tables, les coups, le salon et le chat ont tous besoin de la connexion.',
  'offline.rules': 'Les règles des jeux que vous avez déjà lues ici :',
  'offline.rules.none': 'Aucune règle n’est encore gardée sur cet appareil : ouvrez les règles d’un jeu en ligne et vous pourrez les relire ici hors ligne.',
  'offline.clock': 'Une table avec une horloge de tour continue de compter pendant votre absence.',
  'offline.back': 'Cette page se recharge toute seule quand la connexion revient.',
  'offline.retry': 'Réessayer',
  'notify.h': 'Notifications',
  'notify.hint': 'Soyez prévenu quand une table attend votre coup, même quand dicehall est fermé.',
  'notify.unavailable': 'Ce serveur n’envoie pas de notifications.',
  'notify.unsupported': 'Ce navigateur ne peut pas recevoir de notifications push ici.',
  'notify.denied': 'Les notifications sont bloquées pour ce site : autorisez-les dans les réglages du site de votre navigateur, puis revenez.',
  'notify.device.on': 'Cet appareil reçoit les notifications.',
  'notify.device.off': 'Cet appareil ne reçoit pas les notifications.',
  'notify.device.turn-on': 'Activer les notifications sur cet appareil',
  'notify.device.turn-off': 'Les désactiver sur cet appareil',
  'notify.device.waiting': 'En attente du navigateur…',
  'notify.device.on.ok': 'Les notifications sont activées pour cet appareil.',
  'notify.device.off.ok': 'Les notifications sont désactivées pour cet appareil.',
  'notify.what.h': 'Être prévenu',
  'notify.turns': 'Quand c’est à moi de jouer',
  'notify.results': 'Quand une partie se termine',
  'notify.how.h': 'Comment',
  'notify.push': 'Notifications push sur mes appareils',
  'notify.emailOn': 'Par e-mail',
  'notify.email': 'Adresse e-mail',
  'notify.email.hint': 'Utilisée seulement pour ces notifications.',
  'notify.email.missing': 'Indiquez l’adresse où les envoyer.',
  'notify.email.unavailable': 'Ce serveur n’envoie pas d’e-mails.',
  'notify.quiet.h': 'Heures de silence',
  'notify.quiet': 'Rien pendant les heures de silence',
  'notify.quiet.from': 'De',
  'notify.quiet.to': 'Jusqu’à',
  'notify.quiet.tz': 'Heures de votre fuseau horaire ({tz}).',
  'notify.save': 'Enregistrer les réglages',
  'notify.saving': 'Enregistrement…',
  'notify.saved': 'Réglages enregistrés.',
  // Turn-based tables (issue 13, turns).
  'time.d': '{d} {d:jour:jours}',
  'time.dh': '{d} {d:jour:jours} {h} h',
  'time.h': '{h} h',
  'time.hm': '{h} h {m} min',
  'time.m': '{m} min',
  'time.s': '{n} s',
  'home.clock.live': 'En direct',
  'home.clock.turnBased': 'Tour par tour',
  'home.clock.turns': '{left} par coup',
  'home.clock.turns.hint': 'Un coup ou deux par jour : chaque coup a son temps ; quand il est écoulé, la réserve du joueur s’épuise d’abord, puis la règle choisie ci-dessous s’applique.',
  'home.clock.realtimeOnly': 'Les règles de ce jeu chronomètrent les joueurs en secondes : il se joue uniquement en direct.',
  'home.bank': 'Réserve de temps',
  'home.bank.none': 'Aucune',
  'home.expiry': 'Quand le temps est écoulé',
  'home.expiry.bot': 'Un robot le remplace',
  'home.expiry.skip': 'Son tour est sauté',
  'home.expiry.forfeit': 'Forfait : dernier',
  'home.mine.turn.left': 'À vous de jouer, encore {left}',
  'table.clock.long': 'encore {left}',
  'table.clock.bank': 'réserve {left}',
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

// lookup is a key's words in the current language, then in the games'
// English catalogues, then in English (undefined when none has it).
function lookup(key) { return dicts[lang][key] ?? games[key] ?? en[key]; }

// t looks a key up (lookup) and fills the template from vars exactly as the
// server's engine.Render does (engine/narrate.go), so a game's narration
// reads alike in the terminal and here:
// - {name} is a value written as a word: a string or a number as it is; a
//   message ({key, args}, the server's engine.Message) as t(key, args), so a
//   part of a sentence is translated too ("orange ★"); a list (an array) as
//   its items, each written the same way, joined "a, b and c" with the
//   language's 'list.and'. A value in several languages (an object of
//   language codes to strings: {en: 'Vegetables', fr: 'Légumes'}) is written
//   in the page's language (English when it lacks one).
// - {name@prefix}: the value (each item of a list) put into words by the key
//   "prefix.<value>" when there is one ({color@df.col} gives "bleu" for
//   "blue"), as a game's arguments are its own English words.
// - {n:one:other} picks the first word when n is singular in the page's
//   language (Intl.PluralRules: 1 in English, 0 and 1 in French; a list
//   counts its items) and the second otherwise.
export function t(key, vars) {
  const s = lookup(key) ?? key;
  if (!vars) return s;
  return s.replace(/\{([^{}:@]+)(?:@([^{}:]+))?(?::([^{}:]*):([^{}]*))?\}/g, (m, k, prefix, one, other) => {
    if (!(k in vars)) return m;
    const v = vars[k];
    if (one !== undefined) return plural(Array.isArray(v) ? v.length : v) === 'one' ? one : other;
    return word(v, prefix);
  });
}

// winnersText says who won and with how much: one name, or a list put into
// words by the page's language ("Ann and Bob", "Ann et Bob").
export function winnersText(names, score) {
  return t(names.length > 1 ? 'table.winners' : 'table.winner', { names, score });
}

// word writes one value of t()'s vars (see t).
function word(v, prefix) {
  if (Array.isArray(v)) return joinList(v.map((x) => word(x, prefix)));
  if (v && typeof v === 'object') {
    if (typeof v.key === 'string') return t(v.key, v.args || {});
    return String(v[lang] ?? v.en ?? '');
  }
  if (prefix !== undefined) {
    const w = lookup(`${prefix}.${v}`);
    if (w !== undefined) return w;
  }
  return String(v);
}

function joinList(items) {
  if (items.length < 2) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${t('list.and')} ${items[items.length - 1]}`;
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
