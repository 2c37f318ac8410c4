import type { FastifyInstance } from 'fastify';
import type { ReadyReport } from '../readiness/ready-report.ts';

/**
 * `GET /health` and `GET /ready` at the root, for supervisors and load balancers (docs/operations.md, "Health and
 * readiness"): no key, no rate limit, no console sign-in, and nothing of any organization in the answer.
 */
export async function healthAndReadyRoutes(app: FastifyInstance, ready: () => Promise<ReadyReport>): Promise<void> {
  // Polled every few seconds: their request lines would bury the log (failures are still logged).
  const options = { schema: { hide: true }, logLevel: 'warn' as const };
  app.get('/health', options, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  );
  app.get('/ready', options, async (_request, reply) => {
    const report = await ready();
    return reply
      .code(report.status === 'ready' ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(report);
  });
}
