package sesame

import (
	"encoding/json"
	"fmt"
	"time"
)

// The protocol's objects (docs/protocol.md, "Objects"). A string the daemon sends as null is
// "" here, a time sent as null is the zero time. Status, Connectivity and the reasons are open
// sets: a value a newer daemon sends arrives as it is.

// State is the session's state. Reason says why a stream gave it ("snapshot",
// "resynchronized", an authStateChanged reason such as "linked", "user-updated",
// "token-refreshed", "connectivity-changed", "sign-in-flow-changed"); it is empty in a State a
// call returned. JSON is the object as the daemon sent it (with fields this package does not
// know).
type State struct {
	Status         string                 `json:"status"` // starting, signedOut, anonymous, authenticated
	User           *User                  `json:"user"`
	Token          *TokenInfo             `json:"token"`
	Connectivity   string                 `json:"connectivity"` // online, offline, rate-limited
	RateLimit      *RateLimit             `json:"rateLimit"`
	NeedsUsername  bool                   `json:"needsUsername"`
	PendingMerges  []Merge                `json:"pendingMerges"`
	SignInPrompt   *SignInPrompt          `json:"signInPrompt"`
	SecondFactor   *SecondFactorChallenge `json:"secondFactor"`
	AccessRequests []json.RawMessage      `json:"accessRequests"` // managers only; each as sent
	Sequence       int64                  `json:"sequence"`

	Reason string          `json:"-"`
	JSON   json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps the object as sent in JSON.
func (s *State) UnmarshalJSON(data []byte) error {
	type plain State
	var decoded plain
	if err := json.Unmarshal(data, &decoded); err != nil {
		return err
	}
	*s = State(decoded)
	s.JSON = append(json.RawMessage(nil), data...)
	return nil
}

// UID is the user's uid, or "" without a user.
func (s State) UID() string {
	if s.User == nil {
		return ""
	}
	return s.User.UID
}

// User is the signed-in user.
type User struct {
	UID           string    `json:"uid"`
	IsAnonymous   bool      `json:"isAnonymous"`
	Email         string    `json:"email"`
	EmailVerified bool      `json:"emailVerified"`
	DisplayName   string    `json:"displayName"`
	Username      string    `json:"username"`
	Providers     []string  `json:"providers"`
	Factors       []Factor  `json:"factors"`
	PendingEmail  string    `json:"pendingEmail"`
	CreatedAt     time.Time `json:"createdAt"`
	LastSignInAt  time.Time `json:"lastSignInAt"`
}

// Factor is an enrolled second factor.
type Factor struct {
	FactorID    string    `json:"factorId"`
	Type        string    `json:"type"`
	DisplayName string    `json:"displayName"`
	EnrolledAt  time.Time `json:"enrolledAt"`
}

// TokenInfo says until when the held ID token is valid (never the token itself).
type TokenInfo struct {
	ExpiresAt time.Time `json:"expiresAt"`
}

// RateLimit is the backend's refusal for a rate limit.
type RateLimit struct {
	Operation string    `json:"operation"`
	RetryAt   time.Time `json:"retryAt"`
	Limit     *int64    `json:"limit"`
}

// Merge is a pending move of an anonymous user's data into an account.
type Merge struct {
	MergeID   string    `json:"mergeId"`
	FromUID   string    `json:"fromUid"`
	ToUID     string    `json:"toUid"`
	CreatedAt time.Time `json:"createdAt"`
}

// SignInPrompt is the open interactive sign-in flow any program may show.
type SignInPrompt struct {
	FlowID                  string    `json:"flowId"`
	ProviderID              string    `json:"providerId"`
	Flow                    string    `json:"flow"`
	VerificationURI         string    `json:"verificationUri"`
	VerificationURIComplete string    `json:"verificationUriComplete"`
	UserCode                string    `json:"userCode"`
	ExpiresAt               time.Time `json:"expiresAt"`
}

// SecondFactorChallenge is a sign-in waiting for a second factor: answer it with
// CompleteSecondFactor.
type SecondFactorChallenge struct {
	ChallengeID string    `json:"challengeId"`
	Factors     []Factor  `json:"factors"`
	ExpiresAt   time.Time `json:"expiresAt"`
}

// IDToken is getIdToken's answer. String() leaves the token out, so printing one never
// logs it.
type IDToken struct {
	Token          string    `json:"token"`
	UID            string    `json:"uid"`
	ExpiresAt      time.Time `json:"expiresAt"`
	IssuedAt       time.Time `json:"issuedAt"`
	SignInProvider string    `json:"signInProvider"`
}

func (t IDToken) String() string {
	return fmt.Sprintf("IDToken{uid: %s, provider: %s, expires: %s}", t.UID, t.SignInProvider,
		t.ExpiresAt.Format(time.RFC3339))
}

// GoString leaves the token out of %#v too.
func (t IDToken) GoString() string { return t.String() }

// Hello is who the daemon is and which role it gives this caller.
type Hello struct {
	Server   string `json:"server"`
	Version  string `json:"version"`
	Protocol int    `json:"protocol"`
	Instance string `json:"instance"`
	Backend  string `json:"backend"`
	Role     string `json:"role"` // none, observer, reader, manager
	Peer     struct {
		UID int64 `json:"uid"`
		GID int64 `json:"gid"`
		PID int64 `json:"pid"`
	} `json:"peer"`
}

// SignInResult is the answer of a sign-in: the state after it, and the merge it recorded
// (nil when none).
type SignInResult struct {
	State State  `json:"state"`
	Merge *Merge `json:"merge"`
}

// SignInFlow is an interactive sign-in flow: where the person goes, and how it stands.
type SignInFlow struct {
	FlowID                  string    `json:"flowId"`
	ProviderID              string    `json:"providerId"`
	Flow                    string    `json:"flow"`
	Status                  string    `json:"status"` // pending, completed, failed, expired, cancelled
	VerificationURI         string    `json:"verificationUri"`
	VerificationURIComplete string    `json:"verificationUriComplete"`
	UserCode                string    `json:"userCode"`
	AuthorizationURL        string    `json:"authorizationUrl"`
	ExpiresAt               time.Time `json:"expiresAt"`
	IntervalSeconds         float64   `json:"intervalSeconds"`
	Purpose                 string    `json:"purpose"`
}

// UsernameAvailability is checkUsername's answer; Reason is set when not available.
type UsernameAvailability struct {
	Username  string `json:"username"`
	Available bool   `json:"available"`
	Reason    string `json:"reason"`
}

// TotpEnrollment is enrollTotp's answer: show OtpauthURI as a QR code, then ConfirmTotp.
type TotpEnrollment struct {
	EnrollmentID string    `json:"enrollmentId"`
	Secret       string    `json:"secret"`
	OtpauthURI   string    `json:"otpauthUri"`
	ExpiresAt    time.Time `json:"expiresAt"`
}

// Reauthentication is reauthenticate's answer: until when sensitive calls are allowed (zero
// when a code was mailed first: CodeSent).
type Reauthentication struct {
	ValidUntil time.Time `json:"validUntil"`
	CodeSent   bool      `json:"codeSent"`
}

// Credential is linkCredential's credential: ProviderID "password" with Email and Password,
// "emailLink" with Email and Link, or a federated provider id with IDToken or AccessToken.
type Credential struct {
	ProviderID  string `json:"providerId"`
	Email       string `json:"email,omitempty"`
	Password    string `json:"password,omitempty"`
	Link        string `json:"link,omitempty"`
	IDToken     string `json:"idToken,omitempty"`
	AccessToken string `json:"accessToken,omitempty"`
}

// NullString is an optional param that may be null (updateProfile's DisplayName): a nil
// *NullString leaves the param out, Null sends null (clearing the value).
type NullString struct {
	Value string
	Null  bool
}

// MarshalJSON sends null or the value.
func (n NullString) MarshalJSON() ([]byte, error) {
	if n.Null {
		return []byte("null"), nil
	}
	return json.Marshal(n.Value)
}

// String, Bool, Number, Integer and Null give the pointers that optional params take.
func String(value string) *string             { return &value }
func Bool(value bool) *bool                   { return &value }
func Number(value float64) *float64           { return &value }
func Integer(value int64) *int64              { return &value }
func Null() *NullString                       { return &NullString{Null: true} }
func NullableString(value string) *NullString { return &NullString{Value: value} }
