/**
 * Errors the pipeline reports to its users. Every failure is a value with a
 * code, the file it concerns and, where one applies, the JSON pointer inside
 * that file, so the command line can print exactly one line and exit with 2.
 */
export type GeneratorErrorCode =
  | 'not-json'
  | 'not-openapi'
  | 'invalid-openapi'
  | 'no-group-paths'
  | 'dangling-ref'
  | 'ref-cycle'
  | 'unknown-release'
  | 'hash-mismatch'
  | 'missing-source'
  | 'incomplete-models'
  | 'unsupported-schema'
  | 'obsolete-fixup'
  | 'usage'
  | 'compile'
  | 'io';

export class GeneratorError extends Error {
  override readonly name = 'GeneratorError';
  readonly code: GeneratorErrorCode;
  readonly file: string | undefined;
  readonly pointer: string | undefined;

  constructor(code: GeneratorErrorCode, detail: string, location: { file?: string; pointer?: string } = {}) {
    super(detail);
    this.code = code;
    this.file = location.file;
    this.pointer = location.pointer;
  }

  /** One line, as the command line prints it: `file#/pointer: detail`. */
  toLine(): string {
    const where =
      this.file === undefined ? '' : this.pointer === undefined ? `${this.file}: ` : `${this.file}#${this.pointer}: `;
    // File names and pointers come from input too: a key with a line break must not split the line.
    return `error: ${where}${this.message}`.replace(/\s*[\r\n\u2028\u2029]\s*/g, ' ');
  }
}

export function isGeneratorError(value: unknown): value is GeneratorError {
  return value instanceof GeneratorError;
}
