// Types of sesame-client (the same for import and require).
import type { State, StateChange, Hello, Credential } from './protocol.js';
import type { Method, Params, Result, SesameMethods } from './methods.js';

export * from './protocol.js';
export * from './methods.js';
export * from './errors.js';
export * from './reasons.js';

export interface SesameOptions {
  /** The daemon's socket: default $SESAME_SOCKET, else the user instance's socket when it exists, else /run/sesame/sesamed.sock. */
  socket?: string;
  /** Milliseconds a call may take unless it passes its own (default 5000; null: no limit). */
  timeout?: number | null;
  /** The name sent in `hello` (default "sesame-client-node"). */
  clientName?: string;
  /** Where errors thrown by listeners (and their streams' failures) go; default: console.error, the first one per listener. */
  onError?: (error: unknown) => void;
}

export interface CallOptions {
  /** Milliseconds (null: no limit); default the client's `timeout`. */
  timeout?: number | null;
  /** Aborts the wait (the daemon may still carry the call out). */
  signal?: AbortSignal;
}

export interface IdTokenOptions {
  /** Seconds the token must stay valid (the daemon's default: 300). */
  minValidity?: number;
  /** Refresh even when the held token is still valid. */
  forceRefresh?: boolean;
  /** The `fromUid` of a pending merge (managers only). */
  uid?: string;
}

/** `getIdToken`'s result; util.inspect and console.log leave `token` out. */
export declare class IdToken {
  constructor(json: unknown);
  /** The JWT: send it as `Authorization: Bearer <token>`. */
  readonly token: string;
  readonly uid: string;
  readonly expiresAt: string | null;
  readonly issuedAt: string | null;
  readonly signInProvider: string | null;
  /** Milliseconds until it expires (negative once expired). */
  expiresInMs(now?: number): number;
}

/** Stops a listener. */
export type Unsubscribe = () => void;
export type StateListener = (state: StateChange) => void | Promise<void>;
/** Firebase's observer form of a listener. */
export interface StateObserver {
  next: StateListener;
  error?: (error: unknown) => void;
}

/** The methods it sends as they are (generated from api/local-api.json: types/methods.d.ts). */
export interface Sesame extends SesameMethods {}

/** The client of sesamed: one connection, pipelined calls, one shared subscription for every listener. */
export declare class Sesame {
  constructor(options?: SesameOptions);
  /** The socket this client uses. */
  readonly socketPath: string;
  readonly closed: boolean;

  /** Any method by its wire name, typed by the `Methods` map. */
  call<M extends Method>(method: M, params?: Params<M>, options?: CallOptions): Promise<Result<M>>;
  /** The daemon's version, instance and backend, and this caller's role. */
  hello(params?: { client?: string }, options?: CallOptions): Promise<Hello>;
  /** The current state (`getState`). */
  state(options?: CallOptions): Promise<State>;
  /** An ID token (`getIdToken`); identical calls in flight at once share one request. */
  idToken(params?: IdTokenOptions, options?: CallOptions): Promise<IdToken>;
  /** `async () => token`: pass as supabase-js's `accessToken` option. May be called concurrently. */
  readonly accessToken: () => Promise<string>;

  /** Waits until the flow ends; the call's timeout defaults to the client's plus the flow's `timeout` (300 s), so it never cuts the wait short. */
  awaitSignIn(params: Params<'awaitSignIn'>, options?: CallOptions): Promise<Result<'awaitSignIn'>>;

  /** Calls `listener` with the current state, then every change. */
  onStateChanged(listener: StateListener | StateObserver, onError?: (error: unknown) => void): Unsubscribe;
  /** The current state, then each change of user (status, uid or isAnonymous), like Firebase's. */
  onAuthStateChanged(listener: StateListener | StateObserver, onError?: (error: unknown) => void): Unsubscribe;
  /** The current state, then each change of user or of its ID token, like Firebase's. */
  onIdTokenChanged(listener: StateListener | StateObserver, onError?: (error: unknown) => void): Unsubscribe;
  /** `for await (const state of sesame.stateChanges())`: the current state, then every change, across daemon restarts. */
  stateChanges(options?: { signal?: AbortSignal }): AsyncIterableIterator<StateChange>;

  /** fetch() with `Authorization: Bearer <ID token>`; after a 401, once more with a freshly refreshed token. */
  fetch(input: string | URL | Request, init?: RequestInit & { minValidity?: number }): Promise<Response>;
  /** Closes the connection: pending calls fail with Aborted, iterators end, listeners stop. */
  close(): void;
}

/** fetch() with the machine's ID token, from a client made on first use. */
export declare function sesameFetch(input: string | URL | Request, init?: RequestInit & { minValidity?: number }): Promise<Response>;
/** Where `new Sesame()` connects: $SESAME_SOCKET, else the user instance's socket when it exists, else the system one. */
export declare function resolveSocketPath(env?: Record<string, string | undefined>, exists?: (path: string) => boolean): string;
export declare const SYSTEM_SOCKET: string;
export type { Credential };
