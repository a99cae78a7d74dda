# The number of films in each category, most first, into ~/Desktop/result.csv in the columns
# its header gives (name, films_in_category), from the CSV tables on the Desktop: as the
# notebook sets out, the tables go into SQLite (database.db) and one grouped query counts.
# %% load category.csv and film_category.csv into SQLite, count films per category, write result.csv
import csv
import sqlite3
con = sqlite3.connect("/home/user/Desktop/database.db")
for table in ("category", "film_category"):
    with open(f"/home/user/Desktop/{table}.csv", newline="") as handle:
        rows = list(csv.reader(handle))
    columns = rows[0]
    typed = [[int(v) if v.isdigit() else v for v in row] for row in rows[1:]]
    con.execute(f"DROP TABLE IF EXISTS {table}")
    con.execute(f"CREATE TABLE {table} ({', '.join(c + (' INTEGER' if c.endswith('_id') else ' TEXT') for c in columns)})")
    con.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(columns))})", typed)
con.commit()
query = """
SELECT category.name, COUNT(film_category.film_id) AS films_in_category
FROM category LEFT JOIN film_category ON category.category_id = film_category.category_id
GROUP BY category.category_id
ORDER BY films_in_category DESC
"""
with open("/home/user/Desktop/result.csv") as handle:
    header = handle.readline().strip().split(",")
with open("/home/user/Desktop/result.csv", "w", newline="") as handle:
    out = csv.writer(handle)
    out.writerow(header)
    out.writerows(con.execute(query))

# %%
DONE
