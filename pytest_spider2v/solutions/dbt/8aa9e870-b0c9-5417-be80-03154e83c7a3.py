# Create the dbt project jaffle_shop in ~/projects on DuckDB (the file jaffle_shop.duckdb, for the
# dev and the prod target) and load the CSV files of ~/projects/jaffle-shop-data.zip as its seeds.
# `dbt init` would ask for the adapter interactively; with --skip-profile-setup it only lays out
# the project, and the profile is written to ~/.dbt/profiles.yml by hand, as dbt's docs describe.
# %% dbt init jaffle_shop, without the interactive profile questions
import subprocess
from pathlib import Path
done = subprocess.run(["dbt", "init", "jaffle_shop", "--skip-profile-setup"], cwd=Path.home() / "projects",
                      capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=80)
print(done.stdout, done.stderr)
assert (Path.home() / "projects/jaffle_shop/dbt_project.yml").is_file(), "dbt init made no project"

# %% the data files become the project's seeds
import shutil
import zipfile
from pathlib import Path
projects = Path.home() / "projects"
with zipfile.ZipFile(projects / "jaffle-shop-data.zip") as archive:
    archive.extractall(projects)
for csv in sorted((projects / "jaffle-shop-data").glob("*.csv")):
    shutil.move(csv, projects / "jaffle_shop/seeds" / csv.name)

# %% the profile jaffle_shop: DuckDB at jaffle_shop.duckdb for dev and prod, dev by default
from pathlib import Path
profiles = Path.home() / ".dbt/profiles.yml"
profiles.parent.mkdir(exist_ok=True)
existing = profiles.read_text() if profiles.exists() else ""
assert "jaffle_shop:" not in existing, existing
profiles.write_text(existing + """\
jaffle_shop:
  outputs:
    dev:
      type: duckdb
      path: jaffle_shop.duckdb
      threads: 1
    prod:
      type: duckdb
      path: jaffle_shop.duckdb
      threads: 4
  target: dev
""")

# %% dbt debug: the connection works
from dbt_cli import dbt, project
dbt(project("jaffle_shop"), "debug")

# %% dbt seed
from dbt_cli import dbt, project
dbt(project("jaffle_shop"), "seed")
