// A fetch that answers from a script, for the middleware tests that need no server.

/** A fetch answering the queued responses in order, counting calls. */
export function scripted(...responses: Array<() => Response>): typeof fetch & { calls: number } {
  const fake = Object.assign(
    async (): Promise<Response> => {
      const next = responses[Math.min(fake.calls, responses.length - 1)];
      fake.calls++;
      if (!next) throw new Error('no response scripted');
      return next();
    },
    { calls: 0 },
  );
  return fake;
}
