// Per-request values handed to every handler.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MediaRange } from './negotiation.js';
import type { ServerState } from './server-state.js';

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  state: ServerState;
  accept: MediaRange[];
  user: string;
}
