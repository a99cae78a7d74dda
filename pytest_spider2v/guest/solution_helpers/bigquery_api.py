"""Guest helpers for the BigQuery reference solutions, run against the emulator (``--cloud
emulate``): the project's BigQuery through google-cloud-bigquery in the desktop's Python, as an
agent with a terminal would work without the web console the task names (offline there is none).

The emulator serves the task's project, ``bigquery-project``, on this environment's port 9050,
with no sign-in (anonymous credentials). :func:`query` prints what it ran and the rows it got, so
the step's output shows the result; every value is computed by BigQuery's SQL in the guest.
A solution cell that runs ``from bigquery_api import query`` gets this module shipped with it by
the oracle agent (see :mod:`pytest_spider2v.agents.solution_helpers`).
"""

from google.api_core.client_options import ClientOptions
from google.auth.credentials import AnonymousCredentials
from google.cloud import bigquery

PROJECT = "bigquery-project"
ENDPOINT = "http://localhost:9050"


def client():
    """A client of the project's BigQuery, at the emulator."""
    return bigquery.Client(project=PROJECT, credentials=AnonymousCredentials(),
                           client_options=ClientOptions(api_endpoint=ENDPOINT))


def query(sql):
    """Run ``sql`` (one statement) and return its rows as dicts, printing both."""
    print(sql.strip())
    rows = [dict(row) for row in client().query(sql).result()]
    for row in rows:
        print(row)
    return rows


def describe(dataset, table):
    """Print a table's columns and types and its row count, as the console's schema tab shows them."""
    found = client().get_table(f"{PROJECT}.{dataset}.{table}")
    for field in found.schema:
        print(f"{field.name}: {field.field_type}")
    print(f"{found.num_rows} rows")
    return [field.name for field in found.schema]
