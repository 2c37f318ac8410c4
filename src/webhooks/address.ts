import { lookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { lookup as lookupAsync } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { MktdataError } from '../errors.ts';

/**
 * Webhook URLs are the one place a client makes this server send requests: they may only reach public addresses,
 * so that no organization can aim them at the machine itself, its private network or a cloud metadata address.
 * A self-hoster whose receivers live on a private network lists those networks in MKTDATA_WEBHOOK_ALLOWED_NETWORKS.
 */
export type Networks = [ipaddr.IPv4 | ipaddr.IPv6, number][];

export const ALLOWED_NETWORKS_VARIABLE = 'MKTDATA_WEBHOOK_ALLOWED_NETWORKS';

/** The networks MKTDATA_WEBHOOK_ALLOWED_NETWORKS lists (`10.0.0.0/8, 192.168.1.20, ::1`), or ERR_INPUT_INVALID. */
export function allowedNetworks(value = process.env[ALLOWED_NETWORKS_VARIABLE]): Networks {
  const items = (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  return items.map((item) => {
    try {
      if (item.includes('/')) return ipaddr.parseCIDR(item);
      const address = ipaddr.parse(item);
      return [address, address.kind() === 'ipv4' ? 32 : 128];
    } catch {
      throw new MktdataError('ERR_INPUT_INVALID', {
        where: ALLOWED_NETWORKS_VARIABLE,
        reason: `"${item}" is not an IP address or a network such as 10.0.0.0/8`,
      });
    }
  });
}

/**
 * Why a webhook may not be sent to `address` (that `name` resolved to), or null when it may: public unicast, or in an
 * allowed network.
 */
export function refusal(address: string, allowed: Networks, name?: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const ip = ipaddr.process(address);
  if (allowed.some(([network, bits]) => network.kind() === ip.kind() && ip.match(network, bits))) return null;
  const range = ip.range();
  if (range === 'unicast') return null;
  return `${name ? `${name} (${ip.toString()})` : ip.toString()} is not a public address (${range}); webhooks are sent only to public addresses unless ${ALLOWED_NETWORKS_VARIABLE} lists its network`;
}

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

/** The address a host stands for without asking DNS: an IP literal, or loopback for `localhost` names (RFC 6761). */
function literal(host: string): string | null {
  if (isIP(host)) return host;
  return /^(.+\.)?localhost\.?$/i.test(host) ? '127.0.0.1' : null;
}

/**
 * Checks a webhook URL when a client gives it: an IP host or a name that resolves to a refused address is an
 * ERR_INPUT_INVALID naming `where`. A name that does not resolve (yet) is accepted; each delivery checks again.
 */
export async function checkWebhookUrl(url: string, allowed: Networks, where: string): Promise<void> {
  const host = bare(new URL(url).hostname);
  let addresses: string[] = [];
  const known = literal(host);
  if (known) addresses = [known];
  else {
    const answer = await Promise.race([
      lookupAsync(host, { all: true }).catch(() => []),
      new Promise<LookupAddress[]>((done) => setTimeout(done, 3_000, []).unref()),
    ]);
    addresses = answer.map((a) => a.address);
  }
  for (const address of addresses) {
    const reason = refusal(address, allowed, isIP(host) ? undefined : host);
    if (reason) throw new MktdataError('ERR_INPUT_INVALID', { where, reason: `${url}: ${reason}` });
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup for the delivery's socket that fails when any address the name resolves to is refused. */
const guardedLookup =
  (allowed: Networks) => (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = addresses.map((a) => refusal(a.address, allowed, hostname)).find(Boolean);
      if (refused) return callback(Object.assign(new Error(refused), { code: 'ERR_WEBHOOK_ADDRESS' }), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };

/**
 * POSTs a JSON body to a webhook URL and returns the answer's status. The address is checked on the connection
 * itself (no second lookup to rebind), redirects are not followed, and the whole exchange has `timeoutMs`.
 */
export async function postWebhook(
  url: string,
  body: string,
  allowed: Networks,
  options: { headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<number> {
  const target = new URL(url);
  const host = bare(target.hostname);
  const known = literal(host);
  const refused = known ? refusal(known, allowed, isIP(host) ? undefined : host) : null;
  if (refused) throw new Error(refused);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<number>((resolve, reject) => {
    const req = send(
      target,
      {
        method: 'POST',
        headers: { ...options.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        lookup: guardedLookup(allowed) as never,
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      },
      (res: IncomingMessage) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
