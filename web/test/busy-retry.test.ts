import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../src/api.ts';
import { busyWait, retryWhileBusy } from '../src/busy-retry.ts';

const busy = (s?: number) => new ApiError(503, 'unavailable', 'too many log-ins waiting', { reason: 'accounts_busy', params: s === undefined ? {} : { retry_after: s } });

/** An attempt that fails with the given errors in turn, then answers 'ok'. */
function attempts(errors: unknown[]) {
  let calls = 0;
  return {
    run: async () => {
      const e = errors[calls++];
      if (e) throw e;
      return 'ok';
    },
    calls: () => calls,
  };
}

test('busy retry: a busy answer is tried again after the wait the server gave', async () => {
  const a = attempts([busy(3), busy(2)]);
  const waits: number[] = [];
  const slept: number[] = [];
  const r = await retryWhileBusy(a.run, s => waits.push(s), { sleep: async ms => void slept.push(ms) });
  assert.equal(r, 'ok');
  assert.equal(a.calls(), 3);
  assert.deepEqual(waits, [3, 2]);
  assert.deepEqual(slept, [3000, 2000]);
});

test('busy retry: other refusals are not tried again', async () => {
  for (const e of [
    new ApiError(429, 'too_many_requests', 'slow down', { reason: 'too_many_requests', params: { retry_after: 5 } }),
    new ApiError(401, 'unauthorized', 'wrong password', { reason: 'bad_credentials' }),
    new ApiError(503, 'unavailable', 'stopping', { reason: 'accounts_stopping' }),
    new TypeError('network'),
  ]) {
    const a = attempts([e]);
    await assert.rejects(retryWhileBusy(a.run, () => assert.fail('no wait shown'), { sleep: async () => undefined }), x => x === e);
    assert.equal(a.calls(), 1, String(e));
  }
});

test('busy retry: bounded in tries and in the wait it accepts', async () => {
  const always = attempts([busy(1), busy(1), busy(1), busy(1), busy(1)]);
  await assert.rejects(retryWhileBusy(always.run, () => undefined, { tries: 3, sleep: async () => undefined }));
  assert.equal(always.calls(), 3);
  const long = attempts([busy(120)]);
  await assert.rejects(retryWhileBusy(long.run, () => assert.fail('a long wait is shown as an error'), { maxWaitS: 20, sleep: async () => undefined }));
  assert.equal(long.calls(), 1);
});

test('busy retry: the wait read from the answer, 1 s when it gives none', () => {
  assert.equal(busyWait(busy(7)), 7);
  assert.equal(busyWait(busy()), 1);
  assert.equal(busyWait(new Error('x')), null);
});
