/**
 * The server's clock as the client knows it, from pings and their pongs.
 *
 * The server read its clock somewhere between the ping leaving and the pong
 * arriving, so each pong bounds the offset (server minus local) to its
 * midpoint plus or minus half the round trip. The tightest bound is kept: a
 * deadline the server enforces (a claim that opens at `available_at`) is
 * offered only once it has surely passed on the server, however late one
 * ping was on its way. A bound that excludes the kept one means a clock was
 * stepped: start again from it.
 */
export class ClockSync {
  /** Server clock minus local clock (ms). */
  offset = 0;
  /** How far `offset` can be off (ms); Infinity before the first pong. */
  error = Infinity;

  /** A pong: `sentAt` the local time of its ping, `serverTime` the server's, `now` the local time it came. */
  sample(sentAt: number, serverTime: number, now: number): void {
    if (!(now >= sentAt)) return; // the local clock went back under it: nothing learnt
    const half = (now - sentAt) / 2;
    const offset = serverTime - (sentAt + now) / 2;
    if (half <= this.error || Math.abs(offset - this.offset) > half + this.error) {
      this.offset = offset;
      this.error = half;
    }
  }

  /** A new connection may reach another node, with its own clock. */
  reset(): void {
    this.error = Infinity;
  }

  /** The server's clock now, best guess. */
  now(local: number): number {
    return local + this.offset;
  }

  /**
   * The earliest the server's clock can read now (both clocks count whole
   * milliseconds: one more). Before any pong, `unknown` ms before the guess.
   */
  earliest(local: number, unknown = 2000): number {
    return this.now(local) - Math.min(this.error, unknown) - 1;
  }
}
