import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowedNetworks, checkWebhookUrl, postWebhook, refusal } from '../../src/webhooks/address.ts';

// Webhook URLs come from clients: they may reach public addresses only, unless the operator lists a network.
describe('webhook addresses', () => {
  it('refuses loopback, private, link-local, unique local, unspecified and shared addresses, and IPv4 inside IPv6', () => {
    const refused = [
      '127.0.0.1',
      '127.8.9.10', // loopback 127/8
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1', // RFC 1918
      '169.254.169.254', // link-local: the cloud metadata address
      '0.0.0.0',
      '100.64.0.1',
      '255.255.255.255',
      '224.0.0.1', // unspecified, carrier-grade NAT, broadcast, multicast
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1', // IPv6 loopback, unspecified, link-local, unique local
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1', // IPv4-mapped
    ];
    for (const address of refused) expect(refusal(address, []), address).toMatch(/is not a public address/);
    // Public unicast: 93.184.216.34 (example.com's old address), 8.8.8.8, 172.32.0.1 (just past 172.16/12),
    // 2606:4700::1.
    for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1'])
      expect(refusal(address, []), address).toBeNull();
  });

  it('lets the operator allow networks, and names the variable when the list is wrong', () => {
    const allowed = allowedNetworks('127.0.0.1, 10.0.0.0/8,fd00::/8');
    expect(refusal('127.0.0.1', allowed)).toBeNull();
    expect(refusal('127.0.0.2', allowed)).toMatch(
      /127\.0\.0\.2 is not a public address \(loopback\).*MKTDATA_WEBHOOK_ALLOWED_NETWORKS/,
    );
    expect(refusal('10.200.0.9', allowed)).toBeNull();
    expect(refusal('::ffff:10.0.0.1', allowed)).toBeNull();
    expect(refusal('fd12::1', allowed)).toBeNull();
    expect(refusal('192.168.0.1', allowed)).not.toBeNull();
    expect(allowedNetworks('')).toEqual([]);
    expect(() => allowedNetworks('10.0.0.0/8, banana')).toThrow(
      /MKTDATA_WEBHOOK_ALLOWED_NETWORKS: "banana" is not an IP address/,
    );
  });

  it('checks the host of a URL when it is given: IP literals in any spelling and names that resolve to loopback', async () => {
    await expect(checkWebhookUrl('http://127.0.0.1:9/hook', [], 'integrations[0]')).rejects.toThrow(
      /^integrations\[0\]: http:\/\/127\.0\.0\.1:9\/hook: 127\.0\.0\.1 is not a public address \(loopback\)/,
    );
    // The URL parser reads 0x7f.1 as 127.0.0.1 and 2130706433 as the same address in decimal.
    await expect(checkWebhookUrl('http://0x7f.1/hook', [], 'integrations[1]')).rejects.toThrow(
      /^integrations\[1\]: .*loopback/,
    );
    await expect(checkWebhookUrl('http://2130706433/hook', [], 'integrations[0]')).rejects.toThrow(/loopback/);
    await expect(checkWebhookUrl('http://[::1]:8080/', [], 'integrations[0]')).rejects.toThrow(
      /::1 is not a public address/,
    );
    await expect(checkWebhookUrl('http://[::ffff:169.254.169.254]/', [], 'integrations[0]')).rejects.toThrow(
      /169\.254\.169\.254 is not a public address \(linkLocal\)/,
    );
    await expect(checkWebhookUrl('http://localhost:9/hook', [], 'integrations[0]')).rejects.toThrow(
      /localhost \(127\.0\.0\.1\) is not a public address \(loopback\)/,
    );
    // localhost names are loopback whatever the resolver says (RFC 6761), with a trailing dot or as a subdomain.
    for (const url of ['http://localhost.:9/', 'http://LOCALHOST/', 'http://hooks.localhost/']) {
      await expect(checkWebhookUrl(url, [], 'integrations[0]'), url).rejects.toThrow(
        /localhost\.? \(127\.0\.0\.1\) is not a public address \(loopback\)/,
      );
    }
    // A name that does not resolve is accepted: each delivery checks again.
    await expect(checkWebhookUrl('https://hooks.example.invalid/x', [], 'integrations[0]')).resolves.toBeUndefined();
    await expect(
      checkWebhookUrl('http://127.0.0.1:9/hook', allowedNetworks('127.0.0.0/8'), 'integrations[0]'),
    ).resolves.toBeUndefined();
  });

  describe('delivery over a real socket', () => {
    const received: string[] = [];
    let receiver: Server;
    let redirector: Server;
    const port = (s: Server) => (s.address() as { port: number }).port;
    beforeAll(async () => {
      receiver = createServer((req, res) => {
        received.push(`${req.method} ${req.url}`);
        req.resume().on('end', () => res.end());
      });
      redirector = createServer((req, res) => {
        req
          .resume()
          .on('end', () => res.writeHead(302, { location: `http://127.0.0.1:${port(receiver)}/redirected` }).end());
      });
      await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
      await new Promise<void>((done) => redirector.listen(0, '127.0.0.1', done));
    });
    afterAll(() => {
      receiver.close();
      redirector.close();
    });

    it('does not connect to a refused address, by IP or by a name that resolves to it', async () => {
      await expect(postWebhook(`http://127.0.0.1:${port(receiver)}/direct`, '{}', [])).rejects.toThrow(
        /127\.0\.0\.1 is not a public address/,
      );
      await expect(postWebhook(`http://localhost:${port(receiver)}/by-name`, '{}', [])).rejects.toThrow(
        /localhost \(127\.0\.0\.1\) is not a public address/,
      );
      expect(received).toEqual([]);
    });

    it('delivers to an allowed network and does not follow a redirect', async () => {
      const allowed = allowedNetworks('127.0.0.1, ::1'); // localhost may resolve to both
      expect(await postWebhook(`http://127.0.0.1:${port(receiver)}/allowed`, '{"a":1}', allowed)).toBe(200);
      expect(await postWebhook(`http://localhost:${port(receiver)}/allowed-by-name`, '{"a":1}', allowed)).toBe(200);
      expect(await postWebhook(`http://127.0.0.1:${port(redirector)}/moved`, '{"a":1}', allowed)).toBe(302);
      expect(received).toEqual(['POST /allowed', 'POST /allowed-by-name']);
    });
  });
});
