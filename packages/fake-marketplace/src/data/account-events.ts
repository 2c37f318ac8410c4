import { listedIn, unitCents } from './catalog.ts';
import { Rng } from './random.ts';
import type { FakeSeller } from './sellers.ts';
import { postedFields, type Amount } from './settlement-events.ts';

const DAY = 86_400_000;

/** The months (first-of-month UTC instants) that overlap [from, to). */
function months(from: number, to: number): number[] {
  const out: number[] = [];
  const d = new Date(from);
  for (
    let m = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    m < to;
    m = Date.UTC(new Date(m).getUTCFullYear(), new Date(m).getUTCMonth() + 1, 1)
  )
    out.push(m);
  return out;
}

/**
 * The account's settlement lines that belong to no order, posted in [from, to) and not before the seller opened:
 * monthly storage and subscription fees, storage renewal, inventory reimbursements (with a clawback now and then),
 * AWD storage with its discount, and the advertising invoices paid from the balance (not profit: ads come from the
 * ads reports).
 */
export function accountAmounts(seller: FakeSeller, from: number, to: number, opened: number): Amount[] {
  const k = seller.currency === 'USD' ? 1 : 0.8;
  const out: Amount[] = [];
  const add = (posted: number, fields: Record<string, string>, type: string, description: string, cents: number) => {
    if (posted >= from && posted < to && posted >= opened && cents !== 0)
      out.push({
        posted,
        seq: `account/${posted}/${description}/${out.length}`,
        cents,
        fields: { ...fields, ...postedFields(seller, posted), 'amount-type': type, 'amount-description': description },
      });
  };
  const other = (posted: number, description: string, cents: number, extra: Record<string, string> = {}) =>
    add(posted, { 'transaction-type': 'other-transaction', ...extra }, 'other-transaction', description, cents);
  for (const month of months(from - 40 * DAY, to)) {
    const rng = new Rng([seller.seed, 'account', month]);
    const at = (day: number) => month + (day - 1) * DAY + rng.int(1, 22) * 3_600_000 + rng.int(0, 3599) * 1000;
    other(at(8), 'Storage Fee', -Math.round(rng.int(5000, 8000) * k));
    if (new Date(month).getUTCMonth() % 2 === 1)
      other(at(16), 'StorageRenewalBilling', -Math.round(rng.int(1000, 2000) * k));
    other(at(3), 'Subscription Fee', seller.currency === 'USD' ? -3999 : -3900);
    const products = listedIn(seller.currency);
    for (const [day, description, share] of [
      [rng.int(10, 14), rng.pick(['WAREHOUSE_LOST', 'WAREHOUSE_LOST_MANUAL']), 0.42],
      [rng.int(20, 26), rng.pick(['MISSING_FROM_INBOUND', 'CUSTOMER_RETURN']), 0.38],
    ] as const) {
      const p = rng.pick(products);
      const qty = rng.int(1, 3);
      const reimburse = (posted: number, what: string, units: number) =>
        add(
          posted,
          { 'transaction-type': 'other-transaction', sku: p.sku, 'quantity-purchased': String(Math.abs(units)) },
          'FBA Inventory Reimbursement',
          what,
          Math.round(unitCents(p, seller.currency) * share) * units,
        );
      reimburse(at(day), description, qty);
      // The inbound units turned up: some of the reimbursed ones are clawed back.
      if (description === 'MISSING_FROM_INBOUND' && qty > 1 && rng.chance(0.5))
        reimburse(at(day + 2), 'MISSING_FROM_INBOUND_CLAWBACK', 1 - qty);
    }
    if (seller.awd) {
      const posted = at(6);
      const fee = Math.round(rng.int(4000, 5500) * k);
      const common = { 'transaction-type': 'FBAFees', 'order-id': `FBA${rng.id(9)}` };
      add(posted, common, 'AWD Storage Fee', 'Base fee', -fee);
      add(posted, common, 'AWD Storage Fee', 'Discount on Fee', Math.round(fee * 0.2));
    }
  }
  // Advertising invoices every 12 days.
  for (let t = Math.floor(from / (12 * DAY)) * 12 * DAY; t < to; t += 12 * DAY) {
    const rng = new Rng([seller.seed, 'ads-invoice', t]);
    add(
      t + rng.int(1, 22) * 3_600_000,
      { 'transaction-type': 'ServiceFee' },
      'Cost of Advertising',
      'TransactionTotalAmount',
      -Math.round(rng.int(25000, 45000) * k),
    );
  }
  return out;
}
