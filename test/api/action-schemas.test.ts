// The served JSON Schema of every action type says what the server enforces (docs/actions.md "Types"): inputs are
// generated from each type's served schema and example (each field dropped, given a wrong type or another enum value,
// each optional field added, arrays emptied or their first item repeated, an unknown field added), recursively, and
// for each the schema's verdict (ajv, the draft the schema declares) must be the dry run's. A dry run consults only
// the details' shape, so the connection of the right account kind is the whole world state; the generated inputs
// may break a relation between values (an order of dates or amounts, a field unique across items), which the schema
// says in its description only and the server refuses with issues of code `relation`: those are not the shape.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/api/app.ts';
import { setActionsBeta } from '../../src/actions/settings.ts';
import { addConnection } from '../../src/control/connections/connections.ts';
import { createApiKey } from '../../src/control/organizations.ts';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { accountKinds, actionTypes } from '../../src/vocabulary/action-types.ts';
import { makeHome, US } from '../helpers/home.ts';
import { mutations, type Schema } from '../helpers/schema-mutations.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const VENDOR = '00000000-0000-4000-8000-00000000a0f1';
const ADS = '00000000-0000-4000-8000-00000000a0a1';
const accountFor = { SELLER: US.id, VENDOR, ADS } as const;

describe('the served JSON Schema of every action type', () => {
  let wh: Warehouse;
  let app: App;
  let key: string;
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: false }));

  beforeAll(async () => {
    const made = await makeHome();
    wh = made.wh;
    const org = (await wh.db.selectFrom('control.organizations').select('id').executeTakeFirstOrThrow()).id;
    key = await createApiKey(wh, org);
    for (const [id, type] of [
      [VENDOR, 'VENDOR_CENTRAL'],
      [ADS, 'MKT_ADS'],
    ] as const)
      await addConnection(wh, { organizationId: org, id, name: type, marketplaceId: US.marketplaceId, type });
    await setActionsBeta(wh, org, true);
    app = await buildApp({ wh, home: made.home, logger: false, requestsPerSecond: 1_000_000, runActions: false });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await wh?.close();
  });

  const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { 'service-api-key': key },
      ...(body === undefined ? {} : { payload: body as object }),
    });

  it.each(actionTypes.map((type) => [type]))(
    '%s: the dry run refuses exactly the generated inputs the schema refuses',
    async (type) => {
      const served = (await call('GET', `/actions/types/${type}/schema`)).json().schema as Schema;
      expect(served.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      const validate: ValidateFunction = ajv.compile(served);
      const example = (served.examples as unknown[])[0];
      const sellerOrVendorId = accountFor[accountKinds(type)[0]!];
      const disagreements: string[] = [];
      const inputs = [{ what: 'the example', details: example }, ...mutations(ajv, served, example)];
      for (const { what, details } of inputs) {
        const res = await call('POST', '/actions', { type, sellerOrVendorId, dryRun: true, details });
        // details that are not an object are refused by the request's own schema (400), before the type's
        const server = (
          res.statusCode === 400 ? { valid: false, issues: res.json().issues } : res.json().validation
        ) as {
          valid: boolean;
          issues: { path: string[]; code: string; message: string }[];
        };
        expect(res.statusCode === 200 || server.issues[0]!.path.join('.') === 'body.details', res.body).toBe(true);
        const schema = validate(details);
        // a relation between values (issue code `relation`) is said in the description only: not the shape
        const relationOnly = !server.valid && server.issues.every((i) => i.code === 'relation');
        if (schema !== (server.valid || relationOnly))
          disagreements.push(
            `${what}: schema ${schema ? 'valid' : 'invalid'} (${ajv.errorsText(validate.errors)}), server ` +
              `${server.valid ? 'valid' : server.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
          );
      }
      expect(disagreements).toEqual([]);
      // every type's schema refuses something besides the example's own shape (at least an unknown field)
      expect(inputs.length).toBeGreaterThan(2);
    },
  );

  it('states the cross-field rules the server checks as JSON Schema keywords (hand-made inputs)', async () => {
    const verdicts = async (type: string, sellerOrVendorId: string, edit: (example: any) => void) => {
      const served = (await call('GET', `/actions/types/${type}/schema`)).json().schema as Schema;
      const details = structuredClone(served.examples![0]);
      edit(details);
      const dry = (await call('POST', '/actions', { type, sellerOrVendorId, dryRun: true, details })).json();
      return { schema: ajv.validate(served, details), server: dry.validation };
    };
    const refused = (message: string, path: (string | number)[]) => ({
      schema: false,
      server: { valid: false, issues: [{ path: ['details', ...path], code: 'custom', message }] },
    });
    const accepted = { schema: true, server: { valid: true, issues: [] } };
    // the example patches color with op replace and a value
    expect(await verdicts('MKT_LISTINGS_UPDATE', US.id, (d) => delete d.patches[0].value)).toEqual(
      refused('value is required unless op is delete', ['patches', 0, 'value']),
    );
    expect(
      await verdicts('MKT_LISTINGS_UPDATE', US.id, (d) => {
        delete d.patches[0].value;
        d.patches[0].op = 'delete';
      }),
    ).toEqual(accepted);
    // the example removes 5 sellable units of its first SKU
    const noUnits = (d: any) => {
      delete d.items[0].sellableQuantity;
      delete d.items[0].unsellableQuantity;
    };
    expect(await verdicts('MKT_FBA_REMOVAL_ORDERS_ADD', US.id, noUnits)).toEqual(
      refused('give a sellableQuantity or unsellableQuantity above 0', ['items', 0]),
    );
    expect(
      await verdicts('MKT_FBA_REMOVAL_ORDERS_ADD', US.id, (d) => {
        noUnits(d);
        d.items[0].unsellableQuantity = 1;
      }),
    ).toEqual(accepted);
    // the example's first line names its product by vendor SKU
    expect(
      await verdicts('MKT_VENDOR_PURCHASE_ORDERS_ACKNOWLEDGE', VENDOR, (d) => {
        delete d.items[0].asin;
        delete d.items[0].vendorSku;
      }),
    ).toEqual(refused('give asin or vendorSku', ['items', 0]));
    // the example gives itemName and bulletPoints
    const noText = (d: any) => {
      delete d.itemName;
      delete d.bulletPoints;
    };
    expect(await verdicts('MKT_LISTINGS_DETAILS_UPDATE', US.id, noText)).toEqual(
      refused('give at least one of itemName, bulletPoints and description', []),
    );
    expect(
      await verdicts('MKT_LISTINGS_DETAILS_UPDATE', US.id, (d) => {
        noText(d);
        d.description = 'A daypack.';
      }),
    ).toEqual(accepted);
  });
});
