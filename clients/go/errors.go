package sesame

import (
	"encoding/json"
	"fmt"
)

// Reason is an error's reason: the protocol's data.reason (reasons_gen.go lists each as a
// constant, ErrEmailAlreadyInUse, …) or one of the client's own below. A Reason is itself an
// error, so that errors.Is(err, sesame.ErrEmailAlreadyInUse) holds for an *Error with that
// reason.
type Reason string

func (r Reason) Error() string { return string(r) }

// The client's own reasons: errors it detects without an answer from the daemon.
const (
	// ErrDaemonUnavailable: the daemon cannot be reached (no socket, nothing listening, no
	// permission). ErrConnectionLost and ErrInvalidResponse are also this.
	ErrDaemonUnavailable Reason = "daemon-unavailable"
	// ErrConnectionLost: the connection closed before the answer. The request may or may not
	// have been carried out: read the state before repeating a call that changes the session.
	ErrConnectionLost Reason = "connection-lost"
	// ErrInvalidResponse: the daemon sent something that is not protocol; the connection was
	// closed, as it cannot be trusted any more.
	ErrInvalidResponse Reason = "invalid-response"
	// ErrClientClosed: the Client was closed.
	ErrClientClosed Reason = "client-closed"
)

// Class is a family of errors: one per protocol code (the reasons of one row of the
// protocol's error table). errors.Is(err, sesame.ErrRetryLater) holds for every 2000 error.
type Class string

func (c Class) Error() string { return string(c) }

// The classes of the protocol's codes.
const (
	// ErrProtocol: -32700…-32603, the request was not protocol (a bug in the caller or here).
	ErrProtocol Class = "protocol"
	// ErrAuthentication: 1000, the person must do something.
	ErrAuthentication Class = "authentication"
	// ErrRetryLater: 2000, the backend cannot be reached or refuses for now; retry after
	// Error.RetryAfter.
	ErrRetryLater Class = "retry-later"
	// ErrPermission: 3000, this caller's role is too low; Error.RequiredRole says which.
	ErrPermission Class = "permission"
	// ErrWrongState: 4000, the operation does not fit the current state.
	ErrWrongState Class = "wrong-state"
)

// Error is an error the daemon answered with (Code is the protocol's code), or one the
// client detected itself (Code 0, Reason one of the client's own). Message says what to do
// next and never holds a password, token or link.
type Error struct {
	Code    int
	Reason  Reason
	Message string
	// Data is the error's data object (reason, email, providerId, providers, retryAfterMs,
	// requiredRole, challengeId, …), as sent.
	Data map[string]json.RawMessage
	// Err is what caused a client-side error (a dial error), or nil.
	Err error
}

func (e *Error) Error() string {
	if e.Code == 0 {
		return fmt.Sprintf("sesame: %s (%s)", e.Message, e.Reason)
	}
	return fmt.Sprintf("sesame: %s (%d %s)", e.Message, e.Code, e.Reason)
}

// Unwrap gives the cause of a client-side error.
func (e *Error) Unwrap() error { return e.Err }

// Is matches the error's reason, its class, and for ErrConnectionLost and
// ErrInvalidResponse also ErrDaemonUnavailable.
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case Reason:
		if t == e.Reason {
			return true
		}
		return t == ErrDaemonUnavailable && (e.Reason == ErrConnectionLost || e.Reason == ErrInvalidResponse)
	case Class:
		return e.Code != 0 && classOf(e.Code) == t
	}
	return false
}

func classOf(code int) Class {
	switch {
	case code >= -32700 && code <= -32600:
		return ErrProtocol
	case code == 1000:
		return ErrAuthentication
	case code == 2000:
		return ErrRetryLater
	case code == 3000:
		return ErrPermission
	case code == 4000:
		return ErrWrongState
	}
	return ""
}

func (e *Error) dataString(key string) string {
	var value string
	if raw, ok := e.Data[key]; ok && json.Unmarshal(raw, &value) == nil {
		return value
	}
	return ""
}

// Email is data.email of conflicts, when known.
func (e *Error) Email() string { return e.dataString("email") }

// ProviderID is data.providerId of conflicts.
func (e *Error) ProviderID() string { return e.dataString("providerId") }

// RequiredRole is data.requiredRole of permission-denied.
func (e *Error) RequiredRole() string { return e.dataString("requiredRole") }

// Providers is data.providers of account-exists-with-different-credential: the sign-in
// methods the existing account has (nil when absent).
func (e *Error) Providers() []string {
	var value []string
	if raw, ok := e.Data["providers"]; ok && json.Unmarshal(raw, &value) == nil {
		return value
	}
	return nil
}

// RetryAfterMs is data.retryAfterMs of 2000 errors, and whether it was there.
func (e *Error) RetryAfterMs() (int64, bool) {
	var value int64
	if raw, ok := e.Data["retryAfterMs"]; ok && json.Unmarshal(raw, &value) == nil {
		return value, true
	}
	return 0, false
}

// Challenge is the open challenge of second-factor-required (data.challengeId, factors,
// expiresAt): pass its ID to CompleteSecondFactor. Nil for other errors.
func (e *Error) Challenge() *SecondFactorChallenge {
	if e.dataString("challengeId") == "" {
		return nil
	}
	object, err := json.Marshal(e.Data)
	if err != nil {
		return nil
	}
	var challenge SecondFactorChallenge
	if json.Unmarshal(object, &challenge) != nil {
		return nil
	}
	return &challenge
}

// wireError is the error member of an answer.
type wireError struct {
	Code    int                        `json:"code"`
	Message string                     `json:"message"`
	Data    map[string]json.RawMessage `json:"data"`
}

func (w wireError) err() *Error {
	e := &Error{Code: w.Code, Message: w.Message, Data: w.Data}
	if e.Data == nil {
		e.Data = map[string]json.RawMessage{}
	}
	var reason string
	if raw, ok := e.Data["reason"]; ok && json.Unmarshal(raw, &reason) == nil {
		e.Reason = Reason(reason)
	}
	return e
}

func clientError(reason Reason, cause error, format string, args ...any) *Error {
	return &Error{Reason: reason, Message: fmt.Sprintf(format, args...), Err: cause}
}

// Code is the protocol code the reason comes with (0 for the client's own reasons).
func (r Reason) Code() int { return reasonCodes[r] }
