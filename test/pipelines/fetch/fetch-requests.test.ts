import { describe, expect, it } from 'vitest';
import {
  FRESH_MS,
  insertFetches,
  pendingFetches,
  recentFetches,
  updateFetch,
} from '../../../src/pipelines/fetch/fetch-requests.ts';
import { makeHome, US } from '../../helpers/home.ts';

const order = (from: string, to: string) => ({
  connectionId: US.id,
  source: 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
  stage: null,
  from,
  to,
  request: {
    kind: 'report' as const,
    body: {
      reportType: 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
      marketplaceIds: [US.marketplaceId],
      dataStartTime: `${from}T08:00:00.000Z`,
      dataEndTime: `${to}T07:59:59.000Z`,
    },
  },
});

describe('fetch requests', () => {
  it('keeps the ranges of unfinished and failed requests out of the next plan, however long ago they were planned, and resumes them instead', async () => {
    const { wh } = await makeHome();
    const planned = new Date('2026-11-20T18:30:00Z');
    const [untouched, creating, landed, failed] = await insertFetches(
      wh,
      null,
      [
        order('2026-11-01', '2026-11-05'),
        order('2026-11-06', '2026-11-10'),
        order('2026-11-11', '2026-11-15'),
        order('2026-11-16', '2026-11-19'),
      ],
      planned,
    );
    await updateFetch(wh, creating!.id, { status: 'creating' });
    await updateFetch(wh, landed!.id, { status: 'landed' });
    await updateFetch(wh, failed!.id, {
      status: 'failed',
      attempts: 1,
      retryAt: new Date(planned.getTime() + FRESH_MS).toISOString(),
    });
    // The rerun comes two hours later, long after FRESH_MS (30 minutes): the landed range may be asked again
    // (late revisions); the two a killed run left unfinished, and the failed one whose retry time has come, may
    // not, since the rerun resumes them.
    const later = new Date(planned.getTime() + 4 * FRESH_MS);
    expect((await recentFetches(wh, later)).map((r) => r.from).sort()).toEqual([
      '2026-11-01',
      '2026-11-06',
      '2026-11-16',
    ]);
    expect((await pendingFetches(wh, later)).map((r) => r.id).sort()).toEqual(
      [untouched!.id, creating!.id, failed!.id].sort(),
    );
    await wh.close();
  });

  it('keeps what an unfinished initial load has fetched out of the plan of its rerun, however long ago, and lets later runs ask again', async () => {
    const { wh } = await makeHome();
    const planned = new Date('2026-11-20T18:30:00Z');
    const [landed, empty, daily] = await insertFetches(
      wh,
      null,
      [
        { ...order('2026-11-01', '2026-11-05'), stage: 'FIRST_STAGE' },
        { ...order('2026-11-06', '2026-11-10'), stage: 'FIRST_STAGE' },
        order('2026-11-11', '2026-11-15'),
      ],
      planned,
    );
    for (const request of [landed!, empty!, daily!])
      await updateFetch(wh, request.id, { status: request === empty ? 'empty' : 'landed' });
    // Two hours later (after FRESH_MS) the killed first load runs again: what it landed or found empty stays fetched;
    // a request of no initial load may be asked again (late revisions).
    const later = new Date(planned.getTime() + 4 * FRESH_MS);
    expect((await recentFetches(wh, later)).map((r) => r.from).sort()).toEqual(['2026-11-01', '2026-11-06']);
    // Once the connection's initial load is complete, its daily runs may ask for those days again.
    await wh.db
      .updateTable('control.connections')
      .set({ initial_load_stage: 'COMPLETE' })
      .where('id', '=', US.id)
      .execute();
    expect(await recentFetches(wh, later)).toEqual([]);
    await wh.close();
  });
});
