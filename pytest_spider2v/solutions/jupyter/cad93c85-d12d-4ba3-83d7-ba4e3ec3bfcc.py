# How many Olympic Games were held, per season, into ~/Desktop/allGames.csv, whose rows give the
# format (Season, Total # of Games; Winter, then Summer): the distinct values of the Games
# column of Athletes_winter_games.csv and Athletes_summer_games.csv.
# %% count the distinct Games of each season's athletes file and fill allGames.csv in its own row order
import csv
def games(path):
    with open(path, newline="") as handle:
        return len({row["Games"] for row in csv.DictReader(handle)})
totals = {"Winter": games("/home/user/Desktop/Athletes_winter_games.csv"),
          "Summer": games("/home/user/Desktop/Athletes_summer_games.csv")}
with open("/home/user/Desktop/allGames.csv", newline="") as handle:
    header, *rows = list(csv.reader(handle))
with open("/home/user/Desktop/allGames.csv", "w", newline="") as handle:
    out = csv.writer(handle)
    out.writerow(header)
    out.writerows([row[0], totals[row[0]]] for row in rows)

# %%
DONE
