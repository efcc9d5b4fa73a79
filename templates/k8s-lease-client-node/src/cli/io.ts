// What a subcommand may touch of its process, passed in so that tests run it in-process.

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Whether stdout is a terminal: `watch` redraws its table in place there, and appends lines elsewhere. */
  readonly stdoutIsTty: boolean;
  /** Subscribes to SIGINT and SIGTERM; returns the unsubscribe. */
  readonly onSignal: (listener: (signal: 'SIGINT' | 'SIGTERM') => void) => () => void;
  readonly env: NodeJS.ProcessEnv;
  /** Local time in ms (Date.now). */
  readonly now: () => number;
}

/** The real process's. */
export function processIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    stdoutIsTty: process.stdout.isTTY === true,
    onSignal: (listener) => {
      const on = (signal: NodeJS.Signals): void => listener(signal === 'SIGINT' ? 'SIGINT' : 'SIGTERM');
      process.on('SIGINT', on);
      process.on('SIGTERM', on);
      return () => {
        process.off('SIGINT', on);
        process.off('SIGTERM', on);
      };
    },
    env: process.env,
    now: Date.now,
  };
}
