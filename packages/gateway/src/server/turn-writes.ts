import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Most bytes held in one turn (those a slow client has not taken yet included) before the writer
 * waits for `drain`: four times node's 16 KiB high-water mark, so that a translated answer of one
 * upstream read (a Responses stream repeats its text in its done events) still leaves in one write.
 */
const MAX_HELD_BYTES = 64 * 1024;

/**
 * Holds a streamed answer's writes until the event loop's current turn is over, so that what one
 * turn produces (the head, the events of an upstream read, the end) leaves in one socket write
 * instead of one each: a write is a system call, and a 50-event answer arriving in one read made
 * three of them (head, events, end). Nothing waits for later input: the held bytes go out at the
 * turn's end (`setImmediate`), and {@link release} before waiting for `drain` (a corked socket
 * never drains).
 */
export class TurnWrites {
  /** The socket corked for this turn, until {@link release}. */
  #corked: Socket | undefined;

  constructor(private readonly res: ServerResponse) {}

  /**
   * Called before each write: corks the answer's socket until this turn ends (once per turn). The
   * socket, not the response: on Node 24 a corked `ServerResponse` loses what was written
   * before its `end()` (Node 20 sends it).
   */
  hold(): void {
    if (this.#corked) return;
    const socket = this.res.socket;
    if (!socket || socket.destroyed) return;
    this.#corked = socket;
    socket.cork();
    setImmediate(this.release);
  }

  /**
   * After a write node found past its high-water mark: true while the bytes not sent yet stay
   * within {@link MAX_HELD_BYTES}, so the writer goes on without waiting for `drain`.
   */
  canHoldMore(): boolean {
    return this.#corked !== undefined && this.res.writableLength <= MAX_HELD_BYTES;
  }

  /** Sends what is held now, ended answer or not (a kept-alive socket outlives its answer). */
  readonly release = (): void => {
    const socket = this.#corked;
    if (!socket) return;
    this.#corked = undefined;
    socket.uncork();
  };
}
