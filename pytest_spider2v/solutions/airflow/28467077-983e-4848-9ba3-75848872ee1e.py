# Add the PostgreSQL connection the instruction describes in the Airflow UI: Admin > Connections,
# "Add +", then id postgres_conn, type Postgres (the form then calls the schema "Database"), host
# 172.17.0.1, database jaffle_shop, login user, password password, port 5432, and Save.
# route: gui: connection created
# %% Admin > Connections > Add +
from airflow_ui import new_connection
new_connection()

# %% connection id and type
from airflow_ui import select_option, type_into
type_into("Connection Id", "postgres_conn")
select_option("Email", "Postgres")

# %% host, database, login, password, port
from airflow_ui import click, type_into
type_into("Host", "172.17.0.1")
type_into("Database", "jaffle_shop")
type_into("Login", "user")
click("password text", "Password")
pyautogui.typewrite("password", interval=0.02)
type_into("Port", "5432")

# %% Save, and wait until Airflow has the connection
from airflow_ui import save_connection
print(save_connection("postgres_conn"))

# %%
DONE
