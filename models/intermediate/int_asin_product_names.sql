-- The product name of each child ASIN, from its latest order line that has one: one row per connection and ASIN.
select connection_id, asin, arg_max(product_name, purchased_at) as product_name
from staging.stg_mkt__order_items
where asin is not null and product_name is not null
group by all
