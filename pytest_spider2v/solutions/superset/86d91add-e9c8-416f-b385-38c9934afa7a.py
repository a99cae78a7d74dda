# The instruction alone: the steps of the verbose twin 7a485891 (upload video_game_sales.csv as
# table games, chart the maximum global_sales of each genre), saving the chart "games" on the
# dashboard this instruction names, 'MyDashborad'. The evaluator wants "MyDashboard", which only
# the twin's tutorial gives, so this scores 0: the task is on the errata list
# (instruction_contradicts_evaluator), and --validate expects exactly that.
# %% based-on: 7a485891-146b-481a-9dfc-42b2c8596b7a.py
# %% replace 8: Save: chart name games, add to the new dashboard MyDashborad, Save & go to dashboard
from superset_ui import address, choose, click, fill, until, wait_for
click("push button", "SAVE")
wait_for("dialog", "Save chart")
fill("entry", "Name", "games")
choose("Select a dashboard", "MyDashborad")
wait_for("static", "A new dashboard will be created.")
click("push button", "SAVE & GO TO DASHBOARD")
until(lambda: "/superset/dashboard/" in address(), 60)
