import { Duplex } from 'node:stream';

/**
 * One end of a connection between two parts of this process that speak over a socket (the `pg` driver and the
 * embedded database's server): what one end writes, the other reads, with no kernel socket between them. It has
 * the methods of `net.Socket` those two call (`connect`, `setNoDelay`, `setKeepAlive`, `ref`, `unref`, the
 * address fields); the rest is a plain Duplex.
 *
 * Either end ending its writes ends the other's reads, and the connection closes as a socket's would: 'close'
 * on both ends. Destroying one end destroys the other, once what was written before has arrived. Nothing is
 * buffered beyond what the reader has not yet taken: both users read everything as it comes.
 */
export class InProcessEnd extends Duplex {
  readonly remoteAddress = 'in-process';
  readonly remotePort = 0;
  private peer!: InProcessEnd;
  /** Why connect() fails, for an end made by refused(). */
  private refusal?: string;

  private constructor() {
    super({ allowHalfOpen: false });
  }

  /** Two connected ends. */
  static pair(): [InProcessEnd, InProcessEnd] {
    const one = new InProcessEnd();
    const other = new InProcessEnd();
    one.peer = other;
    other.peer = one;
    return [one, other];
  }

  /** An end whose connect() fails as a socket's does when nothing listens any more (ECONNREFUSED). */
  static refused(reason: string): InProcessEnd {
    const [end] = InProcessEnd.pair();
    end.refusal = reason;
    return end;
  }

  /** As a socket's: 'connect' on the next tick (the other end is there already), or the refusal as an 'error'. */
  connect(): this {
    process.nextTick(() => {
      if (this.refusal === undefined) this.emit('connect');
      else this.destroy(Object.assign(new Error(`connect ECONNREFUSED (${this.refusal})`), { code: 'ECONNREFUSED' }));
    });
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    // Taken at once, as a socket's kernel buffer takes it; it reaches the other end on the next tick, as a
    // socket's data arrives, so neither side's handler runs inside the other's write.
    process.nextTick(() => {
      if (!this.peer.destroyed) this.peer.push(chunk);
    });
    callback();
  }

  override _read(): void {
    // Data is pushed by the other end as it is written.
  }

  override _final(callback: (error?: Error | null) => void): void {
    process.nextTick(() => {
      if (!this.peer.destroyed) this.peer.push(null);
    });
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // After what was written before it has reached the other end (queued on the ticks before this one), as a
    // socket's kernel still delivers what it took: a last answer written just before a destroy is not lost.
    process.nextTick(() => {
      if (!this.peer.destroyed) this.peer.destroy();
    });
    callback(error);
  }
}
