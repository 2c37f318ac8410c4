import { timingSafeEqual } from 'node:crypto';
import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashApiKey } from '../control/organizations.ts';
import type { ControlStore } from '../db/control-store.ts';
import { MktdataError } from '../errors.ts';
import { signLink, verifyLink } from '../exports/signed-url.ts';
import { findOrganization } from '../control/organizations.ts';

/** Whose data a console request sees: the operator sees every organization, an organization's key only its own. */
export type ConsoleScope = { operator: true } | { operator: false; organizationId: string; organizationName: string };

/** The cookie that keeps a console session: the key's hash, an expiry and the server's signature, never the key. */
export const sessionCookie = 'mktdata_console';
/** How long a console session lasts. */
export const sessionHours = 12;

/**
 * The hash of the operator key (`MKTDATA_OPERATOR_KEY`), or null when none is set. A key shorter than 24 characters
 * is refused: it would guard every organization's data.
 */
export function operatorKeyHash(key: string | undefined): string | null {
  if (key === undefined || key === '') return null;
  if (key.length < 24)
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: 'MKTDATA_OPERATOR_KEY',
      reason: 'the operator key must be at least 24 characters long',
    });
  return hashApiKey(key);
}

/** What resolves a console request's scope: the operator key's hash, the API keys' organizations, the signing key. */
export interface ScopeResolver {
  operatorHash: string | null;
  organizationOf: (keyHash: string) => Promise<string | undefined>;
  signingKey: string;
  wh: ControlStore;
  now: () => number;
}

/** The scope of a key's hash, or null when it is no valid key. */
export async function scopeOfHash(resolver: ScopeResolver, hash: string): Promise<ConsoleScope | null> {
  const operator = resolver.operatorHash;
  if (operator !== null && hash.length === operator.length && timingSafeEqual(Buffer.from(operator), Buffer.from(hash)))
    return { operator: true };
  const organizationId = await resolver.organizationOf(hash);
  if (!organizationId) return null;
  const org = await findOrganization(resolver.wh.db, organizationId);
  return { operator: false, organizationId, organizationName: org?.name ?? organizationId };
}

/**
 * The scope of a console request: its `service-api-key` header (scripts), else its session cookie. Null when neither
 * holds a valid key; a revoked key's session ends with the key.
 */
export async function requestScope(resolver: ScopeResolver, request: FastifyRequest): Promise<ConsoleScope | null> {
  const header = request.headers['service-api-key'];
  if (typeof header === 'string' && header !== '') return scopeOfHash(resolver, hashApiKey(header));
  const cookie = request.cookies?.[sessionCookie];
  const [hash, expires, signature] = (cookie ?? '').split('.');
  if (!hash || !expires || !signature || !/^[0-9a-f]{64}$/.test(hash)) return null;
  if (!verifyLink(resolver.signingKey, 'console-session', hash, expires, signature, resolver.now())) return null;
  return scopeOfHash(resolver, hash);
}

/** Starts a session for a key's hash: an HttpOnly, same-site cookie signed by the server. */
export function startSession(
  resolver: ScopeResolver,
  request: FastifyRequest,
  reply: FastifyReply,
  hash: string,
): void {
  const expires = Math.floor(resolver.now() / 1000) + sessionHours * 3600;
  const signed = signLink(resolver.signingKey, 'console-session', hash, expires);
  const signature = /signature=([0-9a-f]+)/.exec(signed)![1];
  reply.setCookie(sessionCookie, `${hash}.${expires}.${signature}`, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    maxAge: sessionHours * 3600,
  });
}

/** Ends the session. */
export const endSession = (reply: FastifyReply): void => void reply.clearCookie(sessionCookie, { path: '/' });
