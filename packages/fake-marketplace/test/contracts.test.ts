// The fake against the marketplace's published models (contracts/): every operation it serves is one of theirs, and
// the checks the end-to-end tests run on every request and answer do tell a difference from the models.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSellers, startFakeMarketplace, type Exchange, type FakeMarketplace } from '../src/index.ts';
import { SpError } from '../src/sp/sp-error.ts';
import { modelOperations, operationOf, requestViolations, responseViolations } from './contracts/published-models.ts';

let fake: FakeMarketplace;
beforeAll(async () => {
  fake = await startFakeMarketplace({ sellers: demoSellers('2026-06-01') });
});
afterAll(() => fake.close());

const exchange = (over: Partial<Exchange>): Exchange => ({
  method: 'GET',
  path: '/reports/2021-06-30/reports',
  query: [],
  headers: { 'x-amz-access-token': 'Atza|x' },
  body: undefined,
  response: { status: 200, headers: {}, body: {} },
  ...over,
});

describe('the published models', () => {
  it('hold every SP-API operation the fake serves, under the same operationId', () => {
    const served = fake.operations.map((o) => {
      const model = modelOperations.filter(
        (m) => m.method === o.method && o.pattern.test(m.path.replace(/\{[^}]+\}/g, 'ABC')),
      );
      return [o.operation, model.map((m) => m.operationId)] as const;
    });
    expect(served.filter(([operation, model]) => model.length !== 1 || model[0] !== operation)).toEqual([]);
    expect(served.length).toBeGreaterThan(70);
  });

  it('tell a request the model does not allow: a parameter it does not know, a value outside its enum, a list over its maximum, a required one missing, a body of the wrong shape', () => {
    const getReports = operationOf('GET', '/reports/2021-06-30/reports')!;
    expect(getReports.operationId).toBe('getReports');
    expect(
      requestViolations(
        getReports,
        exchange({
          query: [
            ['reportTypes', 'GET_X'],
            ['pageSize', '10'],
          ],
        }),
      ),
    ).toEqual([]);
    expect(
      requestViolations(
        getReports,
        exchange({
          query: [
            ['reportTypes', Array.from({ length: 11 }, (_, i) => `T${i}`).join(',')],
            ['processingStatuses', 'WAITING'],
            ['pagesize', '10'],
          ],
          headers: {},
        }),
      ),
    ).toEqual([
      expect.stringMatching(/^query parameter reportTypes: .*must NOT have more than 10 items/),
      expect.stringMatching(/^query parameter processingStatuses: \/0 must be equal to one of the allowed values/),
      'query parameter pagesize: not in the model',
      'header x-amz-access-token: not sent',
    ]);
    const createReport = operationOf('POST', '/reports/2021-06-30/reports')!;
    expect(
      requestViolations(
        createReport,
        exchange({
          method: 'POST',
          body: { reportType: 'GET_X' },
          headers: { 'x-amz-access-token': 'a', 'content-type': 'application/json' },
        }),
      ),
    ).toEqual([expect.stringMatching(/^body: \/ must have required property 'marketplaceIds'/)]);
  });

  it('tell an answer the model does not declare: a status it does not list, a body without a required field, a date for a date-time', () => {
    const participations = operationOf('GET', '/sellers/v1/marketplaceParticipations')!;
    const marketplace = {
      id: 'ATVPDKIKX0DER',
      name: 'Amazon.com',
      countryCode: 'US',
      defaultCurrencyCode: 'USD',
      defaultLanguageCode: 'en_US',
      domainName: 'www.amazon.com',
    };
    const participation = { isParticipating: true, hasSuspendedListings: false };
    const answer = (payload: unknown) => ({ status: 200, headers: {}, body: { payload } });
    expect(responseViolations(participations, answer([{ marketplace, participation, storeName: 'Acme' }]))).toEqual([]);
    expect(responseViolations(participations, answer([{ marketplace, participation }]))).toEqual([
      expect.stringMatching(/^200 body \/payload\/0 must have required property 'storeName'/),
    ]);
    expect(responseViolations(participations, { status: 418, headers: {}, body: {} })).toEqual([
      expect.stringMatching(/^status 418: not among the model's \(200, 400, 403, 404, 413, 415, 429, 500, 503\)/),
    ]);
    const getReport = operationOf('GET', '/reports/2021-06-30/reports/123')!;
    const report = {
      reportId: '123',
      reportType: 'GET_SALES_AND_TRAFFIC_REPORT',
      createdTime: '2026-11-10T08:00:00+00:00',
      processingStatus: 'IN_QUEUE',
    };
    expect(
      responseViolations(getReport, {
        status: 200,
        headers: {},
        body: { ...report, dataStartTime: '2026-11-09T00:00:00+00:00' },
      }),
    ).toEqual([]);
    expect(
      responseViolations(getReport, { status: 200, headers: {}, body: { ...report, dataStartTime: '2026-11-09' } }),
    ).toEqual([expect.stringMatching(/^200 body \/dataStartTime must match format "date-time"/)]);
  });

  it('tell an empty error detail, which the A+ model forbids, and the fake sends none', () => {
    const getDocument = operationOf('GET', '/aplus/2020-11-01/contentDocuments/KEY')!;
    const notFound = (body: unknown) => responseViolations(getDocument, { status: 404, headers: {}, body });
    expect(notFound({ errors: [{ code: 'NotFound', message: 'No such document.', details: '' }] })).toEqual([
      expect.stringMatching(/^404 body \/errors\/0\/details must NOT have fewer than 1 characters/),
    ]);
    expect(notFound(new SpError(404, 'NotFound', 'No such document.').body)).toEqual([]);
  });
});
