# The database RANKINGS with the table PUBLIC.university_rankings loaded from the .csv file on the
# Desktop: the columns are its header line's names with spaces and hyphens turned into
# underscores, their types detected from the values (whole numbers NUMBER, decimals FLOAT, the
# rest VARCHAR, as pandas reads them), and every row is loaded, an empty field as NULL.
# %% the file on the Desktop, and the type each column's values have
import glob
import pandas as pd
(path,) = glob.glob("/home/user/Desktop/*.csv")
print(path)
print(pd.read_csv(path).dtypes)

# %% the database, its PUBLIC schema (Snowflake makes it with the database; the emulator does not), the table and its rows
import glob
import re
import pandas as pd
from snowflake_api import execute
(path,) = glob.glob("/home/user/Desktop/*.csv")
frame = pd.read_csv(path)
types = {"int64": "NUMBER", "float64": "FLOAT"}
columns = ", ".join(f"{re.sub(r'[ -]', '_', name)} {types.get(str(kind), 'VARCHAR')}" for name, kind in frame.dtypes.items())
rows = [[None if pd.isna(value) else getattr(value, "item", lambda: value)() for value in row]
        for row in frame.itertuples(index=False)]
execute("CREATE DATABASE RANKINGS", "CREATE SCHEMA IF NOT EXISTS RANKINGS.PUBLIC",
        f"CREATE TABLE RANKINGS.PUBLIC.university_rankings ({columns})",
        f"INSERT INTO RANKINGS.PUBLIC.university_rankings VALUES ({', '.join(['%s'] * len(frame.columns))})",
        rows=rows)

# %% what the table holds now
from snowflake_api import execute
execute("SELECT COUNT(*), MIN(RANK), MAX(RANK) FROM RANKINGS.PUBLIC.university_rankings")
