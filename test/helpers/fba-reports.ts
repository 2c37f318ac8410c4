import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes a tab-separated report: the header line, then one line per row (fields it lacks are empty). */
export function tsv(dir: string, name: string, header: string[], lines: Record<string, string>[]): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    [header.join('\t'), ...lines.map((l) => header.map((h) => l[h] ?? '').join('\t'))].join('\n') + '\n',
  );
  return path;
}

const words = (text: string) => text.split(' ');

/** The 48-column header of GET_AMAZON_FULFILLED_SHIPMENTS_DATA_GENERAL. */
export const fulfilledShipmentsHeader = words(
  'amazon-order-id merchant-order-id shipment-id shipment-item-id amazon-order-item-id merchant-order-item-id purchase-date payments-date shipment-date reporting-date buyer-email buyer-name buyer-phone-number sku product-name quantity-shipped currency item-price item-tax shipping-price shipping-tax gift-wrap-price gift-wrap-tax ship-service-level recipient-name ship-address-1 ship-address-2 ship-address-3 ship-city ship-state ship-postal-code ship-country ship-phone-number bill-address-1 bill-address-2 bill-address-3 bill-city bill-state bill-postal-code bill-country item-promotion-discount ship-promotion-discount carrier tracking-number estimated-arrival-date fulfillment-center-id fulfillment-channel sales-channel',
);

/** The header of GET_FBA_FULFILLMENT_REMOVAL_ORDER_DETAIL_DATA with order-source. */
export const removalOrdersHeader = words(
  'request-date order-id order-source order-type service-speed order-status last-updated-date sku fnsku disposition requested-quantity cancelled-quantity disposed-quantity shipped-quantity in-process-quantity removal-fee currency',
);

/** The header of GET_FBA_FULFILLMENT_REMOVAL_SHIPMENT_DETAIL_DATA (developer-docs spelling). */
export const removalShipmentsHeader = words(
  'request-date order-id shipment-date sku fnsku disposition shipped-quantity carrier tracking-number removal-order-type',
);

/** The header of GET_FBA_RECOMMENDED_REMOVAL_DATA, in the file's own bucket order. */
export const recommendedRemovalsHeader = words(
  'snapshot-date sku fnsku asin product-name condition sellable-quantity sellable-271-365-days sellable-365+-days sellable-removal-quantity unsellable-quantity unsellable-0-7-days unsellable-8-60-days unsellable-61-90-days sellable-121-180-days sellable-181-270-days',
);

/** The header of GET_STRANDED_INVENTORY_UI_DATA. */
export const strandedInventoryHeader = words(
  'primary-action date-stranded Date-to-take-auto-removal status-primary status-secondary error-message stranded-reason asin sku fnsku product-name condition fulfilled-by fulfillable-qty your-price unfulfillable-qty reserved-quantity inbound-shipped-qty',
);
