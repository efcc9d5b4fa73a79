// The server's notion of "now": a caller-supplied clock plus an offset tests can advance.
export class ServerClock {
  private offsetMs = 0;

  constructor(private readonly base: () => number = Date.now) {}

  readonly now = (): number => this.base() + this.offsetMs;

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
