// Error text for the terminal: one line, whatever was thrown. The library's errors carry no credential in their
// messages (k8s-lease-client's and this package's errors are written so), and nothing else is printed of them.

export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}
