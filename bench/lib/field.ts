/**
 * One property of a value that crossed a process boundary (an IPC message, a decoded JSON body), or
 * undefined when the value is not an object: what the message guards and the read checks look at.
 */
export function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined;
}
