package engine

import (
	"errors"
	"fmt"
)

// RuleError is a refused move. Rule is a stable code (clients and tests match
// on it); Message is a sentence for people that names the rule broken.
type RuleError struct {
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

func (e *RuleError) Error() string { return e.Message }

// Is lets errors.Is match a refusal by its rule code alone, so callers can
// compare against the sentinels below or a game's own.
func (e *RuleError) Is(target error) bool {
	var t *RuleError
	if !errors.As(target, &t) {
		return false
	}
	return t.Rule == e.Rule
}

// Refuse builds a RuleError.
func Refuse(rule, message string) *RuleError { return &RuleError{Rule: rule, Message: message} }

// Refusef builds a RuleError with a formatted message.
func Refusef(rule, format string, args ...any) error {
	return &RuleError{Rule: rule, Message: fmt.Sprintf(format, args...)}
}

// Sentinels shared by every game. Compare with errors.Is.
var (
	ErrNotYourTurn   = Refuse("not-your-turn", "it is not this seat's turn to act")
	ErrGameOver      = Refuse("game-over", "the game is over")
	ErrChancePending = Refuse("chance-pending", "the dice must be resolved before anyone acts")
	ErrWrongAction   = Refuse("wrong-action", "that kind of action is not allowed now")
	ErrBadAction     = Refuse("bad-action", "the action is malformed")
)

// AsRuleError extracts a RuleError from err, if it carries one.
func AsRuleError(err error) (*RuleError, bool) {
	var r *RuleError
	if errors.As(err, &r) {
		return r, true
	}
	return nil, false
}
