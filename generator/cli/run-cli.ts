import { GeneratorError, isGeneratorError } from '../errors.js';

/**
 * Runs a command: a GeneratorError becomes one line on stderr and exit code
 * 2; anything else is a bug in the generator and keeps its stack (exit 1).
 */
export async function runCli(main: (argv: string[]) => Promise<void>): Promise<void> {
  try {
    await main(process.argv.slice(2));
  } catch (error) {
    if (isGeneratorError(error)) {
      process.stderr.write(`${error.toLine()}\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(
      `internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  }
}

export function usageError(message: string): GeneratorError {
  return new GeneratorError('usage', message);
}
