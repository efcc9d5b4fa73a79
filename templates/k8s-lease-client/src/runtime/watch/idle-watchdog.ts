/**
 * Notices a watch connection that went silent: a server or proxy that stopped sending without closing leaves
 * a read pending forever, which only a timer ends. (client-go leaves this to HTTP/2's health check, a PING
 * after 30 s without a frame: k8s.io/apimachinery/pkg/util/net/http.go readIdleTimeoutSeconds; fetch
 * offers none.)
 */

/**
 * Fires when a read has been pending for `ms`. One timer per period rather
 * than one per chunk: arm/disarm only record timestamps. Time spent while the
 * consumer holds an event (no read pending) does not count as idle.
 */
export class IdleWatchdog {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private since: number | undefined;
  private stopped = false;

  constructor(
    private readonly ms: number,
    private readonly fire: () => void,
  ) {}

  /** A read starts: idle time counts from now. */
  arm(): void {
    this.since = Date.now();
    if (this.timer === undefined && !this.stopped) this.timer = setTimeout(this.check, this.ms);
  }

  /** The read returned: the consumer's time with the data is not idle time. */
  disarm(): void {
    this.since = undefined;
  }

  /** The connection is over: no timer stays behind, and it never fires. */
  clear(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private readonly check = (): void => {
    this.timer = undefined;
    const since = this.since;
    if (since === undefined || this.stopped) return;
    const elapsed = Date.now() - since;
    if (elapsed >= this.ms) {
      this.stopped = true;
      this.fire();
    } else {
      this.timer = setTimeout(this.check, this.ms - elapsed);
    }
  };
}
