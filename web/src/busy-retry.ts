// A log-in or sign-up that the server turns away because its password
// hashes are queued full (503 accounts_busy, with Retry-After) is tried
// again by itself after the wait the server gave, a few times: the player
// sees the wait, not an error to act on. Never for other refusals (a 429 is
// a limit that trying again only prolongs; a 401 is a wrong password).

import { ApiError } from './api.js';

export interface BusyRetry {
  tries: number; // attempts in all, the first included
  maxWaitS: number; // a longer Retry-After is shown as an error instead
  sleep: (ms: number) => Promise<void>;
}

const DEFAULTS: BusyRetry = { tries: 4, maxWaitS: 20, sleep: ms => new Promise(r => setTimeout(r, ms)) };

/** The wait the server asked for, in seconds, when `e` is its busy answer. */
export function busyWait(e: unknown): number | null {
  if (!(e instanceof ApiError) || e.status !== 503 || e.reason !== 'accounts_busy') return null;
  const s = e.params?.retry_after;
  return typeof s === 'number' && Number.isFinite(s) && s > 0 ? s : 1;
}

/** Runs `attempt`, again after each busy answer's wait (telling `onWait`). */
export async function retryWhileBusy<T>(attempt: () => Promise<T>, onWait: (seconds: number) => void, options: Partial<BusyRetry> = {}): Promise<T> {
  const o = { ...DEFAULTS, ...options };
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (e) {
      const wait = busyWait(e);
      if (wait === null || wait > o.maxWaitS || i >= o.tries) throw e;
      onWait(Math.ceil(wait));
      await o.sleep(wait * 1000);
    }
  }
}
