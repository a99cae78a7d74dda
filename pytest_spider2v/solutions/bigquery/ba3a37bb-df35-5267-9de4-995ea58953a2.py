# The five most frequent names of 2014's babies assigned male at birth, with their counts, saved
# as the table babynames.top5_male_2014 (columns name, count), most frequent first.
# %% look at names_2014: its columns say how the sex is recorded
from bigquery_api import describe, query
describe("babynames", "names_2014")
query("SELECT assigned_sex_at_birth, COUNT(*) AS names FROM `babynames.names_2014` GROUP BY 1 ORDER BY 1")

# %% save the top five male names as a new table of the same dataset
from bigquery_api import query
query("CREATE TABLE `babynames.top5_male_2014` AS SELECT name, count FROM `babynames.names_2014` "
      "WHERE assigned_sex_at_birth = 'M' ORDER BY count DESC LIMIT 5")
query("SELECT * FROM `babynames.top5_male_2014`")
