# Default values for three columns of census.2012: YEAR 2012, ABSOLUTE_CHANGE 0, ANNUAL_RANK 1; the
# other columns keep none. Set in the table's schema, as the console's "Edit schema" saves it (the
# table's resource patched with each column's defaultValueExpression).
# %% look at the table's columns and their defaults
from bigquery_api import describe, query
describe("census", "2012")
query("SELECT column_name, column_default FROM `census.INFORMATION_SCHEMA.COLUMNS` WHERE table_name = '2012'")

# %% give the three columns their defaults, every other field of the schema as it was
from google.cloud import bigquery
from bigquery_api import PROJECT, client, query
bq = client()
table = bq.get_table(f"{PROJECT}.census.2012")
defaults = {"YEAR": "2012", "ABSOLUTE_CHANGE": "0", "ANNUAL_RANK": "1"}
fields = []
for field in table.schema:
    resource = field.to_api_repr()
    if field.name in defaults:
        resource["defaultValueExpression"] = defaults[field.name]
    fields.append(bigquery.SchemaField.from_api_repr(resource))
table.schema = fields
bq.update_table(table, ["schema"])
query("SELECT column_name, column_default FROM `census.INFORMATION_SCHEMA.COLUMNS` WHERE table_name = '2012'")
