# A view census.2012_best of the five records of census.2012 with the highest ANNUAL_RANK: a
# rank's highest is its first place, so the five with ANNUAL_RANK 1 to 5 (ordered by the rank).
# %% look at the table: its columns and the ranks
from bigquery_api import describe, query
describe("census", "2012")
query("SELECT MIN(ANNUAL_RANK) AS best, MAX(ANNUAL_RANK) AS worst, COUNT(*) AS records FROM `census.2012`")

# %% the view: every column of the five best-ranked records
from bigquery_api import query
query("CREATE VIEW `census.2012_best` AS SELECT * FROM `census.2012` ORDER BY ANNUAL_RANK LIMIT 5")
query("SELECT * FROM `census.2012_best`")
