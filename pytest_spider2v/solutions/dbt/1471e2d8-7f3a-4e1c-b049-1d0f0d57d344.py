# Complete models/dim_customers.sql of ~/projects/email_address with is_valid_email_address and
# build the table, valid addresses first. An address is valid when it has the form
# address@domain.tld and its domain (after the @) is one of the top-level email domains the model
# top_level_email_domains lists (upper-case there, so compared lower-case). The project's unit
# test in models/schema.yml states the edge cases: no "@", no "." in the domain, unknown domain.
# %% the model: the customers' columns plus is_valid_email_address, valid ones first
from dbt_cli import project, write
write(project("email_address") / "models/dim_customers.sql", r"""
    with customers as (

        select * from {{ ref('stg_customers') }}

    ),

    accepted_email_domains as (

        select * from {{ ref('top_level_email_domains') }}

    ),

    check_valid_emails as (

        select
            customers.customer_id,
            customers.first_name,
            customers.last_name,
            customers.email,
            coalesce(
                regexp_matches(customers.email, '^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$')
                and accepted_email_domains.tld is not null,
                false
            ) as is_valid_email_address
        from customers
        left join accepted_email_domains
            on lower(split_part(customers.email, '@', 2)) = lower(accepted_email_domains.tld)

    )

    select * from check_valid_emails
    order by is_valid_email_address desc, customer_id
""")

# %% dbt build: the seeds, the models, and the unit test of the new column
from dbt_cli import dbt, project
dbt(project("email_address"), "build")
