# Declare the tests that requirements.md (in ~/projects/jaffle_shop) asks for in models/schema.yml,
# then run dbt test: the customer and order keys unique and not null, the order status one of the
# five listed values, and stg_orders.customer_id not null and a reference to stg_customers.
# %% models/schema.yml with the tests
from dbt_cli import project, write
write(project("jaffle_shop") / "models/schema.yml", """
    version: 2

    models:
      - name: customers
        columns:
          - name: customer_id
            tests:
              - unique
              - not_null

      - name: stg_customers
        columns:
          - name: customer_id
            tests:
              - unique
              - not_null

      - name: stg_orders
        columns:
          - name: order_id
            tests:
              - unique
              - not_null
          - name: status
            tests:
              - accepted_values:
                  values: ['placed', 'shipped', 'completed', 'return_pending', 'returned']
          - name: customer_id
            tests:
              - not_null
              - relationships:
                  to: ref('stg_customers')
                  field: customer_id
""")

# %% dbt test: all pass
from dbt_cli import dbt, project
dbt(project("jaffle_shop"), "test")
