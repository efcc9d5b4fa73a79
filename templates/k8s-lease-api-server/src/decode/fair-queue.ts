// Seats shared fairly between flows, after k8s.io/apiserver/pkg/util/flowcontrol/fairqueuing/queueset
// (API Priority and Fairness): each flow (here, the authenticated user, as APF's "ByUser" flow
// distinguisher) has a queue of its own, and a free seat goes to the waiting request whose flow's virtual
// start is earliest, so a flow that has queued many requests cannot push back a newcomer's. Each flow's
// queue is bounded (queueset rejects a request whose queue is full) and so is the total, as the queues'
// count times their length bounds queueset's. Differences from queueset: one queue per flow rather than
// shuffle sharding over a fixed number of queues (this server has a handful of users), each request costs
// one unit of virtual time rather than its measured seat-seconds, and a flow may hold only `seatsPerFlow`
// seats at once, so a flow's long-running request cannot keep another flow waiting behind it.

export interface FairQueueLimits {
  /** Requests executing at once. */
  seats: number;
  /** Seats one flow may hold at once. */
  seatsPerFlow: number;
  /** Requests one flow may have waiting (queueset's queueLengthLimit). */
  waitingPerFlow: number;
  /** Requests waiting in all flows together. */
  waitingTotal: number;
}

/** Gives a seat back; calling it twice is harmless. */
export type Release = () => void;

interface Waiter {
  seq: number;
  resolve: (release: Release) => void;
}

interface Flow {
  waiting: Waiter[];
  running: number;
  /** Virtual time at which this flow's last dispatched request finishes (queueset's queue.nextDispatchR). */
  finish: number;
}

export class FairQueue {
  private readonly flows = new Map<string, Flow>();
  private running = 0;
  private waitingCount = 0;
  private seq = 0;
  /** queueset's "R": the virtual start of the request dispatched last. */
  private virtualNow = 0;

  constructor(private readonly limits: FairQueueLimits) {}

  /** A seat for `flow`, at once or after waiting its turn; undefined when its queue or all queues are full. */
  acquire(flow: string): Promise<Release> | undefined {
    const entry = this.flowOf(flow);
    if (this.running < this.limits.seats && entry.running < this.limits.seatsPerFlow && entry.waiting.length === 0)
      return Promise.resolve(this.dispatch(flow, entry));
    if (entry.waiting.length >= this.limits.waitingPerFlow || this.waitingCount >= this.limits.waitingTotal)
      return undefined;
    return new Promise<Release>((resolve) => {
      entry.waiting.push({ seq: this.seq++, resolve });
      this.waitingCount++;
    });
  }

  /** Requests executing and waiting, for tests and the bench. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waitingCount };
  }

  private flowOf(name: string): Flow {
    let flow = this.flows.get(name);
    if (flow === undefined) {
      flow = { waiting: [], running: 0, finish: 0 };
      this.flows.set(name, flow);
    }
    return flow;
  }

  private startOf(flow: Flow): number {
    return Math.max(flow.finish, this.virtualNow);
  }

  private dispatch(name: string, flow: Flow): Release {
    const start = this.startOf(flow);
    this.virtualNow = start;
    flow.finish = start + 1;
    flow.running++;
    this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      flow.running--;
      this.running--;
      this.forget(name, flow);
      this.dispatchWaiting();
    };
  }

  /** An idle flow is dropped: coming back, it starts at the current virtual time, as an emptied queue does. */
  private forget(name: string, flow: Flow): void {
    if (flow.running === 0 && flow.waiting.length === 0) this.flows.delete(name);
  }

  /** The waiting flow that may take a seat with the earliest virtual start, oldest request first on a tie. */
  private next(): [string, Flow] | undefined {
    let best: [string, Flow] | undefined;
    for (const [name, flow] of this.flows) {
      const head = flow.waiting[0];
      if (head === undefined || flow.running >= this.limits.seatsPerFlow) continue;
      if (best === undefined) {
        best = [name, flow];
        continue;
      }
      const [start, bestStart] = [this.startOf(flow), this.startOf(best[1])];
      if (start < bestStart || (start === bestStart && head.seq < (best[1].waiting[0]?.seq ?? Infinity)))
        best = [name, flow];
    }
    return best;
  }

  private dispatchWaiting(): void {
    while (this.running < this.limits.seats) {
      const picked = this.next();
      if (picked === undefined) return;
      const [name, flow] = picked;
      const waiter = flow.waiting.shift();
      if (waiter === undefined) return;
      this.waitingCount--;
      waiter.resolve(this.dispatch(name, flow));
    }
  }
}
