# Connect Superset to the local PostgreSQL database that ~/Desktop/config.yaml (open in gedit)
# describes: Settings > Database Connections > + Database > PostgreSQL, its host, port, database,
# user and password in the form, and the connection_name as the display name.
# route: gui: connection created
# %% Chromium (over gedit): Settings > Database Connections
from desktop import focus
from superset_ui import menu
focus("Chromium")
menu("Settings", "Database Connections", expect=("push button", "+ DATABASE"))

# %% + Database, PostgreSQL
from superset_ui import click, wait_for
click("push button", "+ DATABASE")
click("push button", "PostgreSQL", contains=True)
wait_for("entry", "e.g. 127.0.0.1")

# %% the credentials from config.yaml (lines "- key: value" under connection:)
import re
from superset_ui import fill
config = dict(re.findall(r"^\s*-\s*(\w+):\s*(\S+)\s*$", open("/home/user/Desktop/config.yaml").read(), re.M))
fill("entry", "e.g. 127.0.0.1", config["host"])
fill("spin button", "e.g. 5432", config["port"])
fill("entry", "e.g. world_population", config["database"])
fill("entry", "e.g. Analytics", config["user"])
fill("password text", "e.g. ********", config["password"])
fill("entry", None, config["connection_name"], label="DISPLAY NAME")

# %% Connect, then Finish: the connection is listed
import re
from superset_ui import click, wait_for
name = dict(re.findall(r"^\s*-\s*(\w+):\s*(\S+)\s*$", open("/home/user/Desktop/config.yaml").read(), re.M))["connection_name"]
click("push button", "CONNECT")
click("push button", "FINISH", timeout=60)
wait_for("table cell", name)

# %%
DONE
