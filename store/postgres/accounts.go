package postgres

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/internal/check"
)

// accountSet is the distinct accounts holding seats, in seat order.
func accountSet(seats []store.Seat) []string {
	var out []string
	for _, st := range seats {
		if st.Account != "" && !slices.Contains(out, st.Account) {
			out = append(out, st.Account)
		}
	}
	return out
}

// setTableAccounts makes table_accounts list exactly the accounts seated
// at a table (rewriting only when they changed: UpdateTable runs often).
func setTableAccounts(ctx context.Context, tx pgx.Tx, table string, seats []store.Seat, fresh bool) error {
	want := accountSet(seats)
	if !fresh {
		rows, err := tx.Query(ctx, `SELECT account FROM table_accounts WHERE table_id = $1`, table)
		if err != nil {
			return err
		}
		have, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		slices.Sort(have)
		sorted := slices.Sorted(slices.Values(want))
		if slices.Equal(have, sorted) {
			return nil
		}
		if len(have) > 0 {
			if _, err := tx.Exec(ctx, `DELETE FROM table_accounts WHERE table_id = $1`, table); err != nil {
				return err
			}
		}
	}
	for _, a := range want {
		if _, err := tx.Exec(ctx, `INSERT INTO table_accounts (account, table_id) VALUES ($1, $2)`, a, table); err != nil {
			return err
		}
	}
	return nil
}

// CreateAccount implements store.AccountStore.
func (s *Store) CreateAccount(ctx context.Context, a store.Account) error {
	if err := check.Account(a); err != nil {
		return fmt.Errorf("postgres: create account: %w", err)
	}
	// No conflict target: a taken ID and a taken name key alike insert
	// nothing (SQLite and PostgreSQL).
	n, err := affected(s.pool.Exec(ctx, `
		INSERT INTO accounts (id, name, name_key, password_hash, created_ms) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT DO NOTHING`,
		a.ID, a.Name, a.NameKey, a.PasswordHash, a.Created.UnixMilli()))
	if err == nil && n == 0 {
		err = store.ErrExists
	}
	if err != nil {
		return s.wrap("create account", a.ID, err)
	}
	return nil
}

const accountColumns = `id, name, name_key, password_hash, created_ms`

func (s *Store) getAccount(ctx context.Context, op, cond, key string) (store.Account, error) {
	var (
		a       store.Account
		created int64
	)
	err := s.pool.QueryRow(ctx, `SELECT `+accountColumns+` FROM accounts WHERE `+cond+` = $1`, key).
		Scan(&a.ID, &a.Name, &a.NameKey, &a.PasswordHash, &created)
	if errors.Is(err, pgx.ErrNoRows) {
		err = store.ErrNotFound
	}
	if err != nil {
		return store.Account{}, s.wrap(op, key, err)
	}
	a.Created = time.UnixMilli(created).UTC()
	return a, nil
}

// GetAccount implements store.AccountStore.
func (s *Store) GetAccount(ctx context.Context, id string) (store.Account, error) {
	return s.getAccount(ctx, "account", "id", id)
}

// AccountByName implements store.AccountStore.
func (s *Store) AccountByName(ctx context.Context, nameKey string) (store.Account, error) {
	return s.getAccount(ctx, "account named", "name_key", nameKey)
}

// SetPassword implements store.AccountStore.
func (s *Store) SetPassword(ctx context.Context, id, hash string) error {
	n, err := affected(s.pool.Exec(ctx, `UPDATE accounts SET password_hash = $1 WHERE id = $2`, hash, id))
	if err == nil && n == 0 {
		err = store.ErrNotFound
	}
	if err != nil {
		return s.wrap("set password of", id, err)
	}
	return nil
}

// DeleteAccount implements store.AccountStore: one transaction rewrites
// the seats of the account's tables and its chat lines under the neutral
// name, and removes the account with everything of its own.
func (s *Store) DeleteAccount(ctx context.Context, id, neutralName string) error {
	err := s.write(ctx, func(tx pgx.Tx) error {
		// The account's row and its tables' rows locked: a rating or a
		// seat change running meanwhile waits, or is seen. The tables are
		// locked in ID order (byte order, as a batch of appends sorts
		// them: appends.go), so a batch touching two of them never waits
		// for this in a cycle.
		ok, err := exists(ctx, tx, `SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE`, id)
		if err != nil {
			return err
		}
		if !ok {
			return store.ErrNotFound
		}
		rows, err := tx.Query(ctx, `
			SELECT t.id, t.seats FROM tables t JOIN table_accounts ta ON ta.table_id = t.id
			WHERE ta.account = $1 ORDER BY t.id COLLATE "C" FOR NO KEY UPDATE OF t`, id)
		if err != nil {
			return err
		}
		seats := map[string][]byte{}
		for rows.Next() {
			var (
				tid string
				js  []byte
			)
			if err := rows.Scan(&tid, &js); err != nil {
				rows.Close()
				return err
			}
			seats[tid] = js
		}
		if err := rows.Err(); err != nil {
			return err
		}
		for tid, js := range seats {
			var ss []store.Seat
			if err := json.Unmarshal(js, &ss); err != nil {
				return fmt.Errorf("table %q: seats: %w", tid, err)
			}
			for i := range ss {
				if ss[i].Account == id {
					ss[i].Account, ss[i].Name, ss[i].Former = "", neutralName, true
				}
			}
			b, err := json.Marshal(ss)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `UPDATE tables SET seats = $1 WHERE id = $2`, string(b), tid); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE chat SET account = '', name = $1 WHERE account = $2 AND account <> ''`, neutralName, id); err != nil {
			return err
		}
		for _, t := range []string{"table_accounts", "sessions", "credentials", "rating_points", "ratings"} {
			if _, err := tx.Exec(ctx, `DELETE FROM `+t+` WHERE account = $1`, id); err != nil {
				return err
			}
		}
		_, err = tx.Exec(ctx, `DELETE FROM accounts WHERE id = $1`, id)
		return err
	})
	if err != nil {
		return s.wrap("delete account", id, err)
	}
	return nil
}

// CreateSession implements store.AccountStore.
func (s *Store) CreateSession(ctx context.Context, se store.Session) error {
	if se.TokenHash == "" || se.Account == "" {
		return fmt.Errorf("postgres: create session: %w: needs a token hash and an account", check.ErrInvalid)
	}
	err := s.write(ctx, func(tx pgx.Tx) error {
		ok, err := exists(ctx, tx, `SELECT 1 FROM accounts WHERE id = $1`, se.Account)
		if err != nil {
			return err
		}
		if !ok {
			return store.ErrNotFound
		}
		n, err := affected(tx.Exec(ctx, `
			INSERT INTO sessions (token_hash, account, created_ms, expires_ms) VALUES ($1, $2, $3, $4)
			ON CONFLICT (token_hash) DO NOTHING`,
			se.TokenHash, se.Account, se.Created.UnixMilli(), se.Expires.UnixMilli()))
		if err == nil && n == 0 {
			err = store.ErrExists
		}
		return err
	})
	if err != nil {
		return s.wrap("create session of", se.Account, err)
	}
	return nil
}

// GetSession implements store.AccountStore.
func (s *Store) GetSession(ctx context.Context, tokenHash string) (store.Session, error) {
	var (
		se               store.Session
		created, expires int64
	)
	err := s.pool.QueryRow(ctx, `SELECT token_hash, account, created_ms, expires_ms FROM sessions WHERE token_hash = $1`, tokenHash).
		Scan(&se.TokenHash, &se.Account, &created, &expires)
	if errors.Is(err, pgx.ErrNoRows) {
		err = store.ErrNotFound
	}
	if err != nil {
		// Not the hash in the message: it is as good as the cookie.
		return store.Session{}, fmt.Errorf("postgres: session: %w", err)
	}
	se.Created, se.Expires = time.UnixMilli(created).UTC(), time.UnixMilli(expires).UTC()
	return se, nil
}

// DeleteSession implements store.AccountStore.
func (s *Store) DeleteSession(ctx context.Context, tokenHash string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM sessions WHERE token_hash = $1`, tokenHash); err != nil {
		return fmt.Errorf("postgres: delete session: %w", err)
	}
	return nil
}

// DeleteSessions implements store.AccountStore.
func (s *Store) DeleteSessions(ctx context.Context, account string) (int, error) {
	n, err := affected(s.pool.Exec(ctx, `DELETE FROM sessions WHERE account = $1`, account))
	if err != nil {
		return 0, s.wrap("delete sessions of", account, err)
	}
	return n, nil
}

// DeleteExpiredSessions implements store.AccountStore.
func (s *Store) DeleteExpiredSessions(ctx context.Context, now time.Time) (int, error) {
	n, err := affected(s.pool.Exec(ctx, `DELETE FROM sessions WHERE expires_ms < $1`, now.UnixMilli()))
	if err != nil {
		return 0, fmt.Errorf("postgres: delete expired sessions: %w", err)
	}
	return n, nil
}

// credKey is a credential ID as stored: lowercase hex, which sorts like
// the bytes.
func credKey(id []byte) string { return hex.EncodeToString(id) }

// AddCredential implements store.AccountStore.
func (s *Store) AddCredential(ctx context.Context, c store.Credential) error {
	if err := check.Credential(c); err != nil {
		return fmt.Errorf("postgres: add credential: %w", err)
	}
	err := s.write(ctx, func(tx pgx.Tx) error {
		ok, err := exists(ctx, tx, `SELECT 1 FROM accounts WHERE id = $1`, c.Account)
		if err != nil {
			return err
		}
		if !ok {
			return store.ErrNotFound
		}
		n, err := affected(tx.Exec(ctx, `
			INSERT INTO credentials (id, account, data, name, created_ms, last_used_ms) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (id) DO NOTHING`,
			credKey(c.ID), c.Account, string(c.Data), c.Name, c.Created.UnixMilli(), msOrZero(c.LastUsed)))
		if err == nil && n == 0 {
			err = store.ErrExists
		}
		return err
	})
	if err != nil {
		return s.wrap("add credential of", c.Account, err)
	}
	return nil
}

const credentialColumns = `id, account, data, name, created_ms, last_used_ms`

func scanCredential(row interface{ Scan(...any) error }) (store.Credential, error) {
	var (
		c                 store.Credential
		id                string
		data              []byte
		created, lastUsed int64
	)
	if err := row.Scan(&id, &c.Account, &data, &c.Name, &created, &lastUsed); err != nil {
		return store.Credential{}, err
	}
	b, err := hex.DecodeString(id)
	if err != nil {
		return store.Credential{}, fmt.Errorf("credential %q: %w", id, err)
	}
	c.ID, c.Data = b, check.Raw(data)
	c.Created, c.LastUsed = time.UnixMilli(created).UTC(), fromMs(lastUsed)
	return c, nil
}

// Credentials implements store.AccountStore.
func (s *Store) Credentials(ctx context.Context, account string) ([]store.Credential, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+credentialColumns+` FROM credentials WHERE account = $1 ORDER BY created_ms, id`, account)
	if err != nil {
		return nil, s.wrap("credentials of", account, err)
	}
	defer rows.Close()
	out := []store.Credential{}
	for rows.Next() {
		c, err := scanCredential(rows)
		if err != nil {
			return nil, s.wrap("credentials of", account, err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("credentials of", account, err)
	}
	return out, nil
}

// CredentialByID implements store.AccountStore.
func (s *Store) CredentialByID(ctx context.Context, id []byte) (store.Credential, error) {
	c, err := scanCredential(s.pool.QueryRow(ctx, `SELECT `+credentialColumns+` FROM credentials WHERE id = $1`, credKey(id)))
	if errors.Is(err, pgx.ErrNoRows) {
		err = store.ErrNotFound
	}
	if err != nil {
		return store.Credential{}, s.wrap("credential", credKey(id), err)
	}
	return c, nil
}

// UpdateCredential implements store.AccountStore.
func (s *Store) UpdateCredential(ctx context.Context, c store.Credential) error {
	if len(c.Data) > 0 && !json.Valid(c.Data) {
		return fmt.Errorf("postgres: update credential: %w: data is not JSON", check.ErrInvalid)
	}
	n, err := affected(s.pool.Exec(ctx, `UPDATE credentials SET data = $1, last_used_ms = $2 WHERE id = $3`,
		string(c.Data), msOrZero(c.LastUsed), credKey(c.ID)))
	if err == nil && n == 0 {
		err = store.ErrNotFound
	}
	if err != nil {
		return s.wrap("update credential", credKey(c.ID), err)
	}
	return nil
}

// DeleteCredential implements store.AccountStore.
func (s *Store) DeleteCredential(ctx context.Context, account string, id []byte) error {
	n, err := affected(s.pool.Exec(ctx, `DELETE FROM credentials WHERE id = $1 AND account = $2`, credKey(id), account))
	if err == nil && n == 0 {
		err = store.ErrNotFound
	}
	if err != nil {
		return s.wrap("delete credential", credKey(id), err)
	}
	return nil
}

// errRated ends RateTable's transaction when the table was rated already.
var errRated = errors.New("rated already")

// RateTable implements store.RatingStore. The mark, the reads, rate and
// the writes are one transaction. The mark is an INSERT … ON CONFLICT DO
// NOTHING, which waits for a racing mark of the same table: a table is
// rated exactly once. Before reading ratings it locks the accounts' rows
// (in ID order, so two tables never wait for each other in a cycle): two
// tables rating the same accounts at once apply one after the other, and
// no update is lost.
func (s *Store) RateTable(ctx context.Context, table, game string, accounts []string, at time.Time, rate store.RateFunc) (bool, error) {
	if err := check.RateAccounts(accounts); err != nil {
		return false, s.wrap("rate table", table, err)
	}
	at = check.Time(at)
	err := s.write(ctx, func(tx pgx.Tx) error {
		ok, err := exists(ctx, tx, `SELECT 1 FROM tables WHERE id = $1`, table)
		if err != nil {
			return err
		}
		if !ok {
			return store.ErrNotFound
		}
		n, err := affected(tx.Exec(ctx, `INSERT INTO rated_tables (table_id, rated_ms) VALUES ($1, $2) ON CONFLICT (table_id) DO NOTHING`,
			table, at.UnixMilli()))
		if err != nil {
			return err
		}
		if n == 0 {
			return errRated
		}
		locked, err := tx.Query(ctx, `SELECT id FROM accounts WHERE id = ANY($1) ORDER BY id FOR NO KEY UPDATE`, accounts)
		if err != nil {
			return err
		}
		found, err := pgx.CollectRows(locked, pgx.RowTo[string])
		if err != nil {
			return err
		}
		for _, a := range accounts {
			if !slices.Contains(found, a) {
				return fmt.Errorf("account %q: %w", a, store.ErrNotFound)
			}
		}
		prior := make([]store.Rating, len(accounts))
		for i, a := range accounts {
			var updated int64
			err := tx.QueryRow(ctx, `SELECT mu, sigma, games, updated_ms FROM ratings WHERE account = $1 AND game = $2`, a, game).
				Scan(&prior[i].Mu, &prior[i].Sigma, &prior[i].Games, &updated)
			switch {
			case errors.Is(err, pgx.ErrNoRows): // never rated at the game
			case err != nil:
				return err
			default:
				prior[i].Updated = time.UnixMilli(updated).UTC()
			}
			prior[i].Account, prior[i].Game = a, game
		}
		next, err := rate(slices.Clone(prior))
		if err != nil {
			return err
		}
		if err := check.Rates(next, len(accounts)); err != nil {
			return err
		}
		for i, a := range accounts {
			r := next[i]
			games := prior[i].Games + 1
			if _, err := tx.Exec(ctx, `
				INSERT INTO ratings (account, game, mu, sigma, display, games, updated_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)
				ON CONFLICT (account, game) DO UPDATE SET
					mu = excluded.mu, sigma = excluded.sigma, display = excluded.display,
					games = excluded.games, updated_ms = excluded.updated_ms`,
				a, game, r.Mu, r.Sigma, check.Display(r), games, at.UnixMilli()); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `
				INSERT INTO rating_points (account, game, n, table_id, mu, sigma, at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
				a, game, games, table, r.Mu, r.Sigma, at.UnixMilli()); err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, errRated) {
		return false, nil
	}
	if err != nil {
		return false, s.wrap("rate table", table, err)
	}
	return true, nil
}

// Rated implements store.RatingStore.
func (s *Store) Rated(ctx context.Context, table string) (bool, error) {
	ok, err := exists(ctx, s.pool, `SELECT 1 FROM rated_tables WHERE table_id = $1`, table)
	if err != nil {
		return false, s.wrap("rated", table, err)
	}
	return ok, nil
}

const ratingColumns = `r.account, r.game, r.mu, r.sigma, r.games, r.updated_ms`

func scanRatings(rows pgx.Rows, name bool) ([]store.Rating, error) {
	defer rows.Close()
	out := []store.Rating{}
	for rows.Next() {
		var (
			r       store.Rating
			updated int64
		)
		dest := []any{&r.Account, &r.Game, &r.Mu, &r.Sigma, &r.Games, &updated}
		if name {
			dest = append(dest, &r.Name)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		r.Updated = time.UnixMilli(updated).UTC()
		out = append(out, r)
	}
	return out, rows.Err()
}

// Ratings implements store.RatingStore.
func (s *Store) Ratings(ctx context.Context, account string) ([]store.Rating, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+ratingColumns+` FROM ratings r WHERE r.account = $1 ORDER BY r.game`, account)
	if err == nil {
		var out []store.Rating
		if out, err = scanRatings(rows, false); err == nil {
			return out, nil
		}
	}
	return nil, s.wrap("ratings of", account, err)
}

// Leaderboard implements store.RatingStore. The page and the total are
// read in one snapshot.
func (s *Store) Leaderboard(ctx context.Context, game string, minGames, offset, limit int) ([]store.Rating, int, error) {
	if limit <= 0 {
		limit = check.DefaultLimit
	}
	offset = max(offset, 0)
	var (
		out   []store.Rating
		total int
	)
	err := s.read(ctx, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM ratings WHERE game = $1 AND games >= $2`, game, minGames).Scan(&total); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `
			SELECT `+ratingColumns+`, a.name FROM ratings r JOIN accounts a ON a.id = r.account
			WHERE r.game = $1 AND r.games >= $2
			ORDER BY r.display DESC, r.games DESC, r.account
			LIMIT $3 OFFSET $4`, game, minGames, limit, offset)
		if err != nil {
			return err
		}
		out, err = scanRatings(rows, true)
		return err
	})
	if err != nil {
		return nil, 0, s.wrap("leaderboard of", game, err)
	}
	return out, total, nil
}

// RatingHistory implements store.RatingStore.
func (s *Store) RatingHistory(ctx context.Context, account, game string, limit int) ([]store.RatingPoint, error) {
	if limit <= 0 {
		limit = check.DefaultLimit
	}
	rows, err := s.pool.Query(ctx, `
		SELECT table_id, mu, sigma, at_ms FROM rating_points WHERE account = $1 AND game = $2
		ORDER BY n DESC LIMIT $3`, account, game, limit)
	if err != nil {
		return nil, s.wrap("rating history of", account, err)
	}
	defer rows.Close()
	out := []store.RatingPoint{}
	for rows.Next() {
		var (
			p  store.RatingPoint
			at int64
		)
		if err := rows.Scan(&p.Table, &p.Mu, &p.Sigma, &at); err != nil {
			return nil, s.wrap("rating history of", account, err)
		}
		p.At = time.UnixMilli(at).UTC()
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("rating history of", account, err)
	}
	slices.Reverse(out)
	return out, nil
}

// AppendChat implements store.ChatStore.
func (s *Store) AppendChat(ctx context.Context, m store.ChatMessage) (store.ChatMessage, error) {
	if err := check.Chat(m); err != nil {
		return store.ChatMessage{}, fmt.Errorf("postgres: chat: %w", err)
	}
	m.At = check.Time(m.At)
	err := s.write(ctx, func(tx pgx.Tx) error {
		ok, err := exists(ctx, tx, `SELECT 1 FROM tables WHERE id = $1`, m.Table)
		if err != nil {
			return err
		}
		if !ok {
			return store.ErrNotFound
		}
		// One appender per table's chat at a time (a lock on a key of the
		// table's own, not its row: moves keep going), so two never take
		// the same index.
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('chat:' || $1, 0))`, m.Table); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `SELECT COALESCE(MAX(idx) + 1, 0) FROM chat WHERE table_id = $1`, m.Table).Scan(&m.Index); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `
			INSERT INTO chat (table_id, idx, at_ms, seat, role, account, name, body) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			m.Table, m.Index, m.At.UnixMilli(), m.Seat, m.Role, m.Account, m.Name, m.Text)
		return err
	})
	if err != nil {
		return store.ChatMessage{}, s.wrap("chat of", m.Table, err)
	}
	return m, nil
}

// chat reads a table's messages in one snapshot with its existence check.
// query selects chatColumns; args follow the table's ID.
func (s *Store) chat(ctx context.Context, table, query string, args ...any) ([]store.ChatMessage, error) {
	out := []store.ChatMessage{}
	err := s.read(ctx, func(tx pgx.Tx) error {
		ok, err := exists(ctx, tx, `SELECT 1 FROM tables WHERE id = $1`, table)
		if err != nil {
			return err
		}
		if !ok {
			return store.ErrNotFound
		}
		rows, err := tx.Query(ctx, query, append([]any{table}, args...)...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var (
				m  store.ChatMessage
				at int64
			)
			if err := rows.Scan(&m.Table, &m.Index, &at, &m.Seat, &m.Role, &m.Account, &m.Name, &m.Text); err != nil {
				return err
			}
			m.At = time.UnixMilli(at).UTC()
			out = append(out, m)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, s.wrap("chat of", table, err)
	}
	return out, nil
}

const chatColumns = `table_id, idx, at_ms, seat, role, account, name, body`

// Chat implements store.ChatStore.
func (s *Store) Chat(ctx context.Context, table string, from, limit int) ([]store.ChatMessage, error) {
	if limit <= 0 {
		limit = check.DefaultLimit
	}
	return s.chat(ctx, table, `SELECT `+chatColumns+` FROM chat WHERE table_id = $1 AND idx >= $2 ORDER BY idx LIMIT $3`, max(from, 0), limit)
}

// ChatLatest implements store.ChatStore.
func (s *Store) ChatLatest(ctx context.Context, table string, limit int) ([]store.ChatMessage, error) {
	if limit <= 0 {
		limit = check.DefaultLimit
	}
	out, err := s.chat(ctx, table, `SELECT `+chatColumns+` FROM chat WHERE table_id = $1 ORDER BY idx DESC LIMIT $2`, limit)
	slices.Reverse(out)
	return out, err
}
