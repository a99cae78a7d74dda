"""Guest helpers for the Snowflake reference solutions, run against the emulator (``--cloud
emulate``): the account through snowflake-connector-python in the desktop's Python, as an agent
with a terminal would work without Snowsight, the console the task names (offline there is none).

The emulator (fakesnow) serves the connector's protocol on this environment's port 8090 over
HTTP and takes any user and password. :func:`execute` prints each statement and the rows it
returned, so the step's output shows the result; every value is computed in the guest.
A solution cell that runs ``from snowflake_api import execute`` gets this module shipped with it
by the oracle agent (see :mod:`pytest_spider2v.agents.solution_helpers`).
"""

import snowflake.connector


def connect(**session):
    """A connection to the emulated account (``session``: ``database``, ``schema``, ...)."""
    return snowflake.connector.connect(account="fakesnow", user="spider2v", password="emulated",
                                       host="localhost", port=8090, protocol="http", **session)


def execute(*statements, rows=None):
    """Run each statement in order (the last one once per parameter row of ``rows``, if given);
    print them and what the last returned, and return that."""
    with connect() as connection:
        cursor = connection.cursor()
        for number, statement in enumerate(statements):
            print(statement.strip())
            if rows is not None and number == len(statements) - 1:
                cursor.executemany(statement, rows)
                print(f"{len(rows)} rows")
                return []
            cursor.execute(statement)
        result = cursor.fetchall() if cursor.description else []
        for row in result:
            print(row)
        return result
