// Compiled with `tsc --noEmit --strict` by run-tests.sh: the declarations accept typical use.
import {
  Sesame, sesameFetch, EmailAlreadyInUse, SesameError, DaemonUnavailable, TooManyRequests, SecondFactorRequired,
  type State, type StateChange, type Result,
} from 'sesame-client';

async function main(): Promise<void> {
  const sesame = new Sesame({ socket: '/run/sesame/sesamed.sock', timeout: 10_000, onError: (e: unknown) => console.error(e) });
  const token = await sesame.idToken({ minValidity: 600 });
  const bearer: string = `Bearer ${token.token}`;
  const state: State = await sesame.state();
  const uid: string | undefined = state.user?.uid;
  const unsubscribe = sesame.onAuthStateChanged((s: StateChange) => console.log(s.status, s.reason, s.user?.email));
  unsubscribe();
  sesame.onAuthStateChanged({ next: (s) => console.log(s.user?.uid), error: (e) => console.error(e) })();
  sesame.onIdTokenChanged(async (s) => { console.log(s.token?.expiresAt); })();
  for await (const change of sesame.stateChanges()) {
    if (change.reason === 'resynchronized' || change.sequence > 3) break;
  }
  try {
    await sesame.createAccount({ email: 'ann@example.com', password: 'correct horse', username: 'Ann' });
  } catch (error) {
    if (error instanceof EmailAlreadyInUse) {
      const signedIn = await sesame.signIn({ identifier: 'ann@example.com', password: 'correct horse' });
      console.log(signedIn.merge?.fromUid, error.email, error.providerId, error.reason);
    } else if (error instanceof TooManyRequests) {
      console.log(error.retryAfterMs ?? 1000);
    } else if (error instanceof DaemonUnavailable) {
      console.log(error.socketPath);
    } else if (error instanceof SesameError) {
      console.log(error.code, error.data);
    }
  }
  await sesame.signOut({ reset: true });
  await sesame.signInAnonymously();
  const flow = await sesame.startSignIn({ providerId: 'google.com', flow: 'device' });
  const done: Result<'awaitSignIn'> = await sesame.awaitSignIn({ flowId: flow.flowId, timeout: 60 });
  console.log(done.state.status, flow.userCode);
  await sesame.linkCredential({ credential: { providerId: 'password', email: 'a@b.c', password: 'pw' } });
  const hello = await sesame.call('hello', { client: 'typed' });
  console.log(hello.instance, hello.role, uid, bearer);
  const availability = await sesame.checkUsername({ username: 'ann' }, { timeout: 1000 });
  console.log(availability.available);
  const accessToken: () => Promise<string> = sesame.accessToken;
  const response: Response = await sesameFetch('https://api.example.com/me', { method: 'GET' });
  console.log(response.status, await accessToken(), await sesame.fetch(new URL('https://x.example')));
  try {
    await sesame.signIn({ identifier: 'ann@example.com', password: 'pw' });
  } catch (error) {
    if (error instanceof SecondFactorRequired && error.challenge !== null) {
      const factor: string | undefined = error.challenge.factors[0]?.displayName ?? undefined;
      const finished = await sesame.completeSecondFactor({ challengeId: error.challenge.challengeId, code: '123456' });
      console.log(factor, finished.state.secondFactor?.challengeId, finished.state.user?.factors?.length);
    }
  }
  const enrollment = await sesame.enrollTotp({ displayName: 'Phone' });
  await sesame.confirmTotp({ enrollmentId: enrollment.enrollmentId, code: '123456' });
  const proof = await sesame.reauthenticate({});
  console.log(proof.codeSent, proof.validUntil, (await sesame.changeEmail({ newEmail: 'b@c.d' })).pendingEmail);
  await sesame.confirmPasswordReset({ link: 'https://x.example/reset', newPassword: 'n' });
  // @ts-expect-error a reset code needs the account's email
  await sesame.confirmPasswordReset({ code: '123456', newPassword: 'n' });
  // @ts-expect-error createAccount needs a password
  await sesame.createAccount({ email: 'x@example.com' });
  await sesame.signOut({ scope: 'everywhere' });
  // @ts-expect-error a sign-out scope is local, others or everywhere
  await sesame.signOut({ scope: 'global' });
  sesame.close();
}

void main;
