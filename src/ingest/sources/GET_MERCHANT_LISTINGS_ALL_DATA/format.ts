import type { FlatColumn, FlatFormat } from '../../flat-file.ts';

const text = (name: string): FlatColumn => ({ name, type: 'text' });

/**
 * All Listings report (upstream-formats f1): 29 columns. `quantity` is empty for FBA listings; `open-date`
 * carries a time-zone abbreviation (`PST`, `BST`), so it is read as text and parsed by `openDateUtc`.
 * B2B price columns and newer columns (`Minimum order quantity`) land in `_extra`.
 */
export const format: FlatFormat = {
  delimiter: '\t',
  quoted: false,
  columns: [
    text('item-name'),
    text('item-description'),
    text('listing-id'),
    { name: 'seller-sku', type: 'text', required: 'value' },
    { name: 'price', type: 'decimal' },
    { name: 'quantity', type: 'integer' },
    { name: 'open-date', type: 'timestamp' },
    text('image-url'),
    text('item-is-marketplace'),
    text('product-id-type'),
    { name: 'zshop-shipping-fee', type: 'decimal' },
    text('item-note'),
    text('item-condition'),
    text('zshop-category1'),
    text('zshop-browse-path'),
    text('zshop-storefront-feature'),
    text('asin1'),
    text('asin2'),
    text('asin3'),
    text('will-ship-internationally'),
    text('expedited-shipping'),
    text('zshop-boldface'),
    text('product-id'),
    text('bid-for-featured-placement'),
    text('add-delete'),
    { name: 'pending-quantity', type: 'integer' },
    text('fulfillment-channel'),
    text('merchant-shipping-group'),
    text('status'),
  ],
};
