// Generated documents (the catalog's JSON and Markdown) made once per state and query and answered from memory,
// gzipped once for the clients that accept it: under load the catalog costs neither their generation nor 150 KB
// socket writes per request.
import { gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

interface Document {
  type: string;
  text: string;
  gzipped?: Buffer;
}

/** Documents per state, at most this many queries each (a client sending endless queries gets them computed). */
const MAX_PER_STATE = 256;
/** Smaller documents are sent as they are: gzip saves nothing worth a header. */
const MIN_GZIP = 1024;
const encodings = new Negotiator({ supportedValues: ['gzip', 'identity'] });

/**
 * A cache keyed by a state object (a new object when what the documents show changes: the catalog's freshness is
 * one per publish and at most every 5 s) and a query string; entries go with their state.
 */
export function documentCache() {
  const byState = new WeakMap<object, Map<string, Document>>();
  return (state: object, key: string, type: string, make: () => string): Document => {
    const documents = byState.get(state) ?? byState.set(state, new Map()).get(state)!;
    const found = documents.get(key);
    if (found) return found;
    const made = { type, text: make() };
    if (documents.size < MAX_PER_STATE) documents.set(key, made);
    return made;
  };
}

/** Answers with a document, gzipped when the client accepts gzip (Fastify sends a string or buffer as it is). */
export function sendDocument(request: FastifyRequest, reply: FastifyReply, document: Document) {
  reply.header('vary', 'accept-encoding').type(document.type);
  const accepted = request.headers['accept-encoding'];
  if (document.text.length < MIN_GZIP || !accepted || encodings.negotiate(accepted) !== 'gzip')
    return reply.send(document.text);
  document.gzipped ??= gzipSync(document.text);
  return reply.header('content-encoding', 'gzip').send(document.gzipped);
}
