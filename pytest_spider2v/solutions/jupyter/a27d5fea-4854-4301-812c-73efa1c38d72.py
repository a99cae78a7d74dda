# The 10 actors whose films were rented most, most first, into ~/Desktop/result.csv in the
# columns its header gives (actor_id, first_name, last_name, rented_times), from the rental
# database ~/Desktop/database.db: actor -> film_actor -> film -> inventory -> rental.
# %% count each actor's rentals in SQLite and write the top 10 to result.csv
import csv
import sqlite3
query = """
SELECT actor.actor_id, actor.first_name, actor.last_name, COUNT(rental.rental_id) AS rented_times
FROM actor
LEFT JOIN film_actor ON actor.actor_id = film_actor.actor_id
LEFT JOIN film ON film_actor.film_id = film.film_id
LEFT JOIN inventory ON film.film_id = inventory.film_id
LEFT JOIN rental ON inventory.inventory_id = rental.inventory_id
GROUP BY actor.actor_id
ORDER BY rented_times DESC
LIMIT 10
"""
rows = sqlite3.connect("/home/user/Desktop/database.db").execute(query).fetchall()
with open("/home/user/Desktop/result.csv") as handle:
    header = handle.readline().strip().split(",")
with open("/home/user/Desktop/result.csv", "w", newline="") as handle:
    out = csv.writer(handle)
    out.writerow(header)
    out.writerows(rows)

# %%
DONE
