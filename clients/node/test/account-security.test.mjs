// Second factors and account security against a scripted socket: the eight methods' names,
// params and results on the wire, the challenge of `second-factor-required` on the error, and
// the reason classes of the new reasons.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Sesame, SecondFactorRequired, InvalidVerificationCode, AuthenticationError,
} from '../index.mjs';
import { startFakeDaemon, fakeState } from './support/fake-daemon.mjs';

const CHALLENGE = {
  challengeId: 'ch-1', expiresAt: '2026-11-21T10:05:00Z',
  factors: [{ factorId: 'f-1', type: 'totp', displayName: 'Phone', enrolledAt: null }],
};

const RESULTS = {
  completeSecondFactor: { state: fakeState(3), merge: null },
  enrollTotp: { enrollmentId: 'e-1', secret: 'JBSWY3DPEHPK3PXP', otpauthUri: 'otpauth://totp/S:ann?secret=JBSWY3DPEHPK3PXP', expiresAt: '2026-11-21T10:10:00Z' },
  confirmTotp: fakeState(4),
  unenrollFactor: fakeState(5),
  reauthenticate: { validUntil: null, codeSent: true },
  changePassword: {},
  changeEmail: { pendingEmail: 'new@example.com' },
  confirmPasswordReset: { email: 'ann@example.com' },
};

test('the second-factor and account-security methods send the protocol\'s names and params', async (t) => {
  const daemon = await startFakeDaemon((message, connection) => {
    if (message.method === 'signIn') {
      connection.send({ jsonrpc: '2.0', id: message.id, error: { code: 1000, message: 'A code is needed.',
        data: { reason: 'second-factor-required', ...CHALLENGE } } });
    } else {
      connection.answer(message.id, RESULTS[message.method] ?? {});
    }
  });
  const sesame = new Sesame({ socket: daemon.path });
  t.after(async () => { sesame.close(); await daemon.close(); });

  const error = await sesame.signIn({ identifier: 'ann@example.com', password: 'pw' }).catch((e) => e);
  assert.ok(error instanceof SecondFactorRequired && error instanceof AuthenticationError);
  assert.deepEqual(error.challenge, CHALLENGE);
  const done = await sesame.completeSecondFactor({ challengeId: error.challenge.challengeId, code: '123456' });
  assert.equal(done.state.sequence, 3);
  const enrollment = await sesame.enrollTotp({ displayName: 'Phone' });
  assert.equal(enrollment.otpauthUri, RESULTS.enrollTotp.otpauthUri);
  await sesame.confirmTotp({ enrollmentId: 'e-1', code: '123456' });
  await sesame.unenrollFactor({ factorId: 'f-1' });
  assert.deepEqual(await sesame.reauthenticate({}), { validUntil: null, codeSent: true });
  await sesame.reauthenticate({ password: 'pw' });
  await sesame.changePassword({ newPassword: 'new-pw' });
  assert.deepEqual(await sesame.changeEmail({ newEmail: 'new@example.com' }), { pendingEmail: 'new@example.com' });
  await sesame.confirmPasswordReset({ code: '123456', email: 'ann@example.com', newPassword: 'n' });

  const sent = daemon.connections.flatMap((connection) => connection.requests).map((m) => [m.method, m.params ?? {}]);
  assert.deepEqual(sent, [
    ['signIn', { identifier: 'ann@example.com', password: 'pw' }],
    ['completeSecondFactor', { challengeId: 'ch-1', code: '123456' }],
    ['enrollTotp', { displayName: 'Phone' }],
    ['confirmTotp', { enrollmentId: 'e-1', code: '123456' }],
    ['unenrollFactor', { factorId: 'f-1' }],
    ['reauthenticate', {}],
    ['reauthenticate', { password: 'pw' }],
    ['changePassword', { newPassword: 'new-pw' }],
    ['changeEmail', { newEmail: 'new@example.com' }],
    ['confirmPasswordReset', { code: '123456', email: 'ann@example.com', newPassword: 'n' }],
  ]);
});

test('a wrong code is InvalidVerificationCode without a challenge', async (t) => {
  const daemon = await startFakeDaemon((message, connection) => {
    connection.send({ jsonrpc: '2.0', id: message.id, error: { code: 1000, message: 'Not that code.',
      data: { reason: 'invalid-verification-code' } } });
  });
  const sesame = new Sesame({ socket: daemon.path });
  t.after(async () => { sesame.close(); await daemon.close(); });
  const error = await sesame.completeSecondFactor({ challengeId: 'ch-1', code: '000000' }).catch((e) => e);
  assert.ok(error instanceof InvalidVerificationCode && error instanceof AuthenticationError);
  assert.equal(error.challenge, null);
  assert.ok(!error.message.includes('000000'));
});
