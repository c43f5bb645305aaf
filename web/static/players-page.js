// The players' pages share one HTML file (players.html): the leaderboards
// (/leaderboard) and a profile (/u/<name>). This loads the page's module.
import(location.pathname.startsWith('/u/') ? '/static/profile.js' : '/static/leaderboard.js');
