// The protocol's objects (docs/protocol.md). Every method's params and result are in methods.d.ts,
// generated from api/local-api.json; a daemon that lacks a newer method answers MethodNotFound.

/** RFC 3339 UTC, e.g. "2026-11-21T10:00:00Z". */
export type Time = string;

export type Status = 'starting' | 'signedOut' | 'anonymous' | 'authenticated';
export type Connectivity = 'online' | 'offline' | 'rate-limited';
export type Role = 'none' | 'observer' | 'reader' | 'manager';

/** Reasons of `authStateChanged`. */
export type AuthChangeReason =
  | 'anonymous-created' | 'signed-up' | 'signed-in' | 'linked' | 'merged' | 'signed-out' | 'reset'
  | 'account-deleted' | 'session-revoked' | 'credentials-changed';

/** Why a stream gave a state: an `authStateChanged` reason, or what else changed. */
export type ChangeReason =
  | AuthChangeReason | 'snapshot' | 'token-refreshed' | 'user-updated' | 'connectivity-changed'
  | 'sign-in-flow-changed' | 'resynchronized' | (string & {});

/** An enrolled second factor (`User.factors`). */
export interface Factor {
  factorId: string;
  type: 'totp' | (string & {});
  displayName: string | null;
  enrolledAt?: Time | null;
}

export interface User {
  uid: string;
  isAnonymous: boolean;
  email: string | null;
  emailVerified: boolean;
  displayName: string | null;
  username: string | null;
  /** Provider ids (`password`, `google.com`, ...); empty for a guest. */
  providers: string[];
  createdAt: Time | null;
  lastSignInAt: Time | null;
  factors?: Factor[];
  pendingEmail?: string | null;
}

export interface Merge {
  mergeId: string;
  /** The guest's uid. */
  fromUid: string;
  /** The account's uid. */
  toUid: string;
  createdAt: Time;
}

export interface SignInPrompt {
  flowId: string;
  providerId: string;
  flow: 'device' | 'browser';
  verificationUri: string | null;
  /** null for readers and observers (only managers see a device flow's code). */
  verificationUriComplete: string | null;
  /** null for readers and observers (only managers see a device flow's code). */
  userCode: string | null;
  expiresAt: Time;
}

/** The open challenge of a sign-in that needs a second factor (`State.secondFactor`, `SecondFactorRequired.challenge`). */
export interface SecondFactorChallenge {
  challengeId: string;
  factors: Array<{ factorId: string; type: string; displayName: string | null; enrolledAt?: Time | null }>;
  /** Null only when a daemon error left it out. */
  expiresAt: Time | null;
}

/** The daemon's session state. */
export interface State {
  status: Status;
  user: User | null;
  /** The held ID token's expiry; never the token itself. */
  token: { expiresAt: Time } | null;
  connectivity: Connectivity;
  needsUsername: boolean;
  pendingMerges: Merge[];
  /** The state's version: 1 when the daemon starts, +1 with every state notification. */
  sequence: number;
  signInPrompt?: SignInPrompt | null;
  secondFactor?: SecondFactorChallenge | null;
  /** The backend's rate limit while `connectivity` is 'rate-limited'; sesamed retries by itself at `retryAt`. */
  rateLimit?: RateLimit | null;
  /** Programs' open requests for a role: managers only, empty for other roles. */
  accessRequests?: AccessRequest[];
}

/** A program's open request for a role; every field but `reason` was read by sesamed. */
export interface AccessRequest {
  requestId: string;
  role: 'observer' | 'reader' | 'manager';
  reason: string | null;
  uid: number;
  user: string | null;
  pid: number;
  executable: string | null;
  unit: string | null;
  flatpakAppId: string | null;
  expiresAt: Time;
}

/** A role a manager granted: to one connection (`pid`), until sesamed stops, or always. */
export interface AccessGrant {
  grantId: string;
  role: 'observer' | 'reader' | 'manager';
  remember: 'connection' | 'boot' | 'always';
  uid: number;
  user: string | null;
  executable: string | null;
  pid: number | null;
  grantedAt: Time;
}

/** Which operation (a method's name, or 'refresh') the backend limited, and when sesamed tries again. */
export interface RateLimit {
  operation: string;
  retryAt: Time;
  limit?: string;
}

/** A state given by a listener or stateChanges(), with why it was given. */
export interface StateChange extends State {
  readonly reason: ChangeReason;
}

export interface Hello {
  server: 'sesamed';
  version: string;
  protocol: number;
  /** A new random id at every daemon start. */
  instance: string;
  backend: 'firebase' | 'supabase' | (string & {});
  role: Role;
  peer: { uid: number; gid: number; pid: number };
}

export interface IdTokenJSON {
  token: string;
  uid: string;
  expiresAt: Time;
  issuedAt: Time;
  signInProvider: string;
}

export interface SignInResult {
  state: State;
  /** The merge recorded when a guest signed in to an existing account, else null. */
  merge: Merge | null;
}

export type Credential =
  | { providerId: 'password'; email: string; password: string }
  | { providerId: 'emailLink'; email?: string; link: string }
  | { providerId: string; idToken?: string; accessToken?: string };

export interface SignInFlow {
  flowId: string;
  providerId: string;
  flow: 'device' | 'browser';
  status: 'pending' | 'completed' | 'failed' | 'expired' | 'cancelled';
  verificationUri: string | null;
  verificationUriComplete: string | null;
  /** null for readers and observers (only managers see a device flow's code). */
  userCode: string | null;
  /** A browser flow's, in the answer to the call that started it only; null elsewhere. */
  authorizationUrl: string | null;
  expiresAt: Time;
  intervalSeconds: number | null;
  purpose: 'sign-in' | 'reauthenticate';
  /** The state a browser flow's callback must carry: in the answer that started the flow only. */
  state?: string | null;
}

export interface UsernameAvailability {
  username: string;
  available: boolean;
  reason?: 'invalid-username' | 'username-taken' | 'username-reserved';
}
