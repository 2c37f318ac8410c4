/** Page tokens of the fake: an opaque base64url of the offset and what the token was issued for and when. */
export interface PageToken {
  offset: number;
  scope: string;
  issuedAt: number;
  /** AWD: an empty page was already served at this offset. */
  empty?: boolean;
}

export const encodeToken = (token: PageToken): string => Buffer.from(JSON.stringify(token)).toString('base64url');

/** A page token back, or null when it is not one of ours or was issued for another listing. */
export function decodeToken(value: string | undefined, scope: string): PageToken | null {
  if (!value) return null;
  try {
    const token = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as PageToken;
    return token.scope === scope ? token : null;
  } catch {
    return null;
  }
}
