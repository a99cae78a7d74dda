# Show the action log of user "Superset Admin" in ascending order of time: Settings > Action
# Log, filter the list on that user, then sort it by dttm, ascending. The check reads the address
# bar: the log view, the user filter and the dttm ascending order.
# route: gui: list filtered and sorted
# %% Settings > Action Log
from desktop import focus
from superset_ui import menu
focus("Chromium")
menu("Settings", "Action Log", expect=("push button", "FILTER LIST"))

# %% Filter list > User, value "Superset Admin"
from superset_ui import click
click("push button", "FILTER LIST")
click("link", "USER", timeout=10)
click("combo box", "__None", contains=True)  # the filter's value, none yet
click("list item", "Superset Admin")

# %% Search: the list shows only that user's actions
from superset_ui import address, click, on_screen, until
button = "SEARCH" if on_screen("push button", "SEARCH", contains=True) else "REFRESH"
click("push button", button, contains=True)
if not until(lambda: "_flt_0_user=" in address(), 30):
    raise SystemExit("the filter was not applied")

# %% sort by dttm, ascending (a click on the column's title; a second one turns the order)
from superset_ui import address, click, until
for _ in range(3):
    before = address()
    click("static", "dttm")
    until(lambda: address() != before, 20)
    if "_od_LogModelView=asc" in address():
        break
print(address())

# %%
DONE
