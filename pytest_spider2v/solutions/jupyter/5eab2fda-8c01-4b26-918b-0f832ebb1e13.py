# Baby names that appear in every year of ~/Desktop/usa_baby_names.csv, by total occurrences
# (descending), into ~/Desktop/result.csv in the columns its header gives (first_name,
# total_num). As the notebook sets out: the CSV loaded into SQLite, then one grouped query.
# %% load the names into SQLite, keep the names present in every recorded year, write result.csv
import csv
import sqlite3
con = sqlite3.connect(":memory:")
con.execute("CREATE TABLE baby_names (year INT, first_name VARCHAR(64), sex VARCHAR(64), num INT)")
with open("/home/user/Desktop/usa_baby_names.csv", newline="") as handle:
    rows = csv.DictReader(handle)
    con.executemany("INSERT INTO baby_names VALUES (?, ?, ?, ?)",
                    ((int(r["year"]), r["first_name"], r["sex"], int(r["num"])) for r in rows))
query = """
SELECT first_name, SUM(num) AS total_num FROM baby_names GROUP BY first_name
HAVING COUNT(DISTINCT year) = (SELECT COUNT(DISTINCT year) FROM baby_names)
ORDER BY total_num DESC
"""
with open("/home/user/Desktop/result.csv") as handle:
    header = handle.readline().strip().split(",")
with open("/home/user/Desktop/result.csv", "w", newline="") as handle:
    out = csv.writer(handle)
    out.writerow(header)
    out.writerows(con.execute(query))

# %%
DONE
