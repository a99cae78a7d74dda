# Let the database SpiderDatabase take file uploads: Settings > Database Connections, edit
# SpiderDatabase, Advanced > Security, tick "Allow file uploads to database", Finish.
# route: gui: connection edited
# %% Settings > Database Connections
from desktop import focus
from superset_ui import menu
focus("Chromium")
menu("Settings", "Database Connections", expect=("table cell", "SpiderDatabase"))

# %% edit SpiderDatabase (once its form is filled in): Advanced > Security
from superset_ui import anywhere, click_in_row, click_until, on_screen, wait_for
click_in_row("SpiderDatabase", "push button", "edit-alt")
wait_for("static", "SQLALCHEMY URI")
click_until("page tab", "ADVANCED", lambda: on_screen("page tab", "Security", contains=True))
click_until("page tab", "Security", lambda: anywhere("check box", "Allow file uploads to database"),
            contains=True)

# %% tick "Allow file uploads to database" (scrolled into view)
from superset_ui import tick
tick("Allow file uploads to database")

# %% Finish, and wait until the dialog has closed
from superset_ui import click, on_screen, until
click("push button", "FINISH")
until(lambda: not on_screen("dialog", "Edit database"), 30)

# %%
DONE
