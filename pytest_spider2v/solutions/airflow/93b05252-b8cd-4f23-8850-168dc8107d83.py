# Give weather_data_dag's task the two external links README.md lists, restart, trigger the DAG.
# README.md names the links (WTTRWeather -> https://wttr.in/HongKong, "HTTP file" ->
# https://developer.mozilla.org/en-US/docs/Web/HTTP); plugins/my_extra_link_plugin.py has the two
# BaseOperatorLink classes left empty. Each link is shown on the task of the operator it names,
# the DAG's SimpleHttpOperator. A plugin is loaded when Airflow starts: `astro dev restart`.
# %% read the links from README.md and complete the plugin
import re
from pathlib import Path
project = Path.home() / "projects" / "weather"
links = re.findall(r'name = "([^"]+)", link = "([^"]+)"', (project / "README.md").read_text())
print(links)
classes = {"WTTRWeatherLink": links[0], "HTTPDocsLink": links[1]}
plugin = project / "plugins" / "my_extra_link_plugin.py"
source = plugin.read_text()
for cls, (name, link) in classes.items():
    body = (f"class {cls}(BaseOperatorLink):\n    name = {name!r}\n    operators = [SimpleHttpOperator]\n\n"
            f"    def get_link(self, operator, *, ti_key=None):\n        return {link!r}\n")
    source = re.sub(rf"class {cls}\(BaseOperatorLink\):\n+", body + "\n\n", source)
plugin.write_text(source)
print(source)

# %% restart the project in the terminal, and wait until the UI is back
import urllib.request
from desktop import until
from terminal import focus_terminal, run
focus_terminal()
run("cd ~/projects/weather && astro dev restart", process="astro dev restart")


def healthy():
    try:
        with urllib.request.urlopen("http://localhost:8080/health", timeout=3) as resp:
            return resp.read().count(b'"healthy"') >= 2
    except OSError:
        return False


until(healthy, 60, "Airflow to be healthy again", every=1)

# %% back in Chromium: once Airflow has parsed weather_data_dag again, reload the DAGs list and unpause it
from airflow_dags import unpause, wait_parsed
wait_parsed("weather_data_dag")
unpause("weather_data_dag")

# %% trigger it from its row and wait until the run has finished
from airflow_dags import trigger
from airflow_ui import wait_run
trigger("weather_data_dag")
print(wait_run("weather_data_dag"))

# %%
DONE
