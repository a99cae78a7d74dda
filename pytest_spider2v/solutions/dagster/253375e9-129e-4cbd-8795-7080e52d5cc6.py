# The verbose variant of 215615ac (migrate the Airflow DAG that writes Wikipedia page views to
# MySQL into Dagster, switch its schedule on, launch the job from the Launchpad): the same steps.
# %% based-on: 215615ac-996f-406f-8c90-e67dd185b488.py
